/**
 * The model of harness/model.ts over THREE networks: the TVM to TVM pair (A and B,
 * harness/bridge.ts) and an EVM network (Hardhat: the real MultiVault and Bridge) attached to A
 * (attachEvm: A's own proxies take and emit the EVM events). The random sequences mix the pair's
 * operations (BridgeModel.randomStep) with the EVM paths' (ThreeNetworkModel.evmStep):
 *   EVM -> TVM: deposits of the ERC-20 T, of the gas currency (depositByNativeToken: WETH W) and
 *     of R (the EVM representation of A's native test token) to A's users, relayed by the EVM
 *     relays (EvmRelayService: the Event on A, the proxy mints M / MW or unlocks A.token), refused
 *     by a paused proxy (2702), a daily limit (LimitReached: approve_limit) or a short native proxy
 *     (2714): the Event waits (evm_event_retry by the recipient);
 *   TVM -> EVM: locks of A.token (TvmEvmNative) and burns of M / MW (TvmEvmAlien) by A's users,
 *     signed by the relays of the EVM Bridge's round (TvmEvmRelayService), withdrawn on EVM
 *     (saveWithdrawNative mints R; saveWithdrawAlien pays T, unwraps W): over T's single-withdrawal
 *     limit or short of T's liquidity (governance takes it: testTakeLiquidity) the withdrawal is
 *     pending, with the bounty its recipient sets; the guardian approves, anyone forces once the
 *     liquidity is back, a deposit fills it (earning the bounty), the recipient cancels (the rest
 *     goes back to TVM as a new deposit); strangers replay, under-sign, forge, approve: refused.
 *
 * Lanes and conservation across the three networks, after every step (checkInvariants):
 *   A.token (native on A): the pair's invariant (a) on A's native proxy, with outside(A.token) =
 *     supply(R) + the vault's fees(R) + deposits of R not delivered on A + TvmEvmNative events not
 *     withdrawn on EVM; so locked on A = alien supply on B + in flight A <-> B + owner + that, and
 *     the users' wallets on A and B + in flight + outside = what they were given;
 *   T (ERC-20 native on EVM): the vault's balance + what governance took = fees(T) + supply(M on A)
 *     + the alien proxy's fees(M) + deposits not delivered + TvmEvmAlien events not withdrawn +
 *     pendingWithdrawalsTotal(T);
 *   W (the gas currency): the vault's WETH = fees(W) + supply(MW on A) + its fees + deposits not
 *     delivered + events not withdrawn + pendingWithdrawalsTotal(W);
 *   and for T and W the vault's tvmOutstanding = supply on A + its fees + deposits not delivered +
 *     events not withdrawn (what the vault keeps below 2^120: issue 11 §4);
 * where "not withdrawn" is read from the chains: every TvmEvm event A's proxies emitted (scanned)
 * whose id the vault has not marked (withdrawalIds). Besides: every holder's balance is the model's
 * (A's users' M and MW, the EVM accounts' T and R, the gas-currency recipient's ETH), each pending
 * withdrawal's amount and status, and each waiting EVM Event's status and last error code.
 */
import type { HardhatRuntimeEnvironment } from 'hardhat/types';
import { Address, toNano } from '@ton/core';
import { Contract, SigningKey, TransactionReceipt, Wallet, computeAddress, id } from 'ethers';
import { BridgeModel, Lane, ModelOptions, Rng, USERS, Violation } from '../model';
import { BridgePair } from '../bridge';
import { EvmNetwork } from '../evm/network';
import { evmTvmSetup, tvmRecipient } from '../evm/fixture';
import { EvmRelayService } from '../evm/relay';
import { sendWithdrawal, SignedWithdrawal, TvmEvmRelayService } from '../evm/tvmEvmRelay';
import { as, deployEvmContract, depositNativeTokenParams, depositParams } from '../../wrappers/evm/MultiVault';
import { findDepositEvents } from '../../wrappers/evm/depositEvents';
import { ApproveStatus, signDigest, WithdrawalKind, withdrawalId } from '../../wrappers/evm/withdrawals';
import { EvmEventStatus, evmEventRetryMessage } from '../../wrappers/EvmTvmEventConfiguration';
import { MultiVaultEvmTvmEventNative } from '../../wrappers/MultiVaultEvmTvmEventNative';
import { JettonMinter } from '../../wrappers/JettonMinter';
import { ProxyMessages } from '../../wrappers/ProxyMultiVaultNative';
import { Errors } from '../../wrappers/constants';
import { EvmErrors } from '../../wrappers/evm/EvmErrors';
import { limitActionMessage } from '../../wrappers/tvmTvmEvent';
import {
    burnToEvmBody,
    FoundTvmEvmEvent,
    lockToEvmBody,
    tvmEvmEventsOf,
    tvmEvmPayloadCell,
} from '../../lib/tvmEvmEvents';

/** The EVM Bridge's round of the attached network's relays. */
export const EVM_ROUND = 1;
/** The vault's fees (basis points, rounded up): on deposits, on withdrawals. */
export const EVM_DEPOSIT_FEE_BPS = 10n;
export const EVM_WITHDRAW_FEE_BPS = 20n;
const ceilBps = (a: bigint, bps: bigint) => (a * bps + 9999n) / 10000n;
/** the vault's bound on a deposit (MultiVaultStorage.sol TVM_MAX_AMOUNT): TVM token amounts are below it */
const TVM_MAX_AMOUNT = 2n ** 120n;
/** forward_ton_amount of a lock bound for EVM, value of a burn bound for EVM */
const LOCK_FORWARD_TON = toNano('0.1');
const BURN_VALUE = toNano('0.2');

async function mined(tx: Promise<{ wait(): Promise<TransactionReceipt | null> }>): Promise<TransactionReceipt> {
    const r = await (await tx).wait();
    if (!r) throw new Error('no receipt');
    return r;
}

