/**
 * The proof source of a real network (lib/proofSource.ts `ProofSource`): blocks, block lookups and
 * key blocks from its lite servers through `ton-lite-client`, and masterchain block signatures from
 * a signature provider (toncenter v2 `getMasterchainBlockSignatures`, tonlib's
 * `blocks.blockSignatures`). Nothing a server answers is taken on trust where it can be checked
 * here: every block's file hash is sha256 of the served bytes and its root hash the root cell's,
 * both equal to the id asked for; its global_id is the network's; a transaction is read out of the
 * block it is proven by; the signatures name the block's own root and file hash. What cannot be
 * checked here (the signatures themselves) the LiteClient checks.
 *
 * Covered: transactions of masterchain accounts, proven by their own block (no path) — the block
 * signed by the set of its epoch. Not built yet: shard block paths (basechain transactions) and
 * backward links through a later block's state; both throw naming the missing piece.
 */
import { createHash } from 'crypto';
import { Address, Cell } from '@ton/core';
import { LiteClient as LiteServerClient } from 'ton-lite-client';
import { Functions, tonNode_blockIdExt } from 'ton-lite-client/dist/schema';
import { blockHeaderProof, keyBlockProof, transactionInBlock, transactionProof } from './blockProofs';
import {
    BlockSignature,
    KeyBlockProof,
    MasterchainBlockRef,
    ProofSource,
    TransactionProofChain,
    TransactionRef,
} from './proofSource';
import { liteClientConfigFromKeyBlock } from '../wrappers/LiteClient';

export const MASTERCHAIN_SHARD = '-9223372036854775808';

/** The fields of BlockInfo a proof source needs. */
export interface BlockInfoFields {
    notMaster: boolean;
    keyBlock: boolean;
    seqno: number;
    workchain: number;
    genUtime: number;
    startLt: bigint;
    endLt: bigint;
    prevKeyBlockSeqno: number;
}

/** block#11ef55aa global_id:int32 info:^BlockInfo ... of a block (or of a Merkle proof of it). */
export function readBlockInfo(block: Cell): BlockInfoFields & { globalId: number } {
    const root = block.isExotic && block.refs.length === 1 ? block.refs[0] : block;
    const rs = root.beginParse(true);
    if (rs.loadUint(32) !== 0x11ef55aa) throw new Error('not a Block');
    const globalId = rs.loadInt(32);
    const s = root.refs[0].beginParse(true);
    if (s.loadUint(32) !== 0x9bc7a987) throw new Error('BlockInfo is pruned or not a BlockInfo');
    s.skip(32); // version
    const notMaster = s.loadBit();
    s.skip(5); // after_merge before_split after_split want_split want_merge
    const keyBlock = s.loadBit();
    s.skip(1 + 8); // vert_seqno_incr flags
    const seqno = s.loadUint(32);
    s.skip(32); // vert_seq_no
    s.skip(2 + 6); // shard_ident$00 shard_pfx_bits:(#<= 60)
    const workchain = s.loadInt(32);
    s.skip(64); // shard_prefix
    const genUtime = s.loadUint(32);
    const startLt = s.loadUintBig(64);
    const endLt = s.loadUintBig(64);
    s.skip(32 + 32 + 32); // gen_validator_list_hash_short gen_catchain_seqno min_ref_mc_seqno
    const prevKeyBlockSeqno = s.loadUint(32);
    return { globalId, notMaster, keyBlock, seqno, workchain, genUtime, startLt, endLt, prevKeyBlockSeqno };
}

/** tonlib's blocks.blockSignatures (toncenter v2 getMasterchainBlockSignatures). */
export interface TonlibBlockSignatures {
    id: { workchain: number; shard: string; seqno: number; root_hash: string; file_hash: string };
    signatures: { node_id_short: string; signature: string }[];
}

export interface SignedBy {
    rootHash: Buffer;
    fileHash: Buffer;
    signatures: BlockSignature[];
}

/** Where the signatures of a masterchain block come from. */
export interface SignatureProvider {
    masterchainSignatures(seqno: number): Promise<SignedBy>;
}

