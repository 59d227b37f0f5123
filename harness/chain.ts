/**
 * A simulated TVM network's masterchain (and basechain shard) as seen by a LiteClient: key blocks
 * that rotate the validator set, blocks holding real sandbox transactions, proofs and signatures.
 */
import { beginCell, Cell } from '@ton/core';
import { buildKeyBlock, buildMasterchainBlock, buildShardBlock, BuiltBlock } from './blocks';
import { blockHeaderProof, keyBlockProof, masterchainProofWithShard, transactionProof } from './proofs';
import { buildSignaturesCell, signBlock, SignatureEntry } from './signatures';
import { ExtBlkRef } from './tlb';
import { ValidatorSet } from './validators';

export interface SignedKeyBlock {
    block: BuiltBlock;
    /** keyBlockProof(block): BlockInfo + ConfigParams 32/34/36 */
    proof: Cell;
    /** block_signatures cell (contracts/verifier.tlb) */
    signatures: Cell;
    entries: SignatureEntry[];
    /** the set that signed (ConfigParam 34 of the previous key block) */
    signedBy: ValidatorSet;
    /** the set this key block installs (its ConfigParam 34) */
    set: ValidatorSet;
}

export interface ProvenTransaction {
    transaction: Cell;
    /** Merkle proof of the block holding the transaction, kept down to it */
    proof: Cell;
}

export interface BlockWithTransactions {
    mcBlock: BuiltBlock;
    shardBlock?: BuiltBlock;
    transactions: ProvenTransaction[];
    /** first transaction (convenience) */
    transaction: Cell;
    txProof: Cell;
    /** the signed masterchain block's proof (current_block.block): header, or header + ShardDescr */
    blockProof: Cell;
    signatures: Cell;
    entries: SignatureEntry[];
    /** current_block$_ block:^Cell signatures:^BlockSignatures */
    currentBlock: Cell;
}

export interface SyntheticChainOptions {
    globalId: number;
    validators: ValidatorSet;
    startSeqno?: number;
    startUtime?: number;
    /** seconds between blocks (default 5) */
    blockInterval?: number;
}

/** current_block$_ block:^Cell signatures:^BlockSignatures */
export function currentBlockCell(blockProof: Cell, signatures: Cell): Cell {
    return beginCell().storeRef(blockProof).storeRef(signatures).endCell();
}

export interface LiteClientLike<Via = unknown> {
    sendNewKeyBlock(via: Via, value: bigint, queryId: bigint | number, proof: Cell, signatures: Cell): Promise<unknown>;
}

export class SyntheticChain {
    readonly globalId: number;
    /** the set of the last key block's ConfigParam 34: it signs the next blocks */
    current: ValidatorSet;
    /** the set before `current` (ConfigParam 32 of the last switching key block) */
    previous?: ValidatorSet;
    seqno: number;
    utime: number;
    shardSeqno: number;
    readonly blockInterval: number;
    lastKeyBlock?: BuiltBlock;
    lastBlock?: BuiltBlock;
    private genesis?: SignedKeyBlock;
    /** key blocks after genesis, in order */
    readonly keyBlocks: SignedKeyBlock[] = [];

    constructor(o: SyntheticChainOptions) {
        this.globalId = o.globalId;
        this.current = o.validators;
        this.seqno = o.startSeqno ?? 1000;
        this.utime = o.startUtime ?? 1_700_000_000;
        this.shardSeqno = this.seqno * 2;
        this.blockInterval = o.blockInterval ?? 5;
    }

    private prevRef(): ExtBlkRef | undefined {
        const b = this.lastBlock;
        return b ? { endLt: b.endLt, seqno: b.seqno, rootHash: b.rootHash, fileHash: b.fileHash } : undefined;
    }

    private advance(): { seqno: number; genUtime: number } {
        const r = { seqno: this.seqno, genUtime: this.utime };
        this.seqno += 1;
        this.utime += this.blockInterval;
        return r;
    }

