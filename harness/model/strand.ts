/**
 * Issue 11 ("no token left behind") moves and invariants of the model-based test
 * (tests/model.spec.ts), an extension of harness/model.ts (BridgeModel.extensions). On network A,
 * beside the bridge's own jettons:
 *   - a USDT-style jetton (harness/statusJetton.ts: its master locks wallets for sending or
 *     receiving, 45) whose Native Events (harness/liquidityEvent.ts: placed in LiquidityRequested,
 *     the configuration and the proxy treasuries that see the repayment) a provider provides for;
 *   - the reference TEP-74 jetton (tonweb's code, a plain minter) whose holder sends tokens to the
 *     bridge's real Native Events (which never take them).
 * Moves (each drawn among the model's own):
 *   foreign-event    a new foreign Event: a random amount, sometimes near 2^120, a bounty of 0, a
 *                    part, or the whole amount, sometimes an oversized payload (16 cells);
 *   foreign-provide  the provider sends amount - bounty (sometimes one more: an excess; sometimes
 *                    one short) with a small, middling or plentiful forward TON;
 *   foreign-status   the master locks the Event's wallet for sending, blacklists the recipient or
 *                    the provider (no receiving), or frees one of them;
 *   foreign-retry    anyone sends tvm_event_retry to a foreign Event with a small or plentiful value;
 *   stray-tokens     the reference jetton's holder sends some to a real Native Event of the model
 *                    with a small or plentiful forward TON: asked back at once, or recorded by the
 *                    Event when the forward TON cannot pay the return (event_stranded.tact);
 *   stray-return     anyone pays a small or plentiful value for such a record's return;
 *   lock-unserved    a user locks a native token (its network's or the shared one, on either
 *                    network) for a chain id no configuration serves (2223) or for a recipient in
 *                    workchain -1 (2705): the tokens back, nothing emitted (the model's own
 *                    invariants hold it);
 *   burn-unserved    a user burns an alien token for a chain id other than its origin (2708) or
 *                    for a recipient in workchain -1 (2705): minted back, nothing emitted.
 * Invariants (after every step):
 *   delivered        no foreign Event is LiquidityProvided while its recipient has not received
 *                    amount - bounty, except the documented exception: the recipient's wallet
 *                    refused it (blacklisted) and bounced it to the Event's wallet, which tells
 *                    nobody; recorded (`exceptions`), never silent;
 *   repaid           the provider is repaid (tvm_event_confirmed to the configuration) once per
 *                    Event, and only for one LiquidityProvided;
 *   tokens           every foreign token is with a holder (the provider, a recipient), held by an
 *                    Event with a way out (getHeldTokens: tvm_event_retry), or in an Event's wallet
 *                    as a recorded exception; no provision is pending at rest; every reference
 *                    token sent to a real Event came back, waits in that Event's record (its
 *                    wallet holds exactly its records), or is a recorded exception, and the real
 *                    Events' wallets of the bridge's own token hold exactly their held tokens;
 *   received         every transfer of the model whose Event says Confirmed or LiquidityProvided
 *                    has its recipient's wallet of that token take a transfer in (each counted once).
 * The drain frees every wallet, retries what is held and provides for every foreign Event.
 */
import { Address, toNano } from '@ton/core';
import { BlockchainTransaction, SandboxContract, TreasuryContract } from '@ton/sandbox';
import { BridgeModel, bigPayload, ModelExtension, ModelOp, USERS, Violation } from '../model';
import { StatusJetton, WALLET_STATUS } from '../statusJetton';
import { ReferenceJetton } from '../referenceJetton';
import { jettonTransferBody, liquidityRequestedEvent } from '../liquidityEvent';
import { burnAlien, lockNative } from '../actors';
import { exitCodeOf } from '../bridge';
import { MultiVaultTvmTvmEventNative } from '../../wrappers/MultiVaultTvmTvmEventNative';
import { limitActionMessage, returnStrandedMessage } from '../../wrappers/tvmTvmEvent';
import { EventStatus } from '../../wrappers/eventStatus';
import { Op } from '../../wrappers/constants';

const MAX_FOREIGN_EVENTS = 3;
/** an amount near 2^120 (the largest a TVM token amount may be): the total minted stays below the probe's */
const NEAR_2_120 = (1n << 120n) - 100_000_000_000n;

interface ForeignEvent {
    id: number;
    event: SandboxContract<MultiVaultTvmTvmEventNative>;
    wallet: Address;
    recipient: SandboxContract<TreasuryContract>;
    amount: bigint;
    bounty: bigint;
    /** tokens in the Event's wallet the Event does not count: a recorded exception each */
    excepted: bigint;
    /**
     * tokens the Event recorded as stranded (a provision refused with too little forward TON for
     * its return: waiting records of its wallet, returned by anyone's event_return_stranded)
     */
    stranded: bigint;
    /** getHeldTokens after the last move on it */
    held: bigint;
    /** repayments seen (tvm_event_confirmed from the Event to the configuration) */
    repayments: number;
    /** the recipient's balance once the Event said LiquidityProvided (for `delivered`) */
    paid: boolean;
    /** the drain found no room in its wallet for the provision (near 2^120 kept there as recorded exceptions) */
    noRoom?: boolean;
}

