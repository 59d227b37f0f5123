/**
 * The Native Event's provider step with wallets that follow other rules than this project's
 * (issue 11 §1, §2): the USDT-style wallet (contracts/test/status_jetton_wallet.fc: its master
 * locks a wallet for sending or receiving, 45) and the reference TEP-74 wallet (tonweb's compiled
 * code, harness/referenceJetton.ts: it refuses a transfer below forward TON + fees + a fixed 0.04
 * TON, 709). One Native Event per test, deployed straight in LiquidityRequested with its state
 * (the event, the proxy, the bounty) as the configuration would have left it; the configuration
 * and the native proxy are treasuries, so the repayment (tvm_event_confirmed to the
 * configuration) is seen, not executed (lifecycle.provider.spec.ts runs it end to end with the
 * project's jetton).
 *
 * What it holds, following every token (the provider's, the recipient's and the Event's wallets,
 * their sum the minted amount) and the Event's TON:
 * - the provision's transfers go to the Event's wallet with the probe behind them; the status
 *   moves only on the probe's bounce: LiquidityProvided and the repayment when the wallet took the
 *   transfer to the recipient, else back to LiquidityRequested with the tokens held for a retry,
 *   the provider not repaid (the Event's wallet locked for sending, 45);
 * - a held provision: set_bounty, cancel and another provision are refused (2324, tokens back);
 *   tvm_event_retry by anyone delivers it once the wallet is free, then the repayment;
 * - a recipient whose wallet may not receive (blacklisted): the Event's wallet took the transfer,
 *   the recipient's wallet bounced it back to the Event's wallet, which adds the amount back and
 *   tells nobody: LiquidityProvided with the recipient unpaid (the documented exception);
 * - the reference wallet: every provision the Event accepts (a sweep around the smallest value)
 *   reaches the recipient; below, the tokens go back;
 * - a plain minter (the reference one, no TEP-89): the Event never learns its wallet; a
 *   provider's tokens come back (the Event asks the notifying wallet to return them with the
 *   notification's own value; with too little, it records them for return_stranded:
 *   tests/event.stranded.spec.ts); a stranger's notification gets its own value back as a transfer
 *   request; the Event spends none of its TON.
 */
import { Address, beginCell, Cell, toNano, Transaction } from '@ton/core';
import { Blockchain, SandboxContract, TreasuryContract } from '@ton/sandbox';
import '@ton/test-utils';
import fs from 'fs';
import path from 'path';
import { PROVISION_PROBE_AMOUNT } from '../wrappers/MultiVaultTvmTvmEventNative';
import { limitActionMessage } from '../wrappers/tvmTvmEvent';
import { jettonTransferBody, LiquidityToken as Token, liquidityRequestedEvent } from '../harness/liquidityEvent';
import { EventStatus } from '../wrappers/eventStatus';
import { JettonWallet } from '../wrappers/JettonWallet';
import { Errors, Op, OpEvent } from '../wrappers/constants';
import { StatusJetton, WALLET_STATUS } from '../harness/statusJetton';
import { ReferenceJetton } from '../harness/referenceJetton';
import { exitCodeOf } from '../harness/bridge';
import { expectAllOk, isProvisionProbe } from '../harness/testing';

const AMOUNT = 1_000_000n;
const BOUNTY = 10_000n;
const DUE = AMOUNT - BOUNTY;
const MINTED = 10n * AMOUNT;
/** forward TON of a provider's transfer: more than the provider step needs */
const PROVIDE_FORWARD = toNano('0.5');

