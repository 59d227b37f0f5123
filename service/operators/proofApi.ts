/**
 * The Proof API: `GET /v1/proof_chain/{address}/{lt}` answers the proof of the transaction of
 * `address` at logical time `lt` that the destination's LiteClient can check now:
 *
 *   { ok: true, result: {
 *       boc,                 proof_data (contracts/bridge.tlb, contracts/verifier.tlb), BOC base64
 *       transaction, txProof, txBlockProof,   its parts (proofPayload.txProof / txBlockProof)
 *       anchor: { seqno, signatures },        the masterchain block whose signatures are checked
 *       listedIn: { seqno, rootHash, fileHash, signedByEpoch },
 *       event: { messageHash, outMessageIndex, ...proofPayload.event } | null   (a TvmTvm event out message)
 *   } }
 *
 * Errors: `{ ok: false, error, code }` with 400 (a parameter and the rule it breaks), 404 (no such
 * transaction, or its block is not sealed / listed yet), 502 (the source or the verifier failed).
 * The source is any `ProofSource` (the local network's sealed blocks, a real network's lite
 * servers); the verifier view is read from the destination LiteClient for every request.
 */
import { Address, loadTransaction } from '@ton/core';
import { TonClient } from '@ton/ton';
import { FastifyInstance } from 'fastify';
import { LiteClient as LiteServerClient, LiteRoundRobinEngine } from 'ton-lite-client';
import { otherKey } from '../../lib/deploy/deployment';
import { liteServersOf } from '../../lib/deploy/keyBlock';
import { LiteServerProofSource, toncenterSignatures } from '../../lib/liteServerSource';
import { liteClientOn } from './chain';
import { ProofSource, proveFor, VerifierView, verifierView } from '../../lib/proofSource';
import { transferFromProxyTransaction } from '../../lib/transferId';
import { isTvmTvmEvent, decodeTvmTvmEvent } from '../../lib/tvmTvmEvents';
import { proofPayloadEvent } from '../../lib/proofPayload';
import { deploymentFromEnv, envInt, envString, Metrics, runMain, startService } from './frame';

export class ApiError extends Error {
    constructor(
        readonly code: number,
        message: string,
    ) {
        super(message);
    }
}

const b64 = (c: { toBoc(): Buffer }) => c.toBoc().toString('base64');

function parseAddress(s: string): Address {
    try {
        return Address.parse(s);
    } catch {
        throw new ApiError(
            400,
            `address: "${s.slice(0, 80)}" is not a TVM address (0:<64 hex> or a user-friendly form)`,
        );
    }
}

function parseLt(s: string): bigint {
    if (!/^\d{1,20}$/.test(s))
        throw new ApiError(400, `lt: "${s.slice(0, 40)}" is not a logical time (a decimal integer)`);
    const lt = BigInt(s);
    if (lt >= 1n << 64n) throw new ApiError(400, 'lt: larger than 2^64 - 1');
    return lt;
}

export interface ProofApiOptions {
    source: ProofSource;
    /** what the destination LiteClient holds now */
    verifier: () => Promise<VerifierView>;
    metrics?: Metrics;
}

