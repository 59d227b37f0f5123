/**
 * Issue 11 ("no token left behind"): small TON values at every hop of a transfer, moves of the
 * model-based test (tests/model.spec.ts), an extension of harness/model.ts. Each is the model's
 * own move sent with less TON than the honest one, drawn in place of part of that move's weight
 * (the default run keeps its size and time):
 *   small-lock     a lock whose forward TON is in [0.01, 0.5) (the least the lock builder sends up
 *                  to the honest 0.5): emitted, or refused (2713) with the tokens back;
 *   tiny-lock      a lock whose forward TON is in [0.002, 0.006): too little even to send the
 *                  tokens back, so the native proxy records the refund (claim_refund); the model
 *                  counts it in the proxy (`recorded`) until it is claimed;
 *   claim-refund   the owner of a recorded refund claims it with 0.002 to 0.5 TON: refused (2713)
 *                  with the record kept, or the tokens back;
 *   small-burn     a burn with a value in [0.02, 0.6): emitted, minted back, or refused by the
 *                  wallet (709) with the tokens never leaving it;
 *   small-deliver  the recipient completes with proofPayload.abiTx attaching 0.05 to 1.2 TON:
 *                  refused (2213), the Event deployed and the proof refused (Initializing), or
 *                  delivered;
 *   small-retry    tvm_event_retry / approve_limit with 0.01 to 1 TON on a LimitReached, a
 *                  LiquidityRequested, or a LiquidityProvided Event whose provider is not repaid;
 *   small-cancel   a cancel with 0.02 to 1 TON (LimitReached: the approver; LiquidityRequested:
 *                  the recipient);
 *   small-provide  the provider's transfer to a LiquidityRequested Event with 0.01 to 0.5 TON of
 *                  forward TON: back to the provider, provided, or, with too little for the return,
 *                  recorded by the Event as stranded (the model's `stranded`);
 *   return-stranded anyone pays 0.005 to 0.3 TON for a stranded record's return: refused (2317),
 *                  or the tokens back to the provider.
 * What each may do is BridgeModel.refusedForValue's list; everything else must be the honest
 * outcome, and every invariant holds it to the chain after the step (no token lost, nothing
 * marked delivered that was not, every refusal with a way forward: the drain takes it).
 * Invariant (counted by a proxy): each native proxy's refund_of(wallet, user) is the model's
 * `recorded` for every user and token; invariants (a) and (b) count those refunds.
 */
import fs from 'fs';
import path from 'path';
import { toNano } from '@ton/core';
import { BridgeModel, ModelOp, ModelTransfer, Net, USERS, Violation } from '../model';
import { jettonTransferBody, transferPayloadCell } from '../../lib/userTransfers';
import { EventStatus } from '../../wrappers/eventStatus';
import { ProxyMessages } from '../../wrappers/ProxyMultiVaultNative';
import { MultiVaultTvmTvmEventNative } from '../../wrappers/MultiVaultTvmTvmEventNative';
import { PROVIDER } from '../model';

/** What one claim_refund pays at most: CLAIM_REFUND_MAX, read from contracts/bridge/proxy_common.tact. */
const CLAIM_REFUND_MAX = (() => {
    const src = fs.readFileSync(
        path.resolve(__dirname, '..', '..', 'contracts', 'bridge', 'proxy_common.tact'),
        'utf8',
    );
    const m = /^const CLAIM_REFUND_MAX: Int = 1 << (\d+);/m.exec(src);
    if (!m) throw new Error('CLAIM_REFUND_MAX (1 << n) not found in proxy_common.tact');
    return 1n << BigInt(m[1]);
})();
const min = (a: bigint, b: bigint) => (a < b ? a : b);

/** the kinds this module adds to the draw */
export const HOP_KINDS = [
    'small-lock',
    'tiny-lock',
    'claim-refund',
    'small-burn',
    'small-deliver',
    'small-retry',
    'small-cancel',
    'small-provide',
    'return-stranded',
] as const;

export class Hops {
    constructor(readonly m: BridgeModel) {}

    /** log-uniform in [lo, hi): small values as often as large ones */
    private value(lo: bigint, hi: bigint): bigint {
        const r = Math.log(Number(hi) / Number(lo));
        const v = BigInt(Math.floor(Number(lo) * Math.exp((this.m.rng.u32() / 2 ** 32) * r)));
        return v < lo ? lo : v >= hi ? hi - 1n : v;
    }

