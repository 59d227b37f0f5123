/**
 * The proof source over a simulated network's sealed blocks (lib/proofSource.ts): what the Proof
 * API, the credit backend and the tests read, exactly as they would read a lite server. Asking for
 * a transaction that is not sealed yet seals the current block first (the network produces blocks
 * all the time; a test's clock does not move by itself).
 */
import {
    BlockSignature,
    KeyBlockProof,
    MasterchainBlockRef,
    ProofSource,
    TransactionProofChain,
    TransactionRef,
} from '../lib/proofSource';
import { SealedBlock } from './chain';
import { TvmNetwork } from './network';

export function blockRefOf(s: SealedBlock): MasterchainBlockRef {
    return {
        seqno: s.block.seqno,
        rootHash: s.block.rootHash,
        fileHash: s.block.fileHash,
        genUtime: s.block.genUtime,
        keyBlock: s.block.keyBlock,
        signedByEpoch: s.signedBy.utimeSince,
    };
}

export class SealedProofSource implements ProofSource {
    constructor(readonly network: TvmNetwork) {}

    get globalId(): number {
        return this.network.globalId;
    }

    private tx(ref: TransactionRef) {
        const tx = this.network.findByAccountLt(ref.account, ref.lt);
        if (!tx)
            throw new Error(`${this.network.name}: no transaction of ${ref.account.toRawString()} at lt ${ref.lt}`);
        return tx;
    }

    async lastBlock(): Promise<MasterchainBlockRef> {
        return blockRefOf(this.network.chain.head);
    }

    async lastBlockSignedBy(epochSince: number): Promise<MasterchainBlockRef | null> {
        let b = this.network.lastSealedBy(epochSince);
        // the current set has signed nothing since its key block: the network seals its next block
        if (this.network.chain.current.utimeSince === epochSince && (!b || b !== this.network.chain.head))
            b = this.network.seal();
        return b ? blockRefOf(b) : null;
    }

    async locate(ref: TransactionRef): Promise<MasterchainBlockRef | null> {
        const tx = this.network.findByAccountLt(ref.account, ref.lt);
        if (!tx) return null;
        return blockRefOf(this.network.locate(tx).mc);
    }

    async proofChain(ref: TransactionRef, anchorSeqno?: number): Promise<TransactionProofChain> {
        const tx = this.tx(ref);
        this.network.locate(tx);
        const p = this.network.chain.proofPath(tx.raw, { anchor: anchorSeqno, keepTransactionCell: true });
        return {
            transaction: tx.raw,
            txProof: p.txProof,
            blockProof: p.blockProof,
            path: p.path,
            listedIn: blockRefOf(p.location.mc),
            anchor: blockRefOf(p.anchor),
        };
    }

    async signatures(block: MasterchainBlockRef): Promise<BlockSignature[]> {
        const s = this.network.chain.sealed(block.seqno);
        if (!s.block.rootHash.equals(block.rootHash)) throw new Error(`block ${block.seqno} is not the sealed one`);
        return s.entries.map((e) => ({ publicKey: s.signedBy.validators[e.index].publicKey, signature: e.signature }));
    }

    async keyBlocksAfter(after: number): Promise<KeyBlockProof[]> {
        return this.network.chain.keyBlocks
            .filter((k) => k.block.seqno > after)
            .map((k) => ({
                block: blockRefOf(this.network.chain.sealed(k.block.seqno)),
                proof: k.proof,
                signatures: k.entries.map((e) => ({
                    publicKey: k.signedBy.validators[e.index].publicKey,
                    signature: e.signature,
                })),
                installsEpoch: k.set.utimeSince,
            }));
    }
}
