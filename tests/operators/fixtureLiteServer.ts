/**
 * A lite server answering from blocks it holds (saved testnet blocks, or a simulated network's
 * sealed blocks), behind ton-lite-client's `LiteEngine` interface at the TL level: every request is
 * encoded by ton-lite-client as it would go on the wire, decoded here, answered, the answer
 * TL-encoded and decoded by ton-lite-client again. The answers are built the way a TON node's lite
 * server builds them (validator/impl/liteserver.cpp), from the blocks held and nothing else:
 *   - liteServer.getMasterchainInfo: the newest masterchain block held (or `last`);
 *   - liteServer.lookupBlock by seqno and by lt; for a shard chain the shard is an account prefix
 *     and the block is the one of the shard that holds it;
 *   - liteServer.getBlock, liteServer.getBlockHeader (BlockInfo with its references);
 *   - liteServer.getOneTransaction: the transaction, and the block's proof down to it;
 *   - liteServer.getShardBlockProof: the first masterchain block that lists the block or a
 *     descendant, its proof keeping the top block's ShardDescr, then the header proofs of the shard
 *     blocks from the top down to the block;
 *   - liteServer.getBlockProof from a masterchain block to an older one: one blockLinkBack, the
 *     newer block's proof keeping its state_update and the proof of the state after it down to
 *     prev_blocks. The state is `stateOf(seqno)`: by default the new state the block's own
 *     state_update carries (the cells the block changed, so recent prev_blocks entries only).
 * `tamperData` changes what getBlock serves (a block's bytes under its genuine id); `put` holds a
 * forged block under a consistent id; `tamper` rewrites any other answer.
 */
import { createHash } from 'crypto';
import { EventEmitter } from 'events';
import { Cell } from '@ton/core';
import { TLReadBuffer, TLWriteBuffer } from 'ton-tl';
import { LiteEngine } from 'ton-lite-client';
import {
    Codecs,
    liteServer_BlockLink,
    liteServer_shardBlockLink,
    tonNode_blockIdExt,
} from 'ton-lite-client/dist/schema';
import {
    blockHeaderProof,
    blockProof,
    blockWithStateProof,
    masterchainProofWithShard,
    prevBlocksProof,
    transactionInBlock,
} from '../../lib/blockProofs';
import {
    BlockInfoFields,
    MASTERCHAIN_SHARD,
    prevRootHashes,
    readBlockInfo,
    shardIdOf,
} from '../../lib/liteServerSource';

export interface FixtureBlock {
    seqno: number;
    data: Buffer;
}

export interface HeldBlock {
    id: tonNode_blockIdExt;
    data: Buffer;
    cell: Cell;
    info: BlockInfoFields;
}

/** TL constructor ids of the requests served (ton-lite-client's schema) */
const GET_MASTERCHAIN_INFO = -1984567762;
const LOOKUP_BLOCK = -87492834;
const GET_BLOCK = 1668796173;
const GET_BLOCK_HEADER = 569116318;
const GET_ONE_TRANSACTION = -737205014;
const GET_SHARD_BLOCK_PROOF = 1285948240;
const GET_BLOCK_PROOF = -1964336060;

const u64 = (s: string) => BigInt.asUintN(64, BigInt(s));

/** Whether shard `shard` (prefix and tag bit) holds the account prefix or shard `other`. */
function shardIntersects(shard: bigint, other: bigint): boolean {
    const tag = (x: bigint) => x & -x;
    const mask = (x: bigint) => BigInt.asUintN(64, ~(tag(x) * 2n - 1n));
    const m = tag(shard) > tag(other) ? mask(shard) : mask(other);
    return (shard & m) === (other & m);
}

