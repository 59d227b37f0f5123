/**
 * Model-based testing of the TVM to TVM bridge (tests/model.spec.ts): a reference model of what the
 * two networks must hold, a seeded random generator of user, backend, owner and attacker actions,
 * and an invariant checker that compares the model with what the real contracts hold after every
 * step. Everything runs on the real contracts of harness/bridge.ts (deployBridgePair).
 *
 * Token lanes (per token, per direction of the flow that creates the representation):
 *   A.token  native on A (locked in A's native proxy) <-> alien on B (B's alien minter of it)
 *   B.token  native on B <-> alien on A
 *   shared   native in both networks (predeployed token): A's and B's native proxies hold it
 *
 * In flight: an event the source proxy emitted (an external outbound TvmTvmNative / TvmTvmAlien
 * message, found by scanning the source proxies' transactions, not taken from the model) whose
 * Event contract on the destination has not been paid out by the destination proxy (status not
 * Confirmed, nor LiquidityProvided with the provider repaid: until then the proxy owes the provider).
 *
 * Invariants, checked after every step (checkInvariants):
 *   (a) conservation, per lane (owner = the owner's liquidity deposits less its withdrawals there):
 *       A.token: locked(A native proxy) = supply(alien on B) + in flight (A->B locks and B->A burns) + owner(A)
 *       B.token: the same with A and B swapped
 *       shared:  held(A native proxy) + held(B native proxy) = initial liquidity of both + in flight + owner(A, B)
 *       and each native proxy's liquidity(token) is the model's; a transfer a recipient's wallet
 *       refused (blacklisted: the documented exception, `aboveBooks`) is back in the sending
 *       wallet above its books, counted there;
 *   (b) no balance disappears: every user's (and liquidity provider's) wallet holds what the model
 *       says (each lock / burn takes the amount out, each delivery gives it to the recipient, a
 *       provision moves amount - bounty from the provider to the recipient, a repayment the amount
 *       to the provider) and, per lane, the users' and providers' wallets plus the in-flight amounts
 *       equal what they were given;
 *   (c) every Event is final (Confirmed, LiquidityProvided for the user, Cancelled, Rejected by
 *       reject_limit) or in a state with a way forward (not deployed / Initializing / Rejected by a
 *       failed check / Verified: a new deploy_tvm_event; LimitReached: approve_limit, reject_limit,
 *       retry; LiquidityRequested: retry, provide; LiquidityProvided not repaid: retry by anyone);
 *       none is Pending at rest; its status (and in LiquidityProvided, getProviderRepaid) is the one
 *       the model predicts.
 *   (d) the TransactionChecker of each network holds nothing per request: its data is the one it was
 *       deployed with (the LiteClient's address), whatever proofs, forged or genuine, went through it.
 * The events the chain emitted must be exactly the ones the model expects (no event for a refused
 * lock or burn, one for each accepted one). The status API (BridgePair.status) of one transfer every
 * third check answers the TransferStatus its Event's status maps to (Pending while no Event exists).
 */
import { Address, beginCell, Cell, toNano } from '@ton/core';
import { internal, SandboxContract, TreasuryContract } from '@ton/sandbox';
import { BridgePair, BridgeSide, Direction, TokenInfo } from './bridge';
import { burnAlien, completeWithAbiTx, lockNative } from './actors';
import { TvmNetwork } from './network';
import {
    decodeTvmTvmEvent,
    deployTvmEventBody,
    FoundTransfer,
    isTvmTvmEvent,
    transferFromProxyTransaction,
} from './transfer';
import { EventStatus, toTransferStatus, transferStatusName } from '../wrappers/eventStatus';
import { JettonMinter } from '../wrappers/JettonMinter';
import { transactionCheckerConfigToCell } from '../wrappers/TransactionChecker';
import { ProxyMessages, ProxyMultiVaultNative } from '../wrappers/ProxyMultiVaultNative';
import { Errors, OpEvent } from '../wrappers/constants';
import { cancelMessage, limitActionMessage } from '../wrappers/tvmTvmEvent';
import { MultiVaultTvmTvmEventNative } from '../wrappers/MultiVaultTvmTvmEventNative';

/** `n` distinct cells of 992 bits, each the reference of the one before: an oversized payload. */
export function bigPayload(n: number): Cell {
    let c = beginCell().storeUint(n, 32).storeUint(0, 960).endCell();
    for (let i = n - 1; i > 0; i--) c = beginCell().storeUint(i, 32).storeUint(0, 960).storeRef(c).endCell();
    return c;
}

/** Cells of a tree (each distinct cell once). */
function cellCount(c: Cell, seen = new Set<string>()): number {
    const h = c.hash().toString('hex');
    if (seen.has(h)) return 0;
    seen.add(h);
    return 1 + c.refs.reduce((a, r) => a + cellCount(r, seen), 0);
}

// ---------------------------------------------------------------- seeded random generator

/** xmur3 string hash -> sfc32: small, fast, and the same sequence for the same seed everywhere. */
export class Rng {
    private a: number;
    private b: number;
    private c: number;
    private d: number;

    constructor(readonly seed: string) {
        let h = 1779033703 ^ seed.length;
        for (let i = 0; i < seed.length; i++) {
            h = Math.imul(h ^ seed.charCodeAt(i), 3432918353);
            h = (h << 13) | (h >>> 19);
        }
        const next = () => {
            h = Math.imul(h ^ (h >>> 16), 2246822507);
            h = Math.imul(h ^ (h >>> 13), 3266489909);
            return (h ^= h >>> 16) >>> 0;
        };
        this.a = next();
        this.b = next();
        this.c = next();
        this.d = next();
    }

    /** uniform in [0, 2^32) */
    u32(): number {
        this.a >>>= 0;
        this.b >>>= 0;
        this.c >>>= 0;
        this.d >>>= 0;
        let t = (this.a + this.b) | 0;
        this.a = this.b ^ (this.b >>> 9);
        this.b = (this.c + (this.c << 3)) | 0;
        this.c = (this.c << 21) | (this.c >>> 11);
        this.d = (this.d + 1) | 0;
        t = (t + this.d) | 0;
        this.c = (this.c + t) | 0;
        return t >>> 0;
    }

    /** uniform in [0, n) */
    int(n: number): number {
        return Math.floor((this.u32() / 2 ** 32) * n);
    }

    chance(p: number): boolean {
        return this.u32() / 2 ** 32 < p;
    }

    pick<T>(xs: readonly T[]): T {
        if (xs.length === 0) throw new Error('pick from an empty list');
        return xs[this.int(xs.length)];
    }

    /** uniform in [lo, hi] */
    bigint(lo: bigint, hi: bigint): bigint {
        const span = hi - lo + 1n;
        const r = (BigInt(this.u32()) << 32n) | BigInt(this.u32());
        return lo + (r % span);
    }

    /** weighted choice among [weight, value] pairs (weights > 0) */
    weighted<T>(xs: readonly (readonly [number, T])[]): T {
        const total = xs.reduce((s, [w]) => s + w, 0);
        let r = (this.u32() / 2 ** 32) * total;
        for (const [w, v] of xs) {
            if ((r -= w) < 0) return v;
        }
        return xs[xs.length - 1][1];
    }
}

// ---------------------------------------------------------------- model

export type Net = 'A' | 'B';
export type Lane = 'A.token' | 'B.token' | 'shared';
/** a user's token on a network: the native test token, the other network's as alien, the shared one */
export type Holding = 'token' | 'alien' | 'shared';
export type DeliveryMode = 'credit' | 'non-credit';

/** What the model expects of one transfer's Event (null: not deployed). */
export type Expected = { status: EventStatus | null; lastErrorCode: number; finalReject: boolean };

export interface ModelTransfer {
    id: number;
    lane: Lane;
    /** lock (native proxy, TvmTvmNative) or burn (alien proxy, TvmTvmAlien) */
    kind: 'lock' | 'burn';
    from: Net;
    to: Net;
    amount: bigint;
    sender: string;
    recipient: string;
    found: FoundTransfer;
    eventAddress: Address;
    expected: Expected;
    /** the recipient holds the tokens (model) */
    delivered: boolean;
    /** approve_limit was given: every later confirmation carries limit_approved (event.tlb) */
    approved: boolean;
    /** liquidity: the bounty set (set_bounty), a provider provided (LiquidityProvided), its repayment went through */
    bounty: bigint;
    provided: boolean;
    repaid: boolean;
    /** cancel: the id of the transfer this one reverses (its Event was cancelled), if any */
    reverses?: number;
    /**
     * its recipient's wallet refused the delivery (blacklisted): delivered by the Event's status,
     * the tokens back in the sending wallet above its contract's books (BridgeModel.aboveBooks)
     */
    refusedByRecipient?: boolean;
}

/**
 * The documented exception (README, TESTING.md 7.1): tokens a recipient's wallet refused (a
 * USDT-style wallet that may not receive), back in the sending wallet, which tells nobody: the
 * native proxy's wallet (an unlock, a refused lock's refund, a claim_refund, a provider's
 * repayment: above its books, i.e. its liquidity, fees and recorded refunds do not count them) or
 * a Native Event's (the provider step's transfer to the recipient: above its held tokens and
 * records). Each recorded with its amount, never silent.
 */
export interface AboveBooks {
    lane: Lane;
    /** the network and the user (or PROVIDER) whose wallet refused */
    net: Net;
    user: string;
    /** the sending wallet's contract: the native proxy, or a Native Event (its address) */
    at: 'proxy' | Address;
    amount: bigint;
    what: string;
}

export interface Violation {
    invariant:
        | 'conservation'
        | 'balance'
        | 'event'
        | 'emitted'
        | 'way-forward'
        | 'status-api'
        | 'daily-limit'
        | 'checker'
        | 'honest-value'
        | 'checker-answer'
        | 'replayed-votes';
    message: string;
}

/** A weighted operation of the generator: weight, kind, run. */
export type ModelOp = [number, string, () => Promise<void>];

/**
 * Moves and invariants kept in a module of their own (harness/model/*.ts): `ops` adds operations
 * to each random step's draw, `check` runs with the invariants after every step.
 */
export interface ModelExtension {
    ops(ops: ModelOp[]): void;
    check(): Promise<Violation[]>;
    /** the way forward for what the extension left open, at the end of the model's drain */
    drain?(): Promise<void>;
    /** what the extension undoes before the model's drain (e.g. a frozen wallet freed) */
    beforeDrain?(): Promise<void>;
}

export const USERS: Record<Net, readonly string[]> = { A: ['alice', 'bob'], B: ['carol', 'dave'] };
/** what each user is given of each native token at the start of a sequence */
export const USER_FUNDS = 1_000_000_000_000n;
/** forward TON of a lock, value of a burn (as tests/tvm_tvm.spec.ts) */
const FORWARD_TON = toNano('0.5');
const BURN_VALUE = toNano('0.6');
const LIMIT_ACTION_VALUE = toNano('1');
/** value of a cancel (the spec: about 1 TON) */
const CANCEL_VALUE = toNano('1');