/** The EVM network attached to side A of a pair. */
export async function attachEvm(hre: HardhatRuntimeEnvironment, pair: BridgePair, relays = 4) {
    const A = pair.A;
    const evm = await EvmNetwork.create(hre, undefined, { tvmGlobalId: A.network.globalId });
    // A's EVM to TVM side: the TVM Bridge of the EVM relays and the two EVM configurations, whose
    // proxies are A's own
    const s = await evmTvmSetup(hre, {
        blockchain: A.network.blockchain,
        evm,
        proxies: { alien: A.alienProxy.address, native: A.nativeProxy.address },
    });
    const via = A.owner.getSender();
    await A.alienProxy.sendBody(via, ProxyMessages.setEvmConfiguration(s.alienConfiguration.address, true));
    await A.nativeProxy.sendBody(via, ProxyMessages.setEvmConfiguration(s.nativeConfiguration.address, true));
    await A.nativeProxy.sendBody(via, ProxyMessages.setTvmEvmChain(evm.chainId, true));

    // the EVM side: the Bridge with a round of relays' keys, the vault listing A's proxies
    const { deployer, governance, guardian } = evm.signers;
    const keys = Array.from({ length: relays }, (_, i) => new SigningKey(id(`three networks relay ${i}`)));
    const bridge = await deployEvmContract(
        hre,
        'Bridge',
        [governance.address, guardian.address, 7 * 24 * 3600],
        deployer,
    );
    const latest = (await evm.provider.getBlock('latest'))!.timestamp;
    await mined(
        as(bridge, governance).getFunction('setRoundRelays')(
            EVM_ROUND,
            keys.map((k) => computeAddress(k.publicKey)),
            latest + 30 * 24 * 3600,
        ),
    );
    const g = evm.vaultAs(governance);
    await mined(g.getFunction('setBridge')(await bridge.getAddress()));
    for (const [proxy, kind] of [
        [A.nativeProxy.address, WithdrawalKind.Native],
        [A.alienProxy.address, WithdrawalKind.Alien],
    ] as const)
        await mined(
            g.getFunction('setTvmConfiguration')(proxy.workChain, BigInt('0x' + proxy.hash.toString('hex')), kind),
        );
    await mined(g.getFunction('setDefaultWithdrawFee')(EVM_WITHDRAW_FEE_BPS));
    await mined(g.getFunction('setDefaultDepositFee')(EVM_DEPOSIT_FEE_BPS));

    /** the off-chain relays (fresh ones for a restored snapshot: they keep what they processed) */
    const services = () => ({
        tvmRelays: new TvmEvmRelayService({
            net: A.network,
            proxies: [A.nativeProxy.address, A.alienProxy.address],
            chainId: evm.chainId,
            vaultAddress: evm.vaultAddress,
            bridge,
            keys,
        }),
        evmRelays: [s.alienConfiguration, s.nativeConfiguration].map(
            (c) => new EvmRelayService(evm, A.network.blockchain, c, s.relays, s.relayer),
        ),
    });
    return {
        evm,
        g,
        bridge: bridge as Contract,
        keys,
        ...services(),
        configurations: { alien: s.alienConfiguration, native: s.nativeConfiguration },
        weth: await evm.weth.getAddress(),
        /** receives the gas currency and never sends a transaction: its ETH balance is the model's */
        gasRecipient: Wallet.createRandom().address,
        /**
         * A snapshot of the three networks (the pair's and Hardhat's); restore() brings them back
         * and gives the attachment new relay services, as often as asked (Hardhat's evm_revert
         * consumes its snapshot: each restore takes it again at once).
         */
        async snapshot() {
            const tvm = pair.snapshot();
            let id: string = await evm.hre.network.provider.send('evm_snapshot', []);
            return {
                restore: async () => {
                    await pair.loadFrom(tvm);
                    if (!(await evm.hre.network.provider.send('evm_revert', [id])))
                        throw new Error('evm_revert refused the snapshot');
                    id = await evm.hre.network.provider.send('evm_snapshot', []);
                    Object.assign(this, services());
                },
            };
        },
    };
}

export type EvmAttachment = Awaited<ReturnType<typeof attachEvm>>;

/** Lanes of the EVM tokens: the ERC-20 T and the wrapped gas currency W. */
type EvmLane = 'T' | 'W';
/** A deposit on EVM bound for A: its lane (N: R burned, A.token unlocked) and its Event once deployed. */
interface ToTvm {
    key: string;
    lane: EvmLane | 'N';
    amount: bigint;
    holder: string;
    event?: Address;
    status?: EvmEventStatus;
    lastErrorCode?: number;
    /** approve_limit was given: later confirmations carry limit_approved */
    approved: boolean;
}

interface Pending {
    lane: EvmLane;
    recipient: string;
    id: bigint;
    amount: bigint;
    bounty: bigint;
    status: ApproveStatus;
}

/** One sequence over three networks: BridgeModel's pair plus the EVM paths of A. */
export class ThreeNetworkModel extends BridgeModel {
    /** EVM balances the model expects: token -> account -> amount (T and R; the gas recipient's ETH under 'ETH') */
    readonly evmBalances = new Map<string, Map<string, bigint>>();
    /** A's users' balances of the EVM tokens' minters on A: lane -> user -> amount */
    readonly alienOnA: Record<EvmLane, Map<string, bigint>> = { T: new Map(), W: new Map() };
    readonly toTvm: ToTvm[] = [];
    signed: SignedWithdrawal[] = [];
    readonly withdrawn: SignedWithdrawal[] = [];
    readonly pending: Pending[] = [];
    /** T that governance took out of the vault */
    taken = 0n;
    /** T's single-withdrawal limit (0: none) */
    limitT = 0n;
    /** the EVM representation of A.token (deployed by the first withdrawal) */
    rep = '';
    /** TvmEvm events of A's proxies, scanned from A's transactions */
    private readonly tvmEvm: FoundTvmEvmEvent[] = [];
    private tvmEvmCursor = 0;
    /** ids the vault marked withdrawn (a mark is never undone) */
    private readonly usedIds = new Set<string>();
    /** notWithdrawn() of the check under way */
    private away: Record<EvmLane | 'N', bigint> | null = null;

    constructor(
        pair: BridgePair,
        readonly x: EvmAttachment,
        rng: Rng,
        opts: ModelOptions,
    ) {
        super(pair, rng, opts);
    }

    get vault(): Contract {
        return this.x.evm.vault;
    }
    get T(): string {
        return this.x.evm.tokenAddress;
    }
    get signers() {
        return this.x.evm.signers;
    }