export interface StrandException {
    what: string;
    amount: bigint;
}

export type { ForeignEvent };

/**
 * Why tokens a Native Event was sent and asks back stayed in its wallet, as the chain shows it:
 * the wallet's refusal of the Event's transfer request (its exit code), or the Event's request
 * never sent (its action phase's result code).
 */
export function returnRefusal(txs: BlockchainTransaction[], event: Address, eventWallet: Address): string {
    const on = (dest: Address, src: Address) =>
        txs.find(
            (t) =>
                t.inMessage?.info.type === 'internal' &&
                t.inMessage.info.dest.equals(dest) &&
                t.inMessage.info.src.equals(src),
        );
    const request = on(eventWallet, event);
    if (request) {
        const code = exitCodeOf(request);
        const d = request.description;
        if (code) return `its wallet refused the Event's transfer request (exit code ${code})`;
        if (d.type === 'generic' && d.actionPhase && !d.actionPhase.success)
            return `its wallet could not send the return (action phase ${d.actionPhase.resultCode})`;
        return "its wallet took the Event's transfer request and kept the tokens";
    }
    const notified = on(event, eventWallet);
    const d = notified?.description;
    if (d?.type !== 'generic') return 'no notification reached the Event';
    if (d.computePhase.type === 'vm' && d.computePhase.exitCode !== 0)
        return `the Event refused the notification (exit code ${d.computePhase.exitCode})`;
    const a = d.actionPhase;
    if (a && a.resultCode !== 0) return `the Event's transfer request was not sent (action phase ${a.resultCode})`;
    if (a && a.skippedActions > 0)
        return "the Event's transfer request was not sent: what was left of the notification's value could not pay for it (the action skipped, mode 64 + 2)";
    return "the Event's transfer request was not sent";
}

export class Strand implements ModelExtension {
    readonly exceptions: StrandException[] = [];
    readonly events: ForeignEvent[] = [];
    private jetton!: StatusJetton;
    private reference!: ReferenceJetton;
    private provider!: SandboxContract<TreasuryContract>;
    private holder!: SandboxContract<TreasuryContract>;
    private config!: SandboxContract<TreasuryContract>;
    private proxy!: SandboxContract<TreasuryContract>;
    private recipients: SandboxContract<TreasuryContract>[] = [];
    /**
     * reference tokens sent to real Events and not returned at once, per Event (raw address): those
     * the Event recorded (its stranded records of the reference wallet, waiting for
     * event_return_stranded) and those nobody recorded (recorded exceptions here)
     */
    readonly strayKept = new Map<string, { recorded: bigint; excepted: bigint }>();
    private strayGiven = 0n;
    /** what the master minted of the foreign token (to the provider, for each Event) */
    private minted = 0n;
    private nearUsed = false;
    /** where each network's transactions of this sequence begin; how far `received` has read them */
    private start0 = { A: 0, B: 0 };
    private scanned = { A: 0, B: 0 };
    private lastLt = { A: 0n, B: 0n };
    /** successful internal_transfers each wallet took in since the start (`received`) */
    private readonly incoming = new Map<string, number>();
    /** internal_transfers each wallet refused with 45 (may not receive) since the start (`received`) */
    private readonly refusedIn = new Map<string, number>();
    private nextHash = 1n;

    constructor(readonly m: BridgeModel) {}

    async start(): Promise<void> {
        const net = this.m.net('A');
        const admin = await net.treasury('strand jetton master');
        this.jetton = StatusJetton.create(net.blockchain, admin);
        this.provider = await net.treasury('strand provider');
        this.holder = await net.treasury('strand holder');
        this.config = await net.treasury('strand configuration');
        this.proxy = await net.treasury('strand proxy');
        this.recipients = [await net.treasury('strand recipient 1'), await net.treasury('strand recipient 2')];
        this.reference = await ReferenceJetton.deploy(net.blockchain, admin, 'https://example.org/strand.json');
        await this.reference.mint(this.holder.address, 1_000_000_000n);
        this.strayGiven = 1_000_000_000n;
        this.start0 = { A: this.m.net('A').transactions.length, B: this.m.net('B').transactions.length };
        this.scanned = { ...this.start0 };
    }