const other = (n: Net): Net => (n === 'A' ? 'B' : 'A');
const key = (net: Net, h: Holding, user: string) => `${net}.${h}.${user}`;
const fmtAddr = (a: Address) => a.toRawString().slice(0, 10);

/** The lane of a user's holding on a network. */
export function laneOf(net: Net, h: Holding): Lane {
    if (h === 'shared') return 'shared';
    if (h === 'token') return net === 'A' ? 'A.token' : 'B.token';
    return net === 'A' ? 'B.token' : 'A.token';
}

export interface ModelOptions {
    /** run the daily-limit operations (set_daily_limit, approve_limit, reject_limit, tvm_event_retry) */
    limits: boolean;
    /** run the liquidity operations (withdraw / add liquidity, set_bounty, provide, retry); default on */
    liquidity?: boolean;
    /** run cancel (LimitReached: the limit approver; LiquidityRequested: the sender or the recipient); default on */
    cancel?: boolean;
}

/** The account that provides liquidity on each network (funded with the network's native token). */
export const PROVIDER = 'provider';

/** One sequence's world: the pair (restored from a snapshot), the model, and the steps run. */
export class BridgeModel {
    readonly steps: string[] = [];
    readonly transfers: ModelTransfer[] = [];
    /** expected wallet balances: key(net, holding, user) -> amount */
    readonly balances = new Map<string, bigint>();
    /** paused[net][proxy] */
    readonly paused: Record<Net, { native: boolean; alien: boolean }> = {
        A: { native: false, alien: false },
        B: { native: false, alien: false },
    };
    /** daily limits the owner set on a destination proxy: `${net}.${native|alien}.${token raw}` -> { limit, day, used } */
    readonly limits = new Map<string, { limit: bigint; day: number; used: bigint }>();
    /** per lane: what the users were given in total (invariant b) */
    readonly given: Record<Lane, bigint> = { 'A.token': 0n, 'B.token': 0n, shared: 0n };
    /** shared token: initial holdings of both native proxies */
    sharedLiquidity = 0n;
    /** liquidity: each native proxy's liquidity(token) (`${net}.${token|shared}`), as the model expects */
    readonly liquidity = new Map<string, bigint>();
    /** liquidity: the owner's deposits less its withdrawals, per native proxy token (`${net}.${token|shared}`) */
    readonly ownerNet = new Map<string, bigint>();
    /**
     * refunds a native proxy recorded for claim_refund (a lock with too little forward TON even
     * for the refund, harness/model/hops.ts): key(net, holding, user) -> amount. Counted by the
     * proxy: invariants (a) and (b) count them beside the tokens in flight.
     */
    readonly recorded = new Map<string, bigint>();
    /**
     * tokens a Native Event recorded as stranded (a provision refused with too little forward TON
     * for its return: event_stranded.tact, harness/model/hops.ts), waiting for return_stranded:
     * Event address (raw) -> amount and lane. Counted by the Event: invariant (b) counts them, and
     * the Event's wallet and its waiting records must hold exactly them (hops.ts).
     */
    readonly stranded = new Map<string, { lane: Lane; amount: bigint }>();
    /**
     * tokens a provision with less forward TON than even the Event's record needs (about 0.013 TON:
     * the Event runs out of gas) left in a Native Event's wallet, unrecorded: the known limit
     * (TESTING.md section 8). Event address (raw) -> amount and lane; invariant (b) counts them and
     * the Event's wallet must hold them beside its waiting records (hops.ts).
     */
    readonly unrecorded = new Map<string, { lane: Lane; amount: bigint }>();
    /**
     * A network whose native proxy's wallet of its own token refuses to send (a USDT-style wallet
     * the token's master froze, harness/model/foreignLane.ts): every transfer the proxy sends from
     * it bounces, and the proxy puts back what it took (an unlock: Verified, 2715; a repayment: not
     * repaid; a refund: recorded; a withdrawal: back to the liquidity).
     */
    readonly refusing: Record<Net, boolean> = { A: false, B: false };
    /** users (`net.user`) whose wallet of their network's own token refuses to send (45): their locks do nothing */
    readonly frozen = new Set<string>();
    /**
     * A network whose own token's root answers no TEP-89 (a plain minter: the reference jetton,
     * harness/model/referenceLane.ts): its Native Events never learn their wallet, so a provider's
     * transfer is never taken (back to the provider, or recorded by the Event as stranded).
     */
    readonly noWalletDiscovery: Record<Net, boolean> = { A: false, B: false };
    /**
     * users (`net.user`) whose wallet of their network's own token may not receive (a USDT-style
     * blacklist, harness/model/foreignLane.ts): every transfer to it bounces to the sending wallet
     * (`receive`: the documented exception, `aboveBooks`)
     */
    readonly blacklisted = new Set<string>();
    /** the documented exception (AboveBooks): tokens a recipient's wallet refused, above the sender's books */
    readonly aboveBooks: AboveBooks[] = [];
    /** liquidity: per lane, what the providers were given (invariant b) */
    readonly providerGiven: Record<Lane, bigint> = { 'A.token': 0n, 'B.token': 0n, shared: 0n };
    users = new Map<string, SandboxContract<TreasuryContract>>();
    forger!: Record<Net, SandboxContract<TreasuryContract>>;
    private cursors: Record<Net, number> = { A: 0, B: 0 };
    /** events the chain emitted (scanned): transfer id hex -> amount and lane */
    readonly emitted = new Map<string, { lane: Lane; amount: bigint; from: Net }>();
    private nextId = 1;
    private checks = 0;
    /** moves and invariants of other modules (e.g. harness/model/attacker.ts) */
    readonly extensions: ModelExtension[] = [];

    constructor(
        readonly pair: BridgePair,
        readonly rng: Rng,
        readonly opts: ModelOptions,
    ) {}

    side(n: Net): BridgeSide {
        return n === 'A' ? this.pair.A : this.pair.B;
    }

    net(n: Net): TvmNetwork {
        return this.side(n).network;
    }

    dir(from: Net): Direction {
        return from === 'A' ? this.pair.AB : this.pair.BA;
    }

    user(net: Net, name: string): SandboxContract<TreasuryContract> {
        return this.users.get(`${net}.${name}`)!;
    }

    private alienMinters: Partial<Record<Net, Address>> = {};
    private walletAddresses = new Map<string, Address>();

    /** The minter of a holding on a network (the alien minter is derived, deployed or not). */
    async minterOf(net: Net, h: Holding): Promise<Address> {
        const s = this.side(net);
        if (h === 'token') return s.token.minter.address;
        if (h === 'shared') return s.shared.minter.address;
        const o = this.side(other(net));
        return (this.alienMinters[net] ??= (await this.pair.alienMinter(s, o, o.token)).address);
    }

    /** The address of `owner`'s wallet of a holding on a network (cached). */
    async walletAddress(net: Net, h: Holding, owner: Address): Promise<Address> {
        const minter = await this.minterOf(net, h);
        const k = `${net}|${minter.toRawString()}|${owner.toRawString()}`;
        let addr = this.walletAddresses.get(k);
        if (!addr) {
            addr = (await this.pair.wallet(this.net(net), minter, owner)).address;
            this.walletAddresses.set(k, addr);
        }
        return addr;
    }

    /** A jetton balance (0 while the wallet is not deployed). */
    /** get-method answers by (address, code and data hash, method): the same state answers the same */
    private readonly answers = new Map<string, unknown>();

    /**
     * `read` of the account at `addr` on `net` (null when it is not active), run again only when the
     * account's code or data changed since it last ran: the invariant checker reads the same
     * wallets, minters and Events after every step, most of them unchanged.
     */
    private async readState<T>(net: Net, addr: Address, what: string, read: () => Promise<T>): Promise<T | null> {
        const st = (await this.net(net).blockchain.getContract(addr)).accountState;
        if (st?.type !== 'active') return null;
        const k = `${addr.toRawString()}|${st.state.code?.hash().toString('hex')}|${st.state.data?.hash().toString('hex')}|${what}`;
        if (this.answers.has(k)) return this.answers.get(k) as T;
        const v = await read();
        this.answers.set(k, v);
        return v;
    }

    async walletBalance(net: Net, h: Holding, owner: Address): Promise<bigint> {
        const addr = await this.walletAddress(net, h, owner);
        const bc = this.net(net).blockchain;
        return (
            (await this.readState(net, addr, 'balance', async () =>
                (await bc.runGetMethod(addr, 'get_wallet_data')).stackReader.readBigNumber(),
            )) ?? 0n
        );
    }

    async supply(net: Net, minter: Address): Promise<bigint> {
        const bc = this.net(net).blockchain;
        return (
            (await this.readState(net, minter, 'supply', () =>
                bc.openContract(JettonMinter.createFromAddress(minter)).getTotalSupply(),
            )) ?? 0n
        );
    }

    expectedBalance(net: Net, h: Holding, user: string): bigint {
        return this.balances.get(key(net, h, user)) ?? 0n;
    }

    addBalance(net: Net, h: Holding, user: string, d: bigint) {
        this.balances.set(key(net, h, user), this.expectedBalance(net, h, user) + d);
    }

    /**
     * `amount` of a holding sent to `user`'s wallet by the native proxy's wallet (`at` 'proxy') or
     * a Native Event's: the user's balance, or, when that wallet may not receive (`blacklisted`,
     * the network's own token), the documented exception: the tokens back in the sending wallet,
     * which tells nobody (the status stays delivered), recorded in `aboveBooks`. True when received.
     */
    receive(net: Net, h: Holding, user: string, amount: bigint, at: 'proxy' | Address, what: string): boolean {
        if (h !== 'token' || !this.blacklisted.has(`${net}.${user}`)) {
            this.addBalance(net, h, user, amount);
            return true;
        }
        const where = at === 'proxy' ? "the native proxy's wallet" : "the Event's wallet";
        this.log(
            `  (${what}: ${net}.${user}'s wallet refused it (blacklisted): ${amount} back in ${where}, above its books)`,
        );
        this.aboveBooks.push({ lane: laneOf(net, h), net, user, at, amount, what });
        return false;
    }

    /** What of `lane` the documented exception keeps in sending wallets (`at`: only the native proxy's, or only an Event's). */
    aboveBooksOf(lane: Lane, at?: 'proxy' | Address): bigint {
        return this.aboveBooks
            .filter(
                (x) =>
                    x.lane === lane &&
                    (at === undefined || (at === 'proxy' ? x.at === 'proxy' : x.at !== 'proxy' && x.at.equals(at))),
            )
            .reduce((a, x) => a + x.amount, 0n);
    }

    // ------------------------------------------------------------ setup (once per sequence)