describe('Native Event provider step with USDT-style and reference wallets', () => {
    let blockchain: Blockchain;
    let config: SandboxContract<TreasuryContract>;
    let proxy: SandboxContract<TreasuryContract>;
    let sender: SandboxContract<TreasuryContract>;
    let recipient: SandboxContract<TreasuryContract>;
    let provider: SandboxContract<TreasuryContract>;
    let stranger: SandboxContract<TreasuryContract>;
    let admin: SandboxContract<TreasuryContract>;
    let snapshot: ReturnType<Blockchain['snapshot']>;
    let status: StatusJetton;
    let reference: ReferenceJetton;
    let msgHash = 1n;

    beforeAll(async () => {
        blockchain = await Blockchain.create();
        config = await blockchain.treasury('configuration');
        proxy = await blockchain.treasury('native proxy');
        sender = await blockchain.treasury('sender');
        recipient = await blockchain.treasury('recipient');
        provider = await blockchain.treasury('provider');
        stranger = await blockchain.treasury('stranger');
        admin = await blockchain.treasury('jetton admin');
        status = StatusJetton.create(blockchain, admin);
        expectAllOk((await status.mint(provider.address, MINTED)).transactions);
        reference = await ReferenceJetton.deploy(blockchain, admin);
        expectAllOk((await reference.mint(provider.address, MINTED)).transactions);
        snapshot = blockchain.snapshot();
    });

    beforeEach(async () => {
        await blockchain.loadFrom(snapshot);
    });

    /**
     * A Native Event of `token` in LiquidityRequested (bounty BOUNTY), as not_enough_liquidity
     * leaves it; with `walletKnown`, its token root has answered TEP-89 (the status jetton's master
     * is an account, so the test sends that answer as the master; for the reference minter, which
     * has no TEP-89, the test injects it as if from the minter).
     */
    async function liquidityRequested(token: Token, walletKnown: boolean, payload: Cell | null = null) {
        const { event: ev, wallet } = await liquidityRequestedEvent(blockchain, {
            msgHash: msgHash++,
            configuration: config.address,
            proxy: proxy.address,
            tokenRoot: token.minter,
            eventWallet: (e) => token.walletAddress(e),
            walletKnown,
            amount: AMOUNT,
            bounty: BOUNTY,
            sender: sender.address,
            recipient: recipient.address,
            payload,
        });
        expect(await ev.getStatus()).toBe(EventStatus.LiquidityRequested);
        expect((await ev.getDecodedData()).tokenWallet?.equals(wallet) ?? false).toBe(walletKnown);
        return { ev, wallet };
    }

    /** the provider sends `amount` of `token` to the Event (its wallet notifies the Event) */
    async function provide(token: Token, to: Address, amount: bigint, forwardTonAmount = PROVIDE_FORWARD) {
        return provider.send({
            to: token.walletAddress(provider.address),
            value: forwardTonAmount + toNano('0.2'),
            body: jettonTransferBody({ queryId: 5n, amount, to, response: provider.address, forwardTonAmount }),
        });
    }

    /** the tvm_event_confirmed the Event sent the configuration in `txs` (the repayment), or undefined */
    function repayment(txs: Transaction[], ev: Address) {
        const t = txs.find(
            (x) =>
                x.inMessage?.info.type === 'internal' &&
                x.inMessage.info.src.equals(ev) &&
                x.inMessage.info.dest.equals(config.address) &&
                x.inMessage.body.beginParse().preloadUint(32) === Op.bridge.tvmEventConfirmed,
        );
        if (!t) return undefined;
        const b = t.inMessage!.body.beginParse();
        b.skip(32 + 256 + 32);
        b.loadAddress(); // remaining_gas_to
        const e = b.loadRef().beginParse();
        e.skip(32 + 32);
        const amount = e.loadUintBig(128);
        return { amount, recipient: e.loadAddress().toString() };
    }

    async function expectConserved(token: Token, holders: Address[]) {
        let sum = 0n;
        for (const h of [provider.address, recipient.address, stranger.address, ...holders])
            sum += await token.balanceOf(h);
        expect(sum).toBe(MINTED);
    }

    it("PROVISION_PROBE_AMOUNT mirrors the contract's PROBE_AMOUNT; every wallet here refuses the probe", async () => {
        const src = fs.readFileSync(
            path.resolve(__dirname, '..', 'contracts', 'bridge', 'tvm_tvm_event_native.tact'),
            'utf8',
        );
        expect(BigInt(/^const PROBE_AMOUNT: Int = (0x[0-9a-f]+);/m.exec(src)![1])).toBe(PROVISION_PROBE_AMOUNT);
        // the status wallet and the reference wallet refuse it in the provider step below; here the
        // probe's transactions of one happy step are the only failures, and each bounced
        const { ev } = await liquidityRequested(status, true);
        const r = await provide(status, ev.address, DUE);
        const failed = r.transactions.filter((t) => (exitCodeOf(t) ?? 0) !== 0);
        expect(failed.length).toBe(1);
        expect(isProvisionProbe(failed[0])).toBe(true);
        expect(r.transactions).toHaveTransaction({
            from: failed[0].inMessage!.info.dest as Address,
            to: ev.address,
            inMessageBounced: true,
        });
    });

    it('USDT-style wallet: the provision delivered (the probe comes back alone): LiquidityProvided, the recipient paid, the repayment sent; every token followed', async () => {
        const { ev } = await liquidityRequested(status, true);
        const r = await provide(status, ev.address, DUE);
        expectAllOk(r.transactions);
        expect(await ev.getStatus()).toBe(EventStatus.LiquidityProvided);
        expect(await ev.getProvisionPending()).toBe(false);
        expect(await status.balanceOf(recipient.address)).toBe(DUE);
        expect(await status.balanceOf(ev.address)).toBe(0n);
        expect(repayment(r.transactions, ev.address)).toEqual({
            amount: AMOUNT,
            recipient: provider.address.toString(),
        });
        expect(await ev.getProviderRepaid()).toBe(true);
        await expectConserved(status, [ev.address]);
    });

    it("USDT-style wallet: the Event's wallet locked for sending (45): the transfer to the recipient bounces, the probe after it; back to LiquidityRequested, the tokens held, the provider not repaid; set_bounty, cancel and another provision refused; retried by anyone once the wallet is free: delivered, repaid", async () => {
        const { ev } = await liquidityRequested(status, true);
        expectAllOk((await status.setStatus(ev.address, WALLET_STATUS.sendLocked)).transactions);
        const provider0 = await provider.getBalance();
        const r = await provide(status, ev.address, DUE);
        expect(r.transactions).toHaveTransaction({ to: status.walletAddress(ev.address), exitCode: 45 });
        expect(await ev.getStatus()).toBe(EventStatus.LiquidityRequested);
        expect(await ev.getHeldTokens()).toBe(DUE);
        expect(await ev.getProvisionPending()).toBe(false);
        expect(await ev.getProviderRepaid()).toBe(false);
        expect(repayment(r.transactions, ev.address)).toBeUndefined();
        expect(await status.balanceOf(recipient.address)).toBe(0n);
        expect(await status.balanceOf(ev.address)).toBe(DUE);
        // the provision's value beyond what it spent came back to the provider
        expect(r.transactions).toHaveTransaction({ from: ev.address, to: provider.address });
        expect(provider0 - (await provider.getBalance())).toBeLessThan(toNano('0.3'));
        await expectConserved(status, [ev.address]);
        // while held: set_bounty, cancel refused (2324)
        const bounty = beginCell().storeUint(OpEvent.setBounty, 32).storeUint(0, 64).storeUint(0, 128).endCell();
        expect(await exitOn(recipient.send({ to: ev.address, value: toNano('0.1'), body: bounty }), ev.address)).toBe(
            Errors.event.wrongStatus,
        );
        const cancel = await recipient.send({
            to: ev.address,
            value: toNano('1'),
            body: beginCell()
                .storeUint(OpEvent.nativeEventCancel, 32)
                .storeUint(0, 64)
                .storeAddress(sender.address)
                .storeAddress(recipient.address)
                .storeUint(0, 128)
                .storeMaybeRef(null)
                .storeRef(beginCell().storeAddress(sender.address).endCell())
                .endCell(),
        });
        expect(cancel.transactions).toHaveTransaction({ to: ev.address, exitCode: Errors.event.wrongStatus });
        // a retry while the wallet is still locked: bounced again, held again
        const again = await stranger.send({
            to: ev.address,
            value: toNano('1'),
            body: limitActionMessage('tvmEventRetry'),
        });
        expect(again.transactions).toHaveTransaction({ to: status.walletAddress(ev.address), exitCode: 45 });
        expect(await ev.getStatus()).toBe(EventStatus.LiquidityRequested);
        expect(await ev.getHeldTokens()).toBe(DUE);
        // too little value for a provision: 2317
        expect(
            await exitOn(
                stranger.send({ to: ev.address, value: toNano('0.05'), body: limitActionMessage('tvmEventRetry') }),
                ev.address,
            ),
        ).toBe(Errors.event.tooLowMsgValue);
        // the admin frees the wallet; anyone retries: delivered, then repaid
        expectAllOk((await status.setStatus(ev.address, 0)).transactions);
        const ok = await stranger.send({
            to: ev.address,
            value: toNano('1'),
            body: limitActionMessage('tvmEventRetry'),
        });
        expectAllOk(ok.transactions);
        expect(await ev.getStatus()).toBe(EventStatus.LiquidityProvided);
        expect(await ev.getHeldTokens()).toBe(0n);
        expect(await status.balanceOf(recipient.address)).toBe(DUE);
        expect(await status.balanceOf(ev.address)).toBe(0n);
        expect(repayment(ok.transactions, ev.address)).toEqual({
            amount: AMOUNT,
            recipient: provider.address.toString(),
        });
        await expectConserved(status, [ev.address]);
    });

    it("USDT-style wallet: a provider whose own wallet may not receive: the provision delivered (LiquidityProvided, repaid); its excess, taken by the Event's wallet, bounced by the provider's and added back there, stays in the Event's wallet (as for a blacklisted recipient)", async () => {
        const { ev } = await liquidityRequested(status, true);
        // the provider's own wallet may not receive: its excess comes back to the Event's wallet
        expectAllOk((await status.setStatus(provider.address, WALLET_STATUS.receiveLocked)).transactions);
        const r = await provide(status, ev.address, DUE + 777n);
        expect(await ev.getStatus()).toBe(EventStatus.LiquidityProvided);
        expect(await status.balanceOf(recipient.address)).toBe(DUE);
        // the Event's wallet sent the excess; the provider's wallet bounced it back to the Event's
        // wallet, which adds it back and tells nobody: not held by the Event's books
        expect(r.transactions).toHaveTransaction({ to: status.walletAddress(provider.address), exitCode: 45 });
        expect(await status.balanceOf(ev.address)).toBe(777n);
        expect(await ev.getHeldTokens()).toBe(0n);
        expect(repayment(r.transactions, ev.address)).toEqual({
            amount: AMOUNT,
            recipient: provider.address.toString(),
        });
        await expectConserved(status, [ev.address]);
    });

    it("USDT-style wallet: a recipient whose wallet may not receive (blacklisted): the Event's wallet took the transfer, the recipient's wallet bounced it to the Event's wallet, which tells nobody: LiquidityProvided with the recipient unpaid, the tokens in the Event's wallet (the documented exception)", async () => {
        const { ev } = await liquidityRequested(status, true);
        expectAllOk((await status.setStatus(recipient.address, WALLET_STATUS.receiveLocked)).transactions);
        const r = await provide(status, ev.address, DUE);
        expect(r.transactions).toHaveTransaction({ to: status.walletAddress(recipient.address), exitCode: 45 });
        expect(await ev.getStatus()).toBe(EventStatus.LiquidityProvided);
        expect(await status.balanceOf(recipient.address)).toBe(0n);
        expect(await status.balanceOf(ev.address)).toBe(DUE);
        expect(await ev.getHeldTokens()).toBe(0n);
        await expectConserved(status, [ev.address]);
    });

    it("reference wallet (the root's TEP-89 answer played): every provision the Event accepts reaches the recipient through the reference wallet, around the smallest accepted value; below it the tokens go back", async () => {
        // the smallest forward TON the Event accepts, by bisection on fresh Events
        const accepted = async (forward: bigint) => {
            await blockchain.loadFrom(snapshot);
            const { ev } = await liquidityRequested(reference, true);
            const r = await provide(reference, ev.address, DUE, forward);
            return { ev, r, ok: (await ev.getStatus()) === EventStatus.LiquidityProvided };
        };
        let lo = toNano('0.05');
        let hi = toNano('0.25');
        expect((await accepted(lo)).ok).toBe(false);
        expect((await accepted(hi)).ok).toBe(true);
        while (hi - lo > toNano('0.001')) {
            const mid = (lo + hi) / 2n;
            if ((await accepted(mid)).ok) hi = mid;
            else lo = mid;
        }
        console.log(`reference wallet: the provider step accepts from ${hi} nanoton of forward TON`);
        for (const forward of [lo, hi, hi + toNano('0.001'), hi + toNano('0.05')]) {
            const { ev, r, ok } = await accepted(forward);
            // nothing is refused but the probe: no 709 at any value
            expect(r.transactions.filter((t) => (exitCodeOf(t) ?? 0) !== 0 && !isProvisionProbe(t))).toEqual([]);
            if (ok) {
                expect(await reference.balanceOf(recipient.address)).toBe(DUE);
                expect(repayment(r.transactions, ev.address)).toEqual({
                    amount: AMOUNT,
                    recipient: provider.address.toString(),
                });
            } else {
                expect(await ev.getStatus()).toBe(EventStatus.LiquidityRequested);
                expect(await reference.balanceOf(provider.address)).toBe(MINTED);
            }
            expect(await reference.balanceOf(ev.address)).toBe(0n);
            await expectConserved(reference, [ev.address]);
        }
    });

    it("a plain minter (the reference one: no TEP-89): the Event never learns its wallet; a provider's tokens come back (the Event asks the notifying wallet to return them with the notification's value; with too little, recorded for return_stranded; the Event's TON untouched); a stranger's notification gets only its own value back", async () => {
        const { ev, wallet } = await liquidityRequested(reference, false);
        // the Event's TON: what it held, less only the storage fee each of its transactions collects
        let event0 = (await blockchain.getContract(ev.address)).balance;
        const untouched = async (txs: Transaction[]) => {
            for (const t of txs)
                if (t.inMessage?.info.dest instanceof Address && t.inMessage.info.dest.equals(ev.address)) {
                    const d = t.description;
                    if (d.type === 'generic' && d.storagePhase) event0 -= d.storagePhase.storageFeesCollected;
                }
            expect((await blockchain.getContract(ev.address)).balance).toBeGreaterThanOrEqual(event0);
        };
        const r = await provide(reference, ev.address, DUE);
        expectAllOk(r.transactions);
        expect(r.transactions).toHaveTransaction({
            from: ev.address,
            to: wallet,
            op: Op.jetton.transfer,
            success: true,
        });
        expect(await reference.balanceOf(provider.address)).toBe(MINTED);
        expect(await reference.balanceOf(ev.address)).toBe(0n);
        expect(await ev.getStatus()).toBe(EventStatus.LiquidityRequested);
        await untouched(r.transactions);
        await expectConserved(reference, [ev.address]);
        // too little forward TON for the reference wallet's transfer (0.04 TON + fees): the Event
        // records them for return_stranded instead of asking (tests/event.stranded.spec.ts
        // returns them); nothing is sent to the wallet
        const poor = await provide(reference, ev.address, DUE, toNano('0.02'));
        expect(poor.transactions).not.toHaveTransaction({ from: ev.address, to: wallet });
        expect(await reference.balanceOf(ev.address)).toBe(DUE);
        expect(
            [...(await ev.getStranded()).values()].map((x) => [x.wallet.toString(), x.owner.toString(), x.amount]),
        ).toEqual([[wallet.toString(), provider.address.toString(), DUE]]);
        await untouched(poor.transactions);
        // a stranger claiming tokens: asked to send them back to itself, with its own value less fees
        const stranger0 = await stranger.getBalance();
        const fake = JettonWallet.notificationMessage({ amount: AMOUNT, from: stranger.address });
        const s = await stranger.send({ to: ev.address, value: toNano('0.3'), body: fake });
        expect(s.transactions).toHaveTransaction({ from: ev.address, to: stranger.address, op: Op.jetton.transfer });
        expect(await stranger.getBalance()).toBeLessThan(stranger0);
        await untouched(s.transactions);
        // with no tokens claimed: 2334
        const none = JettonWallet.notificationMessage({ amount: 0n, from: stranger.address });
        expect(await exitOn(stranger.send({ to: ev.address, value: toNano('0.3'), body: none }), ev.address)).toBe(
            Errors.event.senderNotEventTokenWallet,
        );
    });
});

/** the exit code of the transaction on `at` in the result */
async function exitOn(p: Promise<{ transactions: Transaction[] }>, at: Address): Promise<number | undefined> {
    const r = await p;
    const t = r.transactions.find((x) => x.inMessage?.info.dest instanceof Address && x.inMessage.info.dest.equals(at));
    return t ? exitCodeOf(t as never) : undefined;
}