    evmBal(token: string, who: string): bigint {
        return this.evmBalances.get(token)?.get(who) ?? 0n;
    }
    private addEvm(token: string, who: string, d: bigint) {
        if (!this.evmBalances.has(token)) this.evmBalances.set(token, new Map());
        this.evmBalances.get(token)!.set(who, this.evmBal(token, who) + d);
    }
    alienBal(lane: EvmLane, user: string): bigint {
        return this.alienOnA[lane].get(user) ?? 0n;
    }
    private addAlien(lane: EvmLane, user: string, d: bigint) {
        this.alienOnA[lane].set(user, this.alienBal(lane, user) + d);
    }
    private tokenOfLane(lane: EvmLane): string {
        return lane === 'T' ? this.T : this.x.weth;
    }
    /** The alien minter of an EVM token on A (null before its first mint). */
    async evmMinter(lane: EvmLane): Promise<Address | null> {
        return this.pair.A.alienProxy.getEvmMinter(BigInt(this.x.evm.chainId), BigInt(this.tokenOfLane(lane)));
    }

    async start(): Promise<void> {
        await super.start();
        const { user } = this.signers;
        this.addEvm(this.T, user.address, await this.x.evm.token.getFunction('balanceOf')(user.address));
        const root = tvmRecipient(this.pair.A.token.minter.address);
        this.rep = await this.vault.getFunction('predictNativeTokenAddress')(root.wid, root.addr);
        this.scanTvmEvm();
    }

    // ------------------------------------------------------------ EVM -> TVM

    private recordDeposits(r: TransactionReceipt, holder: string) {
        for (const e of findDepositEvents(r, this.vault.interface, { vault: this.x.evm.vaultAddress })) {
            const f = e.fields as { amount: bigint; base_token?: bigint };
            let lane: ToTvm['lane'] = 'N';
            if (e.name === 'AlienTransfer') lane = BigInt(f.base_token!) === BigInt(this.x.weth) ? 'W' : 'T';
            this.toTvm.push({
                key: `${e.transactionHash}:${e.logIndex}`,
                lane,
                amount: f.amount,
                holder,
                approved: false,
            });
        }
    }

    /**
     * Whether an AlienTransfer of `amount` of T fits what A can hold: the vault's count of T on A
     * (tvmOutstanding; checkInvariants holds it to A's supply, fees and what is in flight) stays
     * below 2^120. When it does not, `tx` must be refused with "Deposit: total on TVM would reach
     * 2^120" and nothing moves (issue 11 §4).
     */
    private async fitsOnA(amount: bigint, tx: () => Promise<unknown>, what: string): Promise<boolean> {
        const out: bigint = await this.vault.getFunction('tvmOutstanding')(this.T);
        if (out + amount < TVM_MAX_AMOUNT) return true;
        this.log(`evm: ${what} (refused: T's total on A would reach 2^120)`);
        const bad = await refusedWith(tx(), EvmErrors.deposit.tvmTotalTooLarge);
        if (bad) throw new Error(`evm: ${what}: ${bad}`);
        return false;
    }

    /** `user` on EVM deposits `amount` of T for `holder` on A. */
    async depositT(amount: bigint, holder: string): Promise<void> {
        const { user } = this.signers;
        await mined(as(this.x.evm.token, user).getFunction('approve')(this.x.evm.vaultAddress, amount));
        const to = tvmRecipient(this.user('A', holder).address);
        const deposit = () => as(this.vault, user).getFunction('deposit')(depositParams(to, this.T, amount));
        const what = `deposit T ${amount} -> A.${holder}`;
        if (!(await this.fitsOnA(amount - ceilBps(amount, EVM_DEPOSIT_FEE_BPS), deposit, what))) return;
        this.log(`evm: ${what}`);
        const r = await mined(deposit());
        this.addEvm(this.T, user.address, -amount);
        this.recordDeposits(r, holder);
    }

    /**
     * Issue 11 §4, refused at the source what A can never deliver: `user` deposits T (minted to it
     * first, a test token) just below 2^120 (the most a TVM token amount holds: accepted, then
     * delivered like any deposit), at 2^120 or above it ("Deposit amount too is large"), or an
     * ordinary amount for A's user's address in workchain -1 ("Deposit: recipient not in the
     * basechain"): refused, nothing moves, no event. After the one just below 2^120: one below 2^120
     * that A could not hold with what the vault already sent there ('total': "Deposit: total on TVM
     * would reach 2^120"), refused, nothing moves.
     */
    async depositEdge(kind: 'below' | 'at' | 'above' | 'wid-1' | 'total', holder: string): Promise<void> {
        const { user } = this.signers;
        const r = this.rng;
        if (kind === 'total') {
            const room = TVM_MAX_AMOUNT - 1n - BigInt(await this.vault.getFunction('tvmOutstanding')(this.T));
            // above the room after the fee, below 2^120 (the room is what 'below' left: about 2^120 / 1000)
            const amount = room + room / 500n + r.bigint(1n, 10n ** 9n);
            if (amount >= TVM_MAX_AMOUNT) throw new Error(`evm: deposit edge total: no room to test (${room})`);
            await mined(this.x.evm.token.getFunction('mint')(user.address, amount));
            this.addEvm(this.T, user.address, amount);
            await mined(as(this.x.evm.token, user).getFunction('approve')(this.x.evm.vaultAddress, amount));
            const to = tvmRecipient(this.user('A', holder).address);
            const deposit = () => as(this.vault, user).getFunction('deposit')(depositParams(to, this.T, amount));
            const net = amount - ceilBps(amount, EVM_DEPOSIT_FEE_BPS);
            if (await this.fitsOnA(net, deposit, `deposit T ${amount} -> A.${holder}`))
                throw new Error(`evm: deposit edge total: ${amount} fits (room ${room})`);
            return;
        }
        const amount =
            kind === 'below'
                ? TVM_MAX_AMOUNT - 1n - r.bigint(0n, 10n ** 9n)
                : kind === 'at'
                  ? TVM_MAX_AMOUNT
                  : kind === 'above'
                    ? TVM_MAX_AMOUNT + r.bigint(1n, 10n ** 9n)
                    : r.bigint(1_000n, 3_000_000n);
        await mined(this.x.evm.token.getFunction('mint')(user.address, amount));
        this.addEvm(this.T, user.address, amount);
        if (kind === 'below') {
            // one such deposit a sequence: T's alien minter on A must stay below 2^120
            this.nearMaxUsed = true;
            return this.depositT(amount, holder);
        }
        this.log(`evm: deposit T ${amount} -> A.${holder}${kind === 'wid-1' ? ' in workchain -1' : ''} (refused)`);
        await mined(as(this.x.evm.token, user).getFunction('approve')(this.x.evm.vaultAddress, amount));
        const a = this.user('A', holder).address;
        const bad = await refusedWith(
            as(this.vault, user).getFunction('deposit')(
                depositParams(
                    kind === 'wid-1' ? tvmRecipient(new Address(-1, a.hash)) : tvmRecipient(a),
                    this.T,
                    amount,
                ),
            ),
            kind === 'wid-1' ? 'Deposit: recipient not in the basechain' : 'Deposit amount too is large',
        );
        if (bad) throw new Error(`evm: deposit ${kind}: ${bad}`);
        await mined(as(this.x.evm.token, user).getFunction('approve')(this.x.evm.vaultAddress, 0n));
    }