export class FixtureLiteServer extends EventEmitter implements LiteEngine {
    /** masterchain blocks by seqno */
    readonly blocks = new Map<number, HeldBlock>();
    /** blocks of the shard chains */
    readonly shardBlocks: HeldBlock[] = [];
    readonly requests: string[] = [];
    /** the masterchain block getMasterchainInfo names (default: the newest held) */
    last?: number;
    /** replaces the bytes served for a block (the id stays the genuine one) */
    tamperData?: (seqno: number, data: Buffer) => Buffer;
    /** rewrites a decoded answer before it is encoded (a lying server) */
    tamper?: (request: string, answer: unknown) => unknown;
    /** the masterchain state after block `seqno` (default: what its state_update carries) */
    stateOf: (seqno: number) => Cell | undefined = (seqno) => this.blocks.get(seqno)?.cell.refs[2].refs[1];
    private closed = false;

    constructor(blocks: FixtureBlock[] = []) {
        super();
        for (const b of blocks) this.put(b.seqno, b.data);
    }

    /** Holds `data` as masterchain block `seqno` under its own hashes (a lying server does this with a forged block). */
    put(seqno: number, data: Buffer): HeldBlock {
        const cell = Cell.fromBoc(data)[0];
        const b = {
            id: {
                kind: 'tonNode.blockIdExt' as const,
                workchain: -1,
                shard: MASTERCHAIN_SHARD,
                seqno,
                rootHash: cell.hash(0),
                fileHash: createHash('sha256').update(data).digest(),
            },
            data,
            cell,
            info: readBlockInfo(cell),
        };
        this.blocks.set(seqno, b);
        return b;
    }

    /** Holds a block of a shard chain, under the id its BlockInfo gives. */
    putShardBlock(data: Buffer): HeldBlock {
        const cell = Cell.fromBoc(data)[0];
        const info = readBlockInfo(cell);
        const b = {
            id: {
                kind: 'tonNode.blockIdExt' as const,
                workchain: info.workchain,
                shard: shardIdOf(info),
                seqno: info.seqno,
                rootHash: cell.hash(0),
                fileHash: createHash('sha256').update(data).digest(),
            },
            data,
            cell,
            info,
        };
        this.shardBlocks.push(b);
        return b;
    }

    async query<REQ, RES>(
        f: { encodeRequest(req: REQ, w: TLWriteBuffer): void; decodeResponse(r: TLReadBuffer): RES },
        req: REQ,
    ): Promise<RES> {
        if (this.closed) throw new Error('engine is closed');
        const w = new TLWriteBuffer();
        f.encodeRequest(req, w);
        const answer = this.serve(new TLReadBuffer(w.build()));
        return f.decodeResponse(new TLReadBuffer(answer));
    }

    protected refresh(): void {
        /* a server over a growing chain takes its new blocks here */
    }

    private answer<T>(request: string, a: T): T {
        return this.tamper ? (this.tamper(request, a) as T) : a;
    }

