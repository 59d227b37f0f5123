/**
 * The lite-server proof source (lib/liteServerSource.ts) on shard chains and past epochs, through
 * ton-lite-client over the TL interface of a lite server that serves a simulated network's sealed
 * blocks (chainLiteServer.ts): basechain transactions in shard blocks that are not the top one a
 * masterchain block lists (several per masterchain block, across a split and a merge), and
 * transactions of an epoch the LiteClient has left, proven through a later block by a backward
 * link. The real TransactionChecker accepts each; a lying server is refused by the source, and a
 * tampered path by the checker. (The real testnet fixtures hold masterchain blocks only:
 * proof_api.liteserver.spec.ts proves their transactions and backward links.)
 */
import { BlockchainTransaction, SandboxContract, TreasuryContract } from '@ton/sandbox';
import { Cell } from '@ton/core';
import { LiteClient as LiteServerClient } from 'ton-lite-client';
import { liteServer_partialBlockProof, liteServer_shardBlockProof } from 'ton-lite-client/dist/schema';
import '@ton/test-utils';
import { TvmNetwork } from '../../harness/network';
import { SyncService } from '../../harness/actors';
import { childShard } from '../../harness/blocks';
import { ProofPathNetworks, proofPathNetworks, transfers, WHOLE } from '../proof_path.util';
import { blockPathCell, prevBlocksProof } from '../../lib/blockProofs';
import { LiteServerProofSource } from '../../lib/liteServerSource';
import { currentBlockOf, packFewestSignatures, proveFor, TransactionRef, verifierView } from '../../lib/proofSource';
import { LiteClient } from '../../wrappers/LiteClient';
import { TransactionChecker } from '../../wrappers/TransactionChecker';
import { Errors, Op } from '../../wrappers/constants';
import { ChainLiteServer, chainSignatures } from './chainLiteServer';