    /**
     * Funds the users (owner mints of the native tokens, shared on both sides) and records the
     * starting point. Run on a restored snapshot.
     */
    async start(): Promise<void> {
        for (const n of ['A', 'B'] as Net[]) {
            this.cursors[n] = this.net(n).transactions.length;
            for (const name of USERS[n]) {
                const u = await this.net(n).treasury(name);
                this.users.set(`${n}.${name}`, u);
            }
        }
        this.forger = { A: await this.net('A').treasury('forger'), B: await this.net('B').treasury('forger') };
        for (const n of ['A', 'B'] as Net[]) {
            const s = this.side(n);
            for (const name of USERS[n]) {
                for (const h of ['token', 'shared'] as const) {
                    const before = await this.walletBalance(n, h, this.user(n, name).address);
                    await (h === 'token' ? s.token : s.shared).minter.sendMint(s.owner.getSender(), {
                        to: this.user(n, name).address,
                        amount: USER_FUNDS,
                    });
                    this.balances.set(key(n, h, name), before + USER_FUNDS);
                    this.given[laneOf(n, h)] += before + USER_FUNDS;
                }
                const alien = await this.walletBalance(n, 'alien', this.user(n, name).address);
                this.balances.set(key(n, 'alien', name), alien);
                this.given[laneOf(n, 'alien')] += alien;
            }
        }
        this.sharedLiquidity =
            (await this.walletBalance('A', 'shared', this.pair.A.nativeProxy.address)) +
            (await this.walletBalance('B', 'shared', this.pair.B.nativeProxy.address));
        await this.startLiquidity();
        this.cursors = { A: this.net('A').transactions.length, B: this.net('B').transactions.length };
    }

    // ------------------------------------------------------------ operations

    log(s: string) {
        this.steps.push(s);
    }

    /** The user locks `h` (token or shared) in the source native proxy for a recipient on the other network. */
    async lock(
        from: Net,
        h: 'token' | 'shared',
        sender: string,
        recipient: string,
        amount: bigint,
        forwardTon = FORWARD_TON,
    ): Promise<void> {
        const to = other(from);
        const s = this.side(from);
        const token: TokenInfo = h === 'token' ? s.token : s.shared;
        this.log(
            `lock ${from}.${h} ${sender} -> ${to}.${recipient} ${amount}${forwardTon !== FORWARD_TON ? ` forward ${forwardTon}` : ''}`,
        );
        const u = this.user(from, sender);
        const wallet = await this.pair.wallet(this.net(from), token.minter.address, u.address);
        const refundBefore = await s.nativeProxy.getRefundOf(token.proxyWallet, u.address);
        const r = await lockNative(u, {
            wallet: wallet.address,
            nativeProxy: s.nativeProxy.address,
            amount,
            forwardTonAmount: forwardTon,
            destinationChainId: this.net(to).globalId,
            recipient: this.user(to, recipient).address,
            expectedGas: toNano('0.1'),
            remainingGasTo: u.address,
        });
        // the sender's wallet frozen (45): nothing moved
        if (h === 'token' && this.frozen.has(`${from}.${sender}`))
            return this.log("  (refused by the sender's wallet: 45)");
        // refunded (2702): no event, the balance stays; a refund the proxy's wallet refused is recorded
        if (this.paused[from].native)
            return this.refundBounced(
                from,
                h,
                sender,
                (await s.nativeProxy.getRefundOf(token.proxyWallet, u.address)) - refundBefore,
                amount,
            );
        const proxyTx = r.transactions.find(
            (t) =>
                t.inMessage?.info.type === 'internal' &&
                t.inMessage.info.dest.equals(s.nativeProxy.address) &&
                t.outMessages.size > 0 &&
                [...t.outMessages.values()].some((m) => m.info.type === 'external-out'),
        );
        // less forward TON than the honest lock's: emitted, refused (2713) with the tokens back (the
        // balance stays: invariant (b) holds the refund to it), or, with too little for that too,
        // the refund recorded for claim_refund (counted by the proxy)
        if (!proxyTx && forwardTon < FORWARD_TON)
            return this.refundRecorded(
                from,
                h,
                sender,
                (await s.nativeProxy.getRefundOf(token.proxyWallet, u.address)) - refundBefore,
                amount,
            );
        if (!proxyTx) throw new Error(`lock: the native proxy on ${from} emitted no event`);
        this.addBalance(from, h, sender, -amount);
        this.addLiquidity(from, h, amount);
        await this.record(
            from,
            h === 'token' ? laneOf(from, 'token') : 'shared',
            'lock',
            amount,
            sender,
            recipient,
            transferFromProxyTransaction(this.net(from), proxyTx)!,
        );
    }

    /**
     * The user locks `h` for a recipient on the SOURCE network itself (destination chain id = its own
     * global id): no configuration delivers that, so the native proxy refuses it (2223) and the
     * tokens come back; no event.
     */
    async lockToSelf(from: Net, h: 'token' | 'shared', sender: string, amount: bigint): Promise<void> {
        const s = this.side(from);
        const token: TokenInfo = h === 'token' ? s.token : s.shared;
        this.log(`lock-self ${from}.${h} ${sender} -> ${from} ${amount}`);
        const u = this.user(from, sender);
        const wallet = await this.pair.wallet(this.net(from), token.minter.address, u.address);
        const refundBefore = await s.nativeProxy.getRefundOf(token.proxyWallet, u.address);
        await lockNative(u, {
            wallet: wallet.address,
            nativeProxy: s.nativeProxy.address,
            amount,
            forwardTonAmount: FORWARD_TON,
            destinationChainId: this.net(from).globalId,
            recipient: u.address,
            expectedGas: toNano('0.1'),
            remainingGasTo: u.address,
        });
        // refunded (2702 paused, else 2223): the balance stays, nothing emitted (a refund the
        // proxy's wallet refused: recorded)
        this.refundBounced(
            from,
            h,
            sender,
            (await s.nativeProxy.getRefundOf(token.proxyWallet, u.address)) - refundBefore,
            amount,
        );
    }

    /** The user burns the alien token of the other network's native token, for a recipient there. */
    async burn(
        from: Net,
        sender: string,
        recipient: string,
        amount: bigint,
        payload?: Cell,
        value = BURN_VALUE,
    ): Promise<void> {
        const to = other(from);
        const s = this.side(from);
        this.log(
            `burn ${from}.alien ${sender} -> ${to}.${recipient} ${amount}${payload ? ` (payload of ${cellCount(payload)} cells)` : ''}${value !== BURN_VALUE ? ` value ${value}` : ''}`,
        );
        const u = this.user(from, sender);
        const wallet = await this.pair.wallet(this.net(from), await this.minterOf(from, 'alien'), u.address);
        const r = await burnAlien(u, {
            wallet: wallet.address,
            amount,
            value,
            destinationChainId: this.net(to).globalId,
            recipient: this.user(to, recipient).address,
            expectedGas: toNano('0.1'),
            remainingGasTo: u.address,
            payload,
        });
        if (this.paused[from].alien) return; // minted back (2702)
        const proxyTx = r.transactions.find(
            (t) =>
                t.inMessage?.info.type === 'internal' &&
                t.inMessage.info.dest.equals(s.alienProxy.address) &&
                [...t.outMessages.values()].some((m) => m.info.type === 'external-out'),
        );
        // less value than the honest burn's: emitted, minted back (2713) or refused by the wallet
        // (709, the tokens never left it): the balance stays either way
        if (!proxyTx && value < BURN_VALUE) return this.log('  (refused: too little value)');
        if (!proxyTx) throw new Error(`burn: the alien proxy on ${from} emitted no event`);
        this.addBalance(from, 'alien', sender, -amount);
        await this.record(
            from,
            laneOf(from, 'alien'),
            'burn',
            amount,
            sender,
            recipient,
            transferFromProxyTransaction(this.net(from), proxyTx)!,
        );
    }

    private async record(
        from: Net,
        lane: Lane,
        kind: 'lock' | 'burn',
        amount: bigint,
        sender: string,
        recipient: string,
        found: FoundTransfer,
    ) {
        const ev = decodeTvmTvmEvent(found.eventBody);
        const cfg = this.pair.route(this.side(from), ev);
        const t: ModelTransfer = {
            id: this.nextId++,
            lane,
            kind,
            from,
            to: other(from),
            amount,
            sender,
            recipient,
            found,
            eventAddress: await cfg.getEventAddress(BigInt('0x' + found.messageHash.toString('hex'))),
            expected: { status: null, lastErrorCode: 0, finalReject: false },
            delivered: false,
            approved: false,
            bounty: 0n,
            provided: false,
            repaid: false,
        };
        this.transfers.push(t);
    }

    /** The daily-limit key of `t` at its destination (native: the root; alien: the minter / local root). */
    private async limitKey(t: Pick<ModelTransfer, 'kind' | 'lane' | 'to'>): Promise<string> {
        if (t.kind === 'burn')
            return `${t.to}.native.${(await this.minterOf(t.to, t.lane === 'shared' ? 'shared' : 'token')).toRawString()}`;
        if (t.lane === 'shared') return `${t.to}.alien.${this.side(t.to).shared.minter.address.toRawString()}`;
        return `${t.to}.alien.${(await this.minterOf(t.to, 'alien')).toRawString()}`;
    }

    protected day(n: Net): number {
        return Math.floor(this.net(n).now / 86400);
    }

    /**
     * Whether the destination proxy lets `t` through its daily limit now. The model counts the
     * amount only when the transfer is delivered (`count`): a confirmation refused after the check
     * (a predeployed token's, by the native proxy) must not stay counted.
     */
    protected async passLimit(
        t: Pick<ModelTransfer, 'kind' | 'lane' | 'to' | 'amount'>,
        approved: boolean,
        count: boolean,
    ): Promise<boolean> {
        const k = await this.limitKey(t);
        const l = this.limits.get(k);
        if (!l) return true;
        const today = this.day(t.to);
        const used = l.day === today ? l.used : 0n;
        if (!approved && used + t.amount > l.limit) return false;
        if (count) this.limits.set(k, { limit: l.limit, day: today, used: used + t.amount });
        return true;
    }

    /**
     * After a move on `t`'s Event sent with less value than the honest one (harness/model/hops.ts):
     * true when the chain shows one of the refusals that leave every token where it was, each with
     * a way forward, and the model then expects it: the Event as it was (2317 bounced, 2213, or a
     * proxy's 2713 answered: the status stays), Verified with 2713 (the proxy refused the delivery
     * for the value left: deploy_tvm_event again; an approval is kept), or, for a proof, the Event
     * deployed and Initializing or Rejected by a check the value did not cover (deliver again).
     * False when the move went through: the model's own outcome follows, and the invariants hold
     * it to the chain (a move that went through without delivering fails them).
     */
    async refusedForValue(
        t: ModelTransfer,
        before: { status: EventStatus | null; lastErrorCode: number; repaid: boolean },
        approve = false,
    ): Promise<boolean> {
        const after = await this.eventStatus(t);
        const refused = (status: EventStatus | null, lastErrorCode: number, why: string) => {
            t.expected = { status, lastErrorCode, finalReject: false };
            if (approve) t.approved = true;
            this.log(`  (too little value: ${why})`);
            return true;
        };
        if (after.status === EventStatus.Verified && after.lastErrorCode === Errors.proxy.lowMsgValue)
            return refused(EventStatus.Verified, after.lastErrorCode, 'Verified, 2713');
        if (
            after.status === before.status &&
            after.repaid === before.repaid &&
            (after.status !== EventStatus.Verified || after.lastErrorCode === before.lastErrorCode)
        ) {
            this.log('  (too little value: refused, nothing changes)');
            return true;
        }
        if (
            before.status !== EventStatus.Verified &&
            (after.status === EventStatus.Initializing || after.status === EventStatus.Rejected)
        )
            return refused(after.status, after.lastErrorCode, EventStatus[after.status]);
        return false;
    }