    ops(ops: ModelOp[]): void {
        const r = this.m.rng;
        if (this.events.length < MAX_FOREIGN_EVENTS)
            ops.push([2, 'foreign-event', async () => void (await this.newEvent())]);
        const requested = this.events.filter((e) => !e.paid);
        if (requested.length) ops.push([3, 'foreign-provide', () => this.provide(r.pick(requested))]);
        // a held provision, or a delivered Event (2324): a retry of a LiquidityRequested Event with
        // nothing held goes to its proxy, which here is a treasury
        const retriable = this.events.filter((e) => e.held > 0n || e.paid);
        if (retriable.length) ops.push([1.5, 'foreign-retry', () => this.retry(r.pick(retriable))]);
        if (this.events.length) ops.push([1.5, 'foreign-status', () => this.setStatus()]);
        const stranded = this.events.filter((e) => e.stranded > 0n);
        if (stranded.length)
            ops.push([
                1,
                'foreign-return',
                () => this.returnStranded(r.pick(stranded), r.pick([toNano('0.005'), toNano('0.3')])),
            ]);
        // the bridge's Native Events on A (burns from B), where the reference jetton lives
        const natives = this.m.transfers.filter((t) => t.kind === 'burn' && t.to === 'A' && t.expected.status !== null);
        if (natives.length) ops.push([1, 'stray-tokens', () => this.stray(r.pick(natives).eventAddress)]);
        const strays = [...this.strayKept.entries()].filter(([, v]) => v.recorded > 0n);
        if (strays.length)
            ops.push([
                0.6,
                'stray-return',
                () => this.strayReturn(Address.parseRaw(r.pick(strays)[0]), r.pick([toNano('0.005'), toNano('0.3')])),
            ]);
        ops.push([0.6, 'lock-unserved', () => this.lockUnserved()]);
        ops.push([0.4, 'burn-unserved', () => this.burnUnserved()]);
    }

    // ------------------------------------------------------------ moves

    async newEvent(
        o: { near?: boolean; bounty?: 'none' | 'part' | 'all'; payload?: boolean; recipient?: 0 | 1 } = {},
    ): Promise<ForeignEvent> {
        const r = this.m.rng;
        const near = o.near ?? (!this.nearUsed && r.chance(0.3));
        this.nearUsed ||= near;
        const amount = near ? NEAR_2_120 - r.bigint(0n, 1000n) : r.bigint(1n, 10_000_000_000n);
        const b = o.bounty ?? (r.chance(0.2) ? 'all' : r.chance(0.5) ? 'none' : 'part');
        const bounty = b === 'all' ? amount : b === 'none' ? 0n : r.bigint(0n, amount / 10n);
        const recipient = o.recipient !== undefined ? this.recipients[o.recipient] : r.pick(this.recipients);
        const payload = (o.payload ?? r.chance(0.25)) ? bigPayload(16) : null;
        const id = this.events.length;
        this.m.log(
            `foreign-event #F${id} ${near ? 'near 2^120 ' : ''}${amount} bounty ${bounty}${payload ? ' payload 16 cells' : ''}`,
        );
        const { event, wallet } = await liquidityRequestedEvent(this.m.net('A').blockchain, {
            msgHash: this.nextHash++,
            configuration: this.config.address,
            proxy: this.proxy.address,
            tokenRoot: this.jetton.minter,
            eventWallet: (e) => this.jetton.walletAddress(e),
            walletKnown: true,
            amount,
            bounty,
            sender: this.holder.address,
            recipient: recipient.address,
            payload,
        });
        const e: ForeignEvent = {
            id,
            event,
            wallet,
            recipient,
            amount,
            bounty,
            excepted: 0n,
            stranded: 0n,
            held: 0n,
            repayments: 0,
            paid: false,
        };
        this.events.push(e);
        // the provider can always provide for it (and one more token: an excess)
        await this.jetton.mint(this.provider.address, amount - bounty + 1n);
        this.minted += amount - bounty + 1n;
        return e;
    }

    /** the provider sends amount - bounty (+1 or -1 sometimes) with a random forward TON */
    async provide(e: ForeignEvent, o: { delta?: bigint; forward?: bigint } = {}): Promise<void> {
        const r = this.m.rng;
        const due = e.amount - e.bounty;
        const delta = o.delta ?? (r.chance(0.15) ? 1n : r.chance(0.1) && due > 0n ? -1n : 0n);
        const forward =
            o.forward ?? r.pick([toNano('0.02'), toNano('0.06'), toNano('0.12'), toNano('0.2'), toNano('0.5')]);
        this.m.log(`foreign-provide #F${e.id} ${due + delta} forward ${forward}`);
        const res = await this.provider.send({
            to: this.jetton.walletAddress(this.provider.address),
            value: forward + toNano('0.1'),
            body: jettonTransferBody({
                amount: due + delta,
                to: e.event.address,
                response: this.provider.address,
                forwardTonAmount: forward,
            }),
        });
        await this.observe(e, res.transactions, forward);
    }

    async retry(e: ForeignEvent, value = this.m.rng.pick([toNano('0.05'), toNano('1')])): Promise<void> {
        this.m.log(`foreign-retry #F${e.id} value ${value}`);
        const res = await this.holder.send({ to: e.event.address, value, body: limitActionMessage('tvmEventRetry') });
        await this.observe(e, res.transactions, value);
    }

