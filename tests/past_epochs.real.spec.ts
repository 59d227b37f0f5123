/**
 * Transactions of past epochs proven on real TON data (the fixtures: testnet blocks as a lite
 * server serves them, fastnet key blocks), after the LiteClient followed the real switching key
 * blocks. Two ways, both trusting only what the LiteClient verified itself:
 * - a backward link: a later block signed by the set the LiteClient holds; the state after it
 *   (its real state_update, McStateExtra.prev_blocks) lists the older block (contracts/verifier.tlb);
 * - a verified block the LiteClient recorded (a key block it accepted, a block it checked in its
 *   epoch): answered without signatures, and every block its state lists proven through it.
 * The transactions are the blocks' own masterchain transactions, proven from the full blocks.
 */
import { Blockchain, SandboxContract, SendMessageResult, TreasuryContract } from '@ton/sandbox';
import { Cell, toNano } from '@ton/core';
import { createHash } from 'crypto';
import '@ton/test-utils';
import { compiledCode } from '../wrappers/compiled';
import { describeWithFixtures, readFixture, readFixtureJson } from '../harness/fixtures';
import { parseBlock } from '../harness/blocks';
import {
    blockHeaderProof,
    blockWithStateProof,
    keyBlockProof,
    prevBlocksProof,
    transactionProof,
} from '../harness/proofs';
import { blockPathCell, currentBlockCell } from '../harness/chain';
import {
    buildSignaturesCell,
    entriesFromLiteServer,
    entriesFromNodeIdList,
    LiteServerSignatures,
    NodeIdSignature,
} from '../harness/signatures';
import { ValidatorSetData } from '../harness/validators';
import { LiteClient, LiteClientConfig } from '../wrappers/LiteClient';
import { TransactionChecker } from '../wrappers/TransactionChecker';
import { Op } from '../wrappers/constants';

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest();

/** the main validators of a set, as a LiteClient holds them */
const mainOf = (set: ValidatorSetData) =>
    set.validators.slice(0, set.main).map((v) => ({ publicKey: v.publicKey, weight: v.weight }));

interface Env {
    blockchain: Blockchain;
    user: SandboxContract<TreasuryContract>;
    lc: SandboxContract<LiteClient>;
    tc: SandboxContract<TransactionChecker>;
}

async function deploy(config: LiteClientConfig): Promise<Env> {
    const blockchain = await Blockchain.create();
    const user = await blockchain.treasury('user');
    const lc = blockchain.openContract(LiteClient.createFromConfig(config, compiledCode('LiteClient')));
    await lc.sendDeploy(user.getSender(), toNano('1'));
    const tc = blockchain.openContract(
        TransactionChecker.createFromConfig({ liteClient: lc.address }, compiledCode('TransactionChecker')),
    );
    await tc.sendDeploy(user.getSender(), toNano('1'));
    return { blockchain, user, lc, tc };
}

function expectChecked(env: Env, r: SendMessageResult) {
    expect(r.transactions).toHaveTransaction({
        from: env.tc.address,
        to: env.user.address,
        op: Op.transactionChecker.transactionChecked,
    });
}

function expectRefusedByLiteClient(env: Env, r: SendMessageResult) {
    expect(r.transactions).toHaveTransaction({
        from: env.tc.address,
        to: env.user.address,
        op: Op.transactionChecker.transactionCheckFailed,
    });
}

/** every transaction of a full block, as the cells a transaction proof keeps */
function transactionsOf(block: Cell): Cell[] {
    const txs = parseBlock(block).transactions ?? [];
    expect(txs.length).toBeGreaterThan(0);
    return txs.map((t) => t.cell!);
}

function check(env: Env, tx: Cell, proof: Cell, currentBlock: Cell) {
    return env.tc.sendCheckTransaction(env.user.getSender(), {
        transaction: tx,
        proof,
        currentBlock,
        value: toNano('1'),
    });
}

/** no signatures: what a proof anchored at a recorded block carries */
const unsigned = (block: Cell) => buildSignaturesCell(sha256(block.toBoc()), []);