    /** What the proxies do with a confirmation of `t` (Event in Verified -> Confirmed -> proxy). */
    async confirmOutcome(t: ModelTransfer, approve: boolean): Promise<void> {
        if (approve) t.approved = true;
        const approved = t.approved;
        const paused = () => {
            t.expected = { status: EventStatus.Verified, lastErrorCode: Errors.proxy.proxyPaused, finalReject: false };
        };
        // the proxy that takes the confirmation: paused (2702) first, then the daily limit; a
        // predeployed token's confirmation then goes on to the native proxy, which may be paused
        const p = this.paused[t.to];
        if (t.kind === 'burn' ? p.native : p.alien) return paused();
        if (!(await this.passLimit(t, approved, false))) {
            t.expected = { ...t.expected, status: EventStatus.LimitReached, finalReject: false };
            return;
        }
        if (t.kind === 'lock' && t.lane === 'shared' && p.native) return paused();
        // the native proxy's liquidity (after the limit; nothing counted when short): a Native
        // Event goes to LiquidityRequested, a forwarded predeployed token's is refused with 2714
        if (t.kind === 'burn' || t.lane === 'shared') {
            // (a burn of the shared lane: the reverse of a cancelled shared lock, unlocked by the
            // source native proxy from its shared liquidity)
            const h = t.lane === 'shared' ? 'shared' : 'token';
            if (this.liquidityOf(t.to, h) < t.amount) {
                if (t.kind === 'burn')
                    t.expected = { ...t.expected, status: EventStatus.LiquidityRequested, finalReject: false };
                else
                    t.expected = {
                        status: EventStatus.Verified,
                        lastErrorCode: Errors.proxy.notEnoughLiquidity,
                        finalReject: false,
                    };
                return;
            }
            // the unlock refused by the proxy's frozen wallet: everything put back, the Event told
            if (h === 'token' && this.refusing[t.to]) {
                t.expected = {
                    status: EventStatus.Verified,
                    lastErrorCode: Errors.proxy.transferRefused,
                    finalReject: false,
                };
                return;
            }
            this.addLiquidity(t.to, h, -t.amount);
        }
        await this.passLimit(t, approved, true);
        t.expected = { ...t.expected, status: EventStatus.Confirmed, finalReject: false };
        t.delivered = true;
        t.refusedByRecipient = !this.receive(
            t.to,
            t.lane === 'shared' ? 'shared' : t.kind === 'burn' ? 'token' : 'alien',
            t.recipient,
            t.amount,
            'proxy',
            `#${t.id}'s unlock`,
        );
    }

    /** Statuses in which the Event takes a new process_proof (event.tlb). */
    takesProof(t: ModelTransfer): boolean {
        const s = t.expected.status;
        return (
            s === null ||
            s === EventStatus.Initializing ||
            s === EventStatus.Pending ||
            s === EventStatus.Verified ||
            (s === EventStatus.Rejected && !t.expected.finalReject)
        );
    }

    /**
     * Whether the destination LiteClient can check a proof of the transfer: it holds the set of the
     * epoch the source transaction was sealed in, or a later one (then the proof goes through a
     * block of its set: a backward link). Behind that epoch, every proof is refused until a sync.
     */
    async liteClientReaches(t: ModelTransfer): Promise<boolean> {
        const d = this.dir(t.from);
        const sealedIn = d.from.network.locate(t.found.transaction).mc.signedBy.utimeSince;
        return (await d.to.liteClient.getCurrentEpochSince()) >= sealedIn;
    }

    /**
     * Delivery with a genuine proof: the credit backend (syncs the LiteClient first, skips Events
     * that are neither absent, Initializing, Rejected nor Verified) or the recipient as a non-credit client
     * (proofPayload.abiTx from the status API, no sync of its own).
     */
    async deliver(t: ModelTransfer, mode: DeliveryMode, value?: bigint): Promise<void> {
        this.log(`deliver #${t.id} ${mode}${value !== undefined ? ` value ${value}` : ''}`);
        const d = this.dir(t.from);
        if (mode === 'credit') {
            const s = t.expected.status;
            const skip =
                s !== null &&
                s !== EventStatus.Initializing &&
                s !== EventStatus.Rejected &&
                s !== EventStatus.Verified;
            const r = await d.credit.deliver(t.found);
            if (skip !== (r === null))
                throw new Error(
                    `credit backend: expected ${skip ? 'a skip' : 'a delivery'} of #${t.id}, got ${r === null ? 'a skip' : 'a delivery'}`,
                );
            if (skip || !this.takesProof(t)) return;
            await this.confirmOutcome(t, false);
            return;
        }
        const current = await this.liteClientReaches(t);
        const payer = this.user(t.to, t.recipient);
        const st = await this.pair.status(this.net(t.from), t.found.transferIdHex, payer.address);
        const abiTx = st.proofPayload.abiTx!;
        // (value: the recipient attaches less than abiTx says)
        const before = value !== undefined ? await this.eventStatus(t) : undefined;
        await completeWithAbiTx(payer, value === undefined ? abiTx : { ...abiTx, attachedValue: value.toString() });
        if (!this.takesProof(t)) return; // refused (2321): nothing changes
        if (before && (await this.refusedForValue(t, before))) return;
        if (!current) {
            if (t.expected.status !== EventStatus.Verified)
                t.expected = { ...t.expected, status: EventStatus.Rejected, finalReject: false };
            return;
        }
        await this.confirmOutcome(t, false);
    }

    /** The same proof again, forced past the backend's own check (a duplicated delivery). */
    async duplicate(t: ModelTransfer): Promise<void> {
        this.log(`duplicate #${t.id}`);
        await this.dir(t.from).credit.deliver(t.found, { force: true });
        if (this.takesProof(t)) await this.confirmOutcome(t, false); // the backend syncs: a genuine delivery
    }

    /**
     * A forger wraps the published event in a block the network never produced, signed by a set the
     * LiteClient does not hold (the genuine block is no forgery: once verified, it passes unsigned).
     */
    async forge(t: ModelTransfer): Promise<void> {
        this.log(`forge #${t.id}`);
        const src = this.net(t.from);
        const forged = src.forgeProof(t.found.transaction, { signWith: src.strangerValidatorSet() });
        const body = deployTvmEventBody({
            msgHash: t.found.messageHash,
            outMsgIndex: t.found.outMessageIndex,
            remainingGasTo: this.forger[t.to].address,
            proofData: forged.proofData,
        });
        const cfg = this.pair.route(this.side(t.from), decodeTvmTvmEvent(t.found.eventBody));
        await this.forger[t.to].send({ to: cfg.address, value: this.pair.deployValue, body });
        // refused by the LiteClient: Rejected, but a Verified Event (an earlier check proved it) stays Verified
        if (this.takesProof(t) && t.expected.status !== EventStatus.Verified)
            t.expected = { ...t.expected, status: EventStatus.Rejected, finalReject: false };
    }

    /** Validator rotation of a network; the sync service of the direction from it may follow at once. */
    async rotate(n: Net, syncNow: boolean): Promise<void> {
        this.log(`rotate ${n}${syncNow ? ' + sync' : ''}`);
        this.net(n).rotateValidators();
        if (syncNow) await this.dir(n).sync.step();
    }

    async sync(from: Net): Promise<void> {
        this.log(`sync ${from}->${other(from)}`);
        await this.dir(from).sync.step();
    }

    async setPaused(n: Net, proxy: 'native' | 'alien', paused: boolean): Promise<void> {
        this.log(`${paused ? 'pause' : 'unpause'} ${n}.${proxy}`);
        const s = this.side(n);
        const p = proxy === 'native' ? s.nativeProxy : s.alienProxy;
        await p.sendBody(s.owner.getSender(), ProxyMessages.setPaused(paused));
        this.paused[n][proxy] = paused;
    }

    async advance(seconds: number): Promise<void> {
        const ended: Net[] = [];
        for (const n of ['A', 'B'] as Net[]) {
            const net = this.net(n);
            net.advanceTime(seconds);
            // an epoch that has ended is followed by the next set's (as on the real network): no
            // LiteClient takes a block its set signed after its utime_until (118)
            if (net.now > net.chain.current.utimeUntil) {
                net.rotateValidators();
                ended.push(n);
            }
        }
        this.log(`advance ${seconds}s${ended.length ? ` (a new epoch on ${ended.join(' and ')})` : ''}`);
    }

    /** The owner sets the daily limit of the destination token of lane `t`'s kind (limit 0 removes it). */
    async setLimit(to: Net, which: 'native' | 'alien-minter' | 'alien-shared', limit: bigint): Promise<void> {
        const s = this.side(to);
        const token =
            which === 'native'
                ? s.token.minter.address
                : which === 'alien-shared'
                  ? s.shared.minter.address
                  : await this.minterOf(to, 'alien');
        const proxy = which === 'native' ? 'native' : 'alien';
        this.log(`limit ${to}.${proxy} ${fmtAddr(token)} ${limit}`);
        await (proxy === 'native' ? s.nativeProxy : s.alienProxy).sendBody(
            s.owner.getSender(),
            ProxyMessages.setDailyLimit(token, limit),
        );
        const k = `${to}.${proxy}.${token.toRawString()}`;
        if (limit === 0n) this.limits.delete(k);
        else {
            const old = this.limits.get(k);
            this.limits.set(k, { limit, day: old?.day ?? 0, used: old?.used ?? 0n });
        }
    }

    /** The limit approver (the destination owner) approves / rejects a LimitReached Event; a user retries. */
    async limitAction(
        t: ModelTransfer,
        action: 'approve' | 'reject' | 'retry',
        value = LIMIT_ACTION_VALUE,
    ): Promise<void> {
        this.log(`${action} #${t.id}${value !== LIMIT_ACTION_VALUE ? ` value ${value}` : ''}`);
        const s = this.side(t.to);
        const via = action === 'retry' ? this.user(t.to, t.recipient) : s.owner;
        const body = limitActionMessage(
            action === 'approve' ? 'approveLimit' : action === 'reject' ? 'rejectLimit' : 'tvmEventRetry',
        );
        const before = value < LIMIT_ACTION_VALUE ? await this.eventStatus(t) : undefined;
        await via.send({ to: t.eventAddress, value, body });
        if (t.expected.status !== EventStatus.LimitReached) return; // 2324: nothing changes
        if (before && (await this.refusedForValue(t, before, action === 'approve'))) return;
        if (action === 'reject') {
            t.expected = { ...t.expected, status: EventStatus.Rejected, finalReject: true };
            return;
        }
        await this.confirmOutcome(t, action === 'approve');
    }

