/**
 * The Proof API over a real network's lite servers (lib/liteServerSource.ts through ton-lite-client),
 * fed the real testnet fixtures: the proofs it assembles pass the real TransactionChecker and
 * LiteClient; a tampered block, a lying server with a consistent forged block, and a changed
 * signature are each refused (by the source, or by the contracts). The same source follows the key
 * blocks a sync service sends.
 */
import { Blockchain, SandboxContract, SendMessageResult, TreasuryContract } from '@ton/sandbox';
import { Address, Cell, toNano } from '@ton/core';
import Fastify from 'fastify';
import { LiteClient as LiteServerClient } from 'ton-lite-client';
import '@ton/test-utils';
import { describeWithFixtures, readFixture, readFixtureJson } from '../../harness/fixtures';
import { keyBlockProof } from '../../lib/blockProofs';
import {
    LiteServerProofSource,
    SignatureProvider,
    signaturesFromTonlib,
    TonlibBlockSignatures,
} from '../../lib/liteServerSource';
import { packSignatures, verifierView } from '../../lib/proofSource';
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
    const txIds = readFixtureJson<TxIds>(DIR, 'testnet-27683263.transactions.json').ids.map((t) => ({
        address: '-1:' + Buffer.from(t.account.data).toString('hex'),
        lt: t.lt,
        hash: Buffer.from(t.hash.data),
    }));

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

    it('refuses a lite server of another network (global id), and names what it does not build (basechain)', async () => {
        const engine = server([27678205, 27683262, 27683263]);
        const wrongNet = new LiteServerProofSource(new LiteServerClient({ engine }), fixtureSignatures, -239);
        await expect(
            wrongNet.locate({ account: Address.parse(txIds[0].address), lt: BigInt(txIds[0].lt) }),
        ).rejects.toThrow(/belongs to network -3, not -239/);
        const source = new LiteServerProofSource(new LiteServerClient({ engine }), fixtureSignatures, TESTNET);
        await expect(source.locate({ account: Address.parse('0:' + '11'.repeat(32)), lt: 1n })).rejects.toThrow(
            /masterchain transactions only/,
        );
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