    /** whether this sequence made its deposit just below 2^120 */
    private nearMaxUsed = false;

    /** `user` on EVM deposits `amount` of the gas currency (wrapped into W) for `holder` on A. */
    async depositW(amount: bigint, holder: string): Promise<void> {
        this.log(`evm: deposit gas currency ${amount} -> A.${holder}`);
        const r = await mined(
            as(this.vault, this.signers.user).getFunction('depositByNativeToken')(
                depositNativeTokenParams(tvmRecipient(this.user('A', holder).address)),
                { value: amount },
            ),
        );
        this.recordDeposits(r, holder);
    }

    /** `other` on EVM deposits (burns) `amount` of R for `holder` on A: A.token unlocked there. */
    async depositR(amount: bigint, holder: string): Promise<void> {
        this.log(`evm: deposit R ${amount} -> A.${holder}`);
        const { other } = this.signers;
        const r = await mined(
            as(this.vault, other).getFunction('deposit')(
                depositParams(tvmRecipient(this.user('A', holder).address), this.rep, amount),
            ),
        );
        this.addEvm(this.rep, other.address, -amount);
        this.recordDeposits(r, holder);
    }

    /** The EVM relays: every confirmed deposit's Event deployed on A and voted; what the proxy did with it. */
    async relayToTvm(): Promise<void> {
        this.log('evm: relays EVM -> A');
        await this.x.evm.mine(2);
        for (const svc of this.x.evmRelays) {
            for (const p of await svc.poll()) {
                const key = `${p.event.transactionHash}:${p.event.logIndex}`;
                const d = this.toTvm.find((x) => x.key === key);
                if (!d) throw new Error(`the relays delivered a deposit the model does not know: ${key}`);
                d.event = p.eventAddress;
                await this.evmOutcome(d);
            }
        }
    }

    /** What A's proxy does with a confirmation of `d` (the order of contracts/bridge/proxy_evm.tact). */
    private async evmOutcome(d: ToTvm): Promise<void> {
        const verified = (code: number) => {
            d.status = EvmEventStatus.Verified;
            d.lastErrorCode = code;
        };
        if (d.lane !== 'N') {
            if (this.paused.A.alien) return verified(Errors.proxy.proxyPaused);
            this.addAlien(d.lane, d.holder, d.amount);
        } else {
            if (this.paused.A.native) return verified(Errors.proxy.proxyPaused);
            // the daily limit of A.token's root and the liquidity, as a TVM to TVM unlock
            const t = { kind: 'burn' as const, lane: 'A.token' as Lane, to: 'A' as const, amount: d.amount };
            if (!(await this.passLimit(t, d.approved, false))) {
                d.status = EvmEventStatus.LimitReached;
                return;
            }
            if (this.liquidityOf('A', 'token') < d.amount) return verified(Errors.proxy.notEnoughLiquidity);
            await this.passLimit(t, d.approved, true);
            this.addLiquidity('A', 'token', -d.amount);
            this.addBalance('A', 'token', d.holder, d.amount);
        }
        d.status = EvmEventStatus.Confirmed;
        this.toTvm.splice(this.toTvm.indexOf(d), 1);
    }

    /** evm_event_retry by the recipient (Verified, LimitReached); approve_limit by A's owner (LimitReached). */
    async evmEventAction(d: ToTvm, action: 'retry' | 'approve'): Promise<void> {
        this.log(`evm: ${action} the Event of ${d.lane} ${d.amount} -> A.${d.holder}`);
        const owner = this.pair.A.owner;
        const recipient = this.user('A', d.holder);
        if (action === 'retry')
            await recipient.send({ to: d.event!, value: toNano('1'), body: evmEventRetryMessage(recipient.address) });
        else await owner.send({ to: d.event!, value: toNano('0.5'), body: limitActionMessage('approveLimit') });
        if (action === 'approve') {
            if (d.status !== EvmEventStatus.LimitReached) return; // 2324
            d.approved = true;
        }
        await this.evmOutcome(d);
    }

    // ------------------------------------------------------------ TVM -> EVM

    private toEvm(recipient: string, remainingGasTo: Address) {
        return tvmEvmPayloadCell({ evmChainId: this.x.evm.chainId, recipient, remainingGasTo });
    }

    /** A's `sender` locks `amount` of A.token bound for `other` on EVM (refunded while paused: 2702). */
    async lockToEvm(sender: string, amount: bigint): Promise<void> {
        this.log(`evm: lock A.token ${sender} -> EVM ${amount}`);
        const u = this.user('A', sender);
        const wallet = await this.pair.wallet(this.net('A'), this.pair.A.token.minter.address, u.address);
        await u.send({
            to: wallet.address,
            value: LOCK_FORWARD_TON + toNano('0.1'),
            body: lockToEvmBody({
                amount,
                nativeProxy: this.pair.A.nativeProxy.address,
                responseDestination: u.address,
                forwardTonAmount: LOCK_FORWARD_TON,
                payload: this.toEvm(this.signers.other.address, u.address),
            }),
        });
        if (this.paused.A.native) return;
        this.addBalance('A', 'token', sender, -amount);
        this.addLiquidity('A', 'token', amount);
    }

    /** A's `sender` burns `amount` of the minter of T (for `other`) or W (for the gas recipient). */
    async burnToEvm(lane: EvmLane, sender: string, amount: bigint): Promise<void> {
        this.log(`evm: burn ${lane} ${sender} -> EVM ${amount}`);
        const u = this.user('A', sender);
        const minter = (await this.evmMinter(lane))!;
        const wallet = await this.pair.wallet(this.net('A'), minter, u.address);
        await u.send({
            to: wallet.address,
            value: BURN_VALUE,
            body: burnToEvmBody({
                amount,
                responseDestination: u.address,
                payload: this.toEvm(lane === 'T' ? this.signers.other.address : this.x.gasRecipient, u.address),
            }),
        });
        if (this.paused.A.alien) return;
        this.addAlien(lane, sender, -amount);
    }

