import { Blockchain, BlockchainTransaction, SandboxContract, TreasuryContract } from '@ton/sandbox';
import { Cell, toNano } from '@ton/core';
import { compiledCode } from '../../wrappers/compiled';
import '@ton/test-utils';
import { makeValidatorSet, ValidatorSet } from '../../harness/validators';
import { SyntheticChain } from '../../harness/chain';
import { benchBlockchain, GasSection } from '../../harness/bench';
import { LiteClient } from '../../wrappers/LiteClient';
import { TC_MIN_VALUE, TransactionChecker } from '../../wrappers/TransactionChecker';
import { Op } from '../../wrappers/constants';

/**
 * Gas of each transaction of the check_transaction round trip (TC request, LiteClient check_block,
 * TC handling of correct / of the bounce) with a 100-validator set and 67 signatures.
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
        chain = new SyntheticChain({ globalId: GLOBAL_ID, validators: set, startUtime: T0 + 10 });
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
            notes: ok ? undefined : 'rejected (throws, bounces)',
        });
        section.record({
            path: `TransactionChecker ${ok ? 'correct -> transaction_checked' : 'bounce -> transaction_check_failed'} (${label})`,
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

    it('LiteClient rejection (weight below the cutoff): failure reply', async () => {
        await roundTrip(
            'LiteClient rejects',
            chain.blockWithTransactions([txs[2]], { signers: signers.slice(0, 40) }),
            false,
            40,
        );
    });
});
