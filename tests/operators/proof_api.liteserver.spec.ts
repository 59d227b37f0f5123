/**
 * The Proof API over a real network's lite servers (lib/liteServerSource.ts through ton-lite-client),
 * fed the real testnet fixtures: the proofs it assembles pass the real TransactionChecker and
 * LiteClient; a tampered block, a lying server with a consistent forged block, and a changed
 * signature are each refused (by the source, or by the contracts). Backward links on real blocks
 * (27683263's state lists 27683262) are built from getBlockProof and accepted, a wrong one refused.
 * The same source follows the key blocks a sync service sends. The fixtures hold masterchain
 * blocks only: shard paths are tested on a simulated network (proof_api.shards.spec.ts).
 */
import { Blockchain, SandboxContract, SendMessageResult, TreasuryContract } from '@ton/sandbox';
import { Address, Cell, toNano } from '@ton/core';
import Fastify from 'fastify';
import { LiteClient as LiteServerClient } from 'ton-lite-client';
import { liteServer_partialBlockProof } from 'ton-lite-client/dist/schema';
import '@ton/test-utils';
import { describeWithFixtures, readFixture, readFixtureJson } from '../../harness/fixtures';
import { blockPathCell, keyBlockProof, prevBlocksProof } from '../../lib/blockProofs';
import { parseBlock } from '../../harness/blocks';
import {
    LiteServerProofSource,
    SignatureProvider,
    signaturesFromTonlib,
    TonlibBlockSignatures,
} from '../../lib/liteServerSource';
import { currentBlockOf, packSignatures, verifierView } from '../../lib/proofSource';
import { provenFromProofData } from '../../lib/proofPayload';
import { LiteClient } from '../../wrappers/LiteClient';
import { TransactionChecker } from '../../wrappers/TransactionChecker';
import { compiledCode } from '../../wrappers/compiled';
import { Errors, Op } from '../../wrappers/constants';
import { proofApiRoutes, proofChainAnswer } from '../../service/operators/proofApi';
import { FixtureLiteServer } from './fixtureLiteServer';
import { flipByte, replaceAt } from '../transaction_checker.util';

const DIR = 'testnet-liteserver';
const FILES: Record<number, string> = {
    27678205: 'testnet-27678205-key',
    27683262: 'testnet-27683262-key',
    27683263: 'testnet-27683263',
    27683981: 'testnet-27683981-key',
    27689041: 'testnet-27689041-key',
    27689757: 'testnet-27689757-key',
};
const TESTNET = -3;

interface TxIds {
    ids: { account: { data: number[] }; lt: string; hash: { data: number[] } }[];
}

