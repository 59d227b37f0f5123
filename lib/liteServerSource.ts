/**
 * The proof source of a real network (lib/proofSource.ts `ProofSource`): blocks, block lookups and
 * key blocks from its lite servers through `ton-lite-client`, and masterchain block signatures from
 * a signature provider (toncenter v2 `getMasterchainBlockSignatures`, tonlib's
 * `blocks.blockSignatures`). Nothing a server answers is taken on trust where it can be checked
 * here: every block's file hash is sha256 of the served bytes and its root hash the root cell's,
 * both equal to the id asked for; every Merkle proof proves the root hash of the block it stands
 * for; its global_id is the network's; a transaction is read out of the block it is proven by; each
 * link of a path names the block below it; the signatures name the block's own root and file hash.
 * What cannot be checked here (the signatures themselves) the LiteClient checks.
 *
 * What it builds (contracts/verifier.tlb, BlockPath):
 *   - a masterchain transaction: its own block (liteServer.getBlock), signed by the set of its epoch;
 *   - a basechain transaction: the shard block that holds it (liteServer.lookupBlock by lt in the
 *     account's shard, liteServer.getOneTransaction with its proof, liteServer.getBlockHeader), the
 *     shard blocks above it up to the top one a masterchain block lists and that masterchain block
 *     (liteServer.getShardBlockProof: a shard produces several blocks per masterchain block, only
 *     the newest is listed, the older ones are reached through BlockInfo.prev_ref);
 *   - a block older than the verifier's epoch, or than a block it recorded: a backward link from
 *     the later block (liteServer.getBlockProof, liteServer.blockLinkBack: that block's proof keeping
 *     its state_update, and the proof of its state down to McStateExtra.prev_blocks).
 */
import { createHash } from 'crypto';
import { Address, Cell } from '@ton/core';
import { LiteClient as LiteServerClient } from 'ton-lite-client';
import { Functions, tonNode_blockIdExt } from 'ton-lite-client/dist/schema';
import {
    blockHeaderProof,
    blockPathCell,
    blockWithStateProof,
    keyBlockProof,
    masterchainProofWithShard,
    mergeProofs,
    PathBlock,
    prevBlockRootHash,
    prevBlocksProof,
    proofVirtualHash,
    stateHashAfter,
    transactionInBlock,
    transactionProof,
    virtualRoot,
} from './blockProofs';
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
    afterMerge: boolean;
    /** shard_ident: shard_pfx_bits and shard_prefix */
    shardPfxBits: number;
    shardPrefix: bigint;
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
    const afterMerge = s.loadBit();
    s.skip(4); // before_split after_split want_split want_merge
    const keyBlock = s.loadBit();
    s.skip(1 + 8); // vert_seqno_incr flags
    const seqno = s.loadUint(32);
    s.skip(32); // vert_seq_no
    s.skip(2); // shard_ident$00
    const shardPfxBits = s.loadUint(6);
    const workchain = s.loadInt(32);
    const shardPrefix = s.loadUintBig(64);
    const genUtime = s.loadUint(32);
    const startLt = s.loadUintBig(64);
    const endLt = s.loadUintBig(64);
    s.skip(32 + 32 + 32); // gen_validator_list_hash_short gen_catchain_seqno min_ref_mc_seqno
    const prevKeyBlockSeqno = s.loadUint(32);
    return {
        globalId,
        notMaster,
        afterMerge,
        shardPfxBits,
        shardPrefix,
        keyBlock,
        seqno,
        workchain,
        genUtime,
        startLt,
        endLt,
        prevKeyBlockSeqno,
    };
}

/** The root hashes BlockInfo.prev_ref names (two after a merge) of a block or a Merkle proof of it. */
export function prevRootHashes(block: Cell): Buffer[] {
    const info = virtualRoot(block).refs[0];
    const { notMaster, afterMerge } = readBlockInfo(block);
    const prev = info.refs[notMaster ? 1 : 0];
    if (!prev || prev.isExotic) throw new Error('BlockInfo.prev_ref is pruned');
    // ExtBlkRef: end_lt:uint64 seq_no:uint32 root_hash:bits256 file_hash:bits256
    const rootOf = (c: Cell) =>
        c
            .beginParse()
            .skip(64 + 32)
            .loadBuffer(32);
    return afterMerge ? prev.refs.map(rootOf) : [rootOf(prev)];
}

