/**
 * Issue 11 §1 (the stablecoin findings), EVM to TVM end to end: a USDT-style jetton
 * (harness/statusJetton.ts: its admin locks a wallet for sending or receiving, and a locked wallet
 * refuses with 45) as the TVM-native token, registered in the native proxy with its wallet given (a
 * plain minter). Hardhat's EVM with the real MultiVault and Bridge, the relays on both sides, the
 * EvmTvmEventConfiguration, the EVM Native Event and the native proxy (tests/tvm_evm.util.ts with the
 * fixture's `nativeToken` option).
 *
 * The scenario, every token followed on both sides (EVM: the representation's supply and balances,
 * the vault's fees; TVM: the proxy's books, liquidity + accumulated fees and the day's count, its
 * wallet, the recipient's and the user's wallets):
 * 1. the TVM user locks some of the token to EVM; the relays sign; the representation is minted to
 *    the EVM holder; the proxy gets a token fee and a daily limit;
 * 2. the admin freezes the proxy's wallet (send-locked); the holder deposits (burns) some of the
 *    representation for a TVM recipient; the user deploys the Native Event, the relays confirm; the
 *    proxy's unlock is refused by its own wallet (45), the bounce reaches the proxy, which puts back
 *    the liquidity, the fee and the day's count and tells the Event (evm_event_delivery_failed 2715):
 *    Verified, the API's Pending; the recipient has nothing;
 * 3. the admin frees the wallet; a stranger's evm_event_retry delivers amount - fee: Confirmed;
 * 4. the admin blacklists the recipient (receive-locked); a second deposit: the proxy's wallet sends,
 *    the recipient's wallet refuses (45) and bounces to the proxy's wallet, which adds the amount back
 *    and tells nobody: the documented exception (README; TESTING.md 7.1). The Event says Confirmed
 *    (API Completed), the recipient has nothing of it, and the proxy's wallet holds amount - fee above
 *    its books (measured).
 *
 * Conservation throughout: the proxy's liquidity above what the fixture deposited is what EVM holds
 * of the representation (supply + the vault's fees) plus what Events hold in Verified; the proxy's
 * wallet is its books plus the surplus step 4 leaves; every token minted on TVM is in the user's, the
 * recipient's or the proxy's wallet.
 */
import '@ton/test-utils';
import { toNano } from '@ton/core';
import { SandboxContract, SendMessageResult, TreasuryContract } from '@ton/sandbox';
import { Contract } from 'ethers';
import { Errors, Op, OpEvm } from '../wrappers/constants';
import {
    EvmEventStatus,
    evmEventRetryMessage,
    parseEvmEventDeliveryFailed,
} from '../wrappers/EvmTvmEventConfiguration';
import { toTransferStatus, TransferStatus } from '../wrappers/eventStatus';
import { MultiVaultEvmTvmEventNative } from '../wrappers/MultiVaultEvmTvmEventNative';
import { ProxyMessages } from '../wrappers/ProxyMultiVaultNative';
import { as, depositParams } from '../wrappers/evm/MultiVault';
import { EvmRelayService } from '../harness/evm/relay';
import { deployEventNonCredit } from '../harness/evm/user';
import { tvmRecipient } from '../harness/evm/fixture';
import { NATIVE_LOCKED } from '../harness/evm/proxyFixture';
import { sendWithdrawal } from '../harness/evm/tvmEvmRelay';
import { StatusJetton, WALLET_STATUS } from '../harness/statusJetton';
import { computeOf, evmFee, EXPECTED_GAS, isAt, lastOf, mined, opOf, PAYLOAD, proxyTx } from './evm_tvm.util';
import { exitCode, txOf } from './proxy.util';
import { tvmEvmSetup, TvmEvmSetup, USER_NATIVE } from './tvm_evm.util';

jest.setTimeout(180_000);

const WITHDRAW_FEE_BPS = 20n;
const wfee = (amount: bigint) => (amount * WITHDRAW_FEE_BPS + 9999n) / 10000n;
/** locked on TVM to EVM (step 1), then deposited back from EVM (steps 2 and 4) */
const LOCKED = 7_000_000n;
const FROZEN_DEPOSIT = 3_000_000n;
const BLACKLISTED_DEPOSIT = 2_000_000n;
/** the token's fee on the proxy (1 / 100) and its daily limit */
const FEE = { numerator: 1n, denominator: 100n };
const LIMIT = 100_000_000n;
const tokenFee = (amount: bigint) => (amount * FEE.numerator) / FEE.denominator;