describeWithFixtures('Proof API: lite-server source on real testnet blocks', () => {
    const raw = (seqno: number) => readFixture(DIR, `${FILES[seqno]}.block`);
    const sigJson = (seqno: number) => readFixtureJson<TonlibBlockSignatures>(DIR, `${FILES[seqno]}.signatures.json`);
    const fixtureSignatures: SignatureProvider = {
        masterchainSignatures: async (seqno) => signaturesFromTonlib(sigJson(seqno)),
    };
    // read in beforeAll: a skipped describe (no fixtures, CI unset) still runs its body
    let txIds: { address: string; lt: string; hash: Buffer }[];
    beforeAll(() => {
        txIds = readFixtureJson<TxIds>(DIR, 'testnet-27683263.transactions.json').ids.map((t) => ({
            address: '-1:' + Buffer.from(t.account.data).toString('hex'),
            lt: t.lt,
            hash: Buffer.from(t.hash.data),
        }));
    });

    let blockchain: Blockchain;
    let user: SandboxContract<TreasuryContract>;
    let lc: SandboxContract<LiteClient>;
    let checker: SandboxContract<TransactionChecker>;

    function server(seqnos: number[], last?: number) {
        const s = new FixtureLiteServer(seqnos.map((seqno) => ({ seqno, data: raw(seqno) })));
        s.last = last;
        return s;
    }

    /** a LiteClient from key block 27678205 (nothing verified yet but that block) and its TransactionChecker */
    async function deployContracts() {
        blockchain = await Blockchain.create();
        user = await blockchain.treasury('user');
        const genesis = Cell.fromBoc(raw(27678205))[0];
        lc = blockchain.openContract(
            LiteClient.createFromKeyBlock(keyBlockProof(genesis, [34]), compiledCode('LiteClient')),
        );
        await lc.sendDeploy(user.getSender(), toNano('1'));
        checker = blockchain.openContract(
            TransactionChecker.createFromConfig({ liteClient: lc.address }, compiledCode('TransactionChecker')),
        );
        await checker.sendDeploy(user.getSender(), toNano('1'));
    }
    beforeEach(deployContracts);

    /** The LiteClient refuses the block with `code` (check_block_failed) and the checker passes it on. */
    function expectRefused(r: SendMessageResult, code: number) {
        expect(r.transactions).toHaveTransaction({
            from: lc.address,
            to: checker.address,
            op: Op.liteClient.checkBlockFailed,
            body: (c?: Cell) => c !== undefined && c.beginParse().skip(96).loadUint(16) === code,
        });
        expect(r.transactions).toHaveTransaction({
            from: checker.address,
            op: Op.transactionChecker.transactionCheckFailed,
            body: (b?: Cell) => b !== undefined && TransactionChecker.failedCode(b) === code,
        });
    }

    async function check(boc: string) {
        const p = provenFromProofData(Cell.fromBase64(boc));
        return checker.sendCheckTransaction(user.getSender(), {
            transaction: p.transaction,
            proof: p.txProof,
            currentBlock: p.currentBlock,
        });
    }

    it('proves every transaction of block 27683263 through ton-lite-client, and the real TransactionChecker accepts each', async () => {
        const engine = server([27678205, 27683262, 27683263]);
        const source = new LiteServerProofSource(new LiteServerClient({ engine }), fixtureSignatures, TESTNET);
        expect(txIds.length).toBeGreaterThan(2);
        for (const [i, t] of txIds.entries()) {
            const a = await proofChainAnswer({ source, verifier: () => verifierView(lc) }, t.address, t.lt);
            expect(Cell.fromBase64(a.transaction).hash().equals(t.hash)).toBe(true);
            expect(a.listedIn.seqno).toBe(27683263);
            // the first proof carries the signatures; the LiteClient then records the block as
            // verified and the next proofs of the same block go without them
            expect(a.anchor).toEqual({ seqno: 27683263, signatures: i === 0 });
            const r = await check(a.boc);
            expect(r.transactions).toHaveTransaction({
                from: lc.address,
                to: checker.address,
                op: Op.liteClient.correct,
            });
            expect(r.transactions).toHaveTransaction({
                from: checker.address,
                to: user.address,
                op: Op.transactionChecker.transactionChecked,
                body: TransactionChecker.transactionCheckedMessage(Cell.fromBase64(a.transaction)),
            });
        }
        // what went over the (TL-encoded) lite-server interface
        expect(engine.requests).toContain('lookupBlock mode 2');
        expect(engine.requests).toContain('getBlock 27683263');
    });

    it('refuses a block whose bytes differ from its id (a tampered block): 502 naming the hash', async () => {
        const engine = server([27678205, 27683262, 27683263]);
        engine.tamperData = (seqno, data) => {
            if (seqno !== 27683263) return data;
            const d = Buffer.from(data);
            d[d.length - 40] ^= 1;
            return d;
        };
        const source = new LiteServerProofSource(new LiteServerClient({ engine }), fixtureSignatures, TESTNET);
        await expect(
            proofChainAnswer({ source, verifier: () => verifierView(lc) }, txIds[0].address, txIds[0].lt),
        ).rejects.toThrow(/file hash/);
    });

    it('a lying server with a forged block under a consistent id, and the signatures relabelled: the LiteClient refuses the proof (114)', async () => {
        // the transaction's cell changed inside the real block, the block re-serialised: new hashes
        const genuine = Cell.fromBoc(raw(27683263))[0];
        const path = txPathOf(genuine, txIds[0].hash);
        const forgedRoot = replaceAt(genuine, path, (c) => flipByte(c, 60));
        const forgedData = forgedRoot.toBoc();
        const engine = server([27678205, 27683262]);
        engine.put(27683263, forgedData);
        const forged = engine.blocks.get(27683263)!.id;
        const lying: SignatureProvider = {
            masterchainSignatures: async (seqno) => ({
                ...signaturesFromTonlib(sigJson(seqno)),
                rootHash: forged.rootHash,
                fileHash: forged.fileHash,
            }),
        };
        const source = new LiteServerProofSource(new LiteServerClient({ engine }), lying, TESTNET);
        const a = await proofChainAnswer({ source, verifier: () => verifierView(lc) }, txIds[0].address, txIds[0].lt);
        const r = await check(a.boc);
        expectRefused(r, Errors.liteClient.invalidSignature);
        expect(r.transactions).not.toHaveTransaction({ op: Op.transactionChecker.transactionChecked });
    });

    it('a changed signature (the genuine block): the packer leaves it out; all changed: the LiteClient refuses them (114)', async () => {
        const engine = server([27678205, 27683262, 27683263]);
        const changedSource = (all: boolean) =>
            new LiteServerProofSource(
                new LiteServerClient({ engine }),
                {
                    masterchainSignatures: async (seqno) => {
                        const s = signaturesFromTonlib(sigJson(seqno));
                        s.signatures.forEach((x, i) => {
                            if (!all && i > 0) return;
                            x.signature = Buffer.from(x.signature);
                            x.signature[10] ^= 1;
                        });
                        return s;
                    },
                } as SignatureProvider,
                TESTNET,
            );
        // every one changed: nothing verifies, every signature is sent as given and the LiteClient refuses it
        // (first: once the block is verified it is recorded and proofs of it carry no signature)
        let a = await proofChainAnswer(
            { source: changedSource(true), verifier: () => verifierView(lc) },
            txIds[0].address,
            txIds[0].lt,
        );
        let r = await check(a.boc);
        expectRefused(r, Errors.liteClient.invalidSignature);
        expect(r.transactions).not.toHaveTransaction({ op: Op.transactionChecker.transactionChecked });
        // one changed: the packer (lib/signatures.ts) sends only signatures that verify, the others reach the cutoff
        a = await proofChainAnswer(
            { source: changedSource(false), verifier: () => verifierView(lc) },
            txIds[1].address,
            txIds[1].lt,
        );
        r = await check(a.boc);
        expect(r.transactions).toHaveTransaction({ op: Op.transactionChecker.transactionChecked });
    });

    it('refuses a lite server of another network (global id); a basechain transaction the server holds no shard block of is in no block (404)', async () => {
        const engine = server([27678205, 27683262, 27683263]);
        const wrongNet = new LiteServerProofSource(new LiteServerClient({ engine }), fixtureSignatures, -239);
        await expect(
            wrongNet.locate({ account: Address.parse(txIds[0].address), lt: BigInt(txIds[0].lt) }),
        ).rejects.toThrow(/belongs to network -3, not -239/);
        // the fixtures hold masterchain blocks only (their shard_hashes name basechain blocks that are not here)
        const source = new LiteServerProofSource(new LiteServerClient({ engine }), fixtureSignatures, TESTNET);
        const basechain = '0:' + '11'.repeat(32);
        expect(await source.locate({ account: Address.parse(basechain), lt: 30863769000001n })).toBeNull();
        expect(engine.requests).toContain('lookupBlock mode 2 workchain 0');
        await expect(
            proofChainAnswer({ source, verifier: () => verifierView(lc) }, basechain, '30863769000001'),
        ).rejects.toMatchObject({ code: 404 });
    });

    describe('backward links on real blocks: 27683263 lists 27683262 in the state after it (its state_update)', () => {
        /** the masterchain transactions of key block 27683262, read from the real block */
        const txs62 = () =>
            parseBlock(Cell.fromBoc(raw(27683262))[0]).transactions!.map((t) => ({
                address: '-1:' + t.account.toString('hex'),
                lt: t.lt.toString(),
                hash: t.hash,
            }));

        it('through the block the LiteClient recorded (no signatures), and through 27683263 with its signatures: the real TransactionChecker accepts both', async () => {
            const engine = server([27678205, 27683262, 27683263]);
            const source = new LiteServerProofSource(new LiteServerClient({ engine }), fixtureSignatures, TESTNET);
            const t62 = txs62();
            expect(t62.length).toBeGreaterThan(0);
            // with signatures: the proof of 27683262's transaction anchored at 27683263
            const ref = { account: Address.parse(t62[0].address), lt: BigInt(t62[0].lt) };
            const chain = await source.proofChain(ref, 27683263);
            expect(chain.listedIn.seqno).toBe(27683262);
            expect(chain.anchor.seqno).toBe(27683263);
            expect(engine.requests).toContain('getBlockProof 27683263 -> 27683262');
            const view = await verifierView(lc);
            const sigs = packSignatures(chain.anchor.fileHash, await source.signatures(chain.anchor), view);
            let r = await checker.sendCheckTransaction(user.getSender(), {
                transaction: chain.transaction,
                proof: chain.txProof,
                currentBlock: currentBlockOf(chain.blockProof, sigs, chain.path),
            });
            expect(r.transactions).toHaveTransaction({
                from: checker.address,
                to: user.address,
                op: Op.transactionChecker.transactionChecked,
                body: TransactionChecker.transactionCheckedMessage(chain.transaction),
            });
            expect(chain.transaction.hash().equals(t62[0].hash)).toBe(true);
            // the LiteClient recorded 27683263: the Proof API anchors the others there, with no signatures
            expect((await lc.getVerifiedBlocks()).has(27683263)).toBe(true);
            for (const t of t62.slice(1)) {
                const a = await proofChainAnswer({ source, verifier: () => verifierView(lc) }, t.address, t.lt);
                expect(a.listedIn.seqno).toBe(27683262);
                expect(a.anchor).toEqual({ seqno: 27683263, signatures: false });
                r = await check(a.boc);
                expect(r.transactions).toHaveTransaction({ op: Op.transactionChecker.transactionChecked });
            }
        });

        it('a lying server whose state proof gives another entry is refused by the source; the same path sent anyway is refused by the TransactionChecker (204)', async () => {
            const engine = server([27678205, 27683262, 27683263]);
            const t62 = txs62();
            const ref = { account: Address.parse(t62[0].address), lt: BigInt(t62[0].lt) };
            // 27683263's state lists 27683261 too: a proof of that entry is a genuine proof of the wrong block
            const other = prevBlocksProof(engine.stateOf(27683263)!, 27683261);
            engine.tamper = (request, a) => {
                if (request !== 'getBlockProof') return a;
                const p = a as liteServer_partialBlockProof;
                return { ...p, steps: [{ ...p.steps[0], stateProof: other.toBoc() }] };
            };
            const lying = new LiteServerProofSource(new LiteServerClient({ engine }), fixtureSignatures, TESTNET);
            await expect(lying.proofChain(ref, 27683263)).rejects.toThrow(/does not list block 27683262/);

            engine.tamper = undefined;
            const source = new LiteServerProofSource(new LiteServerClient({ engine }), fixtureSignatures, TESTNET);
            const chain = await source.proofChain(ref, 27683263);
            const link = chain.path!.beginParse();
            const wrongPath = blockPathCell([{ block: link.loadRef(), state: other }]);
            const sigs = packSignatures(
                chain.anchor.fileHash,
                await source.signatures(chain.anchor),
                await verifierView(lc),
            );
            const r = await checker.sendCheckTransaction(user.getSender(), {
                transaction: chain.transaction,
                proof: chain.txProof,
                currentBlock: currentBlockOf(chain.blockProof, sigs, wrongPath),
            });
            expect(r.transactions).toHaveTransaction({
                from: user.address,
                to: checker.address,
                success: false,
                exitCode: Errors.transactionChecker.blockNotLinked,
            });
            expect(r.transactions).not.toHaveTransaction({ op: Op.transactionChecker.transactionChecked });
        });
    });

    it('answers over HTTP: 200 with the proof, 400 naming the parameter, 404 for a transaction in no block', async () => {
        const engine = server([27678205, 27683262, 27683263]);
        const source = new LiteServerProofSource(new LiteServerClient({ engine }), fixtureSignatures, TESTNET);
        const app = Fastify();
        proofApiRoutes({ source, verifier: () => verifierView(lc) })(app);
        const base = await app.listen({ port: 0, host: '127.0.0.1' });
        const get = async (url: string) => {
            const r = await fetch(base + url);
            const body = (await r.json()) as { ok: boolean; error?: string; result?: { boc: string } };
            return { statusCode: r.status, json: () => body };
        };
        const ok = await get(`/v1/proof_chain/${txIds[0].address}/${txIds[0].lt}`);
        expect(ok.statusCode).toBe(200);
        expect(ok.json().result!.boc).toMatch(/^[A-Za-z0-9+/=]+$/);
        const badAddress = await get(`/v1/proof_chain/nonsense/${txIds[0].lt}`);
        expect(badAddress.statusCode).toBe(400);
        expect(badAddress.json().error).toMatch(/^address: /);
        const badLt = await get(`/v1/proof_chain/${txIds[0].address}/12x`);
        expect(badLt.statusCode).toBe(400);
        expect(badLt.json().error).toMatch(/^lt: /);
        const tooBig = await get(`/v1/proof_chain/${txIds[0].address}/99999999999999999999`);
        expect(tooBig.statusCode).toBe(400);
        const none = await get(`/v1/proof_chain/${txIds[0].address}/5`);
        expect(none.statusCode).toBe(404);
        await app.close();
    });

    it('serves the key blocks a sync service sends: the LiteClient follows two set switches with them', async () => {
        const engine = server([27678205, 27683262, 27683981, 27689041, 27689757]);
        const source = new LiteServerProofSource(new LiteServerClient({ engine }), fixtureSignatures, TESTNET);
        const keyBlocks = await source.keyBlocksAfter(27678205);
        expect(keyBlocks.map((k) => k.block.seqno)).toEqual([27683262, 27683981, 27689041, 27689757]);
        const fresh = await Blockchain.create();
        const w = await fresh.treasury('sync');
        const genesis = Cell.fromBoc(raw(27678205))[0];
        const c = fresh.openContract(
            LiteClient.createFromKeyBlock(keyBlockProof(genesis, [34]), compiledCode('LiteClient')),
        );
        await c.sendDeploy(w.getSender(), toNano('1'));
        let switches = 0;
        for (const k of keyBlocks) {
            const since = await c.getCurrentEpochSince();
            if (k.installsEpoch <= since) continue;
            const view = await verifierView(c);
            const r = await c.sendNewKeyBlock(w.getSender(), {
                value: toNano('1'),
                queryId: BigInt(k.block.seqno),
                block: k.proof,
                signatures: packSignatures(k.block.fileHash, k.signatures, view),
            });
            expect(r.transactions).toHaveTransaction({ to: c.address, success: true });
            expect(await c.getCurrentEpochSince()).toBe(k.installsEpoch);
            switches++;
        }
        expect(switches).toBe(2);
    });
});

/** The path of reference indexes from the block root to the transaction cell with `hash`. */
function txPathOf(root: Cell, hash: Buffer): number[] {
    const walk = (c: Cell, path: number[]): number[] | null => {
        if (c.hash().equals(hash)) return path;
        for (let i = 0; i < c.refs.length; i++) {
            if (c.refs[i].isExotic) continue;
            const f = walk(c.refs[i], [...path, i]);
            if (f) return f;
        }
        return null;
    };
    const p = walk(root, []);
    if (!p) throw new Error('transaction not in the block');
    return p;
}
