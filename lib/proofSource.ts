/**
 * A proof source: where the blocks, shard chains and signatures that prove a transaction come from.
 * Two implementations: the simulator's sealed blocks (harness/proofSource.ts) and a real network's
 * lite servers. What every party then computes the same way lives here too: which masterchain block
 * a verifier can check (`anchorFor`), the signatures it counts (`packSignatures`), and the
 * `proof_data` cell a `deploy_tvm_event` carries (`proveFor`).
 *
 * The proof chain (contracts/verifier.tlb): the Merkle proof of the block holding the transaction,
 * then the blocks above it up to a masterchain block whose signatures the verifier checks:
 *   - shard blocks, each naming the one below in BlockInfo.prev_ref (two references after a merge,
 *     the parent after a split), up to the top block the masterchain block lists in shard_hashes;
 *   - the masterchain block that lists it (or holds the transaction: a masterchain account);
 *   - when that block is older than the verifier's epoch, a later masterchain block signed by the
 *     set the verifier holds, with a Merkle proof of its state: McStateExtra.prev_blocks lists every
 *     earlier masterchain block (a backward link, as TON's own lite client proves old blocks).
 */
import { createHash } from 'crypto';
import { Address, beginCell, Cell } from '@ton/core';
import { packFewest } from './signatures';

/** A masterchain block as a proof source names it. */
export interface MasterchainBlockRef {
    seqno: number;
    rootHash: Buffer;
    fileHash: Buffer;
    genUtime: number;
    keyBlock: boolean;
    /**
     * utime_since of the validator set that signed it (ConfigParam 34 of the previous key block): a
     * LiteClient holding that set has it as current_epoch_since.
     */
    signedByEpoch: number;
}

/** One validator's signature of a block, as sources give it (by public key or by node_id_short). */
export interface BlockSignature {
    publicKey?: Buffer;
    /** sha256(0xc6b41348 || public key) */
    nodeIdShort?: Buffer;
    /** 64 bytes, R || s */
    signature: Buffer;
}

/** A transaction as the Proof API names it: its account and logical time. */
export interface TransactionRef {
    account: Address;
    lt: bigint;
}

/** The Merkle proofs of a transaction up to a masterchain block (contracts/verifier.tlb). */
export interface TransactionProofChain {
    transaction: Cell;
    /** Merkle proof of the block holding it, kept down to the Transaction cell */
    txProof: Cell;
    /** Merkle proof of the masterchain block whose signatures are checked (current_block.block) */
    blockProof: Cell;
    /** the BlockPath from the block above the transaction's to the signed one; null when the signed block holds or lists it */
    path: Cell | null;
    /** the masterchain block that holds the transaction or lists (a descendant of) its shard block */
    listedIn: MasterchainBlockRef;
    /** the signed block: listedIn, or a later one (backward link) */
    anchor: MasterchainBlockRef;
}

/** A key block with what new_key_block takes. */
export interface KeyBlockProof {
    block: MasterchainBlockRef;
    /** Merkle proof keeping BlockInfo and ConfigParams 32 / 34 / 36 */
    proof: Cell;
    signatures: BlockSignature[];
    /** utime_since of the set it installs (ConfigParam 34); equal to block.signedByEpoch when it only announces (ConfigParam 36) */
    installsEpoch: number;
}

export interface ProofSource {
    /** global_id of the network */
    readonly globalId: number;
    /** The newest masterchain block the source can prove. */
    lastBlock(): Promise<MasterchainBlockRef>;
    /** The newest masterchain block signed by the set of `epochSince`; null when there is none (yet). */
    lastBlockSignedBy(epochSince: number): Promise<MasterchainBlockRef | null>;
    /** The masterchain block that holds or lists the transaction's block; null while no such block exists. */
    locate(tx: TransactionRef): Promise<MasterchainBlockRef | null>;
    /** The proof chain of the transaction up to masterchain block `anchorSeqno` (default: the block that lists it). */
    proofChain(tx: TransactionRef, anchorSeqno?: number): Promise<TransactionProofChain>;
    /** The signatures of a masterchain block by its own validators. */
    signatures(block: MasterchainBlockRef): Promise<BlockSignature[]>;
    /** Key blocks after masterchain seqno `after`, oldest first. */
    keyBlocksAfter(after: number): Promise<KeyBlockProof[]>;
}

