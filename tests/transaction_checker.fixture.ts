/**
 * The setup the TransactionChecker specs share (tests/transaction_checker.spec.ts, .attack.spec.ts,
 * .fuzz.spec.ts): real sandbox transactions, and a fresh sandbox with a synthetic chain, a real
 * LiteClient holding its genesis key block and a TransactionChecker over it.
 */
import { Blockchain, BlockchainSnapshot, SandboxContract, TreasuryContract } from '@ton/sandbox';
import { Cell, toNano } from '@ton/core';
import { compiledCode } from '../wrappers/compiled';
import { makeValidatorSet, ValidatorSet } from '../harness/validators';
import { SyntheticChain } from '../harness/chain';
import { LiteClient } from '../wrappers/LiteClient';
import { TransactionChecker } from '../wrappers/TransactionChecker';
import { contractDataHex } from './transaction_checker.util';
import { CheckRequest, fakeBlockRequest } from '../harness/checkerRequests';

/** the synthetic chain's global_id */
export const GLOBAL_ID = 42;
/** the synthetic chain's time origin: its validator set is valid from T0 for 1,000,000 s */
export const T0 = 1_700_000_000;

/** Real Transaction cells from a sandbox: transfers between a few treasuries. */
export async function sandboxTransactions(count: number): Promise<Cell[]> {
    const bc = await Blockchain.create();
    const out: Cell[] = [];
    const a = await bc.treasury('tx-a');
    for (let i = 0; out.length < count; i++) {
        const b = await bc.treasury(`tx-b${i}`);
        const r = await a.send({ to: b.address, value: toNano('0.5'), bounce: false });
        for (const t of r.transactions) out.push(t.raw);
    }
    return out.slice(0, count);
}

/** The specs' validator set: 9 validators, 7 of them main, valid from T0 (`seed` makes each spec's own keys). */
export function checkerValidatorSet(seed: string): ValidatorSet {
    return makeValidatorSet({ size: 9, main: 7, seed, utimeSince: T0, utimeUntil: T0 + 1_000_000 });
}

export interface CheckerWorld {
    blockchain: Blockchain;
    chain: SyntheticChain;
    deployer: SandboxContract<TreasuryContract>;
    liteClient: SandboxContract<LiteClient>;
    checker: SandboxContract<TransactionChecker>;
    /** the checker's persistent data as deployed (hex BOC): its LiteClient's address only */
    initialData: string;
}

/**
 * A fresh sandbox with the synthetic chain of `set` (GLOBAL_ID, from T0 + 10), the LiteClient
 * deployed from its genesis key block and a TransactionChecker over it (1 TON each).
 */
export async function deployCheckerWorld(
    set: ValidatorSet,
    o: { shardBlocksPerMc?: number } = {},
): Promise<CheckerWorld> {
    const blockchain = await Blockchain.create();
    const deployer = await blockchain.treasury('deployer');
    const chain = new SyntheticChain({
        globalId: GLOBAL_ID,
        validators: set,
        startUtime: T0 + 10,
        shardBlocksPerMc: o.shardBlocksPerMc,
    });
    const liteClient = blockchain.openContract(
        LiteClient.createFromKeyBlock(chain.genesisKeyBlock().proof, compiledCode('LiteClient')),
    );
    await liteClient.sendDeploy(deployer.getSender(), toNano('1'));
    const checker = blockchain.openContract(
        TransactionChecker.createFromConfig({ liteClient: liteClient.address }, compiledCode('TransactionChecker')),
    );
    const r = await checker.sendDeploy(deployer.getSender(), toNano('1'));
    const deployed = r.transactions.some(
        (t) =>
            t.inMessage?.info.dest?.toString() === checker.address.toString() &&
            t.description.type === 'generic' &&
            t.description.computePhase.type === 'vm' &&
            t.description.computePhase.exitCode === 0,
    );
    if (!deployed) throw new Error('TransactionChecker deploy failed');
    return {
        blockchain,
        chain,
        deployer,
        liteClient,
        checker,
        initialData: await contractDataHex(blockchain, checker.address),
    };
}

/**
 * deployCheckerWorld(set) for every test of a spec, deployed once: each later call restores the
 * sandbox to the state right after that deployment (blockchain.snapshot / loadFrom) and gives a new
 * SyntheticChain of the same set, time and genesis key block as the first (the LiteClient holds that
 * genesis: checked), so the chain and both contracts are as freshly deployed.
 */
export function checkerWorldOnce(set: ValidatorSet): () => Promise<CheckerWorld> {
    let first: { world: CheckerWorld; snapshot: BlockchainSnapshot } | undefined;
    return async () => {
        if (!first) {
            const world = await deployCheckerWorld(set);
            first = { world, snapshot: world.blockchain.snapshot() };
            return world;
        }
        await first.world.blockchain.loadFrom(first.snapshot);
        const chain = new SyntheticChain({ globalId: GLOBAL_ID, validators: set, startUtime: T0 + 10 });
        const genesis = chain.genesisKeyBlock().proof.hash();
        if (!genesis.equals(first.world.chain.genesisKeyBlock().proof.hash()))
            throw new Error('checkerWorldOnce: the genesis key block differs from the deployed one');
        return { ...first.world, chain };
    };
}

/**
 * An attacker's request on the synthetic chain: an unsigned masterchain block of its own (GLOBAL_ID,
 * T0 + 50) holding `tx`, whose proof keeps `junkCells` junk cells, with `skipped` signature entries
 * of index 65535 (harness/checkerRequests.ts fakeBlockRequest).
 */
export function fakeRequest(tx: Cell, seqno: number, junkCells: number, skipped: number, seed: string): CheckRequest {
    return fakeBlockRequest(tx, { globalId: GLOBAL_ID, seqno, genUtime: T0 + 50, junkCells, skipped, seed });
}
