/**
 * Message scheduler: delivers the messages of a sandbox network one at a time, in an order the
 * caller chooses, instead of the sandbox's own breadth-first run of one chain at a time.
 *
 * A real network interleaves the message chains of different senders in any order; the only
 * guarantee is that messages from one account to another arrive in the order they were sent. The
 * scheduler keeps a pool of undelivered messages (each with the tag of the send it descends from)
 * and delivers, at each step, one message that is *ready*: the oldest undelivered one of its
 * (source, destination) pair. So a test can run an honest delivery up to a chosen point, let an
 * attacker's chain run (or part of it), and go on; the model-based test draws a random ready
 * message at each step.
 *
 * Each delivery runs in a queue of its own (`sendMessageIter` with `allowParallel`); the messages
 * its transaction sends come back into the pool, so nothing runs that the scheduler did not choose.
 * Bounces are out messages of the failed transaction as on the real network, and are scheduled the
 * same way. Every transaction lands in the sandbox's log (`blockchain.transactions`) as usual.
 */
import { Address, Cell, external, internal, Message } from '@ton/core';
import { Blockchain, BlockchainTransaction, SandboxContract, TreasuryContract } from '@ton/sandbox';

/** An undelivered message, the tag of the send it descends from, and its order of creation. */
export interface Scheduled {
    message: Message;
    tag: string;
    seq: number;
}

/** a message predicate on its destination and body */
export type MessageFilter = (s: Scheduled) => boolean;

export interface WalletSend {
    to: Address;
    value: bigint;
    body?: Cell;
    bounce?: boolean;
}

function pairKey(m: Message): string | null {
    if (m.info.type !== 'internal') return null;
    return `${m.info.src.toRawString()}>${m.info.dest.toRawString()}`;
}

export class MessageScheduler {
    private pool: Scheduled[] = [];
    private seq = 0;
    /** every transaction the scheduler ran, in order */
    readonly transactions: BlockchainTransaction[] = [];

    constructor(readonly blockchain: Blockchain) {}

    /** Queues a message (an external to a wallet, or an internal one) under `tag`. */
    push(message: Message, tag: string): void {
        this.pool.push({ message, tag, seq: this.seq++ });
    }

    /** Queues `wallet` sending `msgs` (one external message to the wallet, which pays for them). */
    send(wallet: SandboxContract<TreasuryContract>, msgs: WalletSend | WalletSend[], tag: string): void {
        const list = Array.isArray(msgs) ? msgs : [msgs];
        const body = wallet.createTransfer({
            messages: list.map((m) => internal({ to: m.to, value: m.value, body: m.body, bounce: m.bounce })),
        });
        this.push(external({ to: wallet.address, body }), tag);
    }

    /** Undelivered messages. */
    get pending(): readonly Scheduled[] {
        return this.pool;
    }

    /** The messages that may be delivered now: the oldest of each (source, destination) pair. */
    ready(filter?: MessageFilter): Scheduled[] {
        const seen = new Set<string>();
        const out: Scheduled[] = [];
        for (const s of this.pool) {
            const k = pairKey(s.message);
            if (k !== null) {
                if (seen.has(k)) continue;
                seen.add(k);
            }
            if (!filter || filter(s)) out.push(s);
        }
        return out;
    }

    /** Delivers `s` (which must be ready) and queues what its transaction sends. */
    async deliver(s: Scheduled): Promise<BlockchainTransaction> {
        if (!this.ready().includes(s)) throw new Error('MessageScheduler: message not ready (a pair keeps its order)');
        this.pool.splice(this.pool.indexOf(s), 1);
        const it = await this.blockchain.sendMessageIter(s.message, { allowParallel: true });
        const r = await it.next();
        if (r.done || !r.value) throw new Error('MessageScheduler: the message ran no transaction');
        const tx = r.value;
        this.transactions.push(tx);
        for (const m of tx.outMessages.values()) if (m.info.type === 'internal') this.push(m, s.tag);
        return tx;
    }

    /** Delivers the oldest ready message matching `filter`; null when there is none. */
    async step(filter?: MessageFilter): Promise<BlockchainTransaction | null> {
        const r = this.ready(filter);
        return r.length ? this.deliver(r[0]) : null;
    }

    /**
     * Delivers ready messages matching `filter`, oldest first, until none is left or the oldest
     * ready one matches `until` (left undelivered). Returns the transactions run.
     */
    async run(filter?: MessageFilter, until?: MessageFilter): Promise<BlockchainTransaction[]> {
        const out: BlockchainTransaction[] = [];
        for (;;) {
            const r = this.ready(filter);
            if (!r.length || (until && until(r[0]))) return out;
            out.push(await this.deliver(r[0]));
        }
    }

    /** Delivers everything, each step a ready message chosen by `pick` (an index into the ready list). */
    async runAll(pick: (n: number) => number = () => 0): Promise<BlockchainTransaction[]> {
        const out: BlockchainTransaction[] = [];
        for (let r = this.ready(); r.length; r = this.ready()) out.push(await this.deliver(r[pick(r.length)]));
        return out;
    }
}

/** messages of the sends tagged `tag` */
export const tagged =
    (tag: string): MessageFilter =>
    (s) =>
        s.tag === tag;

/** messages to `a` (with op `op`, when given) */
export const to =
    (a: Address, op?: number): MessageFilter =>
    (s) => {
        const d = s.message.info.dest;
        if (!d || !Address.isAddress(d) || !d.equals(a)) return false;
        if (op === undefined) return true;
        const b = s.message.body.beginParse();
        return b.remainingBits >= 32 && b.preloadUint(32) === op;
    };

/** both filters */
export const both =
    (a: MessageFilter, b: MessageFilter): MessageFilter =>
    (s) =>
        a(s) && b(s);