export async function proofChainAnswer(o: ProofApiOptions, address: string, ltText: string) {
    const account = parseAddress(address);
    const lt = parseLt(ltText);
    const ref = { account, lt };
    let located;
    try {
        located = await o.source.locate(ref);
    } catch (e) {
        throw new ApiError(502, `proof source: ${(e as Error).message}`);
    }
    if (!located) throw new ApiError(404, `no block holds a transaction of ${account.toRawString()} at lt ${lt} yet`);
    let verifier: VerifierView;
    try {
        verifier = await o.verifier();
    } catch (e) {
        throw new ApiError(502, `destination LiteClient: ${(e as Error).message}`);
    }
    let p;
    try {
        p = await proveFor(o.source, ref, verifier);
    } catch (e) {
        throw new ApiError(502, `proof source: ${(e as Error).message}`);
    }
    const tx = loadTransaction(p.transaction.beginParse());
    const found = transferFromProxyTransaction(tx);
    const event =
        found && isTvmTvmEvent(found.eventBody)
            ? {
                  messageHash: found.messageHash.toString('hex'),
                  outMessageIndex: found.outMessageIndex,
                  ...proofPayloadEvent(decodeTvmTvmEvent(found.eventBody)),
              }
            : null;
    const c = p.chain;
    return {
        boc: b64(p.proofData),
        transaction: b64(p.transaction),
        txProof: b64(p.txProof),
        txBlockProof: b64(p.currentBlock),
        // block_signatures$_ file_hash:bits256 first:(Maybe ^SigNode): none when the block is recorded as verified
        anchor: { seqno: c.anchor.seqno, signatures: p.currentBlock.refs[1].beginParse().skip(256).loadBit() },
        listedIn: {
            seqno: c.listedIn.seqno,
            rootHash: c.listedIn.rootHash.toString('hex'),
            fileHash: c.listedIn.fileHash.toString('hex'),
            signedByEpoch: c.listedIn.signedByEpoch,
        },
        event,
    };
}

/** Registers the Proof API's route on a fastify app (the frame's). */
export function proofApiRoutes(o: ProofApiOptions) {
    o.metrics?.define('proofs_served', 'counter', 'proofs answered (200)');
    o.metrics?.define('proofs_refused', 'counter', 'requests answered 4xx / 5xx');
    return (app: FastifyInstance) => {
        app.get<{ Params: { address: string; lt: string } }>('/v1/proof_chain/:address/:lt', async (req, reply) => {
            try {
                const result = await proofChainAnswer(o, req.params.address, req.params.lt);
                o.metrics?.inc('proofs_served');
                return reply.code(200).send({ ok: true, result });
            } catch (e) {
                o.metrics?.inc('proofs_refused');
                const code = e instanceof ApiError ? e.code : 500;
                return reply.code(code).send({ ok: false, error: (e as Error).message, code });
            }
        });
    };
}

/**
 * The Proof API as a process, over a real network's lite servers:
 *   DEPLOYMENT_FILE, PROOF_FROM (X: the network whose transactions are proven; its global id),
 *   LITE_SERVERS (X's global config, a file or an https URL), SIGNATURES_URL (a toncenter v2 base
 *   serving getMasterchainBlockSignatures for X; default tvm.X.endpoint), PORT (0).
 * The verifier is the LiteClient on the other network (tvm.Y.contracts.liteClient through tvm.Y.endpoint).
 */
async function main() {
    const d = deploymentFromEnv();
    const from = envString('PROOF_FROM');
    const to = otherKey(d, from);
    const lcAddress = d.tvm[to].contracts.liteClient;
    if (!lcAddress) throw new Error(`deployment ${d.name}: tvm.${to}.contracts.liteClient is not deployed`);
    const endpoint = d.tvm[to].endpoint;
    if (!endpoint) throw new Error(`deployment ${d.name}: tvm.${to}.endpoint is not set`);
    const liteServers = envString('LITE_SERVERS');
    const signatures = envString('SIGNATURES_URL', d.tvm[from].endpoint ?? '');
    if (!signatures) throw new Error(`SIGNATURES_URL: required (tvm.${from}.endpoint is not set)`);
    const engine = new LiteRoundRobinEngine(await liteServersOf(liteServers));
    const source = new LiteServerProofSource(
        new LiteServerClient({ engine }),
        toncenterSignatures(signatures),
        d.tvm[from].globalId,
    );
    const lc = liteClientOn(new TonClient({ endpoint }), Address.parse(lcAddress));
    const metrics = new Metrics();
    const svc = await startService({
        name: `proof-api-${from}`,
        port: envInt('PORT', 0, 0, 65535),
        metrics,
        health: async () => {
            const last = await source.lastBlock();
            return {
                ok: true,
                lastSeqno: last.seqno,
                lastUtime: last.genUtime,
                epochSince: await lc.getCurrentEpochSince(),
            };
        },
        routes: proofApiRoutes({ source, verifier: () => verifierView(lc), metrics }),
    });
    svc.onStop(() => engine.close());
}

if (require.main === module) runMain('proof-api', main);