    /**
     * The way forward for every open transfer: unpause, sync, raise the limits, then per transfer
     * approve a LimitReached Event or deliver again (credit backend; a forced delivery for an Event
     * the backend skips). After it every transfer is final.
     */
    async drain(): Promise<void> {
        this.log('drain');
        for (const e of this.extensions) await e.beforeDrain?.();
        for (const n of ['A', 'B'] as Net[])
            for (const p of ['native', 'alien'] as const) if (this.paused[n][p]) await this.setPaused(n, p, false);
        await this.sync('A');
        await this.sync('B');
        for (const t of this.transfers) {
            // a delivery may meet the daily limit (the approver approves it) or a short native
            // proxy (the owner deposits what is missing, the recipient retries)
            for (
                let attempt = 0;
                attempt < 4 && !t.delivered && !t.expected.finalReject && t.expected.status !== EventStatus.Cancelled;
                attempt++
            ) {
                if (t.expected.status === EventStatus.LimitReached) await this.limitAction(t, 'approve');
                else if (t.expected.status === EventStatus.LiquidityRequested) await this.drainLiquidity(t);
                else {
                    // a predeployed token the native proxy could not pay (2714): the owner deposits
                    if (
                        t.expected.status === EventStatus.Verified &&
                        t.expected.lastErrorCode === Errors.proxy.notEnoughLiquidity
                    )
                        await this.ensureLiquidity(t);
                    await this.deliver(t, 'credit');
                }
            }
            if (!t.delivered && !t.expected.finalReject && t.expected.status !== EventStatus.Cancelled)
                throw new Error(
                    `drain: transfer #${t.id} still open (${t.expected.status === null ? 'not deployed' : EventStatus[t.expected.status]})`,
                );
            // a provider not repaid yet: the day's limit has no room for it (the owner removes the
            // limit), the owner deposits what is missing, anyone retries
            if (t.provided && !t.repaid && !(await this.passLimit(t, t.approved, false)))
                await this.setLimit(t.to, 'native', 0n);
            if (t.provided && !t.repaid) await this.drainLiquidity(t);
            if (t.provided && !t.repaid) throw new Error(`drain: the provider of #${t.id} is not repaid`);
        }
        for (const e of this.extensions) await e.drain?.();
    }

    // ------------------------------------------------------------ cancel (reverse transfers)

    cancelOn(): boolean {
        return this.opts.cancel ?? true;
    }

    /**
     * The limit approver (the destination owner) cancels a LimitReached Event, the reverse transfer
     * going to `newRecipient` on the source network. Refused (2324) in any other status; refused by
     * a paused destination proxy (2702: the status stays). Otherwise Cancelled, and the proxy that
     * should have delivered emits the opposite event: a new in-flight transfer the model tracks
     * (same lane and amount, the other direction, the other kind: the reverse of a lock is a
     * TvmTvmAlien, unlocked by the source native proxy; of a burn a TvmTvmNative, minted again).
     */
    async cancel(
        t: ModelTransfer,
        newRecipient: string,
        by: 'approver' | 'recipient' | 'sender' = 'approver',
        value = CANCEL_VALUE,
    ): Promise<void> {
        this.log(
            `cancel #${t.id} by ${by} -> ${t.from}.${newRecipient}${value !== CANCEL_VALUE ? ` value ${value}` : ''}`,
        );
        const s = this.side(t.to);
        // the sender of the source transfer acts with the same key (the same address) here: a
        // treasury's address is its seed's (TvmNetwork.treasury seeds it with the network's name)
        const caller =
            by === 'approver'
                ? s.owner
                : by === 'recipient'
                  ? this.user(t.to, t.recipient)
                  : await this.net(t.to).blockchain.treasury(`${this.net(t.from).name}/${t.sender}`);
        const kind = t.kind === 'burn' ? 'native' : 'alien';
        const body = cancelMessage(kind, {
            newRecipient: this.user(t.from, newRecipient).address,
            remainingGasTo: s.owner.address,
            expectedGas: toNano('0.1'),
            expectedGasReceiver: s.owner.address,
        });
        const before = value < CANCEL_VALUE ? await this.eventStatus(t) : undefined;
        const r = await caller.send({ to: t.eventAddress, value, body });
        // LimitReached: the limit approver only (2335); LiquidityRequested: the sender or the
        // recipient (2332); any other status 2324: nothing changes
        const st = t.expected.status;
        if (
            !(st === EventStatus.LimitReached && by === 'approver') &&
            !(st === EventStatus.LiquidityRequested && by !== 'approver')
        )
            return;
        if (t.kind === 'burn' ? this.paused[t.to].native : this.paused[t.to].alien) return; // 2702: the status stays
        if (before && (await this.refusedForValue(t, before))) return; // 2317, or the proxy's 2713: the status stays
        t.expected = { ...t.expected, status: EventStatus.Cancelled, finalReject: false };
        const proxy = t.kind === 'burn' ? s.nativeProxy.address : s.alienProxy.address;
        const proxyTx = r.transactions.find(
            (x) =>
                x.inMessage?.info.type === 'internal' &&
                x.inMessage.info.dest.equals(proxy) &&
                [...x.outMessages.values()].some((m) => m.info.type === 'external-out'),
        );
        if (!proxyTx) throw new Error(`cancel #${t.id}: the ${kind} proxy on ${t.to} emitted no reverse event`);
        await this.record(
            t.to,
            t.lane,
            t.kind === 'burn' ? 'lock' : 'burn',
            t.amount,
            t.recipient,
            newRecipient,
            transferFromProxyTransaction(this.net(t.to), proxyTx)!,
        );
        this.transfers[this.transfers.length - 1].reverses = t.id;
    }

    // ------------------------------------------------------------ observation

    /** New events the source proxies emitted since the last scan (from the chain, not the model). */
    private scanEmitted(): void {
        for (const n of ['A', 'B'] as Net[]) {
            const net = this.net(n);
            const s = this.side(n);
            const all = net.transactions;
            for (; this.cursors[n] < all.length; this.cursors[n]++) {
                const tx = all[this.cursors[n]];
                const info = tx.inMessage?.info;
                if (!info || info.type !== 'internal') continue;
                const isNative = info.dest.equals(s.nativeProxy.address);
                if (!isNative && !info.dest.equals(s.alienProxy.address)) continue;
                const f = transferFromProxyTransaction(net, tx);
                if (!f || !isTvmTvmEvent(f.eventBody)) continue;
                const ev = decodeTvmTvmEvent(f.eventBody);
                let lane: Lane;
                if (isNative) lane = ev.token.equals(s.shared.minter.address) ? 'shared' : laneOf(n, 'token');
                else lane = ev.token.equals(this.side(other(n)).shared.minter.address) ? 'shared' : laneOf(n, 'alien'); // a cancel's reverse of a shared lock
                this.emitted.set(f.transferIdHex, { lane, amount: ev.amount, from: n });
            }
        }
    }

    async eventStatus(
        t: ModelTransfer,
    ): Promise<{ status: EventStatus | null; lastErrorCode: number; repaid: boolean }> {
        const bc = this.net(t.to).blockchain;
        const read = async () => {
            const status = (await bc.runGetMethod(t.eventAddress, 'getStatus')).stackReader.readNumber() as EventStatus;
            const lastErrorCode = (await bc.runGetMethod(t.eventAddress, 'getLastErrorCode')).stackReader.readNumber();
            const repaid =
                status === EventStatus.LiquidityProvided &&
                (await bc.runGetMethod(t.eventAddress, 'getProviderRepaid')).stackReader.readBoolean();
            return { status: status as EventStatus | null, lastErrorCode, repaid };
        };
        return (
            (await this.readState(t.to, t.eventAddress, 'status', read)) ?? {
                status: null,
                lastErrorCode: 0,
                repaid: false,
            }
        );
    }

    /**
     * What of `lane` is outside the two TVM networks: held on a third network attached to one of
     * them, or in flight to or from it (harness/model/evm.ts: the EVM network), read from that
     * network. Conservation (a) and the balance sums (b) count it; nothing here.
     */
    protected async outside(_lane: Lane): Promise<bigint> {
        return 0n;
    }

    /**
     * A lock of `amount` refused for its forward TON: refunded (grew = 0; to a sender whose wallet
     * may not receive: the documented exception), or its refund recorded by the proxy.
     */
    refundRecorded(from: Net, h: 'token' | 'shared', sender: string, grew: bigint, amount: bigint): void {
        if (grew === 0n) {
            // (a sender's wallet locked for sending refused the lock itself: nothing moved)
            if (h === 'token' && this.frozen.has(`${from}.${sender}`))
                return this.log("  (refused by the sender's wallet: 45)");
            this.log('  (refused: too little forward TON, refunded)');
            return this.refundSent(from, h, sender, amount);
        }
        this.log(`  (refused: too little forward TON, the refund recorded: ${grew})`);
        this.addBalance(from, h, sender, -grew);
        this.recorded.set(key(from, h, sender), (this.recorded.get(key(from, h, sender)) ?? 0n) + grew);
    }

    /**
     * A refused lock of `amount` whose refund the proxy's own wallet refused (frozen, `refusing`):
     * the proxy recorded it for claim_refund (grew); otherwise (grew = 0) the tokens were sent back
     * (to a sender whose wallet may not receive: the documented exception).
     */
    refundBounced(from: Net, h: 'token' | 'shared', sender: string, grew: bigint, amount: bigint): void {
        if (grew === 0n) return this.refundSent(from, h, sender, amount);
        this.log(`  (the refund refused by the proxy's wallet: recorded ${grew})`);
        this.addBalance(from, h, sender, -grew);
        this.recorded.set(key(from, h, sender), (this.recorded.get(key(from, h, sender)) ?? 0n) + grew);
    }

    /**
     * A refused lock's refund sent back to its sender: the balance the model never took stays,
     * unless the sender's wallet may not receive (`blacklisted`): the refund bounces to the
     * proxy's wallet (the documented exception), the sender's balance short of it.
     */
    private refundSent(from: Net, h: 'token' | 'shared', sender: string, amount: bigint): void {
        if (h !== 'token' || !this.blacklisted.has(`${from}.${sender}`)) return;
        // (a sender's wallet locked for sending refused the lock itself: nothing was sent back)
        if (this.frozen.has(`${from}.${sender}`)) return;
        this.addBalance(from, h, sender, -amount);
        this.receive(from, h, sender, amount, 'proxy', 'the refund of a refused lock');
    }