    /** The EVM Bridge's relays sign what A's sealed blocks hold. */
    async signTvm(): Promise<void> {
        this.log('evm: relays sign A -> EVM');
        this.net('A').seal();
        this.signed.push(...(await this.x.tvmRelays.poll()));
    }

    private laneOfWithdrawal(w: SignedWithdrawal): EvmLane | 'N' {
        if (w.withdrawal.kind === WithdrawalKind.Native) return 'N';
        return BigInt(w.withdrawal.token) === BigInt(this.x.weth) ? 'W' : 'T';
    }

    /** The vault's liquidity of an EVM token: its balance less the accrued fees (MultiVaultStorage._liquidity). */
    async vaultLiquidity(lane: EvmLane): Promise<bigint> {
        const c = lane === 'T' ? this.x.evm.token : this.x.evm.weth;
        const balance = BigInt(await c.getFunction('balanceOf')(this.x.evm.vaultAddress));
        const fees = BigInt(await this.vault.getFunction('fees')(this.tokenOfLane(lane)));
        return balance > fees ? balance - fees : 0n;
    }

    /** A signed withdrawal sent by `from` (the recipient may set a bounty); what it became. */
    async withdraw(w: SignedWithdrawal, from: 'user' | 'other', bounty = 0n): Promise<void> {
        const lane = this.laneOfWithdrawal(w);
        const amount = w.withdrawal.amount;
        const recipient = w.withdrawal.recipient;
        this.log(`evm: withdraw ${lane} ${amount} by ${from}${bounty ? ` bounty ${bounty}` : ''}`);
        const net = amount - ceilBps(amount, EVM_WITHDRAW_FEE_BPS);
        const liquidity = lane === 'N' ? 0n : await this.vaultLiquidity(lane);
        const overLimit = lane === 'T' && this.limitT !== 0n && amount > this.limitT;
        const sender = this.signers[from];
        const r = await mined(sendWithdrawal(as(this.vault, sender), w, { bounty }));
        this.signed = this.signed.filter((x) => x !== w);
        this.withdrawn.push(w);
        const created = this.vaultLogs(r).find((l) => l.name === 'PendingWithdrawalCreated');
        const expectPending = lane !== 'N' && (overLimit || net > liquidity);
        if (!!created !== expectPending)
            throw new Error(
                `withdrawal of ${lane} ${amount}: pending ${!!created}, the model expected ${expectPending}`,
            );
        if (created)
            this.pending.push({
                lane: lane as EvmLane,
                recipient,
                id: created.args.id as bigint,
                amount: net,
                bounty: sender.address === recipient ? bounty : 0n,
                status: overLimit ? ApproveStatus.Required : ApproveStatus.NotRequired,
            });
        else this.payOut(lane, recipient, net);
    }

    private payOut(lane: EvmLane | 'N', recipient: string, amount: bigint) {
        if (lane === 'W') this.addEvm('ETH', recipient, amount);
        else this.addEvm(lane === 'T' ? this.T : this.rep, recipient, amount);
    }

    private vaultLogs(r: TransactionReceipt) {
        return r.logs
            .map((l) => {
                try {
                    return this.vault.interface.parseLog(l as never);
                } catch {
                    return null;
                }
            })
            .filter((x): x is NonNullable<typeof x> => x !== null);
    }

    async take(amount: bigint): Promise<void> {
        this.log(`evm: governance takes ${amount} of T`);
        await mined(this.x.g.getFunction('testTakeLiquidity')(this.T, this.signers.governance.address, amount));
        this.taken += amount;
    }

    async giveBack(amount: bigint): Promise<void> {
        this.log(`evm: governance gives back ${amount} of T`);
        await mined(
            as(this.x.evm.token, this.signers.governance).getFunction('transfer')(this.x.evm.vaultAddress, amount),
        );
        this.taken -= amount;
    }

    async setLimitT(limit: bigint): Promise<void> {
        this.log(`evm: T's single-withdrawal limit ${limit}`);
        await mined(this.x.g.getFunction('setWithdrawalLimits')(this.T, limit, 0n));
        this.limitT = limit;
    }

    payable(p: Pending): boolean {
        return p.amount > 0n && (p.status === ApproveStatus.NotRequired || p.status === ApproveStatus.Approved);
    }

    /** forceWithdraw by a stranger: paid when the liquidity is there, else refused. */
    async forcePending(p: Pending): Promise<string | null> {
        this.log(`evm: force pending ${p.lane} ${p.amount}`);
        const liquidity = await this.vaultLiquidity(p.lane);
        const tx = as(this.vault, this.signers.user).getFunction('forceWithdraw')([
            { recipient: p.recipient, id: p.id },
        ]);
        if (p.amount > liquidity) return refusedWith(tx, 'Pending: not enough liquidity');
        await mined(tx);
        this.payOut(p.lane, p.recipient, p.amount);
        p.amount = 0n;
        return null;
    }

    /** The guardian approves a Required pending withdrawal (a stranger first: refused); paid when liquid. */
    async approvePending(p: Pending): Promise<string | null> {
        this.log(`evm: guardian approves pending ${p.lane} ${p.amount}`);
        const pid = { recipient: p.recipient, id: p.id };
        const bad = await refusedWith(
            as(this.vault, this.signers.user).getFunction('setPendingWithdrawalApprove')(pid, true),
            'Pending: caller is not withdraw guardian',
        );
        const liquidity = await this.vaultLiquidity(p.lane);
        await mined(as(this.vault, this.signers.guardian).getFunction('setPendingWithdrawalApprove')(pid, true));
        p.status = ApproveStatus.Approved;
        if (p.amount <= liquidity) {
            this.payOut(p.lane, p.recipient, p.amount);
            p.amount = 0n;
        }
        return bad;
    }

