/**
 * The native proxy with a USDT-style jetton (harness/statusJetton.ts: its master freezes a wallet
 * for sending or receiving, and a frozen wallet refuses with 45) as the native token: what happens
 * to every token and every TON when a wallet refuses a transfer the bridge sent (issue 11 §1, the
 * stablecoin findings; proxy.tlb, "a transfer the wallet refuses").
 *
 * The proxy's own wallet refusing (frozen for sending): the transfer bounces to the proxy, which
 * puts back what the transfer took and tells whoever waits for it:
 * - an unlock: the liquidity, the fee and the day's count restored; the Event told
 *   (tvm_event_delivery_failed, 2715: back to Verified), with the remaining TON; delivered once the
 *   wallet is free again;
 * - a refund of a refused lock and a claim_refund: recorded (again) for claim_refund;
 * - withdraw_fees, withdraw_liquidity: back to the fees, the liquidity.
 * The recipient's wallet refusing (frozen for receiving): its bounce goes to the proxy's wallet,
 * which adds the amount back and tells nobody (the TEP-74 rule): the proxy cannot see it. Shown
 * as it is: the tokens are in the proxy's wallet, above its books by what was sent.
 *
 * A stranger cannot touch a transfer's record: the refund of its notification (unknown wallet)
 * goes back to it bounceable with the query_id it chose; its bounce is not read (only the proxy's
 * own wallets' bounces are), so the transfer's own bounce still finds its record.
 *
 * The Event is played by a treasury (`event`), as the configuration is: the Event's own handling
 * of tvm_event_delivery_failed is in the lifecycle specs.
 */
import {
    Blockchain,
    BlockchainTransaction,
    internal,
    SandboxContract,
    SendMessageResult,
    TreasuryContract,
} from '@ton/sandbox';
import { Address, Cell, Message, toNano } from '@ton/core';
import { flattenTransaction } from '@ton/test-utils';
import '@ton/test-utils';
import {
    onTvmEventConfirmedExtendedMessage,
    ProxyMessages,
    ProxyMultiVaultNative,
    transferPayloadCell,
    tvmTvmEventCell,
} from '../wrappers/ProxyMultiVaultNative';
import { JettonWallet } from '../wrappers/JettonWallet';
import { Errors, Op } from '../wrappers/constants';
import { parseTvmEventDeliveryFailed } from '../wrappers/tvmTvmEvent';
import { StatusJetton, WALLET_STATUS } from '../harness/statusJetton';
import { exitCode, txOf } from './proxy.util';

const TOKEN = { name: 'Status Token', symbol: 'USDS', decimals: 6 };
const SRC_CHAIN = -239;
const DST_CHAIN = 2000;
const MINTED = 1_000_000_000n;
const LIMIT = 1_000_000n;