    private serve(r: TLReadBuffer): Buffer {
        this.refresh();
        const fn = r.readInt32();
        const w = new TLWriteBuffer();
        if (fn === GET_MASTERCHAIN_INFO) {
            this.requests.push('getMasterchainInfo');
            const seqno = this.last ?? Math.max(...this.blocks.keys());
            const b = this.heldMc(seqno);
            Codecs.liteServer_MasterchainInfo.encode(
                {
                    kind: 'liteServer.masterchainInfo',
                    last: b.id,
                    stateRootHash: Buffer.alloc(32),
                    init: {
                        kind: 'tonNode.zeroStateIdExt',
                        workchain: -1,
                        rootHash: Buffer.alloc(32),
                        fileHash: Buffer.alloc(32),
                    },
                },
                w,
            );
        } else if (fn === LOOKUP_BLOCK) {
            const q = Codecs.liteServer_lookupBlock.decode(r);
            this.requests.push(
                `lookupBlock mode ${q.mode}${q.id.workchain === -1 ? '' : ` workchain ${q.id.workchain}`}`,
            );
            const candidates =
                q.id.workchain === -1
                    ? [...this.blocks.values()]
                    : this.shardBlocks.filter(
                          (b) =>
                              b.id.workchain === q.id.workchain &&
                              shardIntersects(u64(b.id.shard), u64(q.id.shard) | 1n),
                      );
            let b;
            if (q.mode & 1) b = candidates.find((x) => x.id.seqno === q.id.seqno);
            else if (q.mode & 2) {
                const lt = BigInt(q.lt!);
                b = candidates.find((x) => x.info.startLt <= lt && lt < x.info.endLt);
            } else throw new Error(`lite server: lookupBlock mode ${q.mode} is not served here`);
            if (!b) throw new Error(`lite server: block not found`);
            Codecs.liteServer_BlockHeader.encode(
                this.answer('lookupBlock', {
                    kind: 'liteServer.blockHeader',
                    id: b.id,
                    mode: q.mode,
                    headerProof: blockHeaderProof(b.cell).toBoc(),
                }),
                w,
            );
        } else if (fn === GET_BLOCK) {
            const q = Codecs.liteServer_getBlock.decode(r);
            this.requests.push(`getBlock ${q.id.workchain === -1 ? '' : `${q.id.workchain}:`}${q.id.seqno}`);
            const b = this.held(q.id);
            const data = this.tamperData ? this.tamperData(q.id.seqno, b.data) : b.data;
            Codecs.liteServer_BlockData.encode({ kind: 'liteServer.blockData', id: b.id, data }, w);
        } else if (fn === GET_BLOCK_HEADER) {
            const q = Codecs.liteServer_getBlockHeader.decode(r);
            this.requests.push(`getBlockHeader ${q.id.seqno}`);
            const b = this.held(q.id);
            Codecs.liteServer_BlockHeader.encode(
                this.answer('getBlockHeader', {
                    kind: 'liteServer.blockHeader',
                    id: b.id,
                    mode: q.mode,
                    headerProof: blockHeaderProof(b.cell).toBoc(),
                }),
                w,
            );
        } else if (fn === GET_ONE_TRANSACTION) {
            const q = Codecs.liteServer_getOneTransaction.decode(r);
            this.requests.push(`getOneTransaction ${q.id.workchain}:${q.id.seqno}`);
            const b = this.held(q.id);
            const ref = { account: q.account.id, lt: BigInt(q.lt) };
            let proof: Cell;
            let transaction: Buffer = Buffer.alloc(0);
            try {
                // as a node builds it: the path to the transaction, the transaction itself pruned
                proof = blockProof(b.cell, { info: false, transactions: [ref] });
                transaction = transactionInBlock(b.cell, ref).toBoc();
            } catch {
                proof = blockProof(b.cell, { info: false });
            }
            Codecs.liteServer_TransactionInfo.encode(
                this.answer('getOneTransaction', {
                    kind: 'liteServer.transactionInfo',
                    id: b.id,
                    proof: proof.toBoc(),
                    transaction,
                }),
                w,
            );
        } else if (fn === GET_SHARD_BLOCK_PROOF) {
            const q = Codecs.liteServer_getShardBlockProof.decode(r);
            this.requests.push(`getShardBlockProof ${q.id.workchain}:${q.id.seqno}`);
            const s = this.held(q.id);
            const { mc, chain } = this.listing(s);
            // links[0]: the top block, named by the masterchain block's proof; then each block below,
            // named by the header proof of the one above it
            const links: liteServer_shardBlockLink[] = [
                {
                    kind: 'liteServer.shardBlockLink',
                    id: chain[0].id,
                    proof: blockProof(mc.cell, { info: false, shardRootHashes: [chain[0].id.rootHash] }).toBoc(),
                },
            ];
            for (let i = 1; i < chain.length; i++)
                links.push({
                    kind: 'liteServer.shardBlockLink',
                    id: chain[i].id,
                    proof: blockHeaderProof(chain[i - 1].cell).toBoc(),
                });
            Codecs.liteServer_ShardBlockProof.encode(
                this.answer('getShardBlockProof', { kind: 'liteServer.shardBlockProof', masterchainId: mc.id, links }),
                w,
            );
        } else if (fn === GET_BLOCK_PROOF) {
            const q = Codecs.liteServer_getBlockProof.decode(r);
            const from = this.held(q.knownBlock);
            const to = q.targetBlock ? this.held(q.targetBlock) : undefined;
            this.requests.push(`getBlockProof ${from.id.seqno} -> ${to?.id.seqno}`);
            if (!to || to.id.seqno >= from.id.seqno)
                throw new Error('lite server: only backward links to a given older block are served here');
            const state = this.stateOf(from.id.seqno);
            if (!state) throw new Error(`lite server: the state after block ${from.id.seqno} is not held`);
            const step: liteServer_BlockLink = {
                kind: 'liteServer.blockLinkBack',
                toKeyBlock: to.info.keyBlock,
                from: from.id,
                to: to.id,
                destProof: to.info.keyBlock ? blockHeaderProof(to.cell).toBoc() : Buffer.alloc(0),
                proof: blockWithStateProof(from.cell).toBoc(),
                stateProof: prevBlocksProof(state, to.id.seqno).toBoc(),
            };
            Codecs.liteServer_PartialBlockProof.encode(
                this.answer('getBlockProof', {
                    kind: 'liteServer.partialBlockProof',
                    complete: true,
                    from: from.id,
                    to: to.id,
                    steps: [step],
                }),
                w,
            );
        } else throw new Error(`lite server: function ${fn} is not served here`);
        return w.build();
    }