    async setStatus(pick?: {
        e: ForeignEvent;
        who: 'event' | 'recipient' | 'provider';
        status: number;
    }): Promise<void> {
        const r = this.m.rng;
        const e = pick?.e ?? r.pick(this.events);
        const choices = [
            ['the Event wallet', e.event.address, WALLET_STATUS.sendLocked],
            ['the Event wallet', e.event.address, 0],
            ['the recipient', e.recipient.address, WALLET_STATUS.receiveLocked],
            ['the recipient', e.recipient.address, 0],
            ['the provider', this.provider.address, WALLET_STATUS.receiveLocked],
            ['the provider', this.provider.address, 0],
        ] as const;
        const [who, owner, status] = pick
            ? choices.find(
                  (c) => c[0].endsWith(pick.who === 'event' ? 'Event wallet' : pick.who) && c[2] === pick.status,
              )!
            : r.pick(choices);
        this.m.log(
            `foreign-status #F${e.id} ${who} ${status === 0 ? 'free' : status === 1 ? 'send-locked' : 'receive-locked'}`,
        );
        await this.jetton.setStatus(owner, status);
    }

    /**
     * Reference tokens to a real Native Event of the model: the Event asks its wallet to send them
     * back to the holder with what is left of the notification's value, or, when that cannot pay
     * for the transfer, records them (event_stranded.tact: a waiting record of the reference
     * wallet, returned by anyone's event_return_stranded). Tokens kept with neither are a recorded
     * exception, with the reason the chain shows.
     */
    async stray(
        event: Address,
        forward = this.m.rng.pick([toNano('0.02'), toNano('0.05'), toNano('0.3')]),
    ): Promise<void> {
        const amount = this.m.rng.bigint(1n, 1000n);
        this.m.log(`stray-tokens ${amount} to ${event.toRawString().slice(0, 10)} forward ${forward}`);
        const before = await this.reference.balanceOf(event);
        const waiting = await this.strayWaiting(event);
        const res = await this.holder.send({
            to: this.reference.walletAddress(this.holder.address),
            value: forward + toNano('0.1'),
            body: jettonTransferBody({ amount, to: event, response: this.holder.address, forwardTonAmount: forward }),
        });
        const kept = (await this.reference.balanceOf(event)) - before;
        if (kept <= 0n) return;
        const k = event.toRawString();
        const s = this.strayKept.get(k) ?? { recorded: 0n, excepted: 0n };
        const recorded =
            (await this.strayWaiting(event)).reduce((a, [, v]) => a + v, 0n) - waiting.reduce((a, [, v]) => a + v, 0n);
        if (recorded > 0n) {
            this.m.log(`  (recorded by the Event: ${recorded}, for event_return_stranded)`);
            s.recorded += recorded;
        }
        if (kept > recorded) {
            this.exceptions.push({
                what: `reference tokens sent to a Native Event with ${forward} forward TON: ${returnRefusal(res.transactions, event, this.reference.walletAddress(event))}`,
                amount: kept - recorded,
            });
            s.excepted += kept - recorded;
        }
        this.strayKept.set(k, s);
    }

    /** the waiting stranded records of the reference wallet in a real Native Event: [id, amount] */
    private async strayWaiting(event: Address): Promise<[bigint, bigint][]> {
        const ev = this.m.net('A').blockchain.openContract(MultiVaultTvmTvmEventNative.createFromAddress(event));
        const wallet = this.reference.walletAddress(event);
        const acc = await this.m.net('A').blockchain.getContract(event);
        if (acc.accountState?.type !== 'active') return [];
        return [...(await ev.getStranded()).entries()]
            .filter(([, r]) => r.sentAt === 0n && r.wallet.equals(wallet))
            .map(([id, r]) => [id, r.amount]);
    }

    /**
     * Anyone (A's forger) pays `value` for the return of a waiting record of reference tokens in a
     * real Event: refused (2317) with the record waiting, or the tokens back to the holder.
     */
    async strayReturn(event: Address, value: bigint): Promise<void> {
        const k = event.toRawString();
        const s = this.strayKept.get(k);
        const [id, amount] = (await this.strayWaiting(event))[0] ?? [-1n, 0n];
        this.m.log(`stray-return ${k.slice(0, 10)} record ${id} (${amount}) value ${value}`);
        if (!s || id < 0n)
            throw new Error(`stray-return: the model counts ${s?.recorded ?? 0n} recorded in ${k}, the Event none`);
        const ev = this.m.net('A').blockchain.openContract(MultiVaultTvmTvmEventNative.createFromAddress(event));
        const before = await this.reference.balanceOf(this.holder.address);
        await ev.sendReturnStranded(this.m.forger.A.getSender(), id, value);
        if ((await this.strayWaiting(event)).some(([i]) => i === id))
            return this.m.log('  (refused: the record waits)');
        const back = (await this.reference.balanceOf(this.holder.address)) - before;
        if (back !== amount) throw new Error(`stray-return: record ${id} of ${amount} sent, the holder got ${back}`);
        s.recorded -= amount;
    }