describe('Native proxy with a USDT-style jetton (frozen and blacklisted wallets)', () => {
    let blockchain: Blockchain;
    let owner: SandboxContract<TreasuryContract>;
    let alice: SandboxContract<TreasuryContract>;
    let bob: SandboxContract<TreasuryContract>;
    let config: SandboxContract<TreasuryContract>;
    let event: SandboxContract<TreasuryContract>;
    let jetton: StatusJetton;
    let proxy: SandboxContract<ProxyMultiVaultNative>;
    let proxyWallet: Address;

    const lock = (amount: bigint, forwardTonAmount = toNano('0.2')) =>
        jetton.wallet(alice.address).sendTransfer(alice.getSender(), {
            to: proxy.address,
            amount,
            responseDestination: alice.address,
            forwardTonAmount,
            forwardPayload: transferPayloadCell({
                destinationChainId: DST_CHAIN,
                recipient: bob.address,
                expectedGas: 0n,
                remainingGasTo: alice.address,
                payload: null,
            }),
        });

    const unlockEvent = (amount: bigint, recipient: Address) =>
        tvmTvmEventCell({
            kind: 'alien',
            destinationChainId: DST_CHAIN,
            amount,
            recipient,
            value: toNano('0.1'),
            expectedGas: 0n,
            token: { token: jetton.minter, nativeProxyWallet: proxyWallet, ...TOKEN, decimals: BigInt(TOKEN.decimals) },
            transfer: { sender: alice.address, remainingGasTo: alice.address, payload: null },
        });

    /** the configuration confirms an event whose Event is `event` */
    const confirm = (ev: Cell, value = toNano('0.2')) =>
        proxy.sendBody(
            config.getSender(),
            onTvmEventConfirmedExtendedMessage({
                eventAddress: event.address,
                msgHash: 0xabcdef0123456789n,
                chainId: SRC_CHAIN,
                configuration: config.address,
                remainingGasTo: event.address,
                event: ev,
            }),
            value,
        );

    /** the configuration's confirmation of an unlock of 1,000 to bob, as a message (to be stepped through) */
    const unlockConfirmation = () =>
        internal({
            from: config.address,
            to: proxy.address,
            value: toNano('0.2'),
            body: onTvmEventConfirmedExtendedMessage({
                eventAddress: event.address,
                msgHash: 0xabcdef0123456789n,
                chainId: SRC_CHAIN,
                configuration: config.address,
                remainingGasTo: event.address,
                event: unlockEvent(1000n, bob.address),
            }),
        });

    /** the query_id the proxy sent its wallet a transfer with, in `r` */
    function transferQueryId(r: SendMessageResult): bigint {
        const t = txOf(r.transactions, proxyWallet, Op.jetton.transfer);
        const s = t.inMessage!.body.beginParse();
        s.loadUint(32);
        return s.loadUintBig(64);
    }

    async function books() {
        return {
            liquidity: await proxy.getLiquidity(jetton.minter),
            fees: await proxy.getAccumulatedFees(jetton.minter),
            refunds: await proxy.getRefundOf(proxyWallet, alice.address),
            used: (await proxy.getDailyLimit(jetton.minter))?.used ?? 0n,
        };
    }

    /** liquidity + fees + recorded refunds = the proxy's wallet, less `surplus` the proxy cannot see */
    async function expectBooksMatch(surplus = 0n) {
        const b = await books();
        expect(await jetton.balanceOf(proxy.address)).toBe(b.liquidity + b.fees + b.refunds + surplus);
    }

    async function expectConserved() {
        let sum = 0n;
        for (const h of [alice.address, bob.address, owner.address, proxy.address]) sum += await jetton.balanceOf(h);
        expect(sum).toBe(jetton.minted);
    }

    beforeEach(async () => {
        blockchain = await Blockchain.create();
        owner = await blockchain.treasury('owner');
        alice = await blockchain.treasury('alice');
        bob = await blockchain.treasury('bob');
        config = await blockchain.treasury('configuration');
        event = await blockchain.treasury('event');
        jetton = StatusJetton.create(blockchain, await blockchain.treasury('stablecoin admin'));
        await jetton.mint(alice.address, MINTED);
        expect(await jetton.balanceOf(alice.address)).toBe(MINTED);

        proxy = blockchain.openContract(
            await ProxyMultiVaultNative.createFromConfig({
                owner: owner.address,
                tvmConfigurations: [config.address],
                tvmChains: [DST_CHAIN],
            }),
        );
        await proxy.sendDeploy(owner.getSender());
        proxyWallet = jetton.walletAddress(proxy.address);
        await proxy.sendRegisterNativeToken(owner.getSender(), { token: jetton.minter, wallet: proxyWallet, ...TOKEN });
        expect(await proxy.getWalletOf(jetton.minter)).toEqualAddress(proxyWallet);
        // 10,000 locked: the liquidity; a fee of 1/10 and a daily limit on incoming transfers
        await lock(10_000n);
        await proxy.sendBody(owner.getSender(), ProxyMessages.setDefaultFee(1n, 10n));
        await proxy.sendBody(owner.getSender(), ProxyMessages.setDailyLimit(jetton.minter, LIMIT));
        expect(await proxy.getLiquidity(jetton.minter)).toBe(10_000n);
        await expectBooksMatch();
    });

    it("an unlock the proxy's frozen wallet refuses (45): the liquidity, the fee and the day's count restored, the Event told (2715) with the TON; delivered once the wallet is free", async () => {
        const before = await books();
        await jetton.setStatus(proxy.address, WALLET_STATUS.sendLocked);
        expect(await jetton.statusOf(proxy.address)).toBe(WALLET_STATUS.sendLocked);
        const eventTon = await event.getBalance();

        const r = await confirm(unlockEvent(1000n, bob.address));
        // the wallet refused with 45 and bounced; the proxy took the bounce
        expect(exitCode(txOf(r.transactions, proxyWallet, Op.jetton.transfer))).toBe(45);
        const q = transferQueryId(r);
        expect(r.transactions).toHaveTransaction({
            from: proxyWallet,
            to: proxy.address,
            inMessageBounced: true,
            success: true,
        });
        // the Event is told, with what is left of the value
        const told = r.transactions.find(
            (t) =>
                t.inMessage?.info.type === 'internal' &&
                t.inMessage.info.src.equals(proxy.address) &&
                t.inMessage.info.dest.equals(event.address),
        )!;
        const failed = parseTvmEventDeliveryFailed(told.inMessage!.body)!;
        expect(failed.errorCode).toBe(Errors.proxy.transferRefused);
        expect(failed.queryId).toBe(q);
        expect(failed.remainingGasTo).toEqualAddress(event.address);
        const back = told.inMessage!.info.type === 'internal' ? told.inMessage!.info.value.coins : 0n;
        expect(back).toBeGreaterThan(toNano('0.15'));
        expect(await event.getBalance()).toBeGreaterThan(eventTon - toNano('0.2') + toNano('0.15') - toNano('0.01'));
        // nothing left: bob has nothing, the books are as before, the record is gone
        expect(await jetton.balanceOf(bob.address)).toBe(0n);
        expect(await books()).toEqual(before);
        expect(await proxy.getInFlight(q)).toBeNull();
        await expectBooksMatch();
        await expectConserved();

        // the admin frees the wallet: the same confirmation (the Event's retry) delivers
        await jetton.setStatus(proxy.address, 0);
        const again = await confirm(unlockEvent(1000n, bob.address));
        expect(again.transactions).not.toHaveTransaction({ to: proxy.address, inMessageBounced: true });
        expect(await jetton.balanceOf(bob.address)).toBe(900n);
        expect(await books()).toEqual({
            ...before,
            liquidity: before.liquidity - 1000n,
            fees: before.fees + 100n,
            used: before.used + 1000n,
        });
        // the delivered transfer's record waits out the bounce window
        expect(await proxy.getInFlight(transferQueryId(again))).not.toBeNull();
        await expectBooksMatch();
        await expectConserved();
    });

    it("an unlock's bounce that comes after the owner withdrew its fee (the wallet freed in the seconds between): the Event still told (2715), only what is left of the fee back to the liquidity, the books what the wallet holds", async () => {
        await jetton.setStatus(proxy.address, WALLET_STATUS.sendLocked);
        const before = await books();
        const iter = await blockchain.sendMessageIter(unlockConfirmation(), { allowParallel: true });
        const txs: BlockchainTransaction[] = [];
        let raced = false;
        for await (const t of iter) {
            txs.push(t);
            if (!raced && t.inMessage?.info.dest?.toString() === proxyWallet.toString()) {
                // the wallet refused (45); before its bounce reaches the proxy, the admin frees the
                // wallet and the owner withdraws the fees, this unlock's 100 among them
                raced = true;
                expect(exitCode(t)).toBe(45);
                expect(await proxy.getAccumulatedFees(jetton.minter)).toBe(100n);
                await jetton.setStatus(proxy.address, 0);
                const w = await proxy.sendBody(
                    owner.getSender(),
                    ProxyMessages.withdrawFees(jetton.minter, 100n, owner.address),
                    toNano('0.2'),
                );
                expect(w.transactions).not.toHaveTransaction({ success: false });
                expect(await jetton.balanceOf(owner.address)).toBe(100n);
            }
        }
        expect(raced).toBe(true);
        const bounce = txs.find((t) => t.inMessage?.info.type === 'internal' && t.inMessage.info.bounced)!;
        expect(exitCode(bounce)).toBe(0);
        const told = txs.find(
            (t) =>
                t.inMessage?.info.type === 'internal' &&
                t.inMessage.info.src.equals(proxy.address) &&
                t.inMessage.info.dest.equals(event.address),
        )!;
        expect(parseTvmEventDeliveryFailed(told.inMessage!.body)!.errorCode).toBe(Errors.proxy.transferRefused);
        // the fee was paid out: the liquidity gets back the 900 the wallet got back, not the 1,000
        expect(await books()).toEqual({ ...before, liquidity: before.liquidity - 100n, fees: 0n });
        await expectBooksMatch();
        await expectConserved();
    });

    it('a refund of a refused lock that the frozen wallet refuses: recorded for claim_refund; refused again, recorded again; claimed once the wallet is free', async () => {
        await proxy.sendBody(owner.getSender(), ProxyMessages.setPaused(true));
        await jetton.setStatus(proxy.address, WALLET_STATUS.sendLocked);
        const r = await lock(300n);
        expect(exitCode(txOf(r.transactions, proxyWallet, Op.jetton.transfer))).toBe(45);
        expect(r.transactions).toHaveTransaction({
            from: proxyWallet,
            to: proxy.address,
            inMessageBounced: true,
            success: true,
        });
        expect(await jetton.balanceOf(alice.address)).toBe(MINTED - 10_000n - 300n);
        expect(await proxy.getRefundOf(proxyWallet, alice.address)).toBe(300n);
        await expectBooksMatch();
        await expectConserved();

        // claim_refund while still frozen: the record is taken, the transfer bounces, recorded again
        const c1 = await proxy.sendBody(alice.getSender(), ProxyMessages.claimRefund(proxyWallet), toNano('0.2'));
        expect(exitCode(txOf(c1.transactions, proxyWallet, Op.jetton.transfer))).toBe(45);
        expect(await proxy.getRefundOf(proxyWallet, alice.address)).toBe(300n);
        await expectBooksMatch();

        await jetton.setStatus(proxy.address, 0);
        const c2 = await proxy.sendBody(alice.getSender(), ProxyMessages.claimRefund(proxyWallet), toNano('0.2'));
        expect(c2.transactions).not.toHaveTransaction({ to: proxy.address, inMessageBounced: true });
        expect(await jetton.balanceOf(alice.address)).toBe(MINTED - 10_000n);
        expect(await proxy.getRefundOf(proxyWallet, alice.address)).toBe(0n);
        await expectBooksMatch();
        await expectConserved();
    });

    it('withdraw_fees and withdraw_liquidity the frozen wallet refuses: back to the fees and the liquidity; paid once free', async () => {
        await confirm(unlockEvent(1000n, bob.address));
        expect(await proxy.getAccumulatedFees(jetton.minter)).toBe(100n);
        await jetton.setStatus(proxy.address, WALLET_STATUS.sendLocked);
        const before = await books();
        const sends: [string, () => Promise<SendMessageResult>][] = [
            [
                'withdraw_fees',
                () =>
                    proxy.sendBody(
                        owner.getSender(),
                        ProxyMessages.withdrawFees(jetton.minter, 100n, owner.address),
                        toNano('0.2'),
                    ),
            ],
            [
                'withdraw_liquidity',
                () =>
                    proxy.sendBody(
                        owner.getSender(),
                        ProxyMultiVaultNative.withdrawLiquidityMessage(jetton.minter, 500n, owner.address),
                        toNano('0.2'),
                    ),
            ],
        ];
        for (const [name, send] of sends) {
            const r = await send();
            expect({ name, exit: exitCode(txOf(r.transactions, proxyWallet, Op.jetton.transfer)) }).toEqual({
                name,
                exit: 45,
            });
            expect(await books()).toEqual(before);
            await expectBooksMatch();
        }
        await jetton.setStatus(proxy.address, 0);
        for (const [, send] of sends) await send();
        expect(await jetton.balanceOf(owner.address)).toBe(600n);
        expect(await books()).toEqual({ ...before, fees: 0n, liquidity: before.liquidity - 500n });
        await expectBooksMatch();
        await expectConserved();
    });

    it("a recipient whose wallet may not receive (blacklisted): its wallet bounces to the proxy's wallet, which adds the amount back and tells nobody; the proxy's books are short of its wallet by what was sent (not detectable on chain)", async () => {
        await jetton.mint(bob.address, 1n); // bob's wallet exists
        await jetton.setStatus(bob.address, WALLET_STATUS.receiveLocked);
        const before = await books();
        const r = await confirm(unlockEvent(1000n, bob.address));
        // the proxy's wallet sent; bob's wallet refused with 45; the bounce went to the proxy's wallet
        expect(r.transactions).toHaveTransaction({
            from: proxyWallet,
            to: jetton.walletAddress(bob.address),
            op: Op.jetton.internalTransfer,
            success: false,
            exitCode: 45,
        });
        expect(r.transactions).toHaveTransaction({
            from: jetton.walletAddress(bob.address),
            to: proxyWallet,
            inMessageBounced: true,
            success: true,
        });
        expect(r.transactions).not.toHaveTransaction({ to: proxy.address, inMessageBounced: true });
        expect(r.transactions).not.toHaveTransaction({ from: proxy.address, to: event.address });
        expect(await jetton.balanceOf(bob.address)).toBe(1n);
        // the proxy took the unlock (liquidity - 1000, fees + 100): the wallet holds 900 it cannot see
        expect(await books()).toEqual({
            ...before,
            liquidity: before.liquidity - 1000n,
            fees: before.fees + 100n,
            used: before.used + 1000n,
        });
        await expectBooksMatch(900n);
        await expectConserved();
    });

    /**
     * An unlock of 1000 to bob confirmed to the proxy, run up to its wallet's transaction (which
     * refuses while the wallet is send-locked); the bounce it sends back is held (on its way: the
     * messages left in this queue are never run). The refusing transaction, the held bounce and
     * the query_id it carries.
     */
    const heldUnlockBounce = async (): Promise<{ refusal: BlockchainTransaction; held: Message; q: bigint }> => {
        const iter = await blockchain.sendMessageIter(unlockConfirmation(), { allowParallel: true });
        for await (const t of iter) {
            if (flattenTransaction(t).to?.equals(proxyWallet)) {
                const held = t.outMessages.get(0)!;
                const s = held.body.beginParse();
                s.loadUint(32);
                s.loadUint(32);
                return { refusal: t, held, q: s.loadUintBig(64) };
            }
        }
        throw new Error("the unlock never reached the proxy's wallet");
    };

    it('a bounce that comes after the bounce window (held back here): its record was dropped as later transfers went out; the tokens are taken back as liquidity, the books match', async () => {
        const t0 = Math.floor(Date.now() / 1000);
        blockchain.now = t0;
        await jetton.setStatus(proxy.address, WALLET_STATUS.sendLocked);
        const before = await books();
        // the confirmation runs up to the wallet's refusal; its bounce is held back
        // (a queue of its own: the messages left in it are never run, as a bounce still on its way)
        const { refusal, held, q } = await heldUnlockBounce();
        expect(exitCode(refusal)).toBe(45);
        expect(held.info.type === 'internal' && held.info.bounced).toBe(true);
        expect(await proxy.getInFlight(q)).not.toBeNull();
        expect(await proxy.getLiquidity(jetton.minter)).toBe(before.liquidity - 1000n);

        // an hour later the wallet is free; the next transfer drops the old record
        blockchain.now = t0 + 3601;
        await jetton.setStatus(proxy.address, 0);
        const later = await confirm(unlockEvent(1000n, bob.address));
        expect(await proxy.getInFlight(q)).toBeNull();
        expect(await proxy.getInFlight(transferQueryId(later))).not.toBeNull();
        expect(await jetton.balanceOf(bob.address)).toBe(900n);

        // the held bounce arrives: no record, so no Event to tell; the 900 the transfer carried are
        // liquidity again (its fee stays a fee); the books match the wallet
        const r = await blockchain.sendMessage(held);
        expect(r.transactions).toHaveTransaction({ to: proxy.address, inMessageBounced: true, success: true });
        expect(r.transactions).not.toHaveTransaction({ from: proxy.address, to: event.address });
        expect(await proxy.getLiquidity(jetton.minter)).toBe(before.liquidity - 2000n + 900n);
        await expectBooksMatch();
        await expectConserved();
    });
    it("a stranger's bounce cannot take a transfer's record: the refund of its notification goes back to it bounceable with the query_id it chose (an unlock's, held back here), it refuses it; the unlock's own bounce still finds its record: the Event told (2715), the books restored", async () => {
        await jetton.setStatus(proxy.address, WALLET_STATUS.sendLocked);
        const before = await books();
        // the confirmation runs up to the wallet's refusal; its bounce is held back (on its way)
        const { held, q } = await heldUnlockBounce();
        expect(await proxy.getInFlight(q)).not.toBeNull();
        // the stranger: a notification naming that query_id, from an address where nothing takes the
        // proxy's answer (no contract here; any contract that throws does the same)
        const forger = new Address(0, Buffer.alloc(32, 0x5a));
        const f = await blockchain.sendMessage(
            internal({
                from: forger,
                to: proxy.address,
                value: toNano('0.5'),
                body: JettonWallet.notificationMessage({ queryId: q, amount: 1000n, from: forger }),
            }),
        );
        expect(f.transactions).toHaveTransaction({ from: proxy.address, to: forger, op: Op.jetton.transfer });
        expect(f.transactions).toHaveTransaction({ from: forger, to: proxy.address, inMessageBounced: true });
        // the record is still there
        expect(await proxy.getInFlight(q)).not.toBeNull();
        // the unlock's bounce arrives: the Event is told, what the unlock took is back
        const r = await blockchain.sendMessage(held);
        const told = r.transactions.find(
            (t) =>
                t.inMessage?.info.type === 'internal' &&
                t.inMessage.info.src.equals(proxy.address) &&
                t.inMessage.info.dest.equals(event.address),
        );
        expect(told).toBeDefined();
        expect(parseTvmEventDeliveryFailed(told!.inMessage!.body)!.errorCode).toBe(Errors.proxy.transferRefused);
        expect(await proxy.getInFlight(q)).toBeNull();
        expect(await books()).toEqual(before);
        expect(await jetton.balanceOf(bob.address)).toBe(0n);
        await expectBooksMatch();
        await expectConserved();
    });
});