describe('EVM to TVM with a USDT-style jetton as the native token: a frozen proxy wallet, a blacklisted recipient', () => {
    let s: TvmEvmSetup;
    let jetton: StatusJetton;
    let rep: Contract;
    let repAddress: string;
    let stranger: SandboxContract<TreasuryContract>;
    /** the step 2 Event (refused, then retried) */
    let frozenEvent: SandboxContract<MultiVaultEvmTvmEventNative>;
    const bridgedFrozen = FROZEN_DEPOSIT - evmFee(FROZEN_DEPOSIT);
    const bridgedBlacklisted = BLACKLISTED_DEPOSIT - evmFee(BLACKLISTED_DEPOSIT);

    // ------------------------------------------------------------------ views of both sides

    const native = () => s.proxies.native;
    const token = () => jetton.minter;
    const books = async () => ({
        liquidity: await native().getLiquidity(token()),
        fees: await native().getAccumulatedFees(token()),
        used: (await native().getDailyLimit(token()))?.used ?? 0n,
    });
    const holder = () => s.evm.signers.other.address;
    const evmSide = async () => ({
        supply: (await rep.getFunction('totalSupply')()) as bigint,
        holder: (await rep.getFunction('balanceOf')(holder())) as bigint,
        vaultFees: (await s.evm.vault.getFunction('fees')(repAddress)) as bigint,
    });

    /**
     * Every token accounted for: on EVM the holder has the whole supply; the proxy's liquidity above
     * the fixture's deposit is the representation's supply + the vault's fees + `inFlight` (an Event
     * held in Verified); the proxy's wallet is its books + `surplus` (what it cannot see); every
     * token minted on TVM is in the user's, the recipient's or the proxy's wallet.
     */
    const conserved = async (o: { inFlight?: bigint; surplus?: bigint } = {}) => {
        const e = await evmSide();
        expect(e.holder).toBe(e.supply);
        const b = await books();
        expect(b.liquidity - NATIVE_LOCKED).toBe(e.supply + e.vaultFees + (o.inFlight ?? 0n));
        expect(await jetton.balanceOf(native().address)).toBe(b.liquidity + b.fees + (o.surplus ?? 0n));
        let held = 0n;
        for (const a of [s.user.address, s.recipient.address, native().address]) held += await jetton.balanceOf(a);
        expect(held).toBe(jetton.minted);
    };

    /**
     * The EVM holder deposits (burns) `amount` of the representation for the TVM recipient; the TVM
     * user deploys the Native Event (non-credit mode), the relays confirm it.
     */
    const depositAndConfirm = async (amount: bigint) => {
        const receipt = await mined(
            s.evm.vaultAs(s.evm.signers.other).getFunction('deposit')(
                depositParams(tvmRecipient(s.recipient.address), repAddress, amount, {
                    expectedGas: EXPECTED_GAS,
                    payload: PAYLOAD,
                }),
            ),
        );
        await s.evm.mine(2);
        const d = await deployEventNonCredit(s.evm, s.nativeConfiguration, s.user, receipt.hash);
        expect(d.result.transactions).toHaveTransaction({ to: d.eventAddress, deploy: true, success: true });
        const votes = await new EvmRelayService(s.evm, s.blockchain, s.nativeConfiguration, s.relays, s.relayer).vote(
            d.config,
            d.eventAddress,
            d.voteData,
            s.relays.requiredVotes,
        );
        return {
            last: lastOf(votes),
            event: s.blockchain.openContract(MultiVaultEvmTvmEventNative.createFromAddress(d.eventAddress)),
        };
    };

    const statusOf = async (e: SandboxContract<MultiVaultEvmTvmEventNative>) => Number(await e.getGetStatus());

    /** the proxy's transfer to its wallet in `r` and what the wallet did with it */
    const walletTx = (r: SendMessageResult) =>
        txOf(r.transactions, jetton.walletAddress(native().address), Op.jetton.transfer);

    beforeAll(async () => {
        s = await tvmEvmSetup({
            withdrawFeeBps: WITHDRAW_FEE_BPS,
            nativeToken: async (b) => (jetton = StatusJetton.create(b, await b.treasury('stablecoin admin'))),
        });
        stranger = await s.blockchain.treasury('stranger');
        const root = tvmRecipient(jetton.minter);
        repAddress = await s.evm.vault.getFunction('predictNativeTokenAddress')(root.wid, root.addr);
        rep = new Contract(
            repAddress,
            ['function balanceOf(address) view returns (uint256)', 'function totalSupply() view returns (uint256)'],
            s.evm.provider,
        );
    });

    it('1. the liquidity: the TVM user locks the USDT-style token to EVM, the relays sign, the representation is minted to the EVM holder; a token fee and a daily limit on the proxy', async () => {
        // the fixture registered the token with its wallet given and deposited NATIVE_LOCKED as liquidity
        expect(await native().getWalletOf(token())).toEqualAddress(jetton.walletAddress(native().address));
        expect(await native().getLiquidity(token())).toBe(NATIVE_LOCKED);
        expect(await jetton.balanceOf(s.user.address)).toBe(USER_NATIVE);

        const r = await s.lock(LOCKED);
        expect(r.transactions).toHaveTransaction({ to: native().address, success: true });
        expect(await jetton.balanceOf(s.user.address)).toBe(USER_NATIVE - LOCKED);
        expect(await native().getLiquidity(token())).toBe(NATIVE_LOCKED + LOCKED);
        const [signed] = await s.signNow();
        expect(signed.withdrawal.amount).toBe(LOCKED);
        expect(signed.withdrawal.recipient).toBe(holder());
        await mined(sendWithdrawal(as(s.evm.vault, s.evm.signers.user), signed));
        expect(await evmSide()).toEqual({
            supply: LOCKED - wfee(LOCKED),
            holder: LOCKED - wfee(LOCKED),
            vaultFees: wfee(LOCKED),
        });

        await native().sendBody(
            s.proxyOwner.getSender(),
            ProxyMessages.setTokenFee(token(), FEE.numerator, FEE.denominator),
        );
        await native().sendBody(s.proxyOwner.getSender(), ProxyMessages.setDailyLimit(token(), LIMIT));
        expect(await books()).toEqual({ liquidity: NATIVE_LOCKED + LOCKED, fees: 0n, used: 0n });
        await conserved();
    });

    it("2. the admin freezes the proxy's wallet; a NativeTransfer is confirmed: the wallet refuses the unlock (45), the bounce reaches the proxy: the liquidity, the fee and the day's count back, the Event back to Verified with 2715 (API Pending), the recipient has nothing", async () => {
        await jetton.setStatus(native().address, WALLET_STATUS.sendLocked);
        expect(await jetton.statusOf(native().address)).toBe(WALLET_STATUS.sendLocked);
        const before = await books();
        const evm0 = await evmSide();

        const { last, event } = await depositAndConfirm(FROZEN_DEPOSIT);
        frozenEvent = event;
        // EVM: burned, the deposit fee kept by the vault
        expect(await evmSide()).toEqual({
            supply: evm0.supply - FROZEN_DEPOSIT,
            holder: evm0.holder - FROZEN_DEPOSIT,
            vaultFees: evm0.vaultFees + evmFee(FROZEN_DEPOSIT),
        });
        // the proxy unlocked amount - fee from its wallet (bounceable); the wallet refused (45)
        expect(computeOf(proxyTx(last, native().address)).exitCode).toBe(0);
        expect(exitCode(walletTx(last))).toBe(45);
        expect(last.transactions).toHaveTransaction({
            from: jetton.walletAddress(native().address),
            to: native().address,
            inMessageBounced: true,
            success: true,
        });
        const failed = last.transactions.find(
            (t) => isAt(t, event.address) && opOf(t) === OpEvm.evmEventDeliveryFailed,
        )!;
        expect(failed).toBeDefined();
        expect(failed.inMessage!.info.src).toEqualAddress(native().address);
        expect(parseEvmEventDeliveryFailed(failed.inMessage!.body)!.errorCode).toBe(Errors.proxy.transferRefused);
        expect(await statusOf(event)).toBe(EvmEventStatus.Verified);
        expect(Number(await event.getGetLastErrorCode())).toBe(Errors.proxy.transferRefused);
        expect(toTransferStatus(await statusOf(event))).toBe(TransferStatus.Pending);

        // TVM: nothing moved; the books as before and what the wallet holds
        expect(await jetton.balanceOf(s.recipient.address)).toBe(0n);
        expect(await books()).toEqual(before);
        await conserved({ inFlight: bridgedFrozen });
    });

    it("3. the admin frees the wallet; a stranger's evm_event_retry delivers amount - fee: the Event Confirmed (API Completed)", async () => {
        await jetton.setStatus(native().address, 0);
        const before = await books();
        const r = await stranger.send({
            to: frozenEvent.address,
            value: toNano('1'),
            body: evmEventRetryMessage(stranger.address),
        });
        expect(computeOf(proxyTx(r, native().address)).exitCode).toBe(0);
        expect(exitCode(walletTx(r))).toBe(0);
        expect(r.transactions).not.toHaveTransaction({ to: native().address, inMessageBounced: true });
        expect(await statusOf(frozenEvent)).toBe(EvmEventStatus.Confirmed);
        expect(toTransferStatus(await statusOf(frozenEvent))).toBe(TransferStatus.Completed);
        expect(await jetton.balanceOf(s.recipient.address)).toBe(bridgedFrozen - tokenFee(bridgedFrozen));
        expect(await books()).toEqual({
            liquidity: before.liquidity - bridgedFrozen,
            fees: before.fees + tokenFee(bridgedFrozen),
            used: before.used + bridgedFrozen,
        });
        await conserved();
        // a second retry is refused (2324): nothing more leaves
        const again = await stranger.send({
            to: frozenEvent.address,
            value: toNano('1'),
            body: evmEventRetryMessage(stranger.address),
        });
        expect(again.transactions).toHaveTransaction({
            to: frozenEvent.address,
            success: false,
            exitCode: Errors.event.wrongStatus,
        });
        expect(again.transactions).not.toHaveTransaction({ to: native().address });
        await conserved();
    });

    it("4. a blacklisted recipient (receive-locked): the proxy's wallet sends, the recipient's wallet refuses (45) and bounces to the proxy's wallet, which tells nobody: the Event Confirmed (API Completed), the recipient has nothing of it, the proxy's wallet amount - fee above its books (the documented exception)", async () => {
        await jetton.setStatus(s.recipient.address, WALLET_STATUS.receiveLocked);
        const before = await books();
        const recipient0 = await jetton.balanceOf(s.recipient.address);
        const { last, event } = await depositAndConfirm(BLACKLISTED_DEPOSIT);
        const sent = bridgedBlacklisted - tokenFee(bridgedBlacklisted);
        expect(exitCode(walletTx(last))).toBe(0);
        expect(last.transactions).toHaveTransaction({
            from: jetton.walletAddress(native().address),
            to: jetton.walletAddress(s.recipient.address),
            op: Op.jetton.internalTransfer,
            success: false,
            exitCode: 45,
        });
        expect(last.transactions).toHaveTransaction({
            from: jetton.walletAddress(s.recipient.address),
            to: jetton.walletAddress(native().address),
            inMessageBounced: true,
            success: true,
        });
        // the proxy hears nothing: no bounce to it, no word to the Event
        expect(last.transactions).not.toHaveTransaction({ to: native().address, inMessageBounced: true });
        expect(last.transactions).not.toHaveTransaction({ to: event.address, op: OpEvm.evmEventDeliveryFailed });
        expect(await statusOf(event)).toBe(EvmEventStatus.Confirmed);
        expect(toTransferStatus(await statusOf(event))).toBe(TransferStatus.Completed);
        expect(await jetton.balanceOf(s.recipient.address)).toBe(recipient0);
        // the proxy took the unlock; its wallet holds what was sent above its books
        expect(await books()).toEqual({
            liquidity: before.liquidity - bridgedBlacklisted,
            fees: before.fees + tokenFee(bridgedBlacklisted),
            used: before.used + bridgedBlacklisted,
        });
        const b = await books();
        const surplus = (await jetton.balanceOf(native().address)) - b.liquidity - b.fees;
        expect(surplus).toBe(sent);
        console.log(
            `[evm->tvm status] blacklisted recipient: deposit ${BLACKLISTED_DEPOSIT} -> bridged ${bridgedBlacklisted} -> sent ${sent}, refused by the recipient's wallet: surplus in the proxy's wallet above its books ${surplus}; Event Confirmed`,
        );
        await conserved({ surplus });
    });
});
