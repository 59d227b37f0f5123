/**
 * Two simulated networks for proof-path specs: A (the source, its basechain splittable into two
 * halves) and B holding a LiteClient of A (from A's genesis key block) with its TransactionChecker,
 * treasuries of A in each half of the basechain, and transfers between them. The state after setup
 * is snapshotted: `reset()` goes back to it before each test.
 */
import { BlockchainTransaction, SandboxContract, SendMessageResult, TreasuryContract } from '@ton/sandbox';
import { Cell, toNano } from '@ton/core';
import '@ton/test-utils';
import { TvmNetwork } from '../harness/network';
import { childShard, shardContains } from '../harness/blocks';
import { LiteClient } from '../wrappers/LiteClient';
import { TransactionChecker } from '../wrappers/TransactionChecker';
import { compiledCode } from '../wrappers/compiled';
import { Op } from '../wrappers/constants';

/** the unsplit basechain's shard id */
export const WHOLE = 1n << 63n;

export interface ProofPathNetworks {
    A: TvmNetwork;
    B: TvmNetwork;
    payer: SandboxContract<TreasuryContract>;
    liteClient: SandboxContract<LiteClient>;
    checker: SandboxContract<TransactionChecker>;
    /** treasuries of A whose accounts are in the left / right half of the basechain */
    left: SandboxContract<TreasuryContract>[];
    right: SandboxContract<TreasuryContract>[];
    /** both networks back to their state after setup, one shard block per masterchain block */
    reset(): Promise<void>;
    /** check_transaction from the payer, with 1 TON */
    check(transaction: Cell, proof: Cell, currentBlock: Cell): Promise<SendMessageResult>;
    /** the checker answered transaction_checked to the payer */
    expectChecked(r: SendMessageResult): void;
    /** the checker refused the request itself with `exitCode`: nothing reached the LiteClient */
    expectRefused(r: SendMessageResult, exitCode: number): void;
}

export async function proofPathNetworks(validators = 20): Promise<ProofPathNetworks> {
    const A = await TvmNetwork.create({ globalId: -239, name: 'A', validators, weights: 'equal' });
    const B = await TvmNetwork.create({ globalId: 2000, name: 'B', validators });
    const payer = await B.treasury('payer');
    const liteClient = B.blockchain.openContract(
        LiteClient.createFromKeyBlock(A.chain.genesisKeyBlock().proof, compiledCode('LiteClient')),
    );
    await liteClient.sendDeploy(payer.getSender(), toNano('1'));
    const checker = B.blockchain.openContract(
        TransactionChecker.createFromConfig({ liteClient: liteClient.address }, compiledCode('TransactionChecker')),
    );
    await checker.sendDeploy(payer.getSender(), toNano('1'));
    const left: SandboxContract<TreasuryContract>[] = [];
    const right: SandboxContract<TreasuryContract>[] = [];
    for (let i = 0; left.length < 2 || right.length < 2; i++) {
        const t = await A.treasury(`t${i}`);
        (shardContains(childShard(WHOLE, 0), t.address.hash) ? left : right).push(t);
    }
    A.seal();
    const base = [A.snapshot(), B.snapshot()] as const;
    const reset = async () => {
        await A.loadFrom(base[0]);
        await B.loadFrom(base[1]);
        A.chain.shardBlocksPerMc = 1;
    };
    const check = (transaction: Cell, proof: Cell, currentBlock: Cell) =>
        checker.sendCheckTransaction(payer.getSender(), { transaction, proof, currentBlock, value: toNano('1') });
    const expectChecked = (r: SendMessageResult) =>
        expect(r.transactions).toHaveTransaction({
            from: checker.address,
            to: payer.address,
            op: Op.transactionChecker.transactionChecked,
        });
    const expectRefused = (r: SendMessageResult, exitCode: number) => {
        expect(r.transactions).toHaveTransaction({
            from: payer.address,
            to: checker.address,
            success: false,
            exitCode,
        });
        expect(r.transactions).not.toHaveTransaction({ from: checker.address, to: liteClient.address });
    };
    return { A, B, payer, liteClient, checker, left, right, reset, check, expectChecked, expectRefused };
}

/** n transfers between the given treasuries (each to the next); every transaction they made on A. */
export async function transfers(
    from: SandboxContract<TreasuryContract>[],
    n: number,
): Promise<BlockchainTransaction[]> {
    const out: BlockchainTransaction[] = [];
    for (let i = 0; i < n; i++) {
        const r = await from[i % from.length].send({ to: from[(i + 1) % from.length].address, value: toNano('0.1') });
        out.push(...r.transactions.filter((t) => t.inMessage?.info.type === 'internal'));
    }
    return out;
}
