import { Blockchain, SandboxContract, TreasuryContract } from '@ton/sandbox';
import { beginCell, Cell, convertToMerkleProof, toNano } from '@ton/core';
import '@ton/test-utils';
import { compiledCode } from '../wrappers/compiled';
import { makeValidatorSet, ValidatorSet } from '../harness/validators';
import { currentBlockCell, SyntheticChain } from '../harness/chain';
import { buildMasterchainBlock } from '../harness/blocks';
import { blockHeaderProof } from '../harness/proofs';
import { buildSignaturesCell, signBlock, SignatureEntry } from '../harness/signatures';
import { LiteClient, liteClientSure } from '../wrappers/LiteClient';
import { TransactionChecker } from '../wrappers/TransactionChecker';
import { Errors, Op } from '../wrappers/constants';
import { prune } from './lite_client.util';

/**
 * Issue 10 §1, the LiteClient's side: whatever a stranger sends, check_block reads a bounded part of
 * it, asks for value in proportion before reading a signature (206), and the requester always gets
 * an answer (correct) or its value back with a documented code: the attack of the review (an
 * unsigned fake block whose proof holds about 3,000 junk cells, about 250 skipped signature
 * entries) sent through the TransactionChecker ends in transaction_check_failed, nothing pending.
 */
const GLOBAL_ID = 41;
const T0 = 1_700_000_000;

/** A tree of `n` distinct small cells (four references each, breadth first). */
function junkTree(n: number): Cell {
    const cells: Cell[] = [];
    for (let i = n - 1; i >= 0; i--) {
        const b = beginCell().storeUint(i, 32).storeUint(0xdeadbeef, 32);
        for (let k = 1; k <= 4; k++) {
            const child = 4 * i + k;
            if (child < n) b.storeRef(cells[n - 1 - child]);
        }
        cells.push(b.endCell());
    }
    return cells[n - 1];
}

function countCells(c: Cell, seen = new Set<string>()): number {
    const h = c.hash().toString('hex');
    if (seen.has(h)) return 0;
    seen.add(h);
    return 1 + c.refs.reduce((a, r) => a + countCells(r, seen), 0);
}