    /** `kind` takes `w` of the honest move `from`'s weight (when that move is in the draw) */
    private take(ops: ModelOp[], from: string, kind: string, w: number, run: () => Promise<void>): void {
        const o = ops.find((x) => x[1] === from);
        if (!o) return;
        const take = Math.min(w, o[0] / 2);
        o[0] -= take;
        ops.push([take, kind, run]);
    }

    ops(ops: ModelOp[]): void {
        const m = this.m;
        const r = m.rng;
        this.take(ops, 'lock-token', 'small-lock', 1.5, () => this.smallLock());
        this.take(ops, 'lock-shared', 'tiny-lock', 1, () => this.tinyLock());
        if (m.recorded.size)
            ops.push([
                1.5,
                'claim-refund',
                () => this.claim(r.pick([...m.recorded.keys()]), this.value(toNano('0.002'), toNano('0.5'))),
            ]);
        this.take(ops, 'burn', 'small-burn', 1.5, () => this.smallBurn());
        const open = m.open();
        if (open.length)
            this.take(ops, 'deliver-non-credit', 'small-deliver', 1.5, () =>
                m.deliver(r.pick(open), 'non-credit', this.value(toNano('0.05'), toNano('1.2'))),
            );
        const retriable = m.transfers.filter(
            (t) =>
                t.expected.status === EventStatus.LimitReached ||
                t.expected.status === EventStatus.LiquidityRequested ||
                (t.provided && !t.repaid),
        );
        if (retriable.length) ops.push([1.5, 'small-retry', () => this.smallRetry(r.pick(retriable))]);
        const cancellable = m.transfers.filter(
            (t) =>
                t.expected.status === EventStatus.LimitReached || t.expected.status === EventStatus.LiquidityRequested,
        );
        if (m.cancelOn() && cancellable.length)
            ops.push([1, 'small-cancel', () => this.smallCancel(r.pick(cancellable))]);
        const requested = m.transfers.filter(
            (t) => t.expected.status === EventStatus.LiquidityRequested && t.lane !== 'shared',
        );
        if (requested.length)
            this.take(ops, 'provide', 'small-provide', 1.5, () =>
                m.provide(r.pick(requested), 0n, this.value(toNano('0.01'), toNano('0.5'))),
            );
        const stranded = m.transfers.filter((t) => m.stranded.has(t.eventAddress.toRawString()));
        if (stranded.length)
            ops.push([
                1.5,
                'return-stranded',
                () => this.returnStranded(r.pick(stranded), this.value(toNano('0.005'), toNano('0.3'))),
            ]);
    }

    /**
     * The waiting stranded records (sent_at 0) of `t`'s Event of its own token wallet (the Event
     * records other wallets' tokens too: harness/model/strand.ts sends it reference tokens).
     */
    private waiting(t: ModelTransfer): Promise<[bigint, bigint][]> {
        return this.m.waitingStranded(t);
    }

    /** anyone (the forger) pays `value` for the return of a stranded record of `t`'s Event */
    async returnStranded(t: ModelTransfer, value: bigint): Promise<void> {
        const m = this.m;
        const raw = t.eventAddress.toRawString();
        const [id, amount] = (await this.waiting(t))[0] ?? [-1n, 0n];
        m.log(`return-stranded #${t.id} record ${id} (${amount}) value ${value}`);
        if (id < 0n)
            throw new Error(
                `return-stranded #${t.id}: the model counts ${m.stranded.get(raw)?.amount} stranded, the Event records none`,
            );
        const ev = m.net(t.to).blockchain.openContract(MultiVaultTvmTvmEventNative.createFromAddress(t.eventAddress));
        await ev.sendReturnStranded(m.forger[t.to].getSender(), id, value);
        if ((await this.waiting(t)).some(([i]) => i === id)) return m.log('  (refused: the record waits)');
        const left = (m.stranded.get(raw)?.amount ?? 0n) - amount;
        if (left > 0n) m.stranded.set(raw, { lane: t.lane, amount: left });
        else m.stranded.delete(raw);
        m.addBalance(t.to, 'token', PROVIDER, amount);
    }

    // ------------------------------------------------------------ moves