    /** The recipient (`other`) cancels `amount` of a pending T withdrawal: a deposit back to A's `holder`. */
    async cancelPending(p: Pending, amount: bigint, holder: string): Promise<void> {
        const what = `cancel ${amount} of pending ${p.lane} ${p.amount} -> A.${holder}`;
        const t = tvmRecipient(this.user('A', holder).address);
        const cancel = () =>
            as(this.vault, this.signers.other).getFunction('cancelPendingWithdrawal')(
                p.id,
                amount,
                t.wid,
                t.addr,
                0n,
                '0x',
            );
        if (p.lane === 'T' && !(await this.fitsOnA(amount, cancel, what))) return;
        this.log(`evm: ${what}`);
        const r = await mined(cancel());
        p.amount -= amount;
        if (p.bounty > p.amount) p.bounty = p.amount;
        this.recordDeposits(r, holder);
    }

    /** `user` deposits T filling a pending withdrawal (earning its bounty), the rest for A's `holder`. */
    async fill(p: Pending, extra: bigint, holder: string): Promise<void> {
        const what = `fill pending ${p.lane} ${p.amount} (bounty ${p.bounty}) + ${extra} -> A.${holder}`;
        const { user } = this.signers;
        const d = p.amount + extra;
        await mined(as(this.x.evm.token, user).getFunction('approve')(this.x.evm.vaultAddress, d));
        const fill = () =>
            as(this.vault, user).getFunction(
                'deposit((int8,uint256,address,uint256,uint256,bytes),uint256,(address,uint256)[])',
            )(depositParams(tvmRecipient(this.user('A', holder).address), this.T, d), p.bounty, [
                { recipient: p.recipient, id: p.id },
            ]);
        // what goes to A: the whole deposit after the fee, and the bounty
        if (!(await this.fitsOnA(d - ceilBps(d, EVM_DEPOSIT_FEE_BPS) + p.bounty, fill, what))) return;
        this.log(`evm: ${what}`);
        const r = await mined(fill());
        this.addEvm(this.T, user.address, -d);
        this.addEvm(this.T, p.recipient, p.amount - p.bounty);
        p.amount = 0n;
        this.recordDeposits(r, holder);
    }

    /** Strangers on EVM: a replay, too few signatures, non-relays' signatures, a cancel of another's entry. */
    async strangers(): Promise<string[]> {
        this.log('evm: strangers');
        const v = as(this.vault, this.signers.user);
        const out: (string | null)[] = [];
        if (this.withdrawn.length)
            out.push(
                await refusedWith(sendWithdrawal(v, this.rng.pick(this.withdrawn)), 'Withdraw: already withdrawn'),
            );
        if (this.signed.length) {
            const w = this.rng.pick(this.signed);
            out.push(await refusedWith(sendWithdrawal(v, w, { count: 2 }), 'Bridge: not enough signatures'));
            const keys = Array.from({ length: 4 }, (_, i) => new SigningKey(id(`stranger ${i}`)));
            const forged = { ...w, signatures: keys.map((k) => signDigest(k, w.digest)) };
            out.push(await refusedWith(sendWithdrawal(v, forged), 'Bridge: not enough relay signatures'));
        }
        const p = this.pending.find((x) => x.amount > 0n);
        if (p)
            out.push(
                await refusedWith(
                    v.getFunction('cancelPendingWithdrawal')(p.id, 1n, 0, 1n, 0n, '0x'),
                    /Pending: wrong amount|Pending: native token/,
                ),
            );
        return out.filter((x): x is string => x !== null);
    }

    // ------------------------------------------------------------ the generator

    private evmTurn = false;

    /** One random step: the pair's (BridgeModel) and an EVM path's in turn. */
    async randomStep(drawn: Map<string, number> = new Map()): Promise<string> {
        this.evmTurn = !this.evmTurn;
        return this.evmTurn ? this.evmStep(drawn) : super.randomStep(drawn);
    }

    private amountUpTo(max: bigint): bigint {
        const hi = max < 2_000_000n ? max : 2_000_000n;
        return this.rng.chance(0.2) ? hi : this.rng.bigint(1n, hi);
    }

    async evmStep(drawn: Map<string, number>): Promise<string> {
        const r = this.rng;
        const A = USERS.A;
        const holder = r.pick(A);
        const ops: [number, string, () => Promise<unknown>][] = [
            [2, 'evm-deposit-T', () => this.depositT(r.bigint(1_000n, 3_000_000n), holder)],
            // (in place of part of evm-deposit-T: a deposit near 2^120, or to workchain -1)
            [
                1,
                'evm-deposit-edge',
                () =>
                    this.depositEdge(
                        r.pick(
                            this.nearMaxUsed
                                ? (['at', 'above', 'wid-1', 'total'] as const)
                                : (['below', 'at', 'above', 'wid-1'] as const),
                        ),
                        holder,
                    ),
            ],
            [1.5, 'evm-deposit-W', () => this.depositW(r.bigint(1_000n, 10n ** 15n), holder)],
            [
                3,
                'evm-lock',
                async () => {
                    const bal = this.expectedBalance('A', 'token', holder);
                    if (bal === 0n) return this.log(`skip: A.${holder} has no token`);
                    await this.lockToEvm(holder, this.amountUpTo(bal));
                },
            ],
            [2, 'evm-relay', () => this.relayToTvm()],
            [2, 'evm-sign', () => this.signTvm()],
            [1, 'evm-limit', () => this.setLimitT(r.chance(0.4) ? 0n : r.bigint(1_000n, 1_000_000n))],
            [0.7, 'evm-strangers', () => this.strangersChecked()],
        ];
        const repBal = this.evmBal(this.rep, this.signers.other.address);
        if (repBal > 0n) ops.push([2, 'evm-deposit-R', () => this.depositR(this.amountUpTo(repBal), holder)]);
        for (const lane of ['T', 'W'] as EvmLane[]) {
            const holders = A.filter((u) => this.alienBal(lane, u) > 0n);
            if (holders.length) {
                const u = r.pick(holders);
                ops.push([
                    3,
                    `evm-burn-${lane}`,
                    () => this.burnToEvm(lane, u, this.amountUpTo(this.alienBal(lane, u))),
                ]);
            }
        }
        if (this.signed.length) {
            const w = r.pick(this.signed);
            // the recipient of a T withdrawal may send it with a bounty (for when it is pending)
            const byRecipient =
                this.laneOfWithdrawal(w) === 'T' &&
                w.withdrawal.recipient === this.signers.other.address &&
                r.chance(0.5);
            const bounty = byRecipient ? r.bigint(0n, w.withdrawal.amount / 10n) : 0n;
            ops.push([5, 'evm-withdraw', () => this.withdraw(w, byRecipient ? 'other' : 'user', bounty)]);
        }
        const liquidT = await this.vaultLiquidity('T');
        if (liquidT > 0n && this.signed.length)
            ops.push([1.5, 'evm-take', () => this.take(r.chance(0.6) ? liquidT : r.bigint(1n, liquidT))]);
        if (this.taken > 0n) ops.push([1, 'evm-give-back', () => this.giveBack(r.bigint(1n, this.taken))]);
        const payable = this.pending.filter((p) => this.payable(p));
        if (payable.length) {
            const p = r.pick(payable);
            ops.push([1.5, 'evm-force', () => this.checked(this.forcePending(p))]);
            if (p.lane === 'T') {
                ops.push([1.5, 'evm-cancel', () => this.cancelPending(p, r.bigint(1n, p.amount), holder)]);
                ops.push([2, 'evm-fill', () => this.fill(p, r.bigint(0n, 10_000n), holder)]);
            }
        }
        const required = this.pending.filter((p) => p.amount > 0n && p.status === ApproveStatus.Required);
        if (required.length) ops.push([2.5, 'evm-approve', () => this.checked(this.approvePending(r.pick(required)))]);
        const waiting = this.toTvm.filter((d) => d.status !== undefined);
        if (waiting.length) {
            const d = r.pick(waiting);
            ops.push([2, 'evm-event-retry', () => this.evmEventAction(d, 'retry')]);
            if (d.status === EvmEventStatus.LimitReached)
                ops.push([2, 'evm-event-approve', () => this.evmEventAction(d, 'approve')]);
        }
        const [, kind, run] = r.weighted(ops.map((o) => [drawn.has(o[1]) ? o[0] : o[0] * 4, o] as const));
        drawn.set(kind, (drawn.get(kind) ?? 0) + 1);
        await run();
        return kind;
    }