    /** What of `lane` the native proxies hold as recorded refunds (the model's `recorded`). */
    recordedOf(lane: Lane): bigint {
        let sum = 0n;
        for (const [k, v] of this.recorded) {
            const [n, h] = k.split('.') as [Net, Holding];
            if (laneOf(n, h) === lane) sum += v;
        }
        return sum;
    }

    /** What of `lane` Events hold as stranded records (the model's `stranded`). */
    strandedOf(lane: Lane): bigint {
        return [...this.stranded.values()].filter((k) => k.lane === lane).reduce((a, k) => a + k.amount, 0n);
    }

    /** Every invariant of the file comment; an empty list when all hold. */
    async checkInvariants(): Promise<Violation[]> {
        const out: Violation[] = [];
        this.scanEmitted();

        // emitted events = the model's transfers
        const byId = new Map(this.transfers.map((t) => [t.found.transferIdHex, t]));
        for (const [id, e] of this.emitted) {
            const t = byId.get(id);
            if (!t)
                out.push({
                    invariant: 'emitted',
                    message: `the ${e.from} proxy emitted an event the model does not know (${e.lane}, ${e.amount})`,
                });
            else if (t.amount !== e.amount || t.lane !== e.lane)
                out.push({
                    invariant: 'emitted',
                    message: `#${t.id}: emitted ${e.lane} ${e.amount}, model ${t.lane} ${t.amount}`,
                });
        }
        for (const t of this.transfers)
            if (!this.emitted.has(t.found.transferIdHex))
                out.push({ invariant: 'emitted', message: `#${t.id} was not emitted by the chain` });

        // the Events: observed status, in flight, way forward
        const inFlight: Record<Lane, bigint> = { 'A.token': 0n, 'B.token': 0n, shared: 0n };
        for (const [id, e] of this.emitted) {
            const t = byId.get(id);
            if (!t) continue;
            const obs = await this.eventStatus(t);
            // paid out by the destination proxy (to the recipient, or to the provider who paid it);
            // Cancelled: the amount travels on as the reverse transfer (its own emitted event)
            const done =
                obs.status === EventStatus.Confirmed ||
                (obs.status === EventStatus.LiquidityProvided && obs.repaid) ||
                obs.status === EventStatus.Cancelled;
            if (!done) inFlight[e.lane] += e.amount;
            if (obs.status !== t.expected.status) {
                out.push({
                    invariant: 'event',
                    message: `#${t.id} (${t.kind} ${t.lane} ${t.from}->${t.to}): Event ${obs.status === null ? 'not deployed' : EventStatus[obs.status]}, model ${t.expected.status === null ? 'not deployed' : EventStatus[t.expected.status]}`,
                });
            } else if (obs.status === EventStatus.Verified && obs.lastErrorCode !== t.expected.lastErrorCode) {
                out.push({
                    invariant: 'event',
                    message: `#${t.id}: Verified with last error ${obs.lastErrorCode}, model ${t.expected.lastErrorCode}`,
                });
            } else if (obs.status === EventStatus.LiquidityProvided && obs.repaid !== t.repaid) {
                out.push({
                    invariant: 'event',
                    message: `#${t.id}: LiquidityProvided, provider repaid ${obs.repaid}, model ${t.repaid}`,
                });
            }
            if (obs.status === EventStatus.Pending)
                out.push({
                    invariant: 'way-forward',
                    message: `#${t.id}: Event Pending at rest (no checker answer on its way)`,
                });
            // LiquidityRequested (retry, provide) and LiquidityProvided not repaid (retry) have a way forward
            if (obs.status === EventStatus.LiquidityRequested && t.kind !== 'burn')
                out.push({ invariant: 'way-forward', message: `#${t.id}: an Alien Event in LiquidityRequested` });
        }

        // the daily limits: each proxy's count of today is the model's, which counts every delivery
        // and every provider's repayment (what leaves a native proxy) and lets no unapproved one past
        // the limit: so no more than the limit leaves a proxy per day but by approve_limit
        for (const [k, l] of this.limits) {
            const [n, proxy, raw] = k.split('.') as [Net, 'native' | 'alien', string];
            const side = this.side(n);
            const got = await (proxy === 'native' ? side.nativeProxy : side.alienProxy).getDailyLimit(
                Address.parse(raw),
            );
            const want = l.day === this.day(n) ? l.used : 0n;
            if (!got || got.used !== want || got.limit !== l.limit)
                out.push({
                    invariant: 'daily-limit',
                    message: `${k}: the proxy counts ${got?.used ?? 'no limit'} of ${got?.limit ?? '-'} today, the model ${want} of ${l.limit}`,
                });
        }

        // the status API (it builds a proof: every third check) of one transfer, a different one
        // each time: the mapped Event status
        if (this.transfers.length && this.checks++ % 3 === 0) {
            const t = this.transfers[Math.floor(this.checks / 3) % this.transfers.length];
            const obs = await this.eventStatus(t);
            const st = await this.pair.status(this.net(t.from), t.found.transferIdHex);
            const want = obs.status === null ? 'Pending' : transferStatusName(toTransferStatus(obs.status));
            if (st.transferStatus !== want || st.eventStatus !== obs.status)
                out.push({
                    invariant: 'status-api',
                    message: `#${t.id}: status API ${st.transferStatus} (Event ${st.eventStatus}), Event ${obs.status} maps to ${want}`,
                });
            if (!st.proofPayload.abiTx)
                out.push({ invariant: 'status-api', message: `#${t.id}: status API without proofPayload.abiTx` });
        }

        // (a) conservation per lane
        const locked = async (n: Net, h: 'token' | 'shared') =>
            this.walletBalance(n, h, this.side(n).nativeProxy.address);
        for (const [lane, native, alienNet] of [
            ['A.token', 'A', 'B'],
            ['B.token', 'B', 'A'],
        ] as const) {
            const l = await locked(native, 'token');
            const supply = await this.supply(alienNet, await this.minterOf(alienNet, 'alien'));
            const owner = this.ownerNetOf(native, 'token');
            const away = await this.outside(lane);
            const rec = this.recordedOf(lane);
            // (the documented exception: tokens a recipient's wallet refused, back in the proxy's
            // wallet above its books)
            const above = this.aboveBooksOf(lane, 'proxy');
            if (l !== supply + inFlight[lane] + owner + away + rec + above)
                out.push({
                    invariant: 'conservation',
                    message: `${lane}: locked on ${native} ${l} != alien supply on ${alienNet} ${supply} + in flight ${inFlight[lane]}${owner ? ` + owner ${owner}` : ''}${away ? ` + outside ${away}` : ''}${rec ? ` + recorded refunds ${rec}` : ''}${above ? ` + refused by recipients' wallets ${above}` : ''}`,
                });
        }
        const held = (await locked('A', 'shared')) + (await locked('B', 'shared'));
        const ownerShared = this.ownerNetOf('A', 'shared') + this.ownerNetOf('B', 'shared');
        const recShared = this.recordedOf('shared');
        if (held !== this.sharedLiquidity + inFlight.shared + ownerShared + recShared)
            out.push({
                invariant: 'conservation',
                message: `shared: held by both native proxies ${held} != liquidity ${this.sharedLiquidity} + in flight ${inFlight.shared}${ownerShared ? ` + owner ${ownerShared}` : ''}${recShared ? ` + recorded refunds ${recShared}` : ''}`,
            });
        out.push(...(await this.checkLiquidity()));

        // (b) every user's wallet, and per lane wallets + in flight = given
        const inWallets: Record<Lane, bigint> = { 'A.token': 0n, 'B.token': 0n, shared: 0n };
        for (const n of ['A', 'B'] as Net[]) {
            for (const name of USERS[n]) {
                for (const h of ['token', 'alien', 'shared'] as Holding[]) {
                    const b = await this.walletBalance(n, h, this.user(n, name).address);
                    inWallets[laneOf(n, h)] += b;
                    const e = this.expectedBalance(n, h, name);
                    if (b !== e)
                        out.push({ invariant: 'balance', message: `${n}.${h} of ${name}: wallet ${b}, model ${e}` });
                }
            }
        }
        // the liquidity providers' wallets (their own native token)
        for (const n of ['A', 'B'] as Net[]) {
            if (!this.users.has(`${n}.${PROVIDER}`)) continue;
            const b = await this.walletBalance(n, 'token', this.user(n, PROVIDER).address);
            inWallets[laneOf(n, 'token')] += b;
            const e = this.expectedBalance(n, 'token', PROVIDER);
            if (b !== e)
                out.push({ invariant: 'balance', message: `${n}.token of ${PROVIDER}: wallet ${b}, model ${e}` });
        }
        // (d) nothing stored per request in the TransactionCheckers
        for (const n of ['A', 'B'] as Net[]) {
            const s = this.side(n);
            const st = (await this.net(n).blockchain.getContract(s.transactionChecker.address)).accountState;
            const want = transactionCheckerConfigToCell({ liteClient: s.liteClient.address });
            if (st?.type !== 'active' || !st.state.data?.equals(want))
                out.push({
                    invariant: 'checker',
                    message: `${n}: the TransactionChecker's data is not its deployed data`,
                });
        }
        for (const lane of ['A.token', 'B.token', 'shared'] as Lane[]) {
            const given = this.given[lane] + this.providerGiven[lane];
            const away = await this.outside(lane);
            const rec = this.recordedOf(lane);
            const kept =
                this.strandedOf(lane) +
                [...this.unrecorded.values()].filter((k) => k.lane === lane).reduce((a, k) => a + k.amount, 0n);
            const above = this.aboveBooksOf(lane);
            if (inWallets[lane] + inFlight[lane] + away + rec + kept + above !== given)
                out.push({
                    invariant: 'balance',
                    message: `${lane}: users' and providers' wallets ${inWallets[lane]} + in flight ${inFlight[lane]}${away ? ` + outside ${away}` : ''}${rec ? ` + recorded refunds ${rec}` : ''}${kept ? ` + stranded in Events ${kept}` : ''}${above ? ` + refused by recipients' wallets ${above}` : ''} != given ${given}`,
                });
        }
        for (const e of this.extensions) out.push(...(await e.check()));
        return out;
    }

    // ------------------------------------------------------------ the generator

    /** Transfers the model has not delivered (and that are not rejected for good). */
    open(): ModelTransfer[] {
        return this.transfers.filter(
            (t) => !t.delivered && !t.expected.finalReject && t.expected.status !== EventStatus.Cancelled,
        );
    }