    /**
     * A user locks a native token (its own network's or the shared one, on either network) for a
     * destination nobody serves: a chain id neither network has (2223), or the other network with
     * a recipient outside the basechain (workchain -1: 2705). Refunded (or 2702 when paused): the
     * balances stay, nothing emitted.
     */
    async lockUnserved(): Promise<void> {
        const m = this.m;
        const from = m.rng.pick(['A', 'B'] as const);
        const to = from === 'A' ? 'B' : 'A';
        const h = m.rng.pick(['token', 'shared'] as const);
        const user = m.rng.pick(USERS[from]);
        const masterchain = m.rng.chance(0.3);
        let chain = m.rng.int(2 ** 31) - 2 ** 30;
        while (chain === m.net('A').globalId || chain === m.net('B').globalId) chain++;
        if (masterchain) chain = m.net(to).globalId;
        const u = m.user(from, user);
        const recipient = masterchain ? new Address(-1, m.user(to, USERS[to][0]).address.hash) : u.address;
        const amount = m.rng.bigint(1n, 1_000_000n);
        m.log(`lock-unserved ${from}.${h} ${user} -> chain ${chain}${masterchain ? ' to workchain -1' : ''}`);
        const s = m.side(from);
        const wallet = await m.walletAddress(from, h, u.address);
        const proxyWallet = (h === 'token' ? s.token : s.shared).proxyWallet;
        const refundBefore = await s.nativeProxy.getRefundOf(proxyWallet, u.address);
        await lockNative(u, {
            wallet,
            nativeProxy: s.nativeProxy.address,
            amount,
            forwardTonAmount: toNano('0.5'),
            destinationChainId: chain,
            recipient,
            expectedGas: toNano('0.1'),
            remainingGasTo: u.address,
        });
        // refunded (2223 / 2705, or 2702 when paused): the model's balances stay, nothing emitted
        // (a refund the proxy's frozen wallet refused: recorded, harness/model/foreignLane.ts)
        m.refundBounced(
            from,
            h,
            user,
            (await s.nativeProxy.getRefundOf(proxyWallet, u.address)) - refundBefore,
            amount,
        );
    }

    /**
     * A user burns an alien token for a destination its origin does not serve: another chain id
     * (the alien proxy's 2708) or its origin with a recipient in workchain -1 (2705). Minted back
     * (or 2702 when paused): the balances stay, nothing emitted.
     */
    async burnUnserved(): Promise<void> {
        const m = this.m;
        const holders = (['A', 'B'] as const).flatMap((n) =>
            USERS[n].filter((u) => m.expectedBalance(n, 'alien', u) > 0n).map((u) => [n, u] as const),
        );
        if (!holders.length) return m.log('skip: nobody holds an alien token');
        const [from, user] = m.rng.pick(holders);
        const to = from === 'A' ? 'B' : 'A';
        const masterchain = m.rng.chance(0.4);
        let chain = m.rng.int(2 ** 31) - 2 ** 30;
        while (chain === m.net('A').globalId || chain === m.net('B').globalId) chain++;
        if (masterchain) chain = m.net(to).globalId;
        const u = m.user(from, user);
        const amount = m.rng.bigint(1n, m.expectedBalance(from, 'alien', user));
        m.log(
            `burn-unserved ${from}.alien ${user} ${amount} -> chain ${chain}${masterchain ? ' to workchain -1' : ''}`,
        );
        await burnAlien(u, {
            wallet: await m.walletAddress(from, 'alien', u.address),
            amount,
            value: toNano('0.6'),
            destinationChainId: chain,
            recipient: masterchain ? new Address(-1, m.user(to, USERS[to][0]).address.hash) : u.address,
            expectedGas: toNano('0.1'),
            remainingGasTo: u.address,
        });
        // minted back (2708 / 2705, or 2702 when paused): the model's balances stay, nothing emitted
    }

    /**
     * After a provision or a retry: when the Event says LiquidityProvided, its recipient was sent
     * amount - bounty by the Event's wallet; a recipient's wallet that refused it (blacklisted) is
     * the recorded exception. Tokens the Event's wallet keeps that the Event does not hold are
     * recorded with their reason, or fail the step.
     */
    private async observe(e: ForeignEvent, txs: BlockchainTransaction[], value: bigint): Promise<void> {
        const status = await e.event.getStatus();
        const due = e.amount - e.bounty;
        const recipientWallet = this.jetton.walletAddress(e.recipient.address);
        const refusedBy = (w: Address) =>
            txs.some(
                (t) =>
                    t.inMessage?.info.dest instanceof Address &&
                    t.inMessage.info.dest.equals(w) &&
                    exitCodeOf(t) === 45,
            );
        if (status === EventStatus.LiquidityProvided && !e.paid) {
            e.paid = true;
            if (due > 0n && refusedBy(recipientWallet)) {
                this.exceptions.push({
                    what: `#F${e.id}: the recipient's wallet refused (blacklisted): LiquidityProvided, unpaid`,
                    amount: due,
                });
                e.excepted += due;
            }
        }
        if (refusedBy(this.jetton.walletAddress(this.provider.address))) {
            // the excess back to a provider whose wallet may not receive: back in the Event's wallet
            const held = await e.event.getHeldTokens();
            const inWallet = await this.jetton.balanceOf(e.event.address);
            const extra = inWallet - held - e.excepted - (await this.waitingOf(e));
            if (extra > 0n) {
                this.exceptions.push({
                    what: `#F${e.id}: the provider's wallet refused its excess (may not receive)`,
                    amount: extra,
                });
                e.excepted += extra;
            }
        }
        const inWallet = await this.jetton.balanceOf(e.event.address);
        const held = await e.event.getHeldTokens();
        e.held = held;
        const stranded = await this.waitingOf(e);
        if (stranded > e.stranded) this.m.log(`  (recorded by #F${e.id} as stranded: ${stranded - e.stranded})`);
        e.stranded = stranded;
        const extra = inWallet - held - e.excepted - stranded;
        if (extra > 0n) {
            // a refused provision's return with too little TON (the notification's value), or a
            // locked Event wallet that cannot send them back
            this.exceptions.push({
                what: `#F${e.id}: tokens the Event does not take, not returned (value ${value}${(await this.jetton.statusOf(e.event.address)) & 1 ? ', its wallet send-locked' : ''})`,
                amount: extra,
            });
            e.excepted += extra;
        }
        e.repayments += txs.filter(
            (t) =>
                t.inMessage?.info.type === 'internal' &&
                t.inMessage.info.src.equals(e.event.address) &&
                t.inMessage.info.dest.equals(this.config.address) &&
                t.inMessage.body.beginParse().preloadUint(32) === Op.bridge.tvmEventConfirmed,
        ).length;
    }