describeWithFixtures('past epochs on real testnet data (lite-server blocks)', () => {
    const raw = (name: string) => readFixture('testnet-liteserver', `${name}.block`);
    const block = (name: string) => Cell.fromBoc(raw(name))[0];
    const signatures = (name: string, set: ValidatorSetData) => {
        const json = readFixtureJson<LiteServerSignatures>('testnet-liteserver', `${name}.signatures.json`);
        const s = entriesFromLiteServer(json, set);
        expect(s.rootHash.equals(block(name).hash(0))).toBe(true);
        expect(s.fileHash.equals(sha256(raw(name)))).toBe(true);
        return buildSignaturesCell(s.fileHash, s.entries);
    };

    it('switch at 27885754: a transaction of 27885753 (the old epoch) proven through 27885755 (the new set) and its state', async () => {
        const k54 = block('testnet-27885754-key');
        const { p32, p34 } = parseBlock(k54).config!;
        // trusted start: the set that signed 27885753 (27885754's ConfigParam 32)
        const env = await deploy({
            globalId: -3,
            seqNo: 27885753,
            epochSince: p32!.utimeSince,
            epochUntil: p32!.utimeUntil,
            validators: mainOf(p32!),
        });
        const r = await env.lc.sendNewKeyBlock(env.user.getSender(), {
            value: toNano('1'),
            block: keyBlockProof(k54, [34]),
            signatures: signatures('testnet-27885754-key', p32!),
        });
        expect(r.transactions).toHaveTransaction({ from: env.lc.address, op: Op.liteClient.ok });
        expect(await env.lc.getCurrentEpochSince()).toBe(p34!.utimeSince);

        const b53 = block('testnet-27885753');
        const b55 = block('testnet-27885755');
        const txs = transactionsOf(b53);
        // the block of its time, signed by the old set: refused now
        const own = currentBlockCell(blockHeaderProof(b53), signatures('testnet-27885753', p32!));
        expectRefusedByLiteClient(
            env,
            await check(env, txs[0], transactionProof(b53, txs[0], { keepTransactionCell: true }), own),
        );

        // through 27885755: its state_update's new state lists 27885753 in prev_blocks
        const anchor = blockWithStateProof(b55);
        const state = prevBlocksProof(b55.refs[2].refs[1], 27885753);
        const path = blockPathCell([{ block: anchor, state }]);
        const sigs55 = signatures('testnet-27885755', p34!);
        for (const tx of txs) {
            const proof = transactionProof(b53, tx, { keepTransactionCell: true });
            expectChecked(env, await check(env, tx, proof, currentBlockCell(anchor, sigs55, path)));
        }
        // and the switching key block itself (signed by the old set) the same way
        const k54txs = transactionsOf(k54);
        const state54 = prevBlocksProof(b55.refs[2].refs[1], 27885754);
        const path54 = blockPathCell([{ block: anchor, state: state54 }]);
        expectChecked(
            env,
            await check(
                env,
                k54txs[0],
                transactionProof(k54, k54txs[0], { keepTransactionCell: true }),
                currentBlockCell(anchor, sigs55, path54),
            ),
        );
        // a state proof naming another block at 27885753's seqno does not link (the real 27885754 state)
        const wrongState = prevBlocksProof(k54.refs[2].refs[1], 27885753);
        const bad = await check(
            env,
            txs[0],
            transactionProof(b53, txs[0], { keepTransactionCell: true }),
            currentBlockCell(anchor, sigs55, blockPathCell([{ block: anchor, state: wrongState }])),
        );
        expect(bad.transactions).toHaveTransaction({
            from: env.user.address,
            to: env.tc.address,
            success: false,
            exitCode: 204,
        });
    });

    it('two switches (27683981, 27689757): transactions of 27678205, 27683262 and 27683981 proven through blocks the LiteClient recorded, without signatures', async () => {
        const k05 = block('testnet-27678205-key');
        const k62 = block('testnet-27683262-key');
        const b63 = block('testnet-27683263');
        const k81 = block('testnet-27683981-key');
        const k41 = block('testnet-27689041-key');
        const k57 = block('testnet-27689757-key');
        const set05 = parseBlock(k05).config!.p34!;
        const set81 = parseBlock(k81).config!.p34!;
        const env = await deploy(LiteClient.configFromKeyBlock(keyBlockProof(k05, [34])));
        // 27683263 checked in its epoch: recorded
        let r = await env.lc.sendCheckBlock(env.user.getSender(), {
            value: toNano('1'),
            block: blockHeaderProof(b63),
            signatures: signatures('testnet-27683263', set05),
        });
        expect(r.transactions).toHaveTransaction({ from: env.lc.address, op: Op.liteClient.correct });
        for (const [name, kb, set] of [
            ['testnet-27683981-key', k81, set05],
            ['testnet-27689757-key', k57, set81],
        ] as const) {
            r = await env.lc.sendNewKeyBlock(env.user.getSender(), {
                value: toNano('1'),
                block: keyBlockProof(kb, [34]),
                signatures: signatures(name, set),
            });
            expect(r.transactions).toHaveTransaction({ from: env.lc.address, op: Op.liteClient.ok });
        }
        expect([...(await env.lc.getVerifiedBlocks()).keys()]).toEqual([27678205, 27683263, 27683981, 27689757]);

        // the trusted key block and the first switch: recorded, no signatures read
        for (const kb of [k05, k81]) {
            const tx = transactionsOf(kb)[0];
            const proof = transactionProof(kb, tx, { keepTransactionCell: true });
            expectChecked(env, await check(env, tx, proof, currentBlockCell(blockHeaderProof(kb), unsigned(kb))));
        }
        // 27683262 through the recorded 27683263 (its state lists 27683262): a backward link, no signatures
        const anchor = blockWithStateProof(b63);
        const path = blockPathCell([{ block: anchor, state: prevBlocksProof(b63.refs[2].refs[1], 27683262) }]);
        for (const tx of transactionsOf(k62)) {
            const proof = transactionProof(k62, tx, { keepTransactionCell: true });
            expectChecked(env, await check(env, tx, proof, currentBlockCell(anchor, unsigned(b63), path)));
        }
        // 27689041 was never verified: with its own signatures (by the set before the switch) it is refused
        const tx41 = transactionsOf(k41)[0];
        expectRefusedByLiteClient(
            env,
            await check(
                env,
                tx41,
                transactionProof(k41, tx41, { keepTransactionCell: true }),
                currentBlockCell(blockHeaderProof(k41), signatures('testnet-27689041-key', set81)),
            ),
        );
    });
});