    private async checked(p: Promise<string | null>): Promise<void> {
        const bad = await p;
        if (bad) throw new Error(bad);
    }

    private async strangersChecked(): Promise<void> {
        const bad = await this.strangers();
        if (bad.length) throw new Error(bad.join('; '));
    }

    /**
     * The pair's way forward, then the EVM paths': every deposit delivered on A (the liquidity the
     * native proxy lacks deposited by A's owner, LimitReached approved), every event signed and
     * withdrawn, the taken T given back, every pending withdrawal approved and forced.
     */
    async drain(): Promise<void> {
        await super.drain();
        this.log('evm: drain');
        const open = () =>
            this.toTvm.length > 0 ||
            this.signed.length > 0 ||
            this.taken > 0n ||
            this.pending.some((p) => p.amount > 0n) ||
            this.scanned() > this.withdrawn.length;
        for (let round = 0; round < 4 && open(); round++) {
            await this.relayToTvm();
            for (const d of [...this.toTvm].filter((x) => x.status !== undefined)) {
                if (d.status === EvmEventStatus.LimitReached) await this.evmEventAction(d, 'approve');
                else {
                    const need = d.lane === 'N' ? d.amount - this.liquidityOf('A', 'token') : 0n;
                    if (need > 0n) await this.depositLiquidity('A', 'token', need);
                    await this.evmEventAction(d, 'retry');
                }
            }
            await this.signTvm();
            for (const w of [...this.signed]) await this.withdraw(w, 'user');
            if (this.taken) await this.giveBack(this.taken);
            for (const p of this.pending.filter((x) => x.amount > 0n && x.status === ApproveStatus.Required))
                await this.checked(this.approvePending(p));
            for (const p of this.pending.filter((x) => this.payable(x))) await this.checked(this.forcePending(p));
        }
        const left = [
            this.toTvm.length && `${this.toTvm.length} deposits not delivered on A`,
            this.signed.length && `${this.signed.length} events not withdrawn`,
            this.pending.some((p) => p.amount > 0n) && 'pending withdrawals left',
        ].filter(Boolean);
        if (left.length) throw new Error(`evm drain: ${left.join(', ')}`);
    }

    // ------------------------------------------------------------ invariants

    /** TvmEvm events A's proxies emitted so far (scanned now). */
    private scanned(): number {
        this.scanTvmEvm();
        return this.tvmEvm.length;
    }

    private scanTvmEvm(): void {
        const all = this.net('A').transactions;
        const proxies = [this.pair.A.nativeProxy.address, this.pair.A.alienProxy.address];
        for (; this.tvmEvmCursor < all.length; this.tvmEvmCursor++)
            for (const p of proxies) this.tvmEvm.push(...tvmEvmEventsOf(all[this.tvmEvmCursor], p));
    }

    /** Per lane, the TvmEvm events A's proxies emitted whose withdrawal the vault has not marked. */
    private async notWithdrawn(): Promise<Record<EvmLane | 'N', bigint>> {
        this.scanTvmEvm();
        const out = { T: 0n, W: 0n, N: 0n };
        for (const f of this.tvmEvm) {
            const wid = withdrawalId(f.proxy.workChain, f.transactionHash);
            if (this.usedIds.has(wid)) continue;
            if (await this.vault.getFunction('withdrawalIds')(wid)) {
                this.usedIds.add(wid);
                continue;
            }
            if (f.event.kind === WithdrawalKind.Native) out.N += f.event.amount;
            else
                out[BigInt((f.event.token as { evmToken: string }).evmToken) === BigInt(this.x.weth) ? 'W' : 'T'] +=
                    f.event.amount;
        }
        return out;
    }

    private repContract(): Contract {
        return new Contract(
            this.rep,
            ['function totalSupply() view returns (uint256)', 'function balanceOf(address) view returns (uint256)'],
            this.x.evm.provider,
        );
    }

    private async repSupply(): Promise<bigint> {
        if ((await this.x.evm.provider.getCode(this.rep)) === '0x') return 0n;
        return this.repContract().getFunction('totalSupply')();
    }

    private toTvmOf(lane: EvmLane | 'N'): bigint {
        return this.toTvm.filter((d) => d.lane === lane).reduce((a, d) => a + d.amount, 0n);
    }

    /** A.token held on EVM or in flight between A and EVM (read from the chains; see the file comment). */
    protected async outside(lane: Lane): Promise<bigint> {
        if (lane !== 'A.token') return 0n;
        const feesR: bigint = await this.vault.getFunction('fees')(this.rep);
        return (await this.repSupply()) + feesR + this.toTvmOf('N') + (this.away ?? (await this.notWithdrawn())).N;
    }

