import { Blockchain, SandboxContract, TreasuryContract } from '@ton/sandbox';
import { beginCell, Cell, toNano } from '@ton/core';
import { compiledCode } from '../wrappers/compiled';
import { createHash } from 'crypto';
import '@ton/test-utils';
import { describeWithFixtures, readFixture, readFixtureJson } from '../harness/fixtures';
import { parseBlock } from '../harness/blocks';
import { blockHeaderProof, keyBlockProof } from '../harness/proofs';
import { buildSignaturesCell, entriesFromLiteServer, LiteServerSignatures } from '../harness/signatures';
import { ValidatorSetData } from '../harness/validators';
import { LiteClient } from '../wrappers/LiteClient';
import { Errors, Op } from '../wrappers/constants';

/**
 * Raw testnet blocks as a lite server serves them (file hash = sha256 of the file) with the lite
 * server's signature sets: 27678205 -> 27683262 (same epoch) -> 27683981 (switch) -> 27689041
 * (same epoch) -> 27689757 (switch), and the signed masterchain block 27683263.
 */
describeWithFixtures('LiteClient on real testnet blocks (lite server data, two set switches)', () => {
    const raw = (name: string) => readFixture('testnet-liteserver', `${name}.block`);
    const block = (name: string) => Cell.fromBoc(raw(name))[0];
    const sigs = (name: string) =>
        readFixtureJson<LiteServerSignatures>('testnet-liteserver', `${name}.signatures.json`);

    let code: Cell;
    let blockchain: Blockchain;
    let sync: SandboxContract<TreasuryContract>;
    let lc: SandboxContract<LiteClient>;
    let current: ValidatorSetData;

    beforeAll(async () => {
        code = compiledCode('LiteClient');
        blockchain = await Blockchain.create();
        sync = await blockchain.treasury('sync');
        const genesis = block('testnet-27678205-key');
        current = parseBlock(genesis).config!.p34!;
        lc = blockchain.openContract(LiteClient.createFromKeyBlock(keyBlockProof(genesis, [34]), code));
        await lc.sendDeploy(sync.getSender(), toNano('1'));
    });

    /** signatures of `name` indexed by the current set; checks the lite server's root/file hash */
    function signatures(name: string): Cell {
        const s = entriesFromLiteServer(sigs(name), current);
        expect(s.rootHash.equals(block(name).hash(0))).toBe(true);
        expect(s.fileHash.equals(createHash('sha256').update(raw(name)).digest())).toBe(true);
        expect(s.entries.length).toBeGreaterThan(0);
        return buildSignaturesCell(s.fileHash, s.entries);
    }

    async function newKeyBlock(name: string) {
        return lc.sendNewKeyBlock(sync.getSender(), {
            value: toNano('1'),
            queryId: 3,
            block: keyBlockProof(block(name), [34]),
            signatures: signatures(name),
        });
    }

    const okBody = (op: number, queryId: number, hash: Buffer) =>
        beginCell().storeUint(op, 32).storeUint(queryId, 64).storeBuffer(hash, 32).endCell();

    it('27683262 carries the current epoch: 112', async () => {
        const r = await newKeyBlock('testnet-27683262-key');
        expect(r.transactions).toHaveTransaction({
            to: lc.address,
            success: false,
            exitCode: Errors.liteClient.keyBlockSameEpoch,
        });
    });

    it('27683263 (signed masterchain block) is correct', async () => {
        const name = 'testnet-27683263';
        const r = await lc.sendCheckBlock(sync.getSender(), {
            value: toNano('1'),
            queryId: 4,
            block: blockHeaderProof(block(name)),
            signatures: signatures(name),
        });
        expect(r.transactions).toHaveTransaction({
            from: lc.address,
            to: sync.address,
            body: okBody(Op.liteClient.correct, 4, block(name).hash(0)),
        });
    });

    it('27683981 switches the set', async () => {
        const name = 'testnet-27683981-key';
        const r = await newKeyBlock(name);
        expect(r.transactions).toHaveTransaction({
            from: lc.address,
            to: sync.address,
            body: okBody(Op.liteClient.ok, 3, block(name).hash(0)),
        });
        current = parseBlock(block(name)).config!.p34!;
        expect(await lc.getCurrentSeqNo()).toBe(27683981);
        expect(await lc.getCurrentEpochSince()).toBe(current.utimeSince);
    });

    it('27689041 carries the current epoch: 112', async () => {
        const r = await newKeyBlock('testnet-27689041-key');
        expect(r.transactions).toHaveTransaction({
            to: lc.address,
            success: false,
            exitCode: Errors.liteClient.keyBlockSameEpoch,
        });
    });

    it('27689757 switches the set again', async () => {
        const name = 'testnet-27689757-key';
        const r = await newKeyBlock(name);
        expect(r.transactions).toHaveTransaction({
            from: lc.address,
            to: sync.address,
            body: okBody(Op.liteClient.ok, 3, block(name).hash(0)),
        });
        const next = parseBlock(block(name)).config!.p34!;
        expect(await lc.getCurrentSeqNo()).toBe(27689757);
        expect(await lc.getCurrentEpochSince()).toBe(next.utimeSince);
        expect(await lc.getCurrentEpochUntil()).toBe(next.utimeUntil);
        const set = await lc.getCurrentValidatorsSet();
        expect(set.size).toBe(next.main);
        for (let i = 0; i < next.main; i++)
            expect(set.get(i)!.publicKey.equals(next.validators[i].publicKey)).toBe(true);
    });
});
