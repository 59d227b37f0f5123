/**
 * A transaction read from its cell the lazy way (lib/rawCell.ts): the fields an indexer wants, each
 * parsed when first asked for, and no hash but the ones asked for. Layouts (block.tlb):
 *
 *   transaction$0111 account_addr:bits256 lt:uint64 prev_trans_hash:bits256 prev_trans_lt:uint64
 *     now:uint32 outmsg_cnt:uint15 orig_status:AccountStatus end_status:AccountStatus
 *     ^[ in_msg:(Maybe ^(Message Any)) out_msgs:(HashmapE 15 ^(Message Any)) ]
 *     total_fees:CurrencyCollection state_update:^(HASH_UPDATE Account) description:^TransactionDescr
 *   message$_ info:CommonMsgInfo init:(Maybe (Either StateInit ^StateInit)) body:(Either X ^X)
 *   trans_ord$0000 credit_first:Bool storage_ph:(Maybe TrStoragePhase) credit_ph:(Maybe TrCreditPhase)
 *     compute_ph:TrComputePhase action:(Maybe ^TrActionPhase) aborted:Bool bounce:(Maybe TrBouncePhase)
 *     destroyed:Bool
 */
import { Address, ExternalAddress } from '@ton/core';
import { RawCell, RawSlice } from './rawCell';

export interface RawMessage {
    /** the whole message cell (its hash is the message hash) */
    cell: RawCell;
    type: 'internal' | 'external-in' | 'external-out';
    src: Address | ExternalAddress | null;
    dest: Address | ExternalAddress | null;
    /** whether it carries a StateInit (a deploy) */
    init: boolean;
    body: RawCell;
}

function skipCurrencyCollection(s: RawSlice) {
    s.loadCoins();
    if (s.loadBit()) s.loadRef(); // extra currencies
}

/** A Message cell: its info, whether it has a StateInit, and its body (inline or in a ref). */
export function readMessage(cell: RawCell): RawMessage {
    const s = cell.beginParse();
    let type: RawMessage['type'];
    let src: RawMessage['src'];
    let dest: RawMessage['dest'];
    const tag = s.loadBit() ? (s.loadBit() ? 3 : 2) : 0;
    if (tag === 0) {
        // int_msg_info$0 ihr_disabled bounce bounced src dest value ihr_fee fwd_fee created_lt created_at
        type = 'internal';
        s.skip(3);
        src = s.loadAddress();
        dest = s.loadAddress();
        skipCurrencyCollection(s);
        s.loadCoins();
        s.loadCoins();
        s.skip(64 + 32);
    } else if (tag === 2) {
        // ext_in_msg_info$10 src:MsgAddressExt dest:MsgAddressInt import_fee:Grams
        type = 'external-in';
        src = s.loadMaybeExternalAddress();
        dest = s.loadAddress();
        s.loadCoins();
    } else {
        // ext_out_msg_info$11 src:MsgAddressInt dest:MsgAddressExt created_lt:uint64 created_at:uint32
        type = 'external-out';
        src = s.loadAddress();
        dest = s.loadMaybeExternalAddress();
        s.skip(64 + 32);
    }
    const init = s.loadBit();
    if (init) {
        if (s.loadBit()) s.loadRef();
        else {
            // split_depth:(Maybe (## 5)) special:(Maybe TickTock) code data library
            if (s.loadBit()) s.skip(5);
            if (s.loadBit()) s.skip(2);
            for (let i = 0; i < 3; i++) if (s.loadBit()) s.loadRef();
        }
    }
    const body = s.loadBit() ? s.loadRef() : s.asCell();
    return { cell, type, src, dest, init, body };
}

/** bits of `#<= m` */
const lenBits = (m: number) => Math.ceil(Math.log2(m + 1));

