/**
 * A lite server answering from saved testnet blocks (the real fixtures), behind ton-lite-client's
 * `LiteEngine` interface at the TL level: every request is encoded by ton-lite-client as it would go
 * on the wire, decoded here, answered, the answer TL-encoded and decoded by ton-lite-client again.
 * What it serves: liteServer.getMasterchainInfo (the newest block it holds, or `last`),
 * liteServer.lookupBlock by seqno and by lt, liteServer.getBlock. `tamper` changes what it serves:
 * a block's bytes (served under the genuine id), or a forged block with a consistent id.
 */
import { createHash } from 'crypto';
import { EventEmitter } from 'events';
import { Cell } from '@ton/core';
import { TLReadBuffer, TLWriteBuffer } from 'ton-tl';
import { LiteEngine } from 'ton-lite-client';
import { Codecs, tonNode_blockIdExt } from 'ton-lite-client/dist/schema';
import { blockHeaderProof } from '../../lib/blockProofs';
import { MASTERCHAIN_SHARD, readBlockInfo } from '../../lib/liteServerSource';

export interface FixtureBlock {
    seqno: number;
    data: Buffer;
}

/** TL constructor ids of the requests served (ton-lite-client's schema) */
const GET_MASTERCHAIN_INFO = -1984567762;
const LOOKUP_BLOCK = -87492834;
const GET_BLOCK = 1668796173;

export class FixtureLiteServer extends EventEmitter implements LiteEngine {
    readonly blocks = new Map<number, { id: tonNode_blockIdExt; data: Buffer; startLt: bigint; endLt: bigint }>();
    readonly requests: string[] = [];
    /** the masterchain block getMasterchainInfo names (default: the newest held) */
    last?: number;
    /** replaces the bytes served for a block (the id stays the genuine one) */
    tamperData?: (seqno: number, data: Buffer) => Buffer;
    private closed = false;

    constructor(blocks: FixtureBlock[]) {
        super();
        for (const b of blocks) this.put(b.seqno, b.data);
    }

    /** Holds `data` as block `seqno` under its own hashes (a lying server does this with a forged block). */
    put(seqno: number, data: Buffer): void {
        const cell = Cell.fromBoc(data)[0];
        const info = readBlockInfo(cell);
        this.blocks.set(seqno, {
            id: {
                kind: 'tonNode.blockIdExt',
                workchain: -1,
                shard: MASTERCHAIN_SHARD,
                seqno,
                rootHash: cell.hash(0),
                fileHash: createHash('sha256').update(data).digest(),
            },
            data,
            startLt: info.startLt,
            endLt: info.endLt,
        });
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

    private serve(r: TLReadBuffer): Buffer {
        const fn = r.readInt32();
        const w = new TLWriteBuffer();
        if (fn === GET_MASTERCHAIN_INFO) {
            this.requests.push('getMasterchainInfo');
            const seqno = this.last ?? Math.max(...this.blocks.keys());
            const b = this.held(seqno);
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
            this.requests.push(`lookupBlock mode ${q.mode}`);
            if (q.id.workchain !== -1) throw new Error(`lite server: no blocks of workchain ${q.id.workchain} here`);
            let b;
            if (q.mode & 1) b = this.held(q.id.seqno);
            else if (q.mode & 2) {
                const lt = BigInt(q.lt!);
                b = [...this.blocks.values()].find((x) => x.startLt <= lt && lt < x.endLt);
                if (!b) throw new Error(`lite server: no block with lt ${lt}`);
            } else throw new Error(`lite server: lookupBlock mode ${q.mode} is not served here`);
            Codecs.liteServer_BlockHeader.encode(
                {
                    kind: 'liteServer.blockHeader',
                    id: b.id,
                    mode: q.mode,
                    headerProof: blockHeaderProof(Cell.fromBoc(b.data)[0]).toBoc(),
                },
                w,
            );
        } else if (fn === GET_BLOCK) {
            const q = Codecs.liteServer_getBlock.decode(r);
            this.requests.push(`getBlock ${q.id.seqno}`);
            const b = this.held(q.id.seqno);
            const data = this.tamperData ? this.tamperData(q.id.seqno, b.data) : b.data;
            Codecs.liteServer_BlockData.encode({ kind: 'liteServer.blockData', id: b.id, data }, w);
        } else throw new Error(`lite server: function ${fn} is not served here`);
        return w.build();
    }

    private held(seqno: number) {
        const b = this.blocks.get(seqno);
        if (!b) throw new Error(`lite server: block ${seqno} not found`);
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