/** What a proof is built for: what the destination LiteClient holds. */
export interface VerifierView {
    /** the LiteClient's current_epoch_since */
    epochSince: number;
    /** its main validators in index order (current_validators_set) */
    validators: { publicKey: Buffer; weight: bigint }[];
    /** the masterchain blocks it recorded as verified (verified_blocks): seqno -> root hash */
    verified?: Map<number, Buffer>;
}

/** The block a proof is anchored at, and whether its signatures must be sent. */
export interface Anchor {
    seqno: number;
    /** false when the verifier recorded the block: it answers without reading signatures */
    signatures: boolean;
}

/**
 * The masterchain block a verifier can check for a transaction listed in `listedIn`, cheapest first:
 *   - listedIn, recorded as verified: no signatures;
 *   - the newest recorded block after it: a backward link through its state, no signatures;
 *   - the verifier holds the set of listedIn's epoch: listedIn, with its signatures;
 *   - the verifier has moved to a later epoch: the newest block signed by the verifier's set (a
 *     backward link: `newestOfVerifier`, which must not be older than listedIn), with its signatures;
 *   - the verifier is behind the transaction's epoch: listedIn with its signatures (the proof
 *     passes once the verifier reaches that epoch).
 * A record may be dropped before the proof arrives (a LiteClient keeps its 16 newest): the check
 * then fails without loss (transaction_check_failed) and a new proof is built.
 */
export function anchorFor(
    listedIn: Pick<MasterchainBlockRef, 'seqno' | 'signedByEpoch' | 'rootHash'>,
    verifier: Pick<VerifierView, 'epochSince' | 'verified'>,
    newestOfVerifier: Pick<MasterchainBlockRef, 'seqno'> | null,
): Anchor {
    const rec = verifier.verified;
    if (rec) {
        if (rec.get(listedIn.seqno)?.equals(listedIn.rootHash)) return { seqno: listedIn.seqno, signatures: false };
        const later = [...rec.keys()].filter((k) => k > listedIn.seqno).sort((a, b) => b - a);
        if (later.length) return { seqno: later[0], signatures: false };
    }
    if (verifier.epochSince <= listedIn.signedByEpoch) return { seqno: listedIn.seqno, signatures: true };
    if (!newestOfVerifier || newestOfVerifier.seqno < listedIn.seqno)
        throw new Error(
            `no masterchain block signed by the verifier's set (epoch since ${verifier.epochSince}) after block ${listedIn.seqno}`,
        );
    return { seqno: newestOfVerifier.seqno, signatures: true };
}

const NODE_ID_PREFIX = Buffer.from('c6b41348', 'hex');

function nodeIdOf(publicKey: Buffer): Buffer {
    return createHash('sha256').update(NODE_ID_PREFIX).update(publicKey).digest();
}

/**
 * `block_signatures$_ file_hash:bits256 first:(Maybe ^SigNode)` (contracts/verifier.tlb) of the
 * signatures by the verifier's validators, keyed by their index in its set, in index order, each
 * validator once. The signatures are not verified here: the LiteClient does.
 */
export function packSignatures(fileHash: Buffer, signatures: BlockSignature[], verifier: VerifierView): Cell {
    const byKey = new Map<string, number>();
    const byNode = new Map<string, number>();
    verifier.validators.forEach((v, i) => {
        byKey.set(v.publicKey.toString('hex'), i);
        byNode.set(nodeIdOf(v.publicKey).toString('hex'), i);
    });
    const chosen = new Map<number, Buffer>();
    for (const s of signatures) {
        const i = s.publicKey
            ? byKey.get(s.publicKey.toString('hex'))
            : s.nodeIdShort
              ? byNode.get(s.nodeIdShort.toString('hex'))
              : undefined;
        if (i !== undefined && !chosen.has(i)) chosen.set(i, s.signature);
    }
    const entries = [...chosen.entries()].sort((a, b) => a[0] - b[0]);
    let next: Cell | null = null;
    for (let j = entries.length - 1; j >= 0; j--) {
        const [index, signature] = entries[j];
        next = beginCell().storeUint(index, 16).storeBuffer(signature, 64).storeMaybeRef(next).endCell();
    }
    return beginCell().storeBuffer(fileHash, 32).storeMaybeRef(next).endCell();
}