export function signaturesFromTonlib(j: TonlibBlockSignatures): SignedBy {
    if (!j || !j.id || !Array.isArray(j.signatures)) throw new Error('block signatures: not a blocks.blockSignatures');
    return {
        rootHash: Buffer.from(j.id.root_hash, 'base64'),
        fileHash: Buffer.from(j.id.file_hash, 'base64'),
        signatures: j.signatures.map((s) => ({
            nodeIdShort: Buffer.from(s.node_id_short, 'base64'),
            signature: Buffer.from(s.signature, 'base64'),
        })),
    };
}

/** toncenter v2's `getMasterchainBlockSignatures?seqno=` (GET <base>/api/v2/...). */
export function toncenterSignatures(base: string, apiKey?: string): SignatureProvider {
    const root = base
        .replace(/\/jsonRPC$/, '')
        .replace(/\/api\/v2\/?$/, '')
        .replace(/\/+$/, '');
    return {
        async masterchainSignatures(seqno) {
            const r = await fetch(`${root}/api/v2/getMasterchainBlockSignatures?seqno=${seqno}`, {
                headers: apiKey ? { 'x-api-key': apiKey } : {},
            });
            const body = (await r.json()) as { ok: boolean; result?: TonlibBlockSignatures; error?: string };
            if (!body.ok || !body.result)
                throw new Error(`getMasterchainBlockSignatures ${seqno}: ${body.error ?? `HTTP ${r.status}`}`);
            return signaturesFromTonlib(body.result);
        },
    };
}

interface FetchedBlock {
    id: tonNode_blockIdExt;
    cell: Cell;
    info: BlockInfoFields;
}

export class LiteServerProofSource implements ProofSource {
    private blocks = new Map<string, FetchedBlock>();
    private epochOfKeyBlock = new Map<number, number>();

    constructor(
        readonly client: LiteServerClient,
        readonly signatureProvider: SignatureProvider,
        readonly globalId: number,
    ) {}

    /** The block `id` as served, checked against the id and the network. */
    private async fetch(id: tonNode_blockIdExt): Promise<FetchedBlock> {
        const key = `${id.workchain}:${id.shard}:${id.seqno}`;
        const known = this.blocks.get(key);
        if (known) return known;
        const answer = await this.client.engine.query(Functions.liteServer_getBlock, {
            kind: 'liteServer.getBlock',
            id,
        });
        const fileHash = createHash('sha256').update(answer.data).digest();
        if (!fileHash.equals(id.fileHash))
            throw new Error(
                `lite server: block ${id.seqno} has file hash ${fileHash.toString('hex')}, its id says ${id.fileHash.toString('hex')}`,
            );
        const cell = Cell.fromBoc(answer.data)[0];
        if (!cell.hash(0).equals(id.rootHash))
            throw new Error(
                `lite server: block ${id.seqno} has root hash ${cell.hash(0).toString('hex')}, its id says ${id.rootHash.toString('hex')}`,
            );
        const info = readBlockInfo(cell);
        if (info.globalId !== this.globalId)
            throw new Error(`lite server: block ${id.seqno} belongs to network ${info.globalId}, not ${this.globalId}`);
        if (info.seqno !== id.seqno || info.workchain !== id.workchain)
            throw new Error(`lite server: block ${id.seqno} says it is ${info.workchain}:${info.seqno}`);
        const b = { id, cell, info };
        this.blocks.set(key, b);
        return b;
    }

    private async masterchainBlock(seqno: number): Promise<FetchedBlock> {
        const h = await this.client.lookupBlockByID({ workchain: -1, shard: MASTERCHAIN_SHARD, seqno });
        return this.fetch(h.id);
    }

    /** utime_since of ConfigParam 34 of key block `seqno` */
    private async epochOf(keySeqno: number): Promise<number> {
        const known = this.epochOfKeyBlock.get(keySeqno);
        if (known !== undefined) return known;
        const k = await this.masterchainBlock(keySeqno);
        if (!k.info.keyBlock && keySeqno !== 0) throw new Error(`lite server: block ${keySeqno} is not a key block`);
        const since = liteClientConfigFromKeyBlock(k.cell).epochSince;
        this.epochOfKeyBlock.set(keySeqno, since);
        return since;
    }

    private async refOf(b: FetchedBlock): Promise<MasterchainBlockRef> {
        return {
            seqno: b.info.seqno,
            rootHash: b.id.rootHash,
            fileHash: b.id.fileHash,
            genUtime: b.info.genUtime,
            keyBlock: b.info.keyBlock,
            // signed by the set of the key block before it (a key block too: its own set starts after it)
            signedByEpoch: await this.epochOf(b.info.prevKeyBlockSeqno),
        };
    }

