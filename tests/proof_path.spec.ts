/**
 * Proofs of transactions from sealed blocks only (harness/chain.ts, harness/network.ts), checked by
 * the real TransactionChecker and LiteClient: shard chains of several blocks per masterchain block,
 * across a split and a merge, and transactions of past epochs proven through a block signed by the
 * set the LiteClient holds (a backward link through McStateExtra.prev_blocks). Layout:
 * contracts/verifier.tlb (BlockPath); codes: contracts/transaction_checker.tlb.
 */
import { beginCell, Cell } from '@ton/core';
import { BlockchainTransaction, SandboxContract, TreasuryContract } from '@ton/sandbox';
import '@ton/test-utils';
import { TvmNetwork } from '../harness/network';
import { blockPathCell, currentBlockCell } from '../harness/chain';
import { blockHeaderProof, blockWithStateProof, masterchainProofWithShard, prevBlocksProof } from '../harness/proofs';
import { SyncService } from '../harness/actors';
import { SealedProofSource } from '../harness/proofSource';
import { childShard } from '../harness/blocks';
import { ProofPathNetworks, proofPathNetworks, transfers, WHOLE } from './proof_path.util';
import { proveFor } from '../lib/proofSource';
import { LiteClient } from '../wrappers/LiteClient';
import { TransactionChecker } from '../wrappers/TransactionChecker';
import { Errors, Op } from '../wrappers/constants';

