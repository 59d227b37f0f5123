import { Blockchain, BlockchainTransaction, SandboxContract, TreasuryContract } from '@ton/sandbox';
import { Cell, toNano } from '@ton/core';
import { compiledCode } from '../../wrappers/compiled';
import '@ton/test-utils';
import { makeValidatorSet, ValidatorSet } from '../../harness/validators';
import { currentBlockCell, SyntheticChain } from '../../harness/chain';
import { benchBlockchain, GasSection } from '../../harness/bench';
import { LiteClient } from '../../wrappers/LiteClient';
import { TC_MIN_VALUE, TransactionChecker } from '../../wrappers/TransactionChecker';
import { Op } from '../../wrappers/constants';

/**
 * Gas of each transaction of the check_transaction round trip (TC request, LiteClient check_block,
 * TC handling of correct / of check_block_failed) with a 100-validator set and 67 signatures. The chain
 * starts at masterchain seqno 40,000,000 (about mainnet's age): prev_blocks has mainnet's depth, so
 * a backward link costs what it would there.
 */
const GLOBAL_ID = -239;
const T0 = 1_700_000_000;

function computeGas(tx: BlockchainTransaction): number {
    const d = tx.description;
    if (d.type !== 'generic' || d.computePhase.type !== 'vm') throw new Error('no compute phase');
    return Number(d.computePhase.gasUsed);
}

/** 67 of 100 signers spread over the whole index range. */
function spreadSigners(n: number): number[] {
    const out: number[] = [];
    for (let i = 0; i < n; i++) if (!(i % 3 === 1 && i < 99)) out.push(i);
    return out;
}

async function sandboxTransactions(count: number): Promise<Cell[]> {
    const bc = await benchBlockchain();
    const out: Cell[] = [];
    const a = await bc.treasury('bench-a');
    for (let i = 0; out.length < count; i++) {
        const b = await bc.treasury(`bench-b${i}`);
        const r = await a.send({ to: b.address, value: toNano('0.5'), bounce: false });
        for (const t of r.transactions) out.push(t.raw);
    }
    return out.slice(0, count);
}