    async lastBlock(): Promise<MasterchainBlockRef> {
        const last = (await this.client.getMasterchainInfo()).last;
        return this.refOf(await this.fetch(last));
    }

    async lastBlockSignedBy(epochSince: number): Promise<MasterchainBlockRef | null> {
        const last = await this.lastBlock();
        if (last.signedByEpoch === epochSince) return last;
        // walk back through the key blocks: the last block of a set is the one before the key block
        // whose ConfigParam 34 replaced it
        let b = await this.masterchainBlock(last.seqno);
        for (let i = 0; i < 16 && b.info.prevKeyBlockSeqno > 0; i++) {
            const key = await this.masterchainBlock(b.info.prevKeyBlockSeqno);
            const before = await this.masterchainBlock(key.info.seqno - 1);
            const ref = await this.refOf(before);
            if (ref.signedByEpoch === epochSince) return ref;
            if (ref.signedByEpoch < epochSince) return null;
            b = key;
        }
        return null;
    }

    private requireMasterchain(tx: TransactionRef): void {
        if (tx.account.workChain !== -1)
            throw new Error(
                `transaction of ${tx.account.toRawString()}: the lite-server source proves masterchain transactions only (shard block paths are not built yet)`,
            );
    }

    async locate(tx: TransactionRef): Promise<MasterchainBlockRef | null> {
        this.requireMasterchain(tx);
        let h;
        try {
            h = await this.client.lookupBlockByLt({ workchain: -1, shard: MASTERCHAIN_SHARD, lt: tx.lt });
        } catch {
            return null;
        }
        const b = await this.fetch(h.id);
        if (tx.lt < b.info.startLt || tx.lt >= b.info.endLt)
            throw new Error(
                `lite server: lt ${tx.lt} is outside block ${b.info.seqno} (${b.info.startLt}..${b.info.endLt})`,
            );
        transactionInBlock(b.cell, { account: tx.account.hash, lt: tx.lt });
        return this.refOf(b);
    }

    async proofChain(tx: TransactionRef, anchorSeqno?: number): Promise<TransactionProofChain> {
        const listedIn = await this.locate(tx);
        if (!listedIn) throw new Error(`transaction ${tx.account.toRawString()} lt ${tx.lt}: no block holds it yet`);
        if (anchorSeqno !== undefined && anchorSeqno !== listedIn.seqno)
            throw new Error(
                `block ${listedIn.seqno} proven through block ${anchorSeqno}: backward links are not built by the lite-server source yet`,
            );
        const b = await this.masterchainBlock(listedIn.seqno);
        const ref = { account: tx.account.hash, lt: tx.lt };
        return {
            transaction: transactionInBlock(b.cell, ref),
            txProof: transactionProof(b.cell, ref, { keepTransactionCell: true }),
            blockProof: blockHeaderProof(b.cell),
            path: null,
            listedIn,
            anchor: listedIn,
        };
    }

    async signatures(block: MasterchainBlockRef): Promise<BlockSignature[]> {
        const s = await this.signatureProvider.masterchainSignatures(block.seqno);
        if (!s.rootHash.equals(block.rootHash) || !s.fileHash.equals(block.fileHash))
            throw new Error(
                `signatures of block ${block.seqno}: they name another block (root ${s.rootHash.toString('hex')})`,
            );
        return s.signatures;
    }

    async keyBlocksAfter(after: number): Promise<KeyBlockProof[]> {
        const last = await this.lastBlock();
        const out: KeyBlockProof[] = [];
        let seqno = last.keyBlock ? last.seqno : (await this.masterchainBlock(last.seqno)).info.prevKeyBlockSeqno;
        while (seqno > after && seqno > 0) {
            const b = await this.masterchainBlock(seqno);
            const ref = await this.refOf(b);
            out.push({
                block: ref,
                proof: keyBlockProof(b.cell),
                signatures: await this.signatures(ref),
                installsEpoch: await this.epochOf(seqno),
            });
            seqno = b.info.prevKeyBlockSeqno;
        }
        return out.reverse();
    }
}

/** A transaction reference from the Proof API's path parameters. */
export function transactionRef(address: string, lt: string): TransactionRef {
    return { account: Address.parse(address), lt: BigInt(lt) };
}