    private pickHolder(h: 'token' | 'shared' | 'alien'): [Net, string] | null {
        const holders = (['A', 'B'] as Net[]).flatMap((n) =>
            USERS[n].filter((u) => this.m.expectedBalance(n, h, u) > 0n).map((u) => [n, u] as [Net, string]),
        );
        return holders.length ? this.m.rng.pick(holders) : null;
    }

    private amount(bal: bigint): bigint {
        return this.m.rng.bigint(1n, bal < 2_000_000_000n ? bal : 2_000_000_000n);
    }

    async smallLock(): Promise<void> {
        const m = this.m;
        const h = m.rng.pick(['token', 'shared'] as const);
        const who = this.pickHolder(h);
        if (!who) return m.log(`skip: nobody holds ${h}`);
        const [from, sender] = who;
        const to: Net = from === 'A' ? 'B' : 'A';
        await m.lock(
            from,
            h,
            sender,
            m.rng.pick(USERS[to]),
            this.amount(m.expectedBalance(from, h, sender)),
            this.value(toNano('0.01'), toNano('0.5')),
        );
    }

    /** a lock with too little forward TON even for the refund: recorded (or refunded) */
    async tinyLock(
        o: { from?: Net; h?: 'token' | 'shared'; sender?: string; amount?: bigint; forward?: bigint } = {},
    ): Promise<void> {
        const m = this.m;
        const h = o.h ?? m.rng.pick(['token', 'shared'] as const);
        const who: [Net, string] | null = o.from && o.sender ? [o.from, o.sender] : this.pickHolder(h);
        if (!who) return m.log(`skip: nobody holds ${h}`);
        const [from, sender] = who;
        const amount = o.amount ?? this.amount(m.expectedBalance(from, h, sender));
        const forward = o.forward ?? this.value(toNano('0.002'), toNano('0.006'));
        m.log(`tiny-lock ${from}.${h} ${sender} ${amount} forward ${forward}`);
        const s = m.side(from);
        const token = h === 'token' ? s.token : s.shared;
        const u = m.user(from, sender);
        const wallet = await m.walletAddress(from, h, u.address);
        const recordedBefore = await s.nativeProxy.getRefundOf(token.proxyWallet, u.address);
        const r = await u.send({
            to: wallet,
            value: forward + toNano('0.1'),
            body: jettonTransferBody({
                amount,
                destination: s.nativeProxy.address,
                responseDestination: u.address,
                forwardTonAmount: forward,
                forwardPayload: transferPayloadCell({
                    destinationChainId: m.net(from === 'A' ? 'B' : 'A').globalId,
                    recipient: m.user(from === 'A' ? 'B' : 'A', USERS[from === 'A' ? 'B' : 'A'][0]).address,
                    expectedGas: 0n,
                    remainingGasTo: u.address,
                    payload: null,
                }),
            }),
        });
        const emitted = r.transactions.some(
            (t) =>
                t.inMessage?.info.type === 'internal' &&
                t.inMessage.info.dest.equals(s.nativeProxy.address) &&
                [...t.outMessages.values()].some((x) => x.info.type === 'external-out'),
        );
        if (emitted) throw new Error(`tiny-lock: the native proxy emitted a lock with ${forward} of forward TON`);
        m.refundRecorded(
            from,
            h,
            sender,
            (await s.nativeProxy.getRefundOf(token.proxyWallet, u.address)) - recordedBefore,
            amount,
        );
    }

    /** claim_refund of a recorded refund (`k`: net.holding.user) with `value` */
    async claim(k: string, value: bigint): Promise<void> {
        const m = this.m;
        const [n, h, user] = k.split('.') as [Net, 'token' | 'shared', string];
        m.log(`claim-refund ${k} value ${value}`);
        const s = m.side(n);
        const token = h === 'token' ? s.token : s.shared;
        const u = m.user(n, user);
        await u.send({ to: s.nativeProxy.address, value, body: ProxyMessages.claimRefund(token.proxyWallet) });
        const left = await s.nativeProxy.getRefundOf(token.proxyWallet, u.address);
        const amount = m.recorded.get(k) ?? 0n;
        if (left === amount) return m.log('  (refused: the record kept)');
        // a claim pays at most CLAIM_REFUND_MAX (proxy_common.tact): the rest stays recorded
        const paid = min(amount, CLAIM_REFUND_MAX);
        if (left !== amount - paid) throw new Error(`claim-refund ${k}: ${left} left of ${amount}, ${paid} paid`);
        if (left === 0n) m.recorded.delete(k);
        else m.recorded.set(k, left);
        // (to a wallet that may not receive: back in the proxy's wallet, the documented exception)
        m.receive(n, h, user, paid, 'proxy', 'claim_refund');
    }