describe('LiteClient under attack: bounded reading, value in proportion, always an answer', () => {
    let set: ValidatorSet;
    let lcCode: Cell;
    let tcCode: Cell;
    let realTx: Cell;
    let blockchain: Blockchain;
    let chain: SyntheticChain;
    let user: SandboxContract<TreasuryContract>;
    let liteClient: SandboxContract<LiteClient>;
    let checker: SandboxContract<TransactionChecker>;

    beforeAll(async () => {
        const bc = await Blockchain.create();
        const a = await bc.treasury('tx-a');
        const b = await bc.treasury('tx-b');
        realTx = (await a.send({ to: b.address, value: toNano('0.5'), bounce: false })).transactions[0].raw;
        lcCode = compiledCode('LiteClient');
        tcCode = compiledCode('TransactionChecker');
        set = makeValidatorSet({
            size: 100,
            main: 100,
            weights: 'mainnet',
            seed: 'attack',
            utimeSince: T0,
            utimeUntil: T0 + 1_000_000,
        });
    });

    beforeEach(async () => {
        blockchain = await Blockchain.create();
        blockchain.now = T0 + 100;
        const deployer = await blockchain.treasury('deployer');
        user = await blockchain.treasury('user');
        chain = new SyntheticChain({ globalId: GLOBAL_ID, validators: set, startUtime: T0 + 10 });
        liteClient = blockchain.openContract(LiteClient.createFromKeyBlock(chain.genesisKeyBlock().proof, lcCode));
        await liteClient.sendDeploy(deployer.getSender(), toNano('1'));
        checker = blockchain.openContract(
            TransactionChecker.createFromConfig({ liteClient: liteClient.address }, tcCode),
        );
        await checker.sendDeploy(deployer.getSender(), toNano('1'));
    });

    /** A fake masterchain block holding `tx` and ~3,000 junk cells, unpruned in its proof (nobody signed it). */
    function fakeBlockWithJunk(tx: Cell): { proof: Cell; rootHash: Buffer; cells: number } {
        const b = chain.blockWithTransactions([tx]);
        const root = b.mcBlock.cell;
        // value_flow replaced by the junk; BlockInfo, the junk and BlockExtra (the transaction) kept
        const fake = new Cell({ bits: root.bits, refs: root.refs.map((r, i) => (i === 1 ? junkTree(3000) : r)) });
        const proof = convertToMerkleProof(prune(fake, { 0: true, 1: true, 3: true }));
        return { proof, rootHash: fake.hash(0), cells: countCells(proof) };
    }

    /** ~250 skipped entries: index 65535 and repeats, signed by nobody of the set. */
    function skippedEntries(n: number): SignatureEntry[] {
        const junk = Buffer.alloc(64, 0x5a);
        return Array.from({ length: n }, (_, i) => ({ index: i % 2 ? 65535 : 3, signature: junk }));
    }

    for (const [name, value, code] of [
        ['the first entry read is refused, 114', toNano('3'), Errors.liteClient.invalidSignature],
    ] as const) {
        it(`an unsigned fake block with ~3,000 junk cells and ~250 skipped entries, through the checker, ${name}`, async () => {
            const tx = realTx;
            const fake = fakeBlockWithJunk(tx);
            expect(fake.cells).toBeGreaterThan(3000);
            const signatures = buildSignaturesCell(Buffer.alloc(32, 1), skippedEntries(250));
            const r = await checker.sendCheckTransaction(user.getSender(), {
                transaction: tx,
                proof: fake.proof,
                currentBlock: currentBlockCell(fake.proof, signatures),
                value,
            });
            // the LiteClient ends with a documented code, in gas it could pay, and answers it with the rest
            const lc = r.transactions.find((t) => t.inMessage?.info.dest?.toString() === liteClient.address.toString());
            expect(lc).toBeDefined();
            const d = lc!.description;
            if (d.type !== 'generic' || d.computePhase.type !== 'vm') throw new Error('no compute phase');
            expect(d.computePhase.exitCode).not.toBe(-14);
            expect(Number(d.computePhase.gasUsed)).toBeLessThan(20_000);
            expect(r.transactions).toHaveTransaction({
                from: liteClient.address,
                to: checker.address,
                op: Op.liteClient.checkBlockFailed,
                body: (c?: Cell) => c !== undefined && c.beginParse().skip(96).loadUint(16) === code,
            });
            // the requester is answered with the code
            expect(r.transactions).toHaveTransaction({
                from: checker.address,
                to: user.address,
                op: Op.transactionChecker.transactionCheckFailed,
                body: (b?: Cell) => b !== undefined && TransactionChecker.failedCode(b) === code,
            });
            // the answer carries what the LiteClient did not spend back to the requester
            const answer = r.transactions.find(
                (t) =>
                    t.inMessage?.info.type === 'internal' &&
                    t.inMessage.info.dest.equals(user.address) &&
                    t.inMessage.info.src.equals(checker.address),
            )!;
            if (answer.inMessage?.info.type !== 'internal') throw new Error('no answer');
            expect(answer.inMessage.info.value.coins).toBeGreaterThan(0n);
        });
    }

    it('check_block asks for the gas its list may cost before it reads a signature: 206 below, the same list passes above', async () => {
        const b = buildMasterchainBlock({ globalId: GLOBAL_ID, seqno: 500, genUtime: T0 + 500, prevKeyBlockSeqno: 0 });
        const all = signBlock(b, set);
        const sig = buildSignaturesCell(b.fileHash, all);
        // 100 nodes: up to 12,000 + 100 x 4,000 + 90 x 4,000 + (100 - sure) x 500 + 100 x 300 gas asked for (about 0.34 TON)
        let r = await liteClient.sendCheckBlock(user.getSender(), {
            value: toNano('0.25'),
            queryId: 3,
            block: blockHeaderProof(b),
            signatures: sig,
        });
        expect(r.transactions).toHaveTransaction({
            from: user.address,
            to: liteClient.address,
            success: false,
            exitCode: Errors.liteClient.notEnoughValue,
        });
        expect(r.transactions).toHaveTransaction({
            from: liteClient.address,
            to: user.address,
            inMessageBounced: true,
        });
        r = await liteClient.sendCheckBlock(user.getSender(), {
            value: toNano('0.4'),
            queryId: 3,
            block: blockHeaderProof(b),
            signatures: sig,
        });
        expect(r.transactions).toHaveTransaction({
            from: liteClient.address,
            to: user.address,
            op: Op.liteClient.correct,
        });
    });
});

/** A LiteClient deployed from the genesis key block of a 100-validator set (all main). */
async function liteClientOf100(weights: 'mainnet' | bigint[], seed: string) {
    const set = makeValidatorSet({ size: 100, main: 100, weights, seed, utimeSince: T0, utimeUntil: T0 + 1_000_000 });
    const bc = await Blockchain.create();
    bc.now = T0 + 100;
    const s = await bc.treasury('s');
    const chain = new SyntheticChain({ globalId: GLOBAL_ID, validators: set, startUtime: T0 + 10 });
    const lc = bc.openContract(
        LiteClient.createFromKeyBlock(chain.genesisKeyBlock().proof, compiledCode('LiteClient')),
    );
    await lc.sendDeploy(s.getSender(), toNano('1'));
    return { set, s, lc, chain };
}