/** An unsigned 64-bit value as the signed decimal string TL longs travel as. */
export function tlLong(v: bigint): string {
    return BigInt.asIntN(64, v).toString();
}

/** The shard id (prefix and tag bit) of a BlockInfo's shard_ident, as a TL long. */
export function shardIdOf(info: Pick<BlockInfoFields, 'shardPfxBits' | 'shardPrefix'>): string {
    return tlLong(info.shardPrefix | (1n << BigInt(63 - info.shardPfxBits)));
}

/**
 * What liteServer.lookupBlock takes as the shard of an account: the first 64 bits of its address
 * (the node reads it as an account prefix and finds the shard that held the account at that time).
 */
export function accountPrefix(account: Address): string {
    return tlLong(account.hash.readBigUInt64BE(0));
}

const sameId = (a: tonNode_blockIdExt, b: tonNode_blockIdExt) =>
    a.workchain === b.workchain &&
    BigInt(a.shard) === BigInt(b.shard) &&
    a.seqno === b.seqno &&
    a.rootHash.equals(b.rootHash) &&
    a.fileHash.equals(b.fileHash);
const idText = (id: tonNode_blockIdExt) =>
    `${id.workchain}:${BigInt.asUintN(64, BigInt(id.shard)).toString(16)}:${id.seqno}`;

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

/** A transaction of a shard chain and what proves it up to the masterchain block that lists it. */
interface ShardLocation {
    transaction: Cell;
    txProof: Cell;
    /** header proofs of the shard blocks above the holder, the lowest first (each names the one below) */
    above: Cell[];
    /** the masterchain block's proof keeping the ShardDescr of the top shard block */
    listing: Cell;
    mc: FetchedBlock;
}

/** blocks a BlockPath may hold (contracts/transaction_checker.fc tc::max_path) */
const MAX_PATH = 16;

export class LiteServerProofSource implements ProofSource {
    private blocks = new Map<string, FetchedBlock>();
    private epochOfKeyBlock = new Map<number, number>();
    private shardLocations = new Map<string, ShardLocation>();

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

    /** A Merkle proof served for block `id` must prove its root hash; `info`: its BlockInfo must name the block and the network. */
    private checkProof(proof: Cell, id: tonNode_blockIdExt, what: string, info = true): BlockInfoFields | undefined {
        if (!proofVirtualHash(proof).equals(id.rootHash))
            throw new Error(`lite server: the ${what} of block ${idText(id)} proves another root hash`);
        if (!info) return undefined;
        const i = readBlockInfo(proof);
        if (i.globalId !== this.globalId)
            throw new Error(`lite server: block ${idText(id)} belongs to network ${i.globalId}, not ${this.globalId}`);
        if (i.seqno !== id.seqno || i.workchain !== id.workchain || shardIdOf(i) !== tlLong(BigInt(id.shard)))
            throw new Error(`lite server: the ${what} of block ${idText(id)} is of block ${i.workchain}:${i.seqno}`);
        return i;
    }

    private async locateMasterchain(tx: TransactionRef): Promise<FetchedBlock | null> {
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
        return b;
    }