    async checkInvariants(): Promise<Violation[]> {
        const away = await this.notWithdrawn();
        this.away = away;
        const out = await super.checkInvariants().finally(() => (this.away = null));
        const A = this.pair.A;
        const supplyOn = async (m: Address | null) => {
            if (!m) return { supply: 0n, fees: 0n };
            const bc = this.net('A').blockchain;
            if ((await bc.getContract(m)).accountState?.type !== 'active') return { supply: 0n, fees: 0n };
            return {
                supply: await bc.openContract(JettonMinter.createFromAddress(m)).getTotalSupply(),
                fees: await A.alienProxy.getAccumulatedFees(m),
            };
        };
        // conservation of T and W across EVM and A
        for (const lane of ['T', 'W'] as EvmLane[]) {
            const token = this.tokenOfLane(lane);
            const c = lane === 'T' ? this.x.evm.token : this.x.evm.weth;
            const held: bigint = await c.getFunction('balanceOf')(this.x.evm.vaultAddress);
            const fees: bigint = await this.vault.getFunction('fees')(token);
            const pendingTotal: bigint = await this.vault.getFunction('pendingWithdrawalsTotal')(token);
            const m = await supplyOn(await this.evmMinter(lane));
            const taken = lane === 'T' ? this.taken : 0n;
            const rhs = fees + m.supply + m.fees + this.toTvmOf(lane) + away[lane] + pendingTotal;
            if (held + taken !== rhs)
                out.push({
                    invariant: 'conservation',
                    message: `${lane}: vault ${held}${taken ? ` + taken ${taken}` : ''} != fees ${fees} + supply on A ${m.supply} + proxy fees ${m.fees} + to A ${this.toTvmOf(lane)} + events not withdrawn ${away[lane]} + pending ${pendingTotal}`,
                });
            // what the vault counts on A (its bound on A's supply, issue 11 §4) is what is there
            const counted: bigint = await this.vault.getFunction('tvmOutstanding')(token);
            const onA = m.supply + m.fees + this.toTvmOf(lane) + away[lane];
            if (counted !== onA)
                out.push({
                    invariant: 'conservation',
                    message: `${lane}: the vault's tvmOutstanding ${counted} != supply on A ${m.supply} + proxy fees ${m.fees} + to A ${this.toTvmOf(lane)} + events not withdrawn ${away[lane]}`,
                });
            const modelPending = this.pending.filter((p) => p.lane === lane).reduce((a, p) => a + p.amount, 0n);
            if (pendingTotal !== modelPending)
                out.push({
                    invariant: 'conservation',
                    message: `${lane}: pendingWithdrawalsTotal ${pendingTotal}, model ${modelPending}`,
                });
        }
        // balances: A's users' EVM aliens, the EVM accounts', the gas recipient's ETH
        for (const lane of ['T', 'W'] as EvmLane[]) {
            const m = await this.evmMinter(lane);
            for (const u of USERS.A) {
                let b = 0n;
                if (m) {
                    const w = await this.pair.wallet(this.net('A'), m, this.user('A', u).address);
                    const st = (await this.net('A').blockchain.getContract(w.address)).accountState;
                    if (st?.type === 'active') b = await w.getJettonBalance();
                }
                if (b !== this.alienBal(lane, u))
                    out.push({
                        invariant: 'balance',
                        message: `A.${lane} of ${u}: wallet ${b}, model ${this.alienBal(lane, u)}`,
                    });
            }
        }
        const rep = (await this.x.evm.provider.getCode(this.rep)) === '0x' ? null : this.repContract();
        for (const who of [this.signers.user.address, this.signers.other.address]) {
            const t: bigint = await this.x.evm.token.getFunction('balanceOf')(who);
            const rb: bigint = rep ? await rep.getFunction('balanceOf')(who) : 0n;
            if (t !== this.evmBal(this.T, who) || rb !== this.evmBal(this.rep, who))
                out.push({
                    invariant: 'balance',
                    message: `EVM ${who}: T ${t} R ${rb}, model T ${this.evmBal(this.T, who)} R ${this.evmBal(this.rep, who)}`,
                });
        }
        const eth = await this.x.evm.provider.getBalance(this.x.gasRecipient);
        if (eth !== this.evmBal('ETH', this.x.gasRecipient))
            out.push({
                invariant: 'balance',
                message: `EVM gas recipient: ${eth}, model ${this.evmBal('ETH', this.x.gasRecipient)}`,
            });
        for (const p of this.pending) {
            const q = await this.vault.getFunction('pendingWithdrawal')(p.recipient, p.id);
            if (q.amount !== p.amount || Number(q.approveStatus) !== p.status)
                out.push({
                    invariant: 'event',
                    message: `pending ${p.lane} #${p.id}: ${q.amount} status ${q.approveStatus}, model ${p.amount} status ${p.status}`,
                });
        }
        // the EVM Events on A that wait: status and last error code
        for (const d of this.toTvm) {
            if (!d.event) continue;
            const e = this.net('A').blockchain.openContract(MultiVaultEvmTvmEventNative.createFromAddress(d.event));
            const status = Number(await e.getGetStatus());
            const code = Number(await e.getGetLastErrorCode());
            const want = d.status === EvmEventStatus.Verified ? d.lastErrorCode : code;
            if (status !== d.status || code !== want)
                out.push({
                    invariant: 'event',
                    message: `EVM Event of ${d.lane} ${d.amount} -> A.${d.holder}: ${EvmEventStatus[status]} (${code}), model ${d.status === undefined ? '-' : EvmEventStatus[d.status]} (${d.lastErrorCode ?? '-'})`,
                });
        }
        return out;
    }
}

/** null when `tx` is refused with `message`, else what happened instead. */
async function refusedWith(tx: Promise<unknown>, message: string | RegExp): Promise<string | null> {
    try {
        await mined(tx as Promise<{ wait(): Promise<TransactionReceipt | null> }>);
    } catch (e) {
        const m = (e as Error).message;
        const ok = typeof message === 'string' ? m.includes(message) : message.test(m);
        return ok ? null : `refused with "${m.slice(0, 200)}", expected ${message}`;
    }
    return `accepted, expected a refusal with ${message}`;
}