    /**
     * The first masterchain block listing `s` or a block after it in its shard, and the shard blocks
     * from the listed top down to `s` (each naming the next in prev_ref).
     */
    private listing(s: HeldBlock): { mc: HeldBlock; chain: HeldBlock[] } {
        const byRoot = new Map(this.shardBlocks.map((b) => [b.id.rootHash.toString('hex'), b]));
        const down = (top: HeldBlock): HeldBlock[] | null => {
            const chain = [top];
            let cur = top;
            while (!cur.id.rootHash.equals(s.id.rootHash)) {
                if (cur.id.seqno <= s.id.seqno) return null;
                const prev = prevRootHashes(cur.cell)
                    .map((h) => byRoot.get(h.toString('hex')))
                    .find((p) => p && shardIntersects(u64(p.id.shard), u64(s.id.shard)));
                if (!prev) return null;
                chain.push(prev);
                cur = prev;
            }
            return chain;
        };
        const mcs = [...this.blocks.values()].sort((a, b) => a.id.seqno - b.id.seqno);
        for (const mc of mcs) {
            for (const top of this.shardBlocks) {
                if (top.id.workchain !== s.id.workchain || !shardIntersects(u64(top.id.shard), u64(s.id.shard)))
                    continue;
                try {
                    masterchainProofWithShard(mc.cell, top.id.rootHash);
                } catch {
                    continue;
                }
                const chain = down(top);
                if (chain) return { mc, chain };
            }
        }
        throw new Error(`lite server: no masterchain block lists block ${s.id.workchain}:${s.id.seqno} yet`);
    }

    private heldMc(seqno: number): HeldBlock {
        const b = this.blocks.get(seqno);
        if (!b) throw new Error(`lite server: block ${seqno} not found`);
        return b;
    }

    private held(id: tonNode_blockIdExt): HeldBlock {
        if (id.workchain === -1) return this.heldMc(id.seqno);
        const b = this.shardBlocks.find((x) => x.id.rootHash.equals(id.rootHash));
        if (!b) throw new Error(`lite server: block ${id.workchain}:${id.seqno} not found`);
        return b;
    }

    close(): void {
        this.closed = true;
    }
    isClosed(): boolean {
        return this.closed;
    }
    isReady(): boolean {
        return !this.closed;
    }
}