    /**
     * A transaction of a shard chain: the block holding it (lookupBlock in the account's shard by
     * lt), the transaction with its proof (getOneTransaction, merged with the block's header proof),
     * and the shard blocks from it up to the masterchain block that lists the top one
     * (getShardBlockProof), each checked to name the one below. Null when no block holds it yet.
     */
    private async locateInShard(tx: TransactionRef): Promise<ShardLocation | null> {
        const key = `${tx.account.toRawString()}:${tx.lt}`;
        const known = this.shardLocations.get(key);
        if (known) return known;
        let h;
        try {
            h = await this.client.lookupBlockByLt({
                workchain: tx.account.workChain,
                shard: accountPrefix(tx.account),
                lt: tx.lt,
            });
        } catch {
            return null;
        }
        const holder = h.id;
        const headerProof = Cell.fromBoc(h.headerProof)[0];
        const info = this.checkProof(headerProof, holder, 'header proof')!;
        if (!info.notMaster) throw new Error(`lite server: block ${idText(holder)} is not a shard block`);
        if (tx.lt < info.startLt || tx.lt >= info.endLt)
            throw new Error(
                `lite server: lt ${tx.lt} is outside block ${idText(holder)} (${info.startLt}..${info.endLt})`,
            );
        const pfx = BigInt.asUintN(64, BigInt(accountPrefix(tx.account)));
        const bits = BigInt(64 - info.shardPfxBits);
        if (info.shardPfxBits > 0 && pfx >> bits !== info.shardPrefix >> bits)
            throw new Error(
                `lite server: block ${idText(holder)} is of a shard that does not hold ${tx.account.toRawString()}`,
            );
        const one = await this.client.engine.query(Functions.liteServer_getOneTransaction, {
            kind: 'liteServer.getOneTransaction',
            id: holder,
            account: { kind: 'liteServer.accountId', workchain: tx.account.workChain, id: tx.account.hash },
            lt: tx.lt.toString(),
        });
        if (!sameId(one.id, holder)) throw new Error(`lite server: getOneTransaction answered from another block`);
        if (one.transaction.length === 0) return null;
        const transaction = Cell.fromBoc(one.transaction)[0];
        const proof = Cell.fromBoc(one.proof)[0];
        this.checkProof(proof, holder, 'transaction proof', false);
        const ref = { account: tx.account.hash, lt: tx.lt };
        const block = mergeProofs([headerProof, proof], [transaction]);
        let held: Cell | undefined;
        try {
            held = transactionInBlock(block, ref);
        } catch {
            /* the transaction served stands for no pruned branch of the proof */
        }
        if (!held?.hash().equals(transaction.hash()))
            throw new Error(`lite server: the transaction served is not the one block ${idText(holder)} holds`);
        const txProof = transactionProof(block, ref, { keepTransactionCell: true });

        const sp = await this.client.engine.query(Functions.liteServer_getShardBlockProof, {
            kind: 'liteServer.getShardBlockProof',
            id: holder,
        });
        if (sp.masterchainId.workchain !== -1 || sp.links.length === 0)
            throw new Error(`lite server: no masterchain block lists shard block ${idText(holder)} yet`);
        if (sp.links.length > MAX_PATH - 1)
            throw new Error(
                `lite server: shard block ${idText(holder)} is ${sp.links.length} blocks below its masterchain block`,
            );
        const mc = await this.fetch(sp.masterchainId);
        const top = sp.links[0].id;
        const listing = masterchainProofWithShard(mc.cell, top.rootHash);
        const above: Cell[] = [];
        let upper = top;
        for (const link of sp.links.slice(1)) {
            const p = Cell.fromBoc(link.proof)[0];
            const i = this.checkProof(p, upper, 'shard block proof')!;
            if (!i.notMaster || !prevRootHashes(p).some((r) => r.equals(link.id.rootHash)))
                throw new Error(`lite server: shard block ${idText(upper)} does not name ${idText(link.id)} before it`);
            above.unshift(blockHeaderProof(p));
            upper = link.id;
        }
        if (!sameId(upper, holder))
            throw new Error(`lite server: the shard block proof of ${idText(holder)} leads to ${idText(upper)}`);
        const loc = { transaction, txProof, above, listing, mc };
        this.shardLocations.set(key, loc);
        return loc;
    }