/** The ref values of a Hashmap n ^X, by key (in key order). */
function hashmapRefs(cell: RawCell, n: number, prefix: number, out: Map<number, RawCell>) {
    const s = cell.beginParse();
    let len: number;
    let label: number;
    const tag = s.loadBit() ? (s.loadBit() ? 3 : 2) : 0;
    if (tag === 0) {
        // hml_short$0 len:(Unary ~n) s:(n * Bit)
        len = 0;
        while (s.loadBit()) len++;
        label = s.loadUint(len);
    } else if (tag === 2) {
        // hml_long$10 n:(#<= m) s:(n * Bit)
        len = s.loadUint(lenBits(n));
        label = s.loadUint(len);
    } else {
        // hml_same$11 v:Bit n:(#<= m)
        const v = s.loadBit();
        len = s.loadUint(lenBits(n));
        label = v ? 2 ** len - 1 : 0;
    }
    if (len > n) throw new Error(`hashmap: a label of ${len} bits where ${n} are left`);
    const key = prefix * 2 ** len + label;
    const m = n - len;
    if (m === 0) {
        out.set(key, s.loadRef());
        return;
    }
    const left = s.loadRef();
    const right = s.loadRef();
    hashmapRefs(left, m - 1, key * 2, out);
    hashmapRefs(right, m - 1, key * 2 + 1, out);
}

export class RawTransaction {
    readonly lt: bigint;
    readonly now: number;
    private readonly messagesCell: RawCell;
    private readonly descriptionCell: RawCell;
    private _in?: RawMessage | null;
    private _out?: Map<number, RawMessage>;
    private _successful?: boolean;

    constructor(readonly cell: RawCell) {
        const s = cell.beginParse();
        if (s.loadUint(4) !== 0b0111) throw new Error('not a transaction (transaction$0111 expected)');
        s.skip(256);
        this.lt = s.loadUintBig(64);
        s.skip(256 + 64);
        this.now = s.loadUint(32);
        s.skip(15 + 2 + 2);
        this.messagesCell = s.loadRef();
        skipCurrencyCollection(s);
        s.loadRef(); // state_update
        this.descriptionCell = s.loadRef();
    }

    /** The transaction hash (computed once, when first asked for). */
    hash(): Buffer {
        return this.cell.hash();
    }

    get inMessage(): RawMessage | null {
        if (this._in === undefined) {
            const s = this.messagesCell.beginParse();
            this._in = s.loadBit() ? readMessage(s.loadRef()) : null;
        }
        return this._in;
    }

    /** out_msgs by index, in index order */
    get outMessages(): Map<number, RawMessage> {
        if (!this._out) {
            const s = this.messagesCell.beginParse();
            if (s.loadBit()) s.loadRef();
            const cells = new Map<number, RawCell>();
            if (s.loadBit()) hashmapRefs(s.loadRef(), 15, 0, cells);
            this._out = new Map([...cells].map(([k, c]) => [k, readMessage(c)]));
        }
        return this._out;
    }

    /**
     * An ordinary transaction (trans_ord) not aborted, whose compute phase ran and succeeded and
     * whose action phase, if any, succeeded.
     */
    get successful(): boolean {
        if (this._successful === undefined) this._successful = this.readSuccess();
        return this._successful;
    }

    private readSuccess(): boolean {
        const s = this.descriptionCell.beginParse();
        if (s.loadUint(4) !== 0) return false; // not trans_ord
        s.skip(1); // credit_first
        if (s.loadBit()) {
            // tr_phase_storage$_ storage_fees_collected:Grams storage_fees_due:(Maybe Grams) status_change
            s.loadCoins();
            if (s.loadBit()) s.loadCoins();
            if (s.loadBit()) s.skip(1); // acst_frozen$10 / acst_deleted$11 (acst_unchanged$0)
        }
        if (s.loadBit()) {
            // tr_phase_credit$_ due_fees_collected:(Maybe Grams) credit:CurrencyCollection
            if (s.loadBit()) s.loadCoins();
            skipCurrencyCollection(s);
        }
        // tr_phase_compute_skipped$0 | tr_phase_compute_vm$1 success:Bool msg_state_used:Bool
        //   account_activated:Bool gas_fees:Grams ^[...]
        if (!s.loadBit()) return false;
        if (!s.loadBit()) return false;
        s.skip(2);
        s.loadCoins();
        s.loadRef();
        // action:(Maybe ^TrActionPhase): tr_phase_action$_ success:Bool ...
        const actionOk = s.loadBit() ? s.loadRef().beginParse().loadBit() : true;
        const aborted = s.loadBit();
        return actionOk && !aborted;
    }
}