    /** the waiting stranded records of a foreign Event's own wallet: [id, amount] */
    private async waitingRecords(e: ForeignEvent): Promise<[bigint, bigint][]> {
        return [...(await e.event.getStranded()).entries()]
            .filter(([, r]) => r.sentAt === 0n && r.wallet.equals(e.wallet))
            .map(([id, r]) => [id, r.amount]);
    }

    private async waitingOf(e: ForeignEvent): Promise<bigint> {
        return (await this.waitingRecords(e)).reduce((a, [, v]) => a + v, 0n);
    }

    /**
     * Anyone (the holder) pays `value` for the return of a foreign Event's stranded record: refused
     * (2317, the record waits) or the tokens back to the provider.
     */
    async returnStranded(e: ForeignEvent, value: bigint): Promise<void> {
        const [id, amount] = (await this.waitingRecords(e))[0] ?? [-1n, 0n];
        this.m.log(`foreign-return #F${e.id} record ${id} (${amount}) value ${value}`);
        if (id < 0n)
            throw new Error(`foreign-return #F${e.id}: the model counts ${e.stranded} stranded, the Event none`);
        const before = await this.jetton.balanceOf(this.provider.address);
        const res = await this.holder.send({ to: e.event.address, value, body: returnStrandedMessage(id) });
        e.stranded = await this.waitingOf(e);
        if ((await this.waitingRecords(e)).some(([i]) => i === id)) return this.m.log('  (refused: the record waits)');
        const providerWallet = this.jetton.walletAddress(this.provider.address);
        if (
            res.transactions.some(
                (t) =>
                    t.inMessage?.info.dest instanceof Address &&
                    t.inMessage.info.dest.equals(providerWallet) &&
                    exitCodeOf(t) === 45,
            )
        ) {
            // the provider's wallet may not receive (blacklisted): the tokens bounce to the Event's
            // wallet, which tells nobody (TEP-74): the record says sent, the tokens an exception
            this.m.log("  (the provider's wallet refused the return: a recorded exception)");
            this.exceptions.push({
                what: `#F${e.id}: the provider's wallet refused a stranded record's return (may not receive)`,
                amount,
            });
            e.excepted += amount;
            return;
        }
        const back = (await this.jetton.balanceOf(this.provider.address)) - before;
        if (back !== amount)
            throw new Error(`foreign-return #F${e.id}: record ${id} of ${amount} sent, the provider got ${back}`);
    }

    /** (the self-check) the master mints `amount` straight to `owner`'s wallet, outside the model */
    async mintTo(owner: Address, amount: bigint): Promise<void> {
        await this.jetton.mint(owner, amount);
    }

    // ------------------------------------------------------------ drain