    /**
     * One random step. Operation kinds not drawn yet in this sequence (`drawn`) weigh 4 times more,
     * so that short runs still reach every kind the state allows.
     * Returns the kind drawn.
     */
    async randomStep(drawn: Map<string, number> = new Map()): Promise<string> {
        const r = this.rng;
        const open = this.open();
        const delivered = this.transfers.filter((t) => t.delivered);
        const limited = this.transfers.filter((t) => t.expected.status === EventStatus.LimitReached);
        const paused = (['A', 'B'] as Net[]).flatMap((n) =>
            (['native', 'alien'] as const).filter((p) => this.paused[n][p]).map((p) => [n, p] as const),
        );
        const ops: ModelOp[] = [
            [6, 'lock-token', () => this.randomLock('token')],
            [3, 'lock-shared', () => this.randomLock('shared')],
            [4, 'burn', () => this.randomBurn()],
            [1, 'lock-self', () => this.randomLockToSelf()],
        ];
        if (open.length) {
            ops.push([8, 'deliver-credit', () => this.deliver(r.pick(open), 'credit')]);
            ops.push([4, 'deliver-non-credit', () => this.deliver(r.pick(open), 'non-credit')]);
            ops.push([2, 'forge-open', () => this.forge(r.pick(open))]);
        }
        if (delivered.length) {
            ops.push([2, 'duplicate', () => this.duplicate(r.pick(delivered))]);
            ops.push([1, 'forge-delivered', () => this.forge(r.pick(delivered))]);
        }
        ops.push([1.5, 'rotate', () => this.rotate(r.pick(['A', 'B'] as Net[]), r.chance(0.5))]);
        ops.push([1, 'sync', () => this.sync(r.pick(['A', 'B'] as Net[]))]);
        ops.push([
            paused.length ? 1 : 1.5,
            'pause',
            () => this.setPaused(r.pick(['A', 'B'] as Net[]), r.pick(['native', 'alien'] as const), true),
        ]);
        if (paused.length) ops.push([3, 'unpause', () => this.setPaused(...r.pick(paused), false)]);
        ops.push([0.5, 'advance', () => this.advance(r.pick([60, 3600, 6 * 3600, 86400]))]);
        if (this.opts.liquidity !== false) this.liquidityOps(ops);
        if (this.opts.limits) {
            ops.push([3, 'limit', () => this.randomLimit()]);
            if (limited.length) {
                const t = r.pick(limited);
                ops.push([2.5, 'approve', () => this.limitAction(t, 'approve')]);
                ops.push([1, 'reject', () => this.limitAction(t, 'reject')]);
                ops.push([1.5, 'retry', () => this.limitAction(t, 'retry')]);
                if (this.cancelOn()) ops.push([1.5, 'cancel', () => this.cancel(t, r.pick(USERS[t.from]))]);
            }
        }
        for (const e of this.extensions) e.ops(ops);
        const [, kind, run] = r.weighted(ops.map((o) => [drawn.has(o[1]) ? o[0] : o[0] * 4, o] as const));
        drawn.set(kind, (drawn.get(kind) ?? 0) + 1);
        await run();
        return kind;
    }

    private randomAmount(max: bigint): bigint {
        const r = this.rng;
        const hi = max < 2_000_000_000n ? max : 2_000_000_000n;
        return r.chance(0.2) ? hi : r.bigint(1n, hi);
    }

    private async randomLock(h: 'token' | 'shared') {
        const from = this.rng.pick(['A', 'B'] as Net[]);
        const sender = this.rng.pick(USERS[from]);
        const recipient = this.rng.pick(USERS[other(from)]);
        const bal = this.expectedBalance(from, h, sender);
        if (bal === 0n) return this.log(`skip: ${from}.${sender} has no ${h}`);
        await this.lock(from, h, sender, recipient, this.randomAmount(bal));
    }

    private async randomBurn() {
        const holders = (['A', 'B'] as Net[]).flatMap((n) =>
            USERS[n].filter((u) => this.expectedBalance(n, 'alien', u) > 0n).map((u) => [n, u] as const),
        );
        if (!holders.length) return this.randomLock('token');
        const [from, sender] = this.rng.pick(holders);
        await this.burn(
            from,
            sender,
            this.rng.pick(USERS[other(from)]),
            this.randomAmount(this.expectedBalance(from, 'alien', sender)),
            // an oversized payload (16 cells of 992 bits) now and then: the unlock and the provider
            // step must size the recipient's transfer for it
            this.rng.chance(0.25) ? bigPayload(16) : undefined,
        );
    }

    private async randomLockToSelf() {
        const from = this.rng.pick(['A', 'B'] as Net[]);
        const sender = this.rng.pick(USERS[from]);
        const h = this.rng.pick(['token', 'shared'] as const);
        const bal = this.expectedBalance(from, h, sender);
        if (bal === 0n) return this.log(`skip: ${from}.${sender} has no ${h}`);
        await this.lockToSelf(from, h, sender, this.randomAmount(bal));
    }

    private async randomLimit() {
        const r = this.rng;
        const open = this.open().filter((t) => t.expected.status !== EventStatus.LimitReached);
        if (open.length && r.chance(0.6)) {
            // aim at an open transfer: a limit below its amount on its destination token
            const t = r.pick(open);
            const which = t.kind === 'burn' ? 'native' : t.lane === 'shared' ? 'alien-shared' : 'alien-minter';
            return this.setLimit(t.to, which, t.amount > 1n ? r.bigint(1n, t.amount - 1n) : 1n);
        }
        const to = r.pick(['A', 'B'] as Net[]);
        const which = r.pick(['native', 'alien-minter', 'alien-shared'] as const);
        // the alien minter's limit only once the minter exists (its address is known either way)
        const limit = r.weighted([
            [1, 0n],
            [3, r.bigint(1n, 1_500_000_000n)],
            [1, 10n ** 12n],
        ] as const);
        await this.setLimit(to, which, limit);
    }

    // ------------------------------------------------------------ liquidity (native proxies, providers)
    // The owner withdraws / deposits liquidity of a native proxy; a Native Event the proxy cannot
    // pay goes to LiquidityRequested (confirmOutcome), where the recipient sets a bounty or retries,
    // and a funded provider provides (LiquidityProvided: amount - bounty to the recipient, the
    // provider repaid amount (no fee in the model's bridge) when the proxy has it, else later by a
    // retry). A predeployed token's confirmation the native proxy cannot pay: Verified, 2714.

    protected liquidityOf(n: Net, h: 'token' | 'shared'): bigint {
        return this.liquidity.get(`${n}.${h}`) ?? 0n;
    }

    protected addLiquidity(n: Net, h: 'token' | 'shared', d: bigint) {
        this.liquidity.set(`${n}.${h}`, this.liquidityOf(n, h) + d);
    }

    private ownerNetOf(n: Net, h: 'token' | 'shared'): bigint {
        return this.ownerNet.get(`${n}.${h}`) ?? 0n;
    }

    private tokenOf(n: Net, h: 'token' | 'shared'): TokenInfo {
        return h === 'token' ? this.side(n).token : this.side(n).shared;
    }

    /** Reads the proxies' liquidity and funds a provider per network with its native token. */
    private async startLiquidity(): Promise<void> {
        for (const n of ['A', 'B'] as Net[]) {
            for (const h of ['token', 'shared'] as const)
                this.liquidity.set(
                    `${n}.${h}`,
                    await this.side(n).nativeProxy.getLiquidity(this.tokenOf(n, h).minter.address),
                );
            if (this.opts.liquidity === false) continue;
            const p = await this.net(n).treasury(PROVIDER);
            this.users.set(`${n}.${PROVIDER}`, p);
            const before = await this.walletBalance(n, 'token', p.address);
            await this.side(n).token.minter.sendMint(this.side(n).owner.getSender(), {
                to: p.address,
                amount: USER_FUNDS,
            });
            this.balances.set(key(n, 'token', PROVIDER), before + USER_FUNDS);
            this.providerGiven[laneOf(n, 'token')] += before + USER_FUNDS;
        }
    }

    /** Each native proxy's liquidity(token) against the model. */
    private async checkLiquidity(): Promise<Violation[]> {
        const out: Violation[] = [];
        for (const n of ['A', 'B'] as Net[]) {
            for (const h of ['token', 'shared'] as const) {
                const proxy = this.side(n).nativeProxy;
                const l = await this.readState(n, proxy.address, `liquidity ${h}`, () =>
                    proxy.getLiquidity(this.tokenOf(n, h).minter.address),
                );
                if (l !== this.liquidityOf(n, h))
                    out.push({
                        invariant: 'conservation',
                        message: `liquidity of ${n}.${h} in the native proxy ${l}, model ${this.liquidityOf(n, h)}`,
                    });
            }
        }
        return out;
    }

    /** The owner takes `amount` of the native proxy's liquidity out (to itself): amount <= liquidity. */
    async withdrawLiquidity(n: Net, h: 'token' | 'shared', amount: bigint): Promise<void> {
        this.log(`withdraw-liquidity ${n}.${h} ${amount}`);
        const s = this.side(n);
        await s.nativeProxy.sendWithdrawLiquidity(s.owner.getSender(), {
            token: this.tokenOf(n, h).minter.address,
            amount,
            recipient: s.owner.address,
        });
        if (amount === 0n || amount > this.liquidityOf(n, h)) return; // 2704: nothing changes
        // the proxy's wallet refused (frozen): back to the liquidity
        if (h === 'token' && this.refusing[n])
            return this.log("  (refused by the proxy's wallet: back to the liquidity)");
        this.addLiquidity(n, h, -amount);
        this.ownerNet.set(`${n}.${h}`, this.ownerNetOf(n, h) - amount);
    }

    /** The owner deposits `amount` (minted straight into the proxy with proxy_add_liquidity). */
    async depositLiquidity(n: Net, h: 'token' | 'shared', amount: bigint): Promise<void> {
        this.log(`add-liquidity ${n}.${h} ${amount}`);
        const s = this.side(n);
        await this.tokenOf(n, h).minter.sendMint(s.owner.getSender(), {
            to: s.nativeProxy.address,
            amount,
            forwardTonAmount: toNano('0.05'),
            forwardPayload: ProxyMultiVaultNative.addLiquidityPayload(),
        });
        this.addLiquidity(n, h, amount);
        this.ownerNet.set(`${n}.${h}`, this.ownerNetOf(n, h) + amount);
    }

    /** The recipient sets the bounty of a Native Event (LiquidityRequested; at most the amount: 2333). */
    async setBounty(t: ModelTransfer, bounty: bigint): Promise<void> {
        this.log(`set-bounty #${t.id} ${bounty}`);
        const body = beginCell().storeUint(OpEvent.setBounty, 32).storeUint(0, 64).storeUint(bounty, 128).endCell();
        await this.user(t.to, t.recipient).send({ to: t.eventAddress, value: toNano('0.05'), body });
        if (t.expected.status === EventStatus.LiquidityRequested && bounty <= t.amount) t.bounty = bounty;
    }