describeWithFixtures('past epochs on real fastnet data (tonred key blocks)', () => {
    interface KeyBlockJson {
        blockBoc: string;
        signatures: NodeIdSignature[];
    }
    const blocks = () => {
        const list = readFixtureJson<KeyBlockJson[]>('keyblocks-tonred', 'fastnet_keyblocks.json');
        return new Map(
            list.map((k) => {
                const cell = Cell.fromBase64(k.blockBoc);
                return [parseBlock(cell).info!.seqno, { cell, boc: Buffer.from(k.blockBoc, 'base64'), json: k }];
            }),
        );
    };

    it('two switches (170894, 255904): transactions of 170606, 170894 and 255612 proven through recorded blocks', async () => {
        const kb = blocks();
        const at = (seqno: number) => kb.get(seqno)!;
        const sigs = (seqno: number, set: ValidatorSetData) => {
            const k = at(seqno);
            return buildSignaturesCell(sha256(k.boc), entriesFromNodeIdList(k.json.signatures, set));
        };
        const env = await deploy(LiteClient.configFromKeyBlock(keyBlockProof(at(170606).cell, [34])));
        const setOf = (seqno: number) => parseBlock(at(seqno).cell).config!.p34!;
        let r = await env.lc.sendNewKeyBlock(env.user.getSender(), {
            value: toNano('1'),
            block: keyBlockProof(at(170894).cell, [34]),
            signatures: sigs(170894, setOf(170606)),
        });
        expect(r.transactions).toHaveTransaction({ from: env.lc.address, op: Op.liteClient.ok });
        // 255612 announces the next set (same epoch: not a new_key_block); checked in its epoch, recorded
        r = await env.lc.sendCheckBlock(env.user.getSender(), {
            value: toNano('1'),
            block: blockHeaderProof(at(255612).cell),
            signatures: sigs(255612, setOf(170894)),
        });
        expect(r.transactions).toHaveTransaction({ from: env.lc.address, op: Op.liteClient.correct });
        r = await env.lc.sendNewKeyBlock(env.user.getSender(), {
            value: toNano('1'),
            block: keyBlockProof(at(255904).cell, [34]),
            signatures: sigs(255904, setOf(255612)),
        });
        expect(r.transactions).toHaveTransaction({ from: env.lc.address, op: Op.liteClient.ok });
        expect(await env.lc.getCurrentEpochSince()).toBe(setOf(255904).utimeSince);

        for (const seqno of [170606, 170894, 255612]) {
            const b = at(seqno).cell;
            for (const tx of transactionsOf(b)) {
                const proof = transactionProof(b, tx, { keepTransactionCell: true });
                expectChecked(env, await check(env, tx, proof, currentBlockCell(blockHeaderProof(b), unsigned(b))));
            }
        }
    });
});