    /**
     * The backward link from masterchain block `anchorSeqno` to the older `target`: the anchor's proof
     * keeping its state_update (from the block), and the proof of the state after it whose prev_blocks
     * gives the target's root hash (getBlockProof, the state_proof of one liteServer.blockLinkBack).
     */
    private async backwardLink(
        anchorSeqno: number,
        target: FetchedBlock,
    ): Promise<{ anchor: FetchedBlock; link: PathBlock }> {
        const anchor = await this.masterchainBlock(anchorSeqno);
        const answer = await this.client.engine.query(Functions.liteServer_getBlockProof, {
            kind: 'liteServer.getBlockProof',
            mode: 1,
            knownBlock: anchor.id,
            targetBlock: target.id,
        });
        const step = answer.steps[0];
        if (
            !step ||
            step.kind !== 'liteServer.blockLinkBack' ||
            !sameId(step.from, anchor.id) ||
            !sameId(step.to, target.id)
        )
            throw new Error(
                `lite server: the proof from block ${anchorSeqno} to ${target.info.seqno} is not a backward link between them`,
            );
        // the later block's side comes from the block itself (fetched whole, checked against its id): its
        // state_update as the block holds it; the server's own proof of it adds nothing to check
        const state = Cell.fromBoc(step.stateProof)[0];
        if (!proofVirtualHash(state).equals(stateHashAfter(anchor.cell)))
            throw new Error(
                `lite server: the state proof of the link from ${anchorSeqno} is not of the state after that block`,
            );
        let listed: Buffer | undefined;
        try {
            listed = prevBlockRootHash(state, target.info.seqno);
        } catch {
            /* the entry is pruned or absent */
        }
        if (!listed?.equals(target.id.rootHash))
            throw new Error(
                `lite server: the state proof after block ${anchorSeqno} does not list block ${target.info.seqno}`,
            );
        return {
            anchor,
            link: { block: blockWithStateProof(anchor.cell), state: prevBlocksProof(state, target.info.seqno) },
        };
    }

    async locate(tx: TransactionRef): Promise<MasterchainBlockRef | null> {
        if (tx.account.workChain === -1) {
            const b = await this.locateMasterchain(tx);
            return b ? this.refOf(b) : null;
        }
        const loc = await this.locateInShard(tx);
        return loc ? this.refOf(loc.mc) : null;
    }

    async proofChain(tx: TransactionRef, anchorSeqno?: number): Promise<TransactionProofChain> {
        const none = () => new Error(`transaction ${tx.account.toRawString()} lt ${tx.lt}: no block holds it yet`);
        const ref = { account: tx.account.hash, lt: tx.lt };
        let mc: FetchedBlock;
        let transaction: Cell;
        let txProof: Cell;
        const blocks: PathBlock[] = [];
        if (tx.account.workChain === -1) {
            const b = await this.locateMasterchain(tx);
            if (!b) throw none();
            mc = b;
            transaction = transactionInBlock(b.cell, ref);
            txProof = transactionProof(b.cell, ref, { keepTransactionCell: true });
        } else {
            const loc = await this.locateInShard(tx);
            if (!loc) throw none();
            mc = loc.mc;
            transaction = loc.transaction;
            txProof = loc.txProof;
            blocks.push(...loc.above.map((block) => ({ block })), { block: loc.listing });
        }
        const listedIn = await this.refOf(mc);
        let anchor = listedIn;
        if (anchorSeqno !== undefined && anchorSeqno !== listedIn.seqno) {
            if (anchorSeqno < listedIn.seqno)
                throw new Error(
                    `anchor ${anchorSeqno} is older than block ${listedIn.seqno}, which lists the transaction`,
                );
            const back = await this.backwardLink(anchorSeqno, mc);
            blocks.push(back.link);
            anchor = await this.refOf(back.anchor);
        }
        // no path when the signed block holds the transaction or lists its block (contracts/verifier.tlb)
        const direct = blocks.length === 0 || (blocks.length === 1 && !blocks[0].state);
        return {
            transaction,
            txProof,
            blockProof: blocks.length ? blocks[blocks.length - 1].block : blockHeaderProof(mc.cell),
            path: direct ? null : blockPathCell(blocks),
            listedIn,
            anchor,
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