    /**
     * The provider sends `amount - bounty - short` to the Event (its wallet notifies the Event).
     * In LiquidityRequested with enough tokens: LiquidityProvided, the recipient paid, then the
     * repayment; otherwise the tokens come back.
     */
    async provide(t: ModelTransfer, short = 0n, forward = toNano('0.5')): Promise<void> {
        const amount = t.amount - t.bounty - short;
        this.log(
            `provide #${t.id} ${amount}${short ? ` (${short} short)` : ''}${forward !== toNano('0.5') ? ` forward ${forward}` : ''}`,
        );
        const before = forward < toNano('0.5') ? await this.eventStatus(t) : undefined;
        const p = this.user(t.to, PROVIDER);
        const w = await this.pair.wallet(this.net(t.to), this.tokenOf(t.to, 'token').minter.address, p.address);
        await w.sendTransfer(p.getSender(), {
            to: t.eventAddress,
            amount,
            responseDestination: p.address,
            forwardTonAmount: forward,
        });
        const refused =
            t.expected.status !== EventStatus.LiquidityRequested ||
            short > 0n ||
            t.kind !== 'burn' ||
            this.noWalletDiscovery[t.to] ||
            (before !== undefined && (await this.refusedForValue(t, before)));
        if (this.noWalletDiscovery[t.to] && t.expected.status === EventStatus.LiquidityRequested && !short)
            this.log('  (not taken: the Event does not know its wallet, the root answers no TEP-89)');
        if (!refused) {
            t.expected = { ...t.expected, status: EventStatus.LiquidityProvided, finalReject: false };
            t.provided = true;
            t.delivered = true;
            t.refusedByRecipient = !this.receive(
                t.to,
                'token',
                t.recipient,
                amount,
                t.eventAddress,
                `#${t.id}'s provider step`,
            );
            this.addBalance(t.to, 'token', PROVIDER, -amount);
            return this.repayOutcome(t);
        }
        // back to the provider, or, with too little forward TON for their return, left in the
        // Event's wallet, recorded by the Event (`stranded`: return_stranded sends them back)
        if (before === undefined) return;
        const raw = t.eventAddress.toRawString();
        const was = this.stranded.get(raw)?.amount ?? 0n;
        const lost = this.unrecorded.get(raw)?.amount ?? 0n;
        const kept = (await this.walletBalance(t.to, 'token', t.eventAddress)) - was - lost;
        if (kept <= 0n) return;
        const recorded = (await this.waitingStranded(t)).reduce((a, [, v]) => a + v, 0n) - was;
        if (recorded > 0n) {
            this.log(`  (stranded in the Event: ${recorded})`);
            this.stranded.set(raw, { lane: t.lane, amount: was + recorded });
        }
        if (kept > recorded) {
            // the Event ran out of gas before its record: the known limit
            this.log(`  (left in the Event's wallet unrecorded, the known limit: ${kept - recorded})`);
            this.unrecorded.set(raw, { lane: t.lane, amount: lost + kept - recorded });
        }
        this.addBalance(t.to, 'token', PROVIDER, -kept);
    }

    /**
     * The waiting stranded records (sent_at 0) of `t`'s Native Event of its own token wallet: [id,
     * amount] (the Event records other wallets' tokens too: harness/model/strand.ts sends it
     * reference tokens).
     */
    async waitingStranded(t: ModelTransfer): Promise<[bigint, bigint][]> {
        const ev = this.net(t.to).blockchain.openContract(
            MultiVaultTvmTvmEventNative.createFromAddress(t.eventAddress),
        );
        const wallet = await this.walletAddress(t.to, 'token', t.eventAddress);
        return [...(await ev.getStranded()).entries()]
            .filter(([, r]) => r.sentAt === 0n && r.wallet.equals(wallet))
            .map(([id, r]) => [id, r.amount]);
    }

    /**
     * The repayment reaching the native proxy: paused (2702), over the daily limit (the repayment is
     * what leaves the proxy: counted and stopped like any unlock, limit_approved only when the
     * approver approved the transfer) or short: not repaid; else amount to the provider.
     */
    private async repayOutcome(t: ModelTransfer): Promise<void> {
        const h = t.lane === 'shared' ? 'shared' : 'token';
        if (
            this.paused[t.to].native ||
            !(await this.passLimit(t, t.approved, false)) ||
            this.liquidityOf(t.to, h) < t.amount ||
            (h === 'token' && this.refusing[t.to])
        ) {
            t.repaid = false;
            return;
        }
        this.addLiquidity(t.to, h, -t.amount);
        await this.passLimit(t, t.approved, true);
        this.receive(t.to, 'token', PROVIDER, t.amount, 'proxy', `#${t.id}'s repayment`);
        t.repaid = true;
    }

    /** tvm_event_retry: the recipient from LiquidityRequested; anyone (the forger) in LiquidityProvided not repaid. */
    async liquidityRetry(t: ModelTransfer, value = LIMIT_ACTION_VALUE): Promise<void> {
        this.log(`liquidity-retry #${t.id}${value !== LIMIT_ACTION_VALUE ? ` value ${value}` : ''}`);
        const provided = t.expected.status === EventStatus.LiquidityProvided;
        const via = provided ? this.forger[t.to] : this.user(t.to, t.recipient);
        const before = value < LIMIT_ACTION_VALUE ? await this.eventStatus(t) : undefined;
        await via.send({ to: t.eventAddress, value, body: limitActionMessage('tvmEventRetry') });
        if (before && !t.repaid && (await this.refusedForValue(t, before))) return;
        if (provided) {
            if (!t.repaid) await this.repayOutcome(t); // repaid: 2324, nothing changes
            return;
        }
        if (t.expected.status !== EventStatus.LiquidityRequested) return;
        await this.confirmOutcome(t, false);
    }

    /** The drain's way forward: the owner deposits what the proxy lacks, then a retry. */
    private async drainLiquidity(t: ModelTransfer): Promise<void> {
        await this.ensureLiquidity(t);
        await this.liquidityRetry(t);
    }

    /** The drain: the owner deposits what the destination native proxy lacks to pay `t` (burns, shared locks). */
    private async ensureLiquidity(t: ModelTransfer): Promise<void> {
        if (t.kind === 'lock' && t.lane !== 'shared') return;
        const h = t.lane === 'shared' ? 'shared' : 'token';
        const need = t.amount - this.liquidityOf(t.to, h);
        if (need > 0n) await this.depositLiquidity(t.to, h, need);
    }

    /** The liquidity operations the state allows, with their weights. */
    private liquidityOps(ops: ModelOp[]): void {
        const r = this.rng;
        const requested = this.transfers.filter((t) => t.expected.status === EventStatus.LiquidityRequested);
        const unpaid = this.transfers.filter((t) => t.provided && !t.repaid);
        const withLiquidity = (['A', 'B'] as Net[]).flatMap((n) =>
            (['token', 'shared'] as const).filter((h) => this.liquidityOf(n, h) > 0n).map((h) => [n, h] as const),
        );
        if (withLiquidity.length) {
            ops.push([
                2,
                'withdraw-liquidity',
                () => {
                    // mostly aimed at an open burn: all of its destination token, so that its delivery
                    // meets a short proxy (LiquidityRequested)
                    const burns = this.open().filter(
                        (t) => t.kind === 'burn' && t.lane !== 'shared' && this.liquidityOf(t.to, 'token') > 0n,
                    );
                    if (burns.length && r.chance(0.6)) {
                        const t = r.pick(burns);
                        return this.withdrawLiquidity(t.to, 'token', this.liquidityOf(t.to, 'token'));
                    }
                    // else mostly a native test token (its burns then meet a short proxy)
                    const tokens = withLiquidity.filter(([, h]) => h === 'token');
                    const [n, h] = tokens.length && r.chance(0.7) ? r.pick(tokens) : r.pick(withLiquidity);
                    const l = this.liquidityOf(n, h);
                    // mostly all of it (a shortage), else a part
                    return this.withdrawLiquidity(n, h, r.chance(0.6) ? l : r.bigint(1n, l));
                },
            ]);
        }
        ops.push([
            1,
            'add-liquidity',
            () =>
                this.depositLiquidity(
                    r.pick(['A', 'B'] as Net[]),
                    r.pick(['token', 'shared'] as const),
                    this.randomAmount(2_000_000_000n),
                ),
        ]);
        if (requested.length) {
            const t = r.pick(requested);
            ops.push([
                1.5,
                'set-bounty',
                // above the amount (2333), the whole amount (a provider sending nothing: its repayment
                // must meet the daily limit like any unlock), or a part
                () =>
                    this.setBounty(
                        t,
                        r.chance(0.1) ? t.amount + 1n : r.chance(0.15) ? t.amount : r.bigint(0n, t.amount / 10n),
                    ),
            ]);
            // (the provider holds the native test token; a shared-lane request, the reverse of a
            // cancelled shared lock, waits for liquidity: retry or cancel)
            if (t.lane !== 'shared')
                ops.push([3, 'provide', () => this.provide(t, r.chance(0.15) && t.amount - t.bounty > 1n ? 1n : 0n)]);
            ops.push([2, 'liquidity-retry', () => this.liquidityRetry(t)]);
            if (this.cancelOn())
                ops.push([
                    1.5,
                    'cancel-liquidity',
                    () => this.cancel(t, r.pick(USERS[t.from]), r.pick(['recipient', 'sender', 'approver'] as const)),
                ]);
        }
        if (unpaid.length) ops.push([2, 'repay-retry', () => this.liquidityRetry(r.pick(unpaid))]);
    }

    /** The replay line printed with a failure. */
    describe(): string {
        return this.steps.map((s, i) => `  ${String(i + 1).padStart(3)}. ${s}`).join('\n');
    }
}

// ---------------------------------------------------------------- self-check helpers

/**
 * A mint the model does not know of: a message that looks as if the alien proxy of `net` sent it
 * to its alien minter (the sandbox lets a test inject it). The invariant checker must flag it.
 */
export async function fakeAlienMint(m: BridgeModel, net: Net, to: Address, amount: bigint): Promise<void> {
    const s = m.side(net);
    const minter = await m.minterOf(net, 'alien');
    await m.net(net).blockchain.sendMessage(
        internal({
            from: s.alienProxy.address,
            to: minter,
            value: toNano('0.2'),
            body: JettonMinter.mintMessage({ to, amount }),
        }),
    );
}

/** A direct owner mint of a native token into the native proxy's wallet: locked without an event. */
/** Test of the invariant checker: a TransactionChecker whose data grew (as pending requests once made it). */
export async function growCheckerData(m: BridgeModel, net: Net): Promise<void> {
    const s = m.side(net);
    const c = await m.net(net).blockchain.getContract(s.transactionChecker.address);
    const acc = c.account;
    if (acc.account?.storage.state.type !== 'active') throw new Error('checker not active');
    const data = acc.account.storage.state.state.data!;
    acc.account.storage.state.state.data = beginCell()
        .storeSlice(data.beginParse())
        .storeRef(beginCell().storeUint(1, 8))
        .endCell();
    c.account = acc;
}

export async function ownerMintToProxy(m: BridgeModel, net: Net, amount: bigint): Promise<void> {
    const s = m.side(net);
    await s.token.minter.sendMint(s.owner.getSender(), { to: s.nativeProxy.address, amount });
}