    private sign(
        block: BuiltBlock,
        set: ValidatorSet,
        signers?: number[],
    ): { signatures: Cell; entries: SignatureEntry[] } {
        const entries = signBlock(block, set, signers);
        return { signatures: buildSignaturesCell(block.fileHash, entries), entries };
    }

    /** The trusted key block a LiteClient is deployed from (ConfigParam 34 = the initial set). Built once. */
    genesisKeyBlock(): SignedKeyBlock {
        if (this.genesis) return this.genesis;
        const { seqno, genUtime } = this.advance();
        const block = buildKeyBlock({
            globalId: this.globalId,
            seqno,
            genUtime,
            prevKeyBlockSeqno: Math.max(0, seqno - 1),
            p34: this.current,
            prev: this.prevRef(),
        });
        this.lastKeyBlock = block;
        this.lastBlock = block;
        const { signatures, entries } = this.sign(block, this.current);
        this.genesis = {
            block,
            proof: keyBlockProof(block),
            signatures,
            entries,
            signedBy: this.current,
            set: this.current,
        };
        return this.genesis;
    }

    private ensureGenesis() {
        if (!this.genesis) this.genesisKeyBlock();
    }

    /**
     * A key block installing `newSet` (ConfigParam 34; ConfigParam 32 = the current set), signed by
     * the current set's main validators (all, or `signers`). The chain then switches to `newSet`.
     * `p36` puts a ConfigParam 36 in the block; `signWith` overrides the signing set (negative tests).
     */
    nextKeyBlock(
        newSet: ValidatorSet,
        opts?: { signers?: number[]; p36?: ValidatorSet; signWith?: ValidatorSet; globalId?: number },
    ): SignedKeyBlock {
        this.ensureGenesis();
        const { seqno, genUtime } = this.advance();
        const block = buildKeyBlock({
            globalId: opts?.globalId ?? this.globalId,
            seqno,
            genUtime,
            prevKeyBlockSeqno: this.lastKeyBlock!.seqno,
            p32: this.current,
            p34: newSet,
            p36: opts?.p36,
            prev: this.prevRef(),
        });
        const signer = opts?.signWith ?? this.current;
        const { signatures, entries } = this.sign(block, signer, opts?.signers);
        const out: SignedKeyBlock = {
            block,
            proof: keyBlockProof(block),
            signatures,
            entries,
            signedBy: signer,
            set: newSet,
        };
        this.previous = this.current;
        this.current = newSet;
        this.lastKeyBlock = block;
        this.lastBlock = block;
        this.keyBlocks.push(out);
        return out;
    }

    /**
     * The first key block of an epoch change as on the real network: ConfigParam 34 stays the current
     * set, ConfigParam 36 announces `nextSet` (ConfigParam 32 = the set before the current one, when
     * known). Signed by the current set; the chain does not switch.
     */
    announceKeyBlock(nextSet: ValidatorSet, opts?: { signers?: number[]; signWith?: ValidatorSet }): SignedKeyBlock {
        this.ensureGenesis();
        const { seqno, genUtime } = this.advance();
        const block = buildKeyBlock({
            globalId: this.globalId,
            seqno,
            genUtime,
            prevKeyBlockSeqno: this.lastKeyBlock!.seqno,
            p32: this.previous,
            p34: this.current,
            p36: nextSet,
            prev: this.prevRef(),
        });
        const signer = opts?.signWith ?? this.current;
        const { signatures, entries } = this.sign(block, signer, opts?.signers);
        const out: SignedKeyBlock = {
            block,
            proof: keyBlockProof(block),
            signatures,
            entries,
            signedBy: signer,
            set: this.current,
        };
        this.lastKeyBlock = block;
        this.lastBlock = block;
        this.keyBlocks.push(out);
        return out;
    }