describe('TransactionChecker gas', () => {
    const section = new GasSection('TransactionChecker');
    let blockchain: Blockchain;
    let user: SandboxContract<TreasuryContract>;
    let liteClient: SandboxContract<LiteClient>;
    let checker: SandboxContract<TransactionChecker>;
    let chain: SyntheticChain;
    let set: ValidatorSet;
    let txs: Cell[];
    const signers = spreadSigners(100);

    beforeAll(async () => {
        const tcCode = compiledCode('TransactionChecker');
        const lcCode = compiledCode('LiteClient');
        txs = await sandboxTransactions(16);
        blockchain = await benchBlockchain();
        const deployer = await blockchain.treasury('deployer');
        user = await blockchain.treasury('user');
        set = makeValidatorSet({
            size: 100,
            main: 100,
            weights: 'mainnet',
            seed: 'bench-tc',
            utimeSince: T0,
            utimeUntil: T0 + 65536,
        });
        chain = new SyntheticChain({
            globalId: GLOBAL_ID,
            validators: set,
            startUtime: T0 + 10,
            startSeqno: 40_000_000,
        });
        liteClient = blockchain.openContract(LiteClient.createFromKeyBlock(chain.genesisKeyBlock().proof, lcCode));
        await liteClient.sendDeploy(deployer.getSender(), toNano('1'));
        checker = blockchain.openContract(
            TransactionChecker.createFromConfig({ liteClient: liteClient.address }, tcCode),
        );
        await checker.sendDeploy(deployer.getSender(), toNano('1'));
    });

    afterAll(() => section.write());

    async function roundTrip(
        label: string,
        b: { transaction: Cell; txProof: Cell; currentBlock: Cell },
        ok = true,
        signatures = 67,
    ) {
        const value = toNano('1');
        const r = await checker.sendCheckTransaction(user.getSender(), {
            transaction: b.transaction,
            proof: b.txProof,
            currentBlock: b.currentBlock,
            value,
        });
        const request = r.transactions.find(
            (t) =>
                t.inMessage?.info.src?.toString() === user.address.toString() &&
                t.inMessage?.info.dest?.toString() === checker.address.toString(),
        )!;
        const check = r.transactions.find((t) => t.inMessage?.info.dest?.toString() === liteClient.address.toString())!;
        const answer = r.transactions.find(
            (t) =>
                t.inMessage?.info.src?.toString() === liteClient.address.toString() &&
                t.inMessage?.info.dest?.toString() === checker.address.toString(),
        )!;
        const reply = r.transactions.find(
            (t) =>
                t.inMessage?.info.src?.toString() === checker.address.toString() &&
                t.inMessage?.info.dest?.toString() === user.address.toString(),
        )!;
        expect(r.transactions).toHaveTransaction({
            from: checker.address,
            to: user.address,
            op: ok ? Op.transactionChecker.transactionChecked : Op.transactionChecker.transactionCheckFailed,
        });
        const back = reply.inMessage!.info.type === 'internal' ? reply.inMessage!.info.value.coins : 0n;
        const spent = value - back;
        const gas = { request: computeGas(request), check: computeGas(check), answer: computeGas(answer) };
        section.record({ path: `TransactionChecker.check_transaction (${label})`, gas: gas.request });
        section.record({
            path: `LiteClient.check_block from TC (${label}, ${signatures} of 100 signatures)`,
            gas: gas.check,
            notes: ok ? undefined : 'refused: check_block_failed (115) with the context',
        });
        section.record({
            path: `TransactionChecker ${ok ? 'correct -> transaction_checked' : 'check_block_failed -> transaction_check_failed'} (${label})`,
            gas: gas.answer,
            notes: `round trip cost the sender ${(Number(spent) / 1e9).toFixed(4)} TON (gas + forward fees); minimal value ${Number(TC_MIN_VALUE) / 1e9} TON`,
        });

        console.log(label, gas, `spent ${spent}`);
        for (const g of Object.values(gas)) expect(g).toBeLessThan(1_000_000);
        expect(spent).toBeLessThan(TC_MIN_VALUE);
        return gas;
    }

    it('masterchain transaction, block with one transaction', async () => {
        await roundTrip('masterchain tx', chain.blockWithTransactions([txs[0]], { signers }));
    });

    it('masterchain transaction, block with 16 transactions', async () => {
        const b = chain.blockWithTransactions(txs, { signers });
        const last = b.transactions[b.transactions.length - 1];
        await roundTrip('masterchain tx, 16 in block', {
            transaction: last.transaction,
            txProof: last.proof,
            currentBlock: b.currentBlock,
        });
    });

    it('basechain transaction (shard block in shard_hashes)', async () => {
        await roundTrip('basechain tx', chain.blockWithTransactions([txs[1]], { shard: true, signers }));
    });

    /** A basechain transaction sealed with k shard blocks per masterchain block; proven `depth` blocks below the listed one (anchor: a later block). */
    function sealedProof(k: number, depth: number, later = false) {
        chain.seal(
            txs.slice(0, k).map((cell) => ({ cell, workchain: 0 })),
            { shardBlocks: k },
        );
        const tx = txs[k - 1 - depth];
        let anchor: number | undefined;
        if (later) {
            for (let i = 0; i < 3; i++) chain.seal([]);
            anchor = chain.head.block.seqno;
        }
        const p = chain.proofPath(tx, { anchor, keepTransactionCell: true });
        expect(p.location.above).toHaveLength(depth);
        const signatures = chain.signaturesOf(p.anchor, { signers });
        return {
            transaction: tx,
            txProof: p.txProof,
            currentBlock: currentBlockCell(p.blockProof, signatures, p.path),
        };
    }

    it('basechain transaction 1, 4 and 15 shard blocks below the listed one (path of 2, 5, 16 blocks)', async () => {
        for (const depth of [1, 4, 15]) {
            const g = await roundTrip(
                `basechain tx, ${depth} shard blocks below the listed one`,
                sealedProof(16, depth),
            );
            console.log(`shard chain ${depth}: ${g.request}`);
        }
    });

    it('backward link: a masterchain block proven through a later signed block (prev_blocks at mainnet depth)', async () => {
        const p = chain.blockWithTransactions([txs[3]], { signers });
        for (let i = 0; i < 3; i++) chain.seal([]);
        const path = chain.proofPath(txs[3], { anchor: chain.head.block.seqno, keepTransactionCell: true });
        expect(path.location.mc.block.seqno).toBe(p.mcBlock.seqno);
        await roundTrip('masterchain tx, backward link from a later block', {
            transaction: txs[3],
            txProof: path.txProof,
            currentBlock: currentBlockCell(path.blockProof, chain.signaturesOf(path.anchor, { signers }), path.path),
        });
        await roundTrip('basechain tx, listed, backward link from a later block', sealedProof(2, 0, true));
        // the longest path taken: 14 shard blocks, the listing masterchain block and a backward link (16 blocks)
        await roundTrip(
            'basechain tx, 14 shard blocks below the listed one and a backward link (the longest path, 16 blocks)',
            sealedProof(16, 14, true),
        );
    });

    it('LiteClient rejection (weight below the cutoff): failure reply', async () => {
        await roundTrip(
            'LiteClient rejects',
            chain.blockWithTransactions([txs[2]], { signers: signers.slice(0, 40) }),
            false,
            40,
        );
    });
});