describe('Proof API: the lite-server source on shard chains and past epochs', () => {
    let A: TvmNetwork;
    let B: TvmNetwork;
    let payer: SandboxContract<TreasuryContract>;
    let liteClient: SandboxContract<LiteClient>;
    let checker: SandboxContract<TransactionChecker>;
    let left: SandboxContract<TreasuryContract>[];
    let right: SandboxContract<TreasuryContract>[];
    let reset: () => Promise<void>;
    let check: ProofPathNetworks['check'];
    let expectRefused: ProofPathNetworks['expectRefused'];

    beforeAll(async () => {
        ({ A, B, payer, liteClient, checker, left, right, reset, check, expectRefused } = await proofPathNetworks(12));
    });

    let server: ChainLiteServer;
    let source: LiteServerProofSource;
    beforeEach(async () => {
        await reset();
        server = new ChainLiteServer(A);
        source = new LiteServerProofSource(new LiteServerClient({ engine: server }), chainSignatures(A), A.globalId);
    });

    const ref = (t: BlockchainTransaction): TransactionRef => ({ account: TvmNetwork.accountOf(t), lt: t.lt });

    async function proveAndCheck(t: BlockchainTransaction) {
        const p = await proveFor(source, ref(t), await verifierView(liteClient));
        expect(p.transaction.hash().equals(t.hash())).toBe(true);
        const r = await check(p.transaction, p.txProof, p.currentBlock);
        expect(r.transactions).toHaveTransaction({
            from: checker.address,
            to: payer.address,
            op: Op.transactionChecker.transactionChecked,
            body: TransactionChecker.transactionCheckedMessage(t.raw),
        });
        return p;
    }

    /** blocks in a BlockPath (0: none) */
    const pathLength = (path: Cell | null): number => {
        let n = 0;
        for (let c = path; c; n++) {
            const s = c.beginParse();
            s.loadRef();
            s.loadMaybeRef();
            c = s.loadMaybeRef();
        }
        return n;
    };

    it('a basechain transaction in any of five shard blocks of one masterchain block: the path through the newer ones is built and accepted', async () => {
        A.chain.shardBlocksPerMc = 5;
        const txs = await transfers([...left, ...right], 5);
        const mc = A.seal();
        expect(mc.shardBlocks).toHaveLength(5);
        const lengths = new Set<number>();
        for (const t of txs) {
            const p = await proveAndCheck(t);
            expect(p.chain.listedIn.seqno).toBe(mc.block.seqno);
            const loc = A.locate(t);
            // the shard blocks above the transaction's, then the masterchain block (no path when listed directly)
            expect(pathLength(p.chain.path)).toBe(loc.above.length ? loc.above.length + 1 : 0);
            lengths.add(loc.above.length);
        }
        expect([...lengths].sort()).toEqual([0, 1, 2, 3, 4]);
        // what went over the lite-server interface for them
        expect(server.requests).toContain('lookupBlock mode 2 workchain 0');
        expect(server.requests.some((r) => r.startsWith('getOneTransaction 0:'))).toBe(true);
        expect(server.requests.some((r) => r.startsWith('getShardBlockProof 0:'))).toBe(true);
        expect(server.requests.some((r) => r.startsWith('getBlock 0:'))).toBe(false);
    });

    it('across a split and a merge: transactions of the parent, of each half and of the merged block', async () => {
        A.chain.shardBlocksPerMc = 2;
        const beforeSplit = await transfers([left[0], right[0]], 4);
        A.seal({ split: [WHOLE] });
        for (const t of beforeSplit) await proveAndCheck(t);
        const beforeMerge = await transfers([left[0], left[1], right[0], right[1]], 4);
        A.seal({ merge: [WHOLE] });
        const shards = new Set<bigint>();
        for (const t of beforeMerge) {
            await proveAndCheck(t);
            shards.add(A.locate(t).holder.shard);
        }
        expect(shards).toEqual(new Set([childShard(WHOLE, 0), childShard(WHOLE, 1), WHOLE]));
    });

    it('basechain transactions of a past epoch: a backward link from the newest block of the set the LiteClient holds', async () => {
        A.chain.shardBlocksPerMc = 3;
        const old = await transfers([...left, ...right], 3);
        const oldMc = A.seal();
        A.advanceTime(3600);
        A.rotateValidators(undefined, { announce: true });
        await new SyncService(A, B, liteClient.address, payer).step();
        expect(await liteClient.getCurrentEpochSince()).toBe(A.chain.current.utimeSince);
        // the LiteClient recorded the switching key block the sync service sent: the proofs go through
        // it without signatures
        const recorded = Math.max(...(await liteClient.getVerifiedBlocks()).keys());
        expect(recorded).toBeGreaterThan(oldMc.block.seqno);
        for (const t of old) {
            const p = await proveAndCheck(t);
            expect(p.chain.listedIn.seqno).toBe(oldMc.block.seqno);
            expect(p.chain.anchor.seqno).toBe(recorded);
            expect(p.currentBlock.refs[1].beginParse().skip(256).loadBit()).toBe(false);
        }
        // a verifier that recorded nothing: through the newest block the new set signed, with its signatures
        A.seal();
        const newest = A.chain.head.block.seqno;
        for (const t of old) {
            const view = { ...(await verifierView(liteClient)), verified: undefined };
            const p = await proveFor(source, ref(t), view);
            expect(p.chain.anchor.seqno).toBe(newest);
            expect(p.chain.anchor.signedByEpoch).toBe(A.chain.current.utimeSince);
            const r = await check(p.transaction, p.txProof, p.currentBlock);
            expect(r.transactions).toHaveTransaction({ op: Op.transactionChecker.transactionChecked });
        }
        expect(
            server.requests.some((r) => r.startsWith(`getBlockProof `) && r.endsWith(`-> ${oldMc.block.seqno}`)),
        ).toBe(true);
    });

    it('a lying server is refused by the source: a shard link left out or relabelled, another transaction, a backward link to another block', async () => {
        A.chain.shardBlocksPerMc = 3;
        const txs = await transfers([...left, ...right], 3);
        A.seal();
        const deep = txs.find((t) => A.locate(t).above.length === 2)!;
        const fresh = () =>
            new LiteServerProofSource(new LiteServerClient({ engine: server }), chainSignatures(A), A.globalId);

        // the chain of shard blocks with one left out: the next proof is not of the block named above it
        server.tamper = (request, a) => {
            if (request !== 'getShardBlockProof') return a;
            const p = a as liteServer_shardBlockProof;
            return { ...p, links: [p.links[0], ...p.links.slice(2)] };
        };
        await expect(fresh().locate(ref(deep))).rejects.toThrow(/proves another root hash/);
        // a link relabelled as another block of the chain: the block above does not name it
        server.tamper = (request, a) => {
            if (request !== 'getShardBlockProof') return a;
            const p = a as liteServer_shardBlockProof;
            const last = p.links[p.links.length - 1];
            return { ...p, links: [...p.links.slice(0, -1), { ...last, id: p.links[0].id }] };
        };
        await expect(fresh().locate(ref(deep))).rejects.toThrow(/does not name/);

        // another transaction of the block served in place of the one asked for
        const other = txs.find((t) => t !== deep)!;
        server.tamper = (request, a) =>
            request === 'getOneTransaction' ? { ...(a as object), transaction: other.raw.toBoc() } : a;
        await expect(fresh().locate(ref(deep))).rejects.toThrow(/not the one block .* holds/);

        // a backward link whose state proof lists another block at that height
        server.tamper = undefined;
        const listedIn = (await fresh().locate(ref(deep)))!;
        A.seal();
        A.seal();
        const anchor = A.chain.head.block.seqno;
        server.tamper = (request, a) => {
            if (request !== 'getBlockProof') return a;
            const p = a as liteServer_partialBlockProof;
            const step = p.steps[0] as Extract<(typeof p.steps)[number], { kind: 'liteServer.blockLinkBack' }>;
            const state = A.chain.sealed(anchor).state;
            // the proof of another entry of the same state: it does not give the target's root hash
            return { ...p, steps: [{ ...step, stateProof: prevBlocksProof(state, listedIn.seqno - 1).toBoc() }] };
        };
        await expect(fresh().proofChain(ref(deep), anchor)).rejects.toThrow(/does not list block/);
        // a state proof of another block's state (the one before the anchor, which lists the target too)
        server.tamper = (request, a) => {
            if (request !== 'getBlockProof') return a;
            const p = a as liteServer_partialBlockProof;
            const state = A.chain.sealed(anchor - 1).state;
            return { ...p, steps: [{ ...p.steps[0], stateProof: prevBlocksProof(state, listedIn.seqno).toBoc() }] };
        };
        await expect(fresh().proofChain(ref(deep), anchor)).rejects.toThrow(/not of the state after that block/);
    });

    it('a tampered path is refused by the real TransactionChecker (204): a shard block left out, a backward link through another block', async () => {
        A.chain.shardBlocksPerMc = 3;
        const txs = await transfers([...left, ...right], 3);
        A.seal();
        const deep = txs.find((t) => A.locate(t).above.length === 2)!;
        const p = await proveFor(source, ref(deep), await verifierView(liteClient));
        const nodes: { block: Cell }[] = [];
        for (let c: Cell | null = p.chain.path; c;) {
            const s = c.beginParse();
            nodes.push({ block: s.loadRef() });
            s.loadMaybeRef();
            c = s.loadMaybeRef();
        }
        expect(nodes).toHaveLength(3);
        const sigs = p.currentBlock.refs[1];
        const skipped = currentBlockOf(p.chain.blockProof, sigs, blockPathCell([nodes[1], nodes[2]]));
        let r = await check(p.transaction, p.txProof, skipped);
        expectRefused(r, Errors.transactionChecker.blockNotLinked);

        // a backward link whose state proof is of another entry of the anchor's state
        A.seal();
        A.seal();
        const anchor = A.chain.head;
        const q = await source.proofChain(ref(deep), anchor.block.seqno);
        const links: { block: Cell; state?: Cell }[] = [];
        for (let c: Cell | null = q.path; c;) {
            const s = c.beginParse();
            links.push({ block: s.loadRef(), state: s.loadMaybeRef() ?? undefined });
            c = s.loadMaybeRef();
        }
        expect(links).toHaveLength(4);
        expect(links[3].state).toBeDefined();
        const wrongState = prevBlocksProof(anchor.state, q.listedIn.seqno - 1);
        const wrong = blockPathCell([...links.slice(0, 3), { block: links[3].block, state: wrongState }]);
        const packed = packFewestSignatures(
            q.anchor.fileHash,
            await source.signatures(q.anchor),
            await verifierView(liteClient),
            q.anchor.rootHash,
        );
        r = await check(q.transaction, q.txProof, currentBlockOf(q.blockProof, packed, wrong));
        expectRefused(r, Errors.transactionChecker.blockNotLinked);
        // the genuine one passes
        r = await check(q.transaction, q.txProof, currentBlockOf(q.blockProof, packed, q.path));
        expect(r.transactions).toHaveTransaction({ op: Op.transactionChecker.transactionChecked });
    });
});