describe('TransactionChecker: proof paths from sealed blocks', () => {
    let A: TvmNetwork;
    let B: TvmNetwork;
    let payer: SandboxContract<TreasuryContract>;
    let liteClient: SandboxContract<LiteClient>;
    let checker: SandboxContract<TransactionChecker>;
    let sync: SyncService;
    let left: SandboxContract<TreasuryContract>[];
    let right: SandboxContract<TreasuryContract>[];
    let reset: () => Promise<void>;
    let check: ProofPathNetworks['check'];
    let expectChecked: ProofPathNetworks['expectChecked'];
    let expectRefused: ProofPathNetworks['expectRefused'];

    beforeAll(async () => {
        ({ A, B, payer, liteClient, checker, left, right, reset, check, expectChecked, expectRefused } =
            await proofPathNetworks());
    });

    beforeEach(async () => {
        await reset();
        sync = new SyncService(A, B, liteClient.address, payer);
    });

    async function proveAndCheck(tx: BlockchainTransaction, anchor?: number) {
        const p = A.proofOf(tx, { anchor });
        const r = await check(p.transaction, p.txProof, p.currentBlock);
        expectChecked(r);
        return p;
    }

    it('a masterchain block lists the newest of several shard blocks: chains of 1, 2 and 5 blocks are proven', async () => {
        A.chain.shardBlocksPerMc = 5;
        const txs = await transfers([...left, ...right], 5);
        const mc = A.seal();
        expect(mc.shardBlocks).toHaveLength(5);
        expect(mc.block.shardBlocks).toHaveLength(1); // only the newest is listed
        const lengths = new Set<number>();
        for (const tx of txs) {
            const p = await proveAndCheck(tx);
            expect(p.anchor!.block.seqno).toBe(mc.block.seqno);
            lengths.add(p.location!.above.length + 1);
            // the path holds the shard blocks above the transaction's and the masterchain block
            expect(p.currentBlock.refs.length).toBe(p.location!.above.length ? 3 : 2);
        }
        expect([...lengths].sort()).toEqual([1, 2, 3, 4, 5]);
    });

    it('across a split (the parent block before_split, reached from a half) and a merge (either predecessor)', async () => {
        A.chain.shardBlocksPerMc = 2;
        // split: the first half of the transactions in the parent's blocks, the rest in the halves
        const beforeSplit = await transfers([left[0], right[0]], 4);
        const s = A.seal({ split: [WHOLE] });
        expect(A.chain.basechainShards).toEqual([childShard(WHOLE, 0), childShard(WHOLE, 1)]);
        expect(s.block.shardBlocks!.map((b) => b.shard)).toEqual([childShard(WHOLE, 0), childShard(WHOLE, 1)]);
        const parentTx = beforeSplit.find((t) => A.locate(t).holder.shard === WHOLE)!;
        expect(parentTx).toBeDefined();
        await proveAndCheck(parentTx);
        for (const tx of beforeSplit) await proveAndCheck(tx);
        // merge: both halves produce blocks, then the merged block names both (prev1, prev2)
        const beforeMerge = await transfers([left[0], left[1], right[0], right[1]], 4);
        const m = A.seal({ merge: [WHOLE] });
        expect(A.chain.basechainShards).toEqual([WHOLE]);
        const merged = m.shardBlocks.find((b) => b.prev?.length === 2)!;
        expect(merged).toBeDefined();
        const halves = new Set<bigint>();
        for (const tx of beforeMerge) {
            const p = await proveAndCheck(tx);
            halves.add(p.location!.holder.shard);
        }
        expect(halves).toEqual(new Set([childShard(WHOLE, 0), childShard(WHOLE, 1), WHOLE]));
    });

    it('a transaction of a past epoch: its own block fails once the LiteClient moved on; a backward link from a block of the current set passes, after one and after three switches', async () => {
        A.chain.shardBlocksPerMc = 3;
        const old = await transfers([...left, ...right], 3);
        const oldMc = A.seal();
        const mcTx = old[0];
        for (const n of [1, 3]) {
            await reset();
            A.chain.shardBlocksPerMc = 3;
            sync = new SyncService(A, B, liteClient.address, payer);
            const again = await transfers([...left, ...right], 3);
            expect(again.map((t) => t.hash().toString('hex'))).toEqual(old.map((t) => t.hash().toString('hex')));
            expect(A.seal().block.rootHash.equals(oldMc.block.rootHash)).toBe(true);
            for (let i = 0; i < n; i++) {
                A.advanceTime(3600);
                A.rotateValidators(undefined, { announce: true });
            }
            await sync.step();
            expect(await liteClient.getCurrentEpochSince()).toBe(A.chain.current.utimeSince);
            // the block of its time is signed by a set the LiteClient no longer holds
            const own = A.proofOf(mcTx);
            expect(own.anchor!.signedBy).not.toBe(A.chain.current);
            const r = await check(own.transaction, own.txProof, own.currentBlock);
            expect(r.transactions).toHaveTransaction({
                from: checker.address,
                to: payer.address,
                op: Op.transactionChecker.transactionCheckFailed,
            });
            // through the newest block the current set signed
            for (const tx of old) {
                const p = A.proofFor(tx, await liteClient.getCurrentEpochSince());
                expect(p.anchor!.signedBy).toBe(A.chain.current);
                expect(p.anchor!.block.seqno).toBeGreaterThan(oldMc.block.seqno);
                expectChecked(await check(p.transaction, p.txProof, p.currentBlock));
            }
        }
    });

    it('the proof source interface (lib/proofSource.ts) over sealed blocks: proveFor a LiteClient before and after a switch', async () => {
        A.chain.shardBlocksPerMc = 2;
        const txs = await transfers([...left, ...right], 2);
        const source = new SealedProofSource(A);
        const view = async () => ({
            epochSince: await liteClient.getCurrentEpochSince(),
            validators: [...(await liteClient.getCurrentValidatorsSet()).values()],
        });
        const ref = (t: BlockchainTransaction) => ({ account: TvmNetwork.accountOf(t), lt: t.lt });
        for (const t of txs) {
            const p = await proveFor(source, ref(t), await view());
            expect(p.chain.anchor.seqno).toBe(p.chain.listedIn.seqno);
            expectChecked(await check(p.transaction, p.txProof, p.currentBlock));
        }
        A.rotateValidators();
        await sync.step();
        for (const t of txs) {
            const p = await proveFor(source, ref(t), await view());
            expect(p.chain.anchor.seqno).toBeGreaterThan(p.chain.listedIn.seqno);
            expect(p.chain.anchor.signedByEpoch).toBe(A.chain.current.utimeSince);
            expectChecked(await check(p.transaction, p.txProof, p.currentBlock));
        }
        expect(await source.locate({ account: left[0].address, lt: 1n })).toBeNull();
    });

    describe('refused paths (nothing is sent to the LiteClient)', () => {
        it('a shard block left out of the chain, a path that ends at another block, a malformed path: 204', async () => {
            A.chain.shardBlocksPerMc = 3;
            const txs = await transfers([...left, ...right], 3);
            const mc = A.seal();
            const deep = txs.find((t) => A.locate(t).above.length === 2)!;
            const loc = A.locate(deep);
            const p = A.proofOf(deep);
            const sigs = p.currentBlock.refs[1];
            const top = masterchainProofWithShard(mc.block, loc.above[1]);
            // the middle shard block left out
            const skipped = blockPathCell([{ block: blockHeaderProof(loc.above[1]) }, { block: top }]);
            expectRefused(
                await check(p.transaction, p.txProof, currentBlockCell(top, sigs, skipped)),
                Errors.transactionChecker.blockNotLinked,
            );
            // a path that does not end at current_block.block
            const other = A.seal();
            const otherProof = blockHeaderProof(other.block);
            expectRefused(
                await check(p.transaction, p.txProof, currentBlockCell(otherProof, sigs, p.currentBlock.refs[2])),
                Errors.transactionChecker.blockNotLinked,
            );
            // malformed nodes: no flag bits, a flag without its reference, an ordinary cell as the block
            for (const bad of [
                beginCell().storeRef(top).endCell(),
                beginCell().storeBit(true).storeBit(false).storeRef(top).endCell(),
                beginCell().storeBit(false).storeBit(true).storeRef(top).endCell(),
            ])
                expectRefused(
                    await check(p.transaction, p.txProof, currentBlockCell(top, sigs, bad)),
                    Errors.transactionChecker.blockNotLinked,
                );
            expectRefused(
                await check(
                    p.transaction,
                    p.txProof,
                    currentBlockCell(top, sigs, blockPathCell([{ block: beginCell().endCell() }])),
                ),
                Errors.merkle.notExotic,
            );
        });

        it('a backward link without the state, with the state of another block, or through a shard block: 204', async () => {
            const txs = await transfers(left, 1);
            const own = A.seal();
            A.rotateValidators();
            const later = A.seal();
            const tx = txs[0];
            const loc = A.locate(tx);
            const p = A.proofOf(tx, { anchor: later.block.seqno });
            const sigs = p.currentBlock.refs[1];
            const listing = masterchainProofWithShard(own.block, loc.holder);
            const anchor = blockWithStateProof(later.block);
            const send = (path: Cell) => check(p.transaction, p.txProof, currentBlockCell(anchor, sigs, path));
            // the genuine path passes the checker's own checks (the LiteClient is not synced: it refuses the signatures)
            const ok = await send(
                blockPathCell([
                    { block: listing },
                    { block: anchor, state: prevBlocksProof(later.state, own.block.seqno) },
                ]),
            );
            expect(ok.transactions).toHaveTransaction({
                from: checker.address,
                to: liteClient.address,
                op: Op.liteClient.checkBlock,
            });
            expectRefused(
                await send(blockPathCell([{ block: listing }, { block: anchor }])),
                Errors.transactionChecker.blockNotLinked,
            );
            // the state of another block (it lists the same seqno, but its hash is not later's state_update)
            const third = A.seal();
            expectRefused(
                await send(
                    blockPathCell([
                        { block: listing },
                        { block: anchor, state: prevBlocksProof(third.state, own.block.seqno) },
                    ]),
                ),
                Errors.transactionChecker.blockNotLinked,
            );
            // the header alone (state_update pruned): no state hash to compare
            const header = blockHeaderProof(later.block);
            expectRefused(
                await check(
                    p.transaction,
                    p.txProof,
                    currentBlockCell(
                        header,
                        sigs,
                        blockPathCell([
                            { block: listing },
                            { block: header, state: prevBlocksProof(later.state, own.block.seqno) },
                        ]),
                    ),
                ),
                Errors.transactionChecker.blockNotLinked,
            );
        });

        it('two backward links: 207 (one suffices: every masterchain state lists every earlier block)', async () => {
            const txs = await transfers(left, 1);
            const own = A.seal();
            const mid = A.seal();
            const later = A.seal();
            const tx = txs[0];
            const loc = A.locate(tx);
            const p = A.proofOf(tx, { anchor: later.block.seqno });
            const sigs = p.currentBlock.refs[1];
            const listing = masterchainProofWithShard(own.block, loc.holder);
            const anchor = blockWithStateProof(later.block);
            const send = (path: Cell) => check(p.transaction, p.txProof, currentBlockCell(anchor, sigs, path));
            // each link holds: own <- mid (mid's state), mid <- later (later's state)
            expectRefused(
                await send(
                    blockPathCell([
                        { block: listing },
                        { block: blockWithStateProof(mid.block), state: prevBlocksProof(mid.state, own.block.seqno) },
                        { block: anchor, state: prevBlocksProof(later.state, mid.block.seqno) },
                    ]),
                ),
                Errors.transactionChecker.pathTooLong,
            );
            // the same transaction with one backward link straight from `later`: the checker's checks pass
            const one = await send(
                blockPathCell([
                    { block: listing },
                    { block: anchor, state: prevBlocksProof(later.state, own.block.seqno) },
                ]),
            );
            expect(one.transactions).toHaveTransaction({
                from: checker.address,
                to: liteClient.address,
                op: Op.liteClient.checkBlock,
            });
        });

        it('a chain longer than the bound: 207', async () => {
            A.chain.shardBlocksPerMc = 18;
            await transfers(left, 3);
            const mc = A.seal();
            // a transaction of the second of 18 shard blocks: 16 shard blocks above it and the masterchain block
            const at = (i: number) => mc.shardBlocks[i].transactions[0].cell!;
            expect(A.locate(at(1)).above).toHaveLength(16);
            const p = A.proofOf(at(1));
            expectRefused(await check(p.transaction, p.txProof, p.currentBlock), Errors.transactionChecker.pathTooLong);
            // 15 shard blocks and the masterchain block: at the bound, proven
            expect(A.locate(at(2)).above).toHaveLength(15);
            const q = A.proofOf(at(2));
            expectChecked(await check(q.transaction, q.txProof, q.currentBlock));
        });
    });
});