    async smallBurn(): Promise<void> {
        const m = this.m;
        const who = this.pickHolder('alien');
        if (!who) return m.log('skip: nobody holds an alien token');
        const [from, sender] = who;
        const to: Net = from === 'A' ? 'B' : 'A';
        await m.burn(
            from,
            sender,
            m.rng.pick(USERS[to]),
            this.amount(m.expectedBalance(from, 'alien', sender)),
            undefined,
            this.value(toNano('0.02'), toNano('0.6')),
        );
    }

    async smallRetry(t: ModelTransfer): Promise<void> {
        const m = this.m;
        const v = this.value(toNano('0.01'), toNano('1'));
        if (t.expected.status === EventStatus.LimitReached)
            return m.limitAction(t, m.rng.chance(0.5) ? 'approve' : 'retry', v);
        await m.liquidityRetry(t, v);
    }

    async smallCancel(t: ModelTransfer): Promise<void> {
        const m = this.m;
        const by = t.expected.status === EventStatus.LimitReached ? 'approver' : 'recipient';
        await m.cancel(t, m.rng.pick(USERS[t.from]), by, this.value(toNano('0.02'), toNano('1')));
    }

    /** the drain: every recorded refund claimed, every stranded record returned, with enough TON */
    async drain(): Promise<void> {
        // (a record above CLAIM_REFUND_MAX takes two claims)
        for (let i = 0; i < 2; i++) for (const k of [...this.m.recorded.keys()]) await this.claim(k, toNano('0.5'));
        if (this.m.recorded.size) throw new Error(`drain: refunds still recorded: ${[...this.m.recorded.keys()]}`);
        for (const t of this.m.transfers)
            for (let i = 0; i < 8 && this.m.stranded.has(t.eventAddress.toRawString()); i++)
                await this.returnStranded(t, toNano('0.3'));
        if (this.m.stranded.size) throw new Error(`drain: tokens still stranded in ${[...this.m.stranded.keys()]}`);
    }

    // ------------------------------------------------------------ invariant

    /**
     * counted by a proxy: each refund the model records is the native proxy's refund_of(wallet,
     * user), and each Native Event the model counts stranded tokens in holds exactly them in its
     * wallet and in its waiting records. (A refund or a record the model does not know of leaves a
     * user's or the provider's wallet short of the model: invariant (b).)
     */
    async check(): Promise<Violation[]> {
        const m = this.m;
        const out: Violation[] = [];
        for (const [k, want] of m.recorded) {
            const [n, h, user] = k.split('.') as [Net, 'token' | 'shared', string];
            const s = m.side(n);
            const got = await s.nativeProxy.getRefundOf(
                (h === 'token' ? s.token : s.shared).proxyWallet,
                m.user(n, user).address,
            );
            if (got !== want)
                out.push({
                    invariant: 'conservation',
                    message: `${k}: the native proxy records a refund of ${got}, the model ${want}`,
                });
        }
        for (const t of m.transfers) {
            const raw = t.eventAddress.toRawString();
            // (the provider step's transfer a blacklisted recipient's wallet refused: the documented exception)
            const above = t.kind === 'burn' ? m.aboveBooksOf(t.lane, t.eventAddress) : 0n;
            if (!m.stranded.has(raw) && !m.unrecorded.has(raw) && !above) continue;
            const kept = m.stranded.get(raw)?.amount ?? 0n;
            const lost = m.unrecorded.get(raw)?.amount ?? 0n;
            const got = await m.walletBalance(t.to, 'token', t.eventAddress);
            const records = (await this.waiting(t)).reduce((a, [, v]) => a + v, 0n);
            if (got !== kept + lost + above || records !== kept)
                out.push({
                    invariant: 'balance',
                    message: `#${t.id}: its Native Event's wallet holds ${got}, its waiting stranded records ${records}, the model ${kept}${lost ? ` + unrecorded ${lost}` : ''}${above ? ` + refused by the recipient's wallet ${above}` : ''}`,
                });
        }
        return out;
    }
}
