/**
 * Test-side helpers of the TransactionChecker specs: reading transactions out of a block or a
 * transaction proof, and re-sealing a modified proof tree.
 */
import { Address, beginCell, Cell, convertToMerkleProof, loadCurrencyCollection } from '@ton/core';
import { Blockchain, SendMessageResult } from '@ton/sandbox';
import { forEachHashmapEEntry, forEachHashmapEntry } from '../harness/tlb';

export interface FoundTransaction {
    account: bigint;
    lt: bigint;
    /** the Transaction cell as stored in the block or proof (may be a pruned branch) */
    cell: Cell;
}

/** The Block root of a full block or of a Merkle proof. */
export function blockRoot(c: Cell): Cell {
    return c.isExotic && c.type === 3 ? c.refs[0] : c;
}

/** Virtual hash of a Merkle proof (= the proven block's root hash). */
export function proofHash(proof: Cell): Buffer {
    return blockRoot(proof).hash(0);
}

/**
 * Every transaction the block (full or proof) shows in BlockExtra.account_blocks, skipping pruned
 * subtrees:  account_blocks (HashmapAugE 256 AccountBlock CC) -> acc_trans#5 account_addr
 * transactions:(HashmapAug 64 ^Transaction CC).
 */
export function transactionsOf(block: Cell): FoundTransaction[] {
    const extra = blockRoot(block).refs[3];
    const out: FoundTransaction[] = [];
    forEachHashmapEEntry(extra.refs[2].beginParse(), 256, (account, leaf) => {
        loadCurrencyCollection(leaf);
        if (leaf.loadUint(4) !== 5) throw new Error('not an AccountBlock');
        leaf.skip(256);
        forEachHashmapEntry(leaf, 64, (lt, txLeaf) => {
            loadCurrencyCollection(txLeaf);
            out.push({ account, lt, cell: txLeaf.loadRef() });
        });
    });
    return out;
}

/** A Merkle proof over `root` (which may already hold pruned branches). */
export function sealProof(root: Cell): Cell {
    return convertToMerkleProof(root);
}

/** Copy of `c` with one byte of its data (at byte offset `at`) xor-ed with 0xff. */
export function flipByte(c: Cell, at = 0): Cell {
    const bits = c.bits;
    const buf = Buffer.from(bits.subbuffer(0, bits.length - (bits.length % 8))!);
    buf[at] ^= 0xff;
    const b = beginCell().storeBuffer(buf);
    if (bits.length % 8) b.storeBits(bits.substring(bits.length - (bits.length % 8), bits.length % 8));
    for (const r of c.refs) b.storeRef(r);
    return b.endCell({ exotic: c.isExotic });
}

/**
 * The full forward fee `sender` paid for its one outgoing message in `r` (the action phase's total:
 * what the TransactionChecker's GETORIGINALFWDFEE recovers from the in-message's fwd_fee field).
 */
export function requestFwdFee(r: SendMessageResult, sender: Address): bigint {
    const account = BigInt('0x' + sender.hash.toString('hex'));
    const tx = r.transactions.find((x) => x.address === account && x.outMessagesCount > 0);
    if (!tx || tx.description.type !== 'generic' || !tx.description.actionPhase)
        throw new Error('no sending transaction');
    return tx.description.actionPhase.totalFwdFees ?? 0n;
}

/** An active contract's persistent data as a hex BOC (the TransactionChecker's: its LiteClient address only). */
export async function contractDataHex(blockchain: Blockchain, address: Address): Promise<string> {
    const st = (await blockchain.getContract(address)).accountState;
    if (st?.type !== 'active') throw new Error(`${address.toString()} is not active`);
    return st.state.data!.toBoc().toString('hex');
}

// moved to harness/checkerRequests.ts (the model's attacker sends the same requests)
export {
    BASECHAIN_FWD_PRICES,
    fwdFeeOfBody,
    junkTree,
    keepTxCells,
    originalFwdFee,
    remainingFwdFee,
    replaceAt,
    tcSeenFwdFee,
    treeSize,
} from '../harness/checkerRequests';