    /**
     * A block holding `txs` (real Transaction cells, e.g. sandbox `tx.raw`). With `shard: true` they go
     * into a basechain shard block listed in a new masterchain block's shard_hashes; otherwise
     * into the masterchain block itself. The masterchain block is signed by the current set.
     */
    blockWithTransactions(
        txs: Cell[],
        opts?: { shard?: boolean; signers?: number[]; signWith?: ValidatorSet; keepTransactionCell?: boolean },
    ): BlockWithTransactions {
        if (txs.length === 0) throw new Error('no transactions');
        this.ensureGenesis();
        const keep = { keepTransactionCell: opts?.keepTransactionCell };
        let mcBlock: BuiltBlock;
        let shardBlock: BuiltBlock | undefined;
        if (opts?.shard) {
            const mcRef = this.prevRef();
            shardBlock = buildShardBlock({
                globalId: this.globalId,
                workchain: 0,
                seqno: this.shardSeqno++,
                genUtime: this.utime,
                transactions: txs,
                masterRef: mcRef,
                prevKeyBlockSeqno: this.lastKeyBlock!.seqno,
            });
            const { seqno, genUtime } = this.advance();
            mcBlock = buildMasterchainBlock({
                globalId: this.globalId,
                seqno,
                genUtime,
                prevKeyBlockSeqno: this.lastKeyBlock!.seqno,
                shardBlocks: [shardBlock],
                prev: mcRef,
                startLt: mcRef ? mcRef.endLt + 1n : undefined,
            });
        } else {
            const { seqno, genUtime } = this.advance();
            mcBlock = buildMasterchainBlock({
                globalId: this.globalId,
                seqno,
                genUtime,
                prevKeyBlockSeqno: this.lastKeyBlock!.seqno,
                transactions: txs,
                prev: this.prevRef(),
            });
        }
        this.lastBlock = mcBlock;
        const { signatures, entries } = this.sign(mcBlock, opts?.signWith ?? this.current, opts?.signers);
        // the transactions sit in the shard block (basechain) or in the signed block itself
        const holder = shardBlock ?? mcBlock;
        const transactions = txs.map((t) => ({ transaction: t, proof: transactionProof(holder, t, keep) }));
        const blockProof = shardBlock ? masterchainProofWithShard(mcBlock, shardBlock) : blockHeaderProof(mcBlock);
        return {
            mcBlock,
            ...(shardBlock ? { shardBlock } : {}),
            transactions,
            transaction: transactions[0].transaction,
            txProof: transactions[0].proof,
            blockProof,
            signatures,
            entries,
            currentBlock: currentBlockCell(blockProof, signatures),
        };
    }

    /** A signed masterchain block without transactions (for check_block). */
    emptyBlock(opts?: { signers?: number[]; signWith?: ValidatorSet }): {
        block: BuiltBlock;
        proof: Cell;
        signatures: Cell;
        entries: SignatureEntry[];
    } {
        this.ensureGenesis();
        const { seqno, genUtime } = this.advance();
        const block = buildMasterchainBlock({
            globalId: this.globalId,
            seqno,
            genUtime,
            prevKeyBlockSeqno: this.lastKeyBlock!.seqno,
            prev: this.prevRef(),
        });
        this.lastBlock = block;
        const { signatures, entries } = this.sign(block, opts?.signWith ?? this.current, opts?.signers);
        return { block, proof: blockHeaderProof(block), signatures, entries };
    }

    /** Sends every key block after genesis (or those from `from`) to a LiteClient, in order. */
    async syncLiteClient<Via>(client: LiteClientLike<Via>, via: Via, value: bigint, from = 0): Promise<unknown[]> {
        const out: unknown[] = [];
        for (let i = from; i < this.keyBlocks.length; i++) {
            const k = this.keyBlocks[i];
            out.push(await client.sendNewKeyBlock(via, value, BigInt(i + 1), k.proof, k.signatures));
        }
        return out;
    }
}