/**
 * What a relay sends a verifier: the fewest of the block's signatures by its validators that reach
 * its cutoff (lib/signatures.ts packFewest: the heaviest signers, in index order; with `rootHash`
 * only signatures that verify). When they do not reach it (the verifier holds another epoch's set),
 * every signature by its validators (packSignatures): the check then fails with 115 and the sender
 * gets transaction_check_failed.
 */
export function packFewestSignatures(
    fileHash: Buffer,
    signatures: BlockSignature[],
    verifier: VerifierView,
    rootHash?: Buffer,
): Cell {
    if (signatures.length === 0) return packSignatures(fileHash, signatures, verifier);
    try {
        return packFewest(fileHash, signatures, verifier.validators, { rootHash }).cell;
    } catch {
        return packSignatures(fileHash, signatures, verifier);
    }
}

/** current_block$_ block:^Cell signatures:^BlockSignatures [path:^BlockPath] (contracts/verifier.tlb) */
export function currentBlockOf(blockProof: Cell, signatures: Cell, path: Cell | null): Cell {
    const b = beginCell().storeRef(blockProof).storeRef(signatures);
    if (path) b.storeRef(path);
    return b.endCell();
}

/** What deploy_tvm_event carries: proof_data$_ transaction:^Cell tx_proof:^Cell current_block:^CurrentBlock. */
export interface ProvenForVerifier {
    transaction: Cell;
    txProof: Cell;
    currentBlock: Cell;
    proofData: Cell;
    chain: TransactionProofChain;
}

/**
 * The proof of a transaction that `verifier` can check: the anchor chosen by `anchorFor`, the
 * proof chain up to it, and the anchor's signatures packed for the verifier's set (`pack`, by
 * default the fewest that reach its cutoff: packFewestSignatures).
 */
export async function proveFor(
    source: ProofSource,
    tx: TransactionRef,
    verifier: VerifierView,
    pack: (
        fileHash: Buffer,
        signatures: BlockSignature[],
        verifier: VerifierView,
        rootHash?: Buffer,
    ) => Cell = packFewestSignatures,
): Promise<ProvenForVerifier> {
    const listedIn = await source.locate(tx);
    if (!listedIn) throw new Error(`transaction ${tx.account.toRawString()} lt ${tx.lt} is in no block yet`);
    const newest =
        verifier.epochSince > listedIn.signedByEpoch ? await source.lastBlockSignedBy(verifier.epochSince) : null;
    const anchor = anchorFor(listedIn, verifier, newest);
    const chain = await source.proofChain(tx, anchor.seqno);
    const signatures = pack(
        chain.anchor.fileHash,
        anchor.signatures ? await source.signatures(chain.anchor) : [],
        verifier,
        chain.anchor.rootHash,
    );
    const currentBlock = currentBlockOf(chain.blockProof, signatures, chain.path);
    const proofData = beginCell().storeRef(chain.transaction).storeRef(chain.txProof).storeRef(currentBlock).endCell();
    return { transaction: chain.transaction, txProof: chain.txProof, currentBlock, proofData, chain };
}

/** The getters of a LiteClient a VerifierView is read from (wrappers/LiteClient.ts, opened on any provider). */
export interface LiteClientReader {
    getCurrentEpochSince(): Promise<number>;
    getCurrentValidatorsSet(): Promise<Map<number, { publicKey: Buffer; weight: bigint }>>;
    getVerifiedBlocks(): Promise<Map<number, Buffer>>;
}

/** What a LiteClient holds now: its epoch, its main validators and its verified blocks. */
export async function verifierView(lc: LiteClientReader): Promise<VerifierView> {
    const set = await lc.getCurrentValidatorsSet();
    return {
        epochSince: await lc.getCurrentEpochSince(),
        validators: [...set.keys()].sort((a, b) => a - b).map((i) => set.get(i)!),
        verified: await lc.getVerifiedBlocks(),
    };
}