    /** Every wallet free; what is held retried; every foreign Event provided for; every stray record returned. */
    async drain(): Promise<void> {
        for (const [k, s] of this.strayKept) {
            for (let i = 0; i < 8 && s.recorded > 0n; i++) await this.strayReturn(Address.parseRaw(k), toNano('0.3'));
            if (s.recorded > 0n) throw new Error(`drain: ${s.recorded} reference tokens still recorded in ${k}`);
        }
        for (const e of this.events) {
            for (const o of [e.event.address, e.recipient.address, this.provider.address])
                if ((await this.jetton.statusOf(o)) !== 0) await this.jetton.setStatus(o, 0);
        }
        for (const e of this.events) {
            // stranded records first: their tokens back to the provider (a record near 2^120 leaves
            // no room in the Event's wallet for another provision: the wallet's balance is below 2^120)
            for (let i = 0; i < 8 && e.stranded > 0n; i++) await this.returnStranded(e, toNano('0.3'));
            if (e.stranded > 0n) throw new Error(`drain: #F${e.id} still records ${e.stranded} stranded`);
            for (let i = 0; i < 3 && !e.paid; i++) {
                if ((await e.event.getHeldTokens()) > 0n) {
                    this.m.log(`drain: foreign-retry #F${e.id}`);
                    const res = await this.holder.send({
                        to: e.event.address,
                        value: toNano('1'),
                        body: limitActionMessage('tvmEventRetry'),
                    });
                    await this.observe(e, res.transactions, toNano('1'));
                } else {
                    const due = e.amount - e.bounty;
                    // (MODEL_SEED=c4 / r2 at 4 x 80: near 2^120 tokens kept in the Event's wallet as a
                    // recorded exception, refused back by a send-locked Event wallet or a
                    // blacklisted provider, leave no room there for the provision: a wallet's
                    // balance is below 2^120, and no real token has a supply for both. The Event
                    // stays LiquidityRequested, a status with its ways out, tvm_event_retry once its
                    // proxy has liquidity or cancel, which this test's treasury proxy does not play)
                    const inWallet = await this.jetton.balanceOf(e.event.address);
                    if (inWallet + due >= 1n << 120n) {
                        this.m.log(
                            `drain: #F${e.id} its wallet holds ${inWallet} (recorded exceptions ${e.excepted}): no room for ${due}, stays LiquidityRequested`,
                        );
                        if (
                            e.excepted + due < 1n << 120n ||
                            (await e.event.getStatus()) !== EventStatus.LiquidityRequested
                        )
                            throw new Error(
                                `drain: #F${e.id} has no room for its provision beyond its recorded exceptions`,
                            );
                        e.noRoom = true;
                        break;
                    }
                    // (what the provider gave an Event that kept it, a recorded exception, it lacks now)
                    const lack = due - (await this.jetton.balanceOf(this.provider.address));
                    if (lack > 0n) {
                        await this.jetton.mint(this.provider.address, lack);
                        this.minted += lack;
                    }
                    this.m.log(`drain: foreign-provide #F${e.id} ${due}`);
                    const res = await this.provider.send({
                        to: this.jetton.walletAddress(this.provider.address),
                        value: toNano('0.6'),
                        body: jettonTransferBody({
                            amount: due,
                            to: e.event.address,
                            response: this.provider.address,
                            forwardTonAmount: toNano('0.5'),
                        }),
                    });
                    await this.observe(e, res.transactions, toNano('0.5'));
                }
            }
            if (!e.paid && !e.noRoom)
                throw new Error(`drain: foreign Event #F${e.id} still ${EventStatus[await e.event.getStatus()]}`);
        }
    }

    // ------------------------------------------------------------ invariants

    async check(): Promise<Violation[]> {
        const out: Violation[] = [];
        const fail = (message: string) => out.push({ invariant: 'way-forward', message });
        if (!this.events.length) return [...(await this.checkStray()), ...(await this.checkReceived())];
        let sum = await this.jetton.balanceOf(this.provider.address);
        for (const r of this.recipients) sum += await this.jetton.balanceOf(r.address);
        for (const e of this.events) {
            const status = await e.event.getStatus();
            const held = await e.event.getHeldTokens();
            const inWallet = await this.jetton.balanceOf(e.event.address);
            sum += inWallet;
            if (await e.event.getProvisionPending()) fail(`#F${e.id}: a provision pending at rest`);
            const stranded = await this.waitingOf(e);
            if (inWallet !== held + e.excepted + stranded || stranded !== e.stranded)
                fail(
                    `#F${e.id}: its wallet holds ${inWallet}, the Event holds ${held}, its stranded records ${stranded} (model ${e.stranded}), recorded exceptions ${e.excepted}`,
                );
            if (status === EventStatus.LiquidityProvided && !e.paid)
                fail(`#F${e.id}: LiquidityProvided, not observed paid`);
            if (held > 0n && status !== EventStatus.LiquidityRequested && status !== EventStatus.LiquidityProvided)
                fail(`#F${e.id}: ${held} held in ${EventStatus[status]} (no way out)`);
            if (e.repayments !== (status === EventStatus.LiquidityProvided ? 1 : 0))
                out.push({
                    invariant: 'conservation',
                    message: `#F${e.id}: ${e.repayments} repayments in ${EventStatus[status]}`,
                });
        }
        if (sum !== this.minted)
            out.push({
                invariant: 'conservation',
                message: `the foreign token's holders hold ${sum} of ${this.minted}`,
            });
        // the recipients got every due of a paid Event but the recorded exceptions
        for (const r of this.recipients) {
            const owed = this.events
                .filter((e) => e.paid && e.recipient === r)
                .reduce((a, e) => a + (e.amount - e.bounty), 0n);
            const excepted = this.events
                .filter((e) => e.paid && e.recipient === r)
                .reduce((a, e) => a + this.recipientExcepted(e), 0n);
            if ((await this.jetton.balanceOf(r.address)) !== owed - excepted)
                out.push({
                    invariant: 'balance',
                    message: `a foreign recipient holds ${await this.jetton.balanceOf(r.address)}, delivered Events owe it ${owed} less ${excepted} recorded`,
                });
        }
        out.push(...(await this.checkStray()));
        out.push(...(await this.checkReceived()));
        return out;
    }