describe('LiteClient: the gas bound check_block asks value for holds', () => {
    const weightSets: [string, 'mainnet' | bigint[]][] = [
        ['mainnet-like weights', 'mainnet'],
        // one validator holds 40%: sure = 1, every node after the first is followed by the cutoff check
        ['one validator with 40% of the weight', [66_000n, ...Array.from({ length: 99 }, () => 1_000n)]],
    ];
    for (const [setName, weights] of weightSets)
        it(`for the costliest shapes of a 100-validator set (${setName})`, async () => {
            const { set, s, lc } = await liteClientOf100(weights, 'bound');
            // contracts/lite_client.fc lc::gas_base, lc::gas_per_node, lc::gas_per_check, lc::gas_per_entry
            const sure = liteClientSure(set.validators.slice(0, 100));
            const bound = (n: number) =>
                12_000 + n * 4000 + 4000 * Math.max(0, n - 10) + 500 * Math.max(0, n - sure) + 100 * 300;
            let seqno = 2000;
            const shapes: [string, number[]][] = [
                ['all 100, in order (read until the cutoff)', Array.from({ length: 100 }, (_, i) => i)],
                ['every second (gaps everywhere)', Array.from({ length: 50 }, (_, i) => 2 * i + 1)],
                ['the lightest 70 (the first 30 skipped)', Array.from({ length: 70 }, (_, i) => 30 + i)],
                ['every third from 1 (each node through lc::slow)', Array.from({ length: 33 }, (_, i) => 3 * i + 1)],
                ['every fourth', Array.from({ length: 25 }, (_, i) => 4 * i + 3)],
                ['every third missing', Array.from({ length: 100 }, (_, i) => i).filter((i) => i % 3 !== 2)],
            ];
            for (const [name, signers] of shapes) {
                const b = buildMasterchainBlock({
                    globalId: GLOBAL_ID,
                    seqno,
                    genUtime: T0 + 50,
                    prevKeyBlockSeqno: 0,
                });
                seqno++;
                const r = await lc.sendCheckBlock(s.getSender(), {
                    value: toNano('1'),
                    block: blockHeaderProof(b),
                    signatures: buildSignaturesCell(b.fileHash, signBlock(b, set, signers)),
                });
                const t = r.transactions.find((x) => x.inMessage?.info.dest?.toString() === lc.address.toString())!;
                const d = t.description;
                if (d.type !== 'generic' || d.computePhase.type !== 'vm') throw new Error('no compute phase');
                const gas = Number(d.computePhase.gasUsed);
                const n = Math.min(signers.length, 100);
                console.log(`bound: ${name}: gas ${gas}, bound ${bound(n)} (exit ${d.computePhase.exitCode})`);
                expect(gas).toBeLessThanOrEqual(bound(n));
            }
        });
});

describe('LiteClient: the gas bound new_key_block asks value for holds', () => {
    // contracts/lite_client.fc: lc::key_block_base + the signature list's part (as check_block's,
    // with the current set) + lc::gas_per_new_entry for each main validator of the new set
    const signatureGas = (n: number, sure: number, main: number) =>
        n * 4000 + 4000 * Math.max(0, n - 10) + 500 * Math.max(0, n - sure) + main * 300;
    const bound = (n: number, sure: number, main: number, newMain: number) =>
        40_000 + signatureGas(n, sure, main) + newMain * 4000;
    for (const size of [100, 370, 1000])
        it(`a new set of ${size} validators (100 main), signed by the lightest of 100 until the cutoff`, async () => {
            const { set, s, lc, chain } = await liteClientOf100('mainnet', 'kbound');
            const next = makeValidatorSet({
                size,
                main: 100,
                weights: 'mainnet',
                seed: `kbound-${size}`,
                utimeSince: T0 + 500_000,
                utimeUntil: T0 + 2_000_000,
            });
            // the lightest signers first: the most nodes read before the cutoff
            const w = set.validators.slice(0, 100).map((v) => v.weight);
            const total = w.reduce((a, b) => a + b, 0n);
            const cutoff = (total * 2n) / 3n + 1n;
            let first = 0;
            for (let rest = total; rest - w[first] >= cutoff; first++) rest -= w[first];
            const signers = Array.from({ length: 100 - first }, (_, i) => first + i);
            const kb = chain.nextKeyBlock(next, { signers });
            // less than the fee of the bound (plus 0.01 TON for the answer): 206 before a signature is read
            const low = await lc.sendNewKeyBlock(s.getSender(), {
                value: toNano('0.05'),
                block: kb.proof,
                signatures: kb.signatures,
            });
            expect(low.transactions).toHaveTransaction({
                to: lc.address,
                aborted: true,
                exitCode: Errors.liteClient.notEnoughValue,
            });
            const r = await lc.sendNewKeyBlock(s.getSender(), {
                value: toNano('1'),
                block: kb.proof,
                signatures: kb.signatures,
            });
            const t = r.transactions.find((x) => x.inMessage?.info.dest?.toString() === lc.address.toString())!;
            const d = t.description;
            if (d.type !== 'generic' || d.computePhase.type !== 'vm') throw new Error('no compute phase');
            expect(d.computePhase.exitCode).toBe(0);
            const gas = Number(d.computePhase.gasUsed);
            const b = bound(signers.length, liteClientSure(set.validators.slice(0, 100)), 100, 100);
            console.log(`new_key_block bound: ${size} validators, ${signers.length} signers: gas ${gas}, bound ${b}`);
            expect(gas).toBeLessThanOrEqual(b);
        });
});