    /**
     * Reference tokens sent to real Events: each with the holder, recorded by its Event (a waiting
     * record of the reference wallet) or a recorded exception.
     */
    private async checkStray(): Promise<Violation[]> {
        const out: Violation[] = [];
        // reference tokens: with the holder, recorded by a real Event (waiting for its return) or a
        // recorded exception
        let ref = await this.reference.balanceOf(this.holder.address);
        for (const [a, kept] of this.strayKept) {
            const held = await this.reference.balanceOf(Address.parseRaw(a));
            const waiting = (await this.strayWaiting(Address.parseRaw(a))).reduce((x, [, v]) => x + v, 0n);
            ref += held;
            if (held !== kept.recorded + kept.excepted || waiting !== kept.recorded)
                out.push({
                    invariant: 'way-forward',
                    message: `a real Event's reference wallet holds ${held}, its waiting records ${waiting}; the model: recorded ${kept.recorded}, exceptions ${kept.excepted}`,
                });
        }
        if (ref !== this.strayGiven)
            out.push({
                invariant: 'conservation',
                message: `reference tokens: ${ref} accounted of ${this.strayGiven}`,
            });
        return out;
    }

    private recipientExcepted(e: ForeignEvent): bigint {
        return this.exceptions
            .filter((x) => x.what.startsWith(`#F${e.id}: the recipient's wallet refused`))
            .reduce((a, x) => a + x.amount, 0n);
    }

    /**
     * received: each model transfer whose Event says Confirmed or LiquidityProvided is matched to
     * one transfer its recipient's wallet of that token took in on the destination (a successful
     * internal_transfer); the real Native Events' wallets of the bridge's token hold exactly
     * their held tokens.
     */
    private async checkReceived(): Promise<Violation[]> {
        const out: Violation[] = [];
        // (counted as the transactions come: each check reads only those since the last one; a
        // snapshot loaded since, which took transactions back, makes it count again from the start)
        const incoming = this.incoming;
        for (const n of ['A', 'B'] as const) {
            const all = this.m.net(n).transactions;
            if (this.scanned[n] > this.start0[n] && all[this.scanned[n] - 1]?.lt !== this.lastLt[n]) {
                this.scanned[n] = this.start0[n];
                for (const m of [incoming, this.refusedIn])
                    for (const k of [...m.keys()]) if (k.startsWith(`${n}:`)) m.delete(k);
            }
            for (; this.scanned[n] < all.length; this.scanned[n]++) {
                const t = all[this.scanned[n]];
                this.lastLt[n] = t.lt;
                const i = t.inMessage?.info;
                if (i?.type !== 'internal' || i.bounced) continue;
                const code = exitCodeOf(t) ?? 0;
                if (code !== 0 && code !== 45) continue;
                const b = t.inMessage!.body.beginParse();
                if (b.remainingBits < 32 || b.preloadUint(32) !== Op.jetton.internalTransfer) continue;
                const k = `${n}:${i.dest.toRawString()}`;
                const into = code === 0 ? incoming : this.refusedIn;
                into.set(k, (into.get(k) ?? 0) + 1);
            }
        }
        // the documented exception (BridgeModel.aboveBooks): each refusal the model recorded is one
        // the chain shows, an internal_transfer that wallet refused (45)
        const refusals = new Map<string, number>();
        for (const x of this.m.aboveBooks) {
            const w = await this.m.walletAddress(x.net, 'token', this.m.user(x.net, x.user).address);
            const k = `${x.net}:${w.toRawString()}`;
            refusals.set(k, (refusals.get(k) ?? 0) + 1);
        }
        for (const [k, c] of refusals)
            if ((this.refusedIn.get(k) ?? 0) < c)
                out.push({
                    invariant: 'balance',
                    message: `${k.slice(0, 12)}: ${c} transfers the model takes for refused by this wallet, ${this.refusedIn.get(k) ?? 0} refused`,
                });
        const need = new Map<string, number>();
        for (const t of this.m.transfers) {
            const s = (await this.m.eventStatus(t)).status;
            if (s !== EventStatus.Confirmed && s !== EventStatus.LiquidityProvided) continue;
            // (a bounty of the whole amount: the provider sends nothing, nothing is due to the
            // recipient and the Event sends it no transfer; MODEL_SEED=c1 at 4 x 80)
            if (s === EventStatus.LiquidityProvided && t.amount === t.bounty) continue;
            // (its recipient's wallet refused it: the documented exception, held to the chain above)
            if (t.refusedByRecipient) continue;
            const h = t.lane === 'shared' ? 'shared' : t.kind === 'lock' ? 'alien' : 'token';
            const w = await this.m.walletAddress(t.to, h, this.m.user(t.to, t.recipient).address);
            const k = `${t.to}:${w.toRawString()}`;
            need.set(k, (need.get(k) ?? 0) + 1);
        }
        for (const [k, c] of need)
            if ((incoming.get(k) ?? 0) < c)
                out.push({
                    invariant: 'balance',
                    message: `${k.slice(0, 12)}: ${c} transfers marked delivered to this wallet, ${incoming.get(k) ?? 0} taken in`,
                });
        return out;
    }
}
