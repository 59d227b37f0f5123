import { Blockchain, SandboxContract, SendMessageResult, TreasuryContract } from '@ton/sandbox';
import { Address, beginCell, Cell, Dictionary, toNano, Transaction } from '@ton/core';
import { flattenTransaction } from '@ton/test-utils';
import '@ton/test-utils';
import { JettonMinter } from '../wrappers/JettonMinter';
import { JettonWallet, loadJettonNotification } from '../wrappers/JettonWallet';
import {
    emittedEvents,
    onTvmEventConfirmedExtendedMessage,
    ProxyMessages,
    ProxyMultiVaultNative,
    transferPayloadCell,
    TransferPayloadArgs,
    tvmTvmEventCell,
} from '../wrappers/ProxyMultiVaultNative';
import { Errors, Op, OpEvent } from '../wrappers/constants';
import { MIN_LOCK_FORWARD_TON } from '../harness/actors';
import {
    allSucceeded,
    deliveredBy,
    exitCode,
    expectDeliveryRefused,
    gasUsed,
    longPayload,
    pinGas,
    proxyGasConstants,
    refundCodeTo,
    scaleGasPrice,
    smallestAccepted,
    txOf,
    ZERO_ADDRESS,
} from './proxy.util';
import { beforeEachDeployedOnce } from './snapshot.util';

/**
 * ProxyMultiVaultNative (contracts/bridge/proxy_native.tact), one network, the real jetton as the
 * native token. What these tests hold:
 * - registration: TEP-89 discovery of the proxy's wallet (answer accepted only from the root), or
 *   a wallet given by the owner;
 * - lock: a transfer with a TransferPayload keeps the tokens in the proxy's wallet and emits
 *   TvmTvmNative as an external message with no destination, laid out per bridge.tlb;
 * - nothing lost: paused (2702), malformed or missing payload (2704), non-basechain recipient
 *   (2705), unregistered token (2708), too little value (2713) send the tokens back with the code in
 *   the forward payload; with too little TON even for that, the refund is recorded and claimable;
 * - unlock: only from an allowed configuration (TvmTvmAlien) or the alien proxy (TvmTvmNative),
 *   with exact codes 2710, 2702, 2703, 2708, 2704, 2705, 2713; amount - fee reaches the recipient,
 *   the event payload with it; the smallest accepted value completes the chain (gas price x1, x4);
 * - fees: setters validate (2704) and are owner-only (132); fees accumulate and are withdrawn;
 * - gas: the constants of proxy_common.tact cover what their tests measure (within 15%).
 */
const TOKEN = { name: 'Native Token', symbol: 'NAT', decimals: 9 };
const SRC_CHAIN = -239;
const DST_CHAIN = -3;

describe('ProxyMultiVaultNative', () => {
    let blockchain: Blockchain;
    let owner: SandboxContract<TreasuryContract>;
    let alice: SandboxContract<TreasuryContract>;
    let bob: SandboxContract<TreasuryContract>;
    let config: SandboxContract<TreasuryContract>;
    let alienProxy: SandboxContract<TreasuryContract>;
    let tokenOwner: SandboxContract<TreasuryContract>;
    let minter: SandboxContract<JettonMinter>;
    let proxy: SandboxContract<ProxyMultiVaultNative>;
    let proxyWallet: SandboxContract<JettonWallet>;

    const walletOf = async (who: Address, m: Address = minter.address) =>
        blockchain.openContract(await JettonWallet.createFromOwner(who, m));
    const balanceOf = async (who: Address, m: Address = minter.address) => (await walletOf(who, m)).getJettonBalance();

    const payloadArgs = (over: Partial<TransferPayloadArgs> = {}): TransferPayloadArgs => ({
        destinationChainId: DST_CHAIN,
        recipient: bob.address,
        expectedGas: 0n,
        remainingGasTo: alice.address,
        payload: null,
        ...over,
    });

    /** The sandbox network's global id (ConfigParam 19). */
    const ownGlobalId = async () => {
        const cfg = Dictionary.loadDirect(
            Dictionary.Keys.Int(32),
            Dictionary.Values.Cell(),
            Cell.fromBase64(blockchain.config.toBoc().toString('base64')),
        );
        return cfg.get(19)!.beginParse().loadInt(32);
    };

    /** alice -> proxy: jetton transfer with `forwardPayload` (a TransferPayload by default). */
    const lock = async (
        amount: bigint,
        opts: { forwardTonAmount?: bigint; forwardPayload?: Cell | null; inline?: boolean; m?: Address } = {},
    ) => {
        const w = await walletOf(alice.address, opts.m);
        return w.sendTransfer(alice.getSender(), {
            to: proxy.address,
            amount,
            responseDestination: alice.address,
            forwardTonAmount: opts.forwardTonAmount ?? toNano('0.1'),
            forwardPayload:
                opts.forwardPayload === undefined ? transferPayloadCell(payloadArgs()) : opts.forwardPayload,
            forwardPayloadInline: opts.inline,
        });
    };

    /** The event cell an allowed configuration would forward (TvmTvmAlien: burned elsewhere, unlock here). */
    const alienEvent = (
        over: {
            amount?: bigint;
            recipient?: Address;
            token?: Address;
            wallet?: Address | null;
            payload?: Cell | null;
            kind?: 'native' | 'alien';
        } = {},
    ) =>
        tvmTvmEventCell({
            kind: over.kind ?? 'alien',
            destinationChainId: DST_CHAIN,
            amount: over.amount ?? 1000n,
            recipient: over.recipient ?? bob.address,
            value: toNano('0.1'),
            expectedGas: 0n,
            token: {
                token: over.token ?? minter.address,
                nativeProxyWallet: over.wallet === undefined ? proxyWallet.address : over.wallet,
                ...TOKEN,
                decimals: BigInt(TOKEN.decimals),
            },
            transfer: { sender: alice.address, remainingGasTo: alice.address, payload: over.payload ?? null },
        });

    const confirm = async (from: SandboxContract<TreasuryContract>, event: Cell, value = toNano('0.2')) =>
        proxy.sendBody(
            from.getSender(),
            onTvmEventConfirmedExtendedMessage({
                eventAddress: from.address,
                msgHash: 0x1234567890abcdefn,
                chainId: SRC_CHAIN,
                configuration: config.address,
                remainingGasTo: owner.address,
                event,
            }),
            value,
        );

    // deployed once; every test starts from that state (beforeEachDeployedOnce)
    beforeEachDeployedOnce(async () => {
        blockchain = await Blockchain.create();
        owner = await blockchain.treasury('owner');
        alice = await blockchain.treasury('alice');
        bob = await blockchain.treasury('bob');
        config = await blockchain.treasury('configuration');
        alienProxy = await blockchain.treasury('alien proxy');
        tokenOwner = await blockchain.treasury('token owner');
        minter = blockchain.openContract(
            await JettonMinter.createFromConfig({ owner: tokenOwner.address, content: TOKEN }),
        );
        await minter.sendDeploy(tokenOwner.getSender());
        await minter.sendMint(tokenOwner.getSender(), { to: alice.address, amount: 1_000_000n });

        proxy = blockchain.openContract(
            await ProxyMultiVaultNative.createFromConfig({
                owner: owner.address,
                tvmConfigurations: [config.address],
                alienProxy: alienProxy.address,
                tvmChains: [DST_CHAIN],
            }),
        );
        const dep = await proxy.sendDeploy(owner.getSender());
        expect(dep.transactions).toHaveTransaction({ to: proxy.address, deploy: true, success: true });
        const reg = await proxy.sendRegisterNativeToken(owner.getSender(), { token: minter.address, ...TOKEN });
        expect(reg.transactions).toHaveTransaction({
            from: proxy.address,
            to: minter.address,
            op: Op.jetton.provideWalletAddress,
            success: true,
        });
        expect(reg.transactions).toHaveTransaction({
            from: minter.address,
            to: proxy.address,
            op: Op.jetton.takeWalletAddress,
            success: true,
        });
        proxyWallet = await walletOf(proxy.address);
        return blockchain;
    });

    describe('registration', () => {
        it('should learn its wallet by TEP-89 and keep wallet -> root', async () => {
            expect((await proxy.getWalletOf(minter.address))!.equals(proxyWallet.address)).toBe(true);
            expect((await proxy.getTokenOfWallet(proxyWallet.address))!.equals(minter.address)).toBe(true);
            const t = (await proxy.getNativeToken(minter.address))!;
            expect({ name: t.name, symbol: t.symbol, decimals: Number(t.decimals) }).toEqual(TOKEN);
        });

        it('should take a wallet given by the owner, refuse others (132), a zero root (2703), a stray take_wallet_address (2708)', async () => {
            const other = blockchain.openContract(
                await JettonMinter.createFromConfig({ owner: tokenOwner.address, content: { ...TOKEN, name: 'B' } }),
            );
            const w = await walletOf(proxy.address, other.address);
            let res = await proxy.sendRegisterNativeToken(alice.getSender(), {
                token: other.address,
                wallet: w.address,
                ...TOKEN,
            });
            expect(res.transactions).toHaveTransaction({
                to: proxy.address,
                success: false,
                exitCode: Errors.proxy.notOwner,
            });
            res = await proxy.sendRegisterNativeToken(owner.getSender(), {
                token: ZERO_ADDRESS,
                wallet: w.address,
                ...TOKEN,
            });
            expect(res.transactions).toHaveTransaction({
                to: proxy.address,
                success: false,
                exitCode: Errors.proxy.proxyTokenRootIsEmpty,
            });
            res = await proxy.sendRegisterNativeToken(owner.getSender(), {
                token: other.address,
                wallet: w.address,
                ...TOKEN,
            });
            expect(res.transactions).toHaveTransaction({ to: proxy.address, success: true });
            expect((await proxy.getTokenOfWallet(w.address))!.equals(other.address)).toBe(true);
            // take_wallet_address from someone who is not a pending root
            res = await proxy.sendBody(
                alice.getSender(),
                beginCell()
                    .storeUint(Op.jetton.takeWalletAddress, 32)
                    .storeUint(0, 64)
                    .storeAddress(alice.address)
                    .storeBit(false)
                    .endCell(),
            );
            expect(res.transactions).toHaveTransaction({
                to: proxy.address,
                success: false,
                exitCode: Errors.proxy.wrongTokenRoot,
            });
        });
    });

    describe('lock (outgoing)', () => {
        it('should keep the tokens and emit TvmTvmNative as an external message with no destination', async () => {
            const userPayload = beginCell().storeUint(0xcafe, 16).endCell();
            const res = await lock(500n, {
                forwardPayload: transferPayloadCell(payloadArgs({ expectedGas: toNano('0.01'), payload: userPayload })),
            });
            const tx = txOf(res.transactions, proxy.address, Op.jetton.transferNotification);
            expect(exitCode(tx)).toBe(0);
            const events = emittedEvents(tx.outMessages.values());
            expect(events).toHaveLength(1);
            expect(tx.outMessages.size).toBe(1);
            const { message, event } = events[0];
            expect(message.info.type).toBe('external-out');
            if (message.info.type === 'external-out') expect(message.info.dest).toBeNull();
            expect(event.kind).toBe('native');
            expect(event.destinationChainId).toBe(DST_CHAIN);
            expect(event.amount).toBe(500n);
            expect(event.recipient.equals(bob.address)).toBe(true);
            expect(event.expectedGas).toBe(toNano('0.01'));
            expect(event.value).toBeGreaterThan(toNano('0.08'));
            expect(event.value).toBeLessThan(toNano('0.1'));
            expect(event.token.token.equals(minter.address)).toBe(true);
            expect(event.token.nativeProxyWallet!.equals(proxyWallet.address)).toBe(true);
            expect([event.token.name, event.token.symbol, Number(event.token.decimals)]).toEqual([
                TOKEN.name,
                TOKEN.symbol,
                TOKEN.decimals,
            ]);
            expect(event.transfer.sender.equals(alice.address)).toBe(true);
            expect(event.transfer.remainingGasTo.equals(alice.address)).toBe(true);
            expect(event.transfer.payload!.equals(userPayload)).toBe(true);
            expect(await proxyWallet.getJettonBalance()).toBe(500n);
            expect(await balanceOf(alice.address)).toBe(1_000_000n - 500n);
        });

        const refused: [string, number, () => Promise<Cell | null>, (() => Promise<void>)?][] = [
            [
                'paused',
                Errors.proxy.proxyPaused,
                async () => transferPayloadCell(payloadArgs()),
                async () => {
                    await proxy.sendBody(owner.getSender(), ProxyMessages.setPaused(true));
                },
            ],
            ['missing payload', Errors.proxy.wrongTokensAmountInPayload, async () => null],
            [
                'malformed payload',
                Errors.proxy.wrongTokensAmountInPayload,
                async () => beginCell().storeUint(1, 100).endCell(),
            ],
            [
                'payload with trailing data',
                Errors.proxy.wrongTokensAmountInPayload,
                async () =>
                    beginCell().storeSlice(transferPayloadCell(payloadArgs()).beginParse()).storeUint(1, 1).endCell(),
            ],
            [
                'recipient outside the basechain',
                Errors.proxy.wrongOwnerInPayload,
                async () => transferPayloadCell(payloadArgs({ recipient: new Address(-1, bob.address.hash) })),
            ],
            [
                'destination chain id of this network itself (issue 11 §4: no configuration delivers it)',
                Errors.eventConfiguration.wrongDestinationChainId,
                async () => transferPayloadCell(payloadArgs({ destinationChainId: await ownGlobalId() })),
            ],
            [
                'destination chain id of this network itself, even when listed',
                Errors.eventConfiguration.wrongDestinationChainId,
                async () => transferPayloadCell(payloadArgs({ destinationChainId: await ownGlobalId() })),
                async () => {
                    await proxy.sendBody(owner.getSender(), ProxyMessages.setTvmTvmChain(await ownGlobalId(), true));
                    expect(await proxy.getTvmTvmChain(BigInt(await ownGlobalId()))).toBe(true);
                },
            ],
            [
                'destination chain id no configured network serves (issue 11 §4: not listed by set_tvm_tvm_chain)',
                Errors.eventConfiguration.wrongDestinationChainId,
                async () => transferPayloadCell(payloadArgs({ destinationChainId: DST_CHAIN - 1 })),
            ],
            [
                'destination chain id removed from the list (set_tvm_tvm_chain, allowed = false)',
                Errors.eventConfiguration.wrongDestinationChainId,
                async () => transferPayloadCell(payloadArgs()),
                async () => {
                    await proxy.sendBody(owner.getSender(), ProxyMessages.setTvmTvmChain(DST_CHAIN, false));
                    expect(await proxy.getTvmTvmChain(BigInt(DST_CHAIN))).toBe(false);
                },
            ],
            [
                'expected_gas above the value',
                Errors.proxy.lowMsgValue,
                async () => transferPayloadCell(payloadArgs({ expectedGas: toNano('0.1') })),
            ],
        ];
        for (const [name, code, payload, before] of refused) {
            it(`should send the tokens back with code ${code}: ${name}`, async () => {
                await before?.();
                const aliceWallet = await walletOf(alice.address);
                const res = await lock(300n, { forwardPayload: await payload() });
                const tx = txOf(res.transactions, proxy.address, Op.jetton.transferNotification);
                expect(exitCode(tx)).toBe(0);
                expect(emittedEvents(tx.outMessages.values())).toHaveLength(0);
                expect(refundCodeTo(res.transactions, aliceWallet.address)).toBe(code);
                expect(res.transactions).toHaveTransaction({
                    from: aliceWallet.address,
                    to: alice.address,
                    op: Op.jetton.excesses,
                });
                expect(allSucceeded(res.transactions)).toBe(true);
                expect(await balanceOf(alice.address)).toBe(1_000_000n);
                expect(await proxyWallet.getJettonBalance()).toBe(0n);
            });
        }

        it('set_tvm_tvm_chain: the owner only (a stranger: 132); a newly listed network takes locks, every token and TON accounted', async () => {
            const other = DST_CHAIN - 7;
            const r = await proxy.sendBody(alice.getSender(), ProxyMessages.setTvmTvmChain(other, true));
            expect(r.transactions).toHaveTransaction({
                from: alice.address,
                to: proxy.address,
                success: false,
                exitCode: 132,
            });
            expect(await proxy.getTvmTvmChain(BigInt(other))).toBe(false);
            // refused while not listed: the tokens back to alice, nothing emitted, the proxy's books unchanged
            const aliceWallet = await walletOf(alice.address);
            const before = await proxy.getLiquidity(minter.address);
            const refusedLock = await lock(300n, {
                forwardPayload: transferPayloadCell(payloadArgs({ destinationChainId: other })),
            });
            const tx = txOf(refusedLock.transactions, proxy.address, Op.jetton.transferNotification);
            expect(emittedEvents(tx.outMessages.values())).toHaveLength(0);
            expect(refundCodeTo(refusedLock.transactions, aliceWallet.address)).toBe(
                Errors.eventConfiguration.wrongDestinationChainId,
            );
            expect(await balanceOf(alice.address)).toBe(1_000_000n);
            expect(await proxyWallet.getJettonBalance()).toBe(0n);
            expect(await proxy.getLiquidity(minter.address)).toBe(before);
            // listed by the owner (the rest of the value back): the same lock is taken
            const set = await proxy.sendBody(owner.getSender(), ProxyMessages.setTvmTvmChain(other, true));
            expect(set.transactions).toHaveTransaction({ from: proxy.address, to: owner.address, success: true });
            expect(await proxy.getTvmTvmChain(BigInt(other))).toBe(true);
            const taken = await lock(300n, {
                forwardPayload: transferPayloadCell(payloadArgs({ destinationChainId: other })),
            });
            const t2 = txOf(taken.transactions, proxy.address, Op.jetton.transferNotification);
            const events = emittedEvents(t2.outMessages.values());
            expect(events).toHaveLength(1);
            expect(events[0].event.destinationChainId).toBe(other);
            expect(await balanceOf(alice.address)).toBe(1_000_000n - 300n);
            expect(await proxyWallet.getJettonBalance()).toBe(300n);
            expect(await proxy.getLiquidity(minter.address)).toBe(before + 300n);
        });

        it('should send back tokens of a token it does not know (2708), from the wallet they came to', async () => {
            const other = blockchain.openContract(
                await JettonMinter.createFromConfig({
                    owner: tokenOwner.address,
                    content: { ...TOKEN, name: 'Other' },
                }),
            );
            await other.sendMint(tokenOwner.getSender(), { to: alice.address, amount: 50n });
            const res = await lock(50n, { m: other.address });
            expect(refundCodeTo(res.transactions, (await walletOf(alice.address, other.address)).address)).toBe(
                Errors.proxy.wrongTokenRoot,
            );
            expect(await balanceOf(alice.address, other.address)).toBe(50n);
            expect(await balanceOf(proxy.address, other.address)).toBe(0n);
        });

        it('should answer a notification from a contract that is not its wallet only to that contract', async () => {
            const fake = await blockchain.treasury('fake wallet');
            const body = JettonWallet.notificationMessage({
                amount: 1000n,
                from: alice.address,
                forwardPayload: transferPayloadCell(payloadArgs()),
            });
            let res = await proxy.sendBody(fake.getSender(), body, toNano('0.1'));
            const tx = txOf(res.transactions, proxy.address, Op.jetton.transferNotification);
            expect(emittedEvents(tx.outMessages.values())).toHaveLength(0);
            expect(res.transactions).toHaveTransaction({
                from: proxy.address,
                to: fake.address,
                op: Op.jetton.transfer,
            });
            res = await proxy.sendBody(fake.getSender(), body, toNano('0.01'));
            expect(txOf(res.transactions, proxy.address, Op.jetton.transferNotification).outMessages.size).toBe(0);
            expect(await proxy.getRefundOf(fake.address, alice.address)).toBe(0n);
        });

        it('should record a refund it cannot pay for, and pay it on claim_refund', async () => {
            // the smallest forward_ton_amount with which the proxy runs (below it, the notification
            // runs out of gas before the proxy can buy gas: see proxy.tlb, known limits)
            const { value } = await smallestAccepted(
                blockchain,
                (v) => lock(300n, { forwardTonAmount: v }),
                proxy.address,
            );
            if (process.env.DBG) console.log('proxy runs from forward_ton_amount', value);
            expect(value).toBeLessThan(toNano('0.002'));
            // the harness's lock builder refuses anything below MIN_LOCK_FORWARD_TON (proxy.tlb, known
            // limits): it must stay above this floor even at 4 times the gas price
            expect(MIN_LOCK_FORWARD_TON).toBeGreaterThan(4n * value);
            const res = await lock(300n, { forwardTonAmount: value });
            const tx = txOf(res.transactions, proxy.address, Op.jetton.transferNotification);
            expect(exitCode(tx)).toBe(0);
            expect(tx.outMessages.size).toBe(0);
            expect(await proxy.getRefundOf(proxyWallet.address, alice.address)).toBe(300n);
            expect(await proxyWallet.getJettonBalance()).toBe(300n);
            // too little TON to claim: refused before anything changes
            let claim = await proxy.sendBody(
                alice.getSender(),
                ProxyMessages.claimRefund(proxyWallet.address),
                toNano('0.005'),
            );
            expect(claim.transactions).toHaveTransaction({
                to: proxy.address,
                success: false,
                exitCode: Errors.proxy.lowMsgValue,
            });
            // nothing recorded for bob
            claim = await proxy.sendBody(
                bob.getSender(),
                ProxyMessages.claimRefund(proxyWallet.address),
                toNano('0.1'),
            );
            expect(claim.transactions).toHaveTransaction({
                to: proxy.address,
                success: false,
                exitCode: Errors.proxy.wrongTokensAmountInPayload,
            });
            claim = await proxy.sendBody(
                alice.getSender(),
                ProxyMessages.claimRefund(proxyWallet.address),
                toNano('0.1'),
            );
            expect(allSucceeded(claim.transactions)).toBe(true);
            expect(await balanceOf(alice.address)).toBe(1_000_000n);
            expect(await proxy.getRefundOf(proxyWallet.address, alice.address)).toBe(0n);
        });

        it('a recorded refund above 2^119 (CLAIM_REFUND_MAX) is claimed in parts: 2^119, then the rest', async () => {
            const big = (6n * (1n << 120n)) / 10n;
            await minter.sendMint(tokenOwner.getSender(), { to: alice.address, amount: big });
            // a lock whose forward TON only runs the proxy: the refund recorded
            const { value } = await smallestAccepted(
                blockchain,
                (v) => lock(300n, { forwardTonAmount: v }),
                proxy.address,
            );
            await lock(big, { forwardTonAmount: value });
            expect(await proxy.getRefundOf(proxyWallet.address, alice.address)).toBe(big);
            const claim = () =>
                proxy.sendBody(alice.getSender(), ProxyMessages.claimRefund(proxyWallet.address), toNano('0.1'));
            expect(allSucceeded((await claim()).transactions)).toBe(true);
            expect(await proxy.getRefundOf(proxyWallet.address, alice.address)).toBe(big - (1n << 119n));
            expect(await balanceOf(alice.address)).toBe(1_000_000n + (1n << 119n));
            expect(allSucceeded((await claim()).transactions)).toBe(true);
            expect(await proxy.getRefundOf(proxyWallet.address, alice.address)).toBe(0n);
            expect(await balanceOf(alice.address)).toBe(1_000_000n + big);
            expect(await proxyWallet.getJettonBalance()).toBe(0n);
        });

        for (const factor of [1n, 4n]) {
            it(`should emit at the smallest value it accepts, and refund (2713) just below (gas price x${factor})`, async () => {
                scaleGasPrice(blockchain, factor);
                const expectedGas = toNano('0.05');
                const fp = transferPayloadCell(
                    payloadArgs({ expectedGas, payload: beginCell().storeUint(1, 200).endCell() }),
                );
                const emitted = (txs: Transaction[]) => {
                    const t = txs.find((x) => flattenTransaction(x).to?.equals(proxy.address));
                    return !!t && emittedEvents(t.outMessages.values()).length === 1;
                };
                const { value } = await smallestAccepted(
                    blockchain,
                    (v) => lock(10n, { forwardTonAmount: v, forwardPayload: fp }),
                    proxy.address,
                    emitted,
                );
                const res = await lock(10n, { forwardTonAmount: value, forwardPayload: fp });
                const ev = emittedEvents(
                    txOf(res.transactions, proxy.address, Op.jetton.transferNotification).outMessages.values(),
                )[0].event;
                expect(ev.value).toBeGreaterThanOrEqual(expectedGas);
                expect(allSucceeded(res.transactions)).toBe(true);
                // just below: refused with 2713 (sent back, or recorded when even that cannot be paid)
                const below = await lock(10n, { forwardTonAmount: value - 2000n, forwardPayload: fp });
                expect(
                    emittedEvents(
                        txOf(below.transactions, proxy.address, Op.jetton.transferNotification).outMessages.values(),
                    ),
                ).toHaveLength(0);
                const aliceWallet = (await walletOf(alice.address)).address;
                if (
                    below.transactions.some(
                        (t) =>
                            flattenTransaction(t).to?.equals(aliceWallet) &&
                            flattenTransaction(t).op === Op.jetton.internalTransfer,
                    )
                ) {
                    expect(refundCodeTo(below.transactions, aliceWallet)).toBe(Errors.proxy.lowMsgValue);
                } else {
                    expect(await proxy.getRefundOf(proxyWallet.address, alice.address)).toBe(10n);
                }
            });
        }
    });

    describe('unlock (incoming)', () => {
        beforeEach(async () => {
            await lock(100_000n);
            expect(await proxyWallet.getJettonBalance()).toBe(100_000n);
        });

        it('should unlock amount - fee to the recipient from an allowed configuration', async () => {
            await proxy.sendBody(owner.getSender(), ProxyMessages.setDefaultFee(1n, 100n));
            const res = await confirm(config, alienEvent({ amount: 1000n }));
            expect(res.transactions).toHaveTransaction({
                from: proxy.address,
                to: proxyWallet.address,
                op: Op.jetton.transfer,
                success: true,
            });
            expect(res.transactions).toHaveTransaction({ to: owner.address, op: Op.jetton.excesses });
            expect(allSucceeded(res.transactions)).toBe(true);
            expect(await balanceOf(bob.address)).toBe(990n);
            expect(await proxyWallet.getJettonBalance()).toBe(100_000n - 990n);
            expect(await proxy.getAccumulatedFees(minter.address)).toBe(10n);
        });

        it('should pass the event payload to the recipient with transfer_notification', async () => {
            const p = beginCell().storeUint(0xbeef, 16).endCell();
            const res = await confirm(config, alienEvent({ amount: 10n, payload: p }));
            const n = txOf(res.transactions, bob.address, Op.jetton.transferNotification);
            const body = loadJettonNotification(n.inMessage!.body.beginParse());
            expect(body.amount).toBe(10n);
            expect(body.sender.equals(proxy.address)).toBe(true);
            expect(body.forwardPayload.loadBit()).toBe(true);
            expect(body.forwardPayload.loadRef().equals(p)).toBe(true);
        });

        it('should take a TvmTvmNative of a predeployed token from the alien proxy', async () => {
            const res = await confirm(alienProxy, alienEvent({ kind: 'native', amount: 77n }));
            expect(allSucceeded(res.transactions)).toBe(true);
            expect(await balanceOf(bob.address)).toBe(77n);
        });

        const refused: [string, number, () => Promise<SendMessageResult>][] = [
            [
                'from a sender that is not a listed configuration',
                Errors.proxy.notTvmConfig,
                () => confirm(alice, alienEvent()),
            ],
            [
                'TvmTvmNative from a configuration',
                Errors.proxy.notTvmConfig,
                () => confirm(config, alienEvent({ kind: 'native' })),
            ],
            ['TvmTvmAlien from the alien proxy', Errors.proxy.notTvmConfig, () => confirm(alienProxy, alienEvent())],
            [
                'paused',
                Errors.proxy.proxyPaused,
                async () => {
                    await proxy.sendBody(owner.getSender(), ProxyMessages.setPaused(true));
                    return confirm(config, alienEvent());
                },
            ],
            [
                'zero token root',
                Errors.proxy.proxyTokenRootIsEmpty,
                () => confirm(config, alienEvent({ token: ZERO_ADDRESS })),
            ],
            [
                'token not registered',
                Errors.proxy.wrongTokenRoot,
                () => confirm(config, alienEvent({ token: alice.address })),
            ],
            [
                'another native proxy wallet',
                Errors.proxy.wrongTokenRoot,
                () => confirm(config, alienEvent({ wallet: alice.address })),
            ],
            [
                'no native proxy wallet',
                Errors.proxy.wrongTokenRoot,
                () => confirm(config, alienEvent({ wallet: null })),
            ],
            [
                'token whose wallet is not known yet (TEP-89 pending)',
                Errors.proxy.wrongTokenRoot,
                async () => {
                    const silentRoot = (await blockchain.treasury('silent root')).address;
                    await proxy.sendRegisterNativeToken(owner.getSender(), { token: silentRoot, ...TOKEN });
                    return confirm(config, alienEvent({ token: silentRoot, wallet: alice.address }));
                },
            ],
            ['amount 0', Errors.proxy.wrongTokensAmountInPayload, () => confirm(config, alienEvent({ amount: 0n }))],
            [
                'recipient outside the basechain',
                Errors.proxy.wrongOwnerInPayload,
                () => confirm(config, alienEvent({ recipient: new Address(-1, bob.address.hash) })),
            ],
            ['too little value', Errors.proxy.lowMsgValue, () => confirm(config, alienEvent(), toNano('0.01'))],
        ];
        for (const [name, code, run] of refused) {
            it(`should refuse with ${code}: ${name}`, async () => {
                const res = await run();
                expectDeliveryRefused(res.transactions, proxy.address, config.address, code);
                expect(await proxyWallet.getJettonBalance()).toBe(100_000n);
                expect(await balanceOf(bob.address)).toBe(0n);
            });
        }

        it('should tell the alien proxy (native_delivery_failed, with the event address) when it refuses a forwarded confirmation', async () => {
            await proxy.sendBody(owner.getSender(), ProxyMessages.setPaused(true));
            const res = await confirm(alienProxy, alienEvent({ kind: 'native' }));
            expect(res.transactions).toHaveTransaction({ to: proxy.address, success: true });
            const tx = txOf(res.transactions, alienProxy.address, OpEvent.nativeDeliveryFailed);
            const b = tx.inMessage!.body.beginParse().skip(32);
            expect(b.loadAddress().equals(alienProxy.address)).toBe(true); // event_address of the message
            b.loadUintBig(64);
            expect(b.loadAddress().equals(owner.address)).toBe(true); // remaining_gas_to
            expect(b.loadUint(16)).toBe(Errors.proxy.proxyPaused);
            expect(await proxyWallet.getJettonBalance()).toBe(100_000n);
        });

        for (const factor of [1n, 4n]) {
            it(`should complete the unlock at the smallest value it accepts (gas price x${factor})`, async () => {
                scaleGasPrice(blockchain, factor);
                await proxy.sendBody(owner.getSender(), ProxyMessages.setDefaultFee(1n, 10n));
                const ev = alienEvent({
                    amount: 1000n,
                    payload: beginCell().storeUint(3, 64).endCell(),
                    recipient: (await blockchain.treasury('carol')).address,
                });
                const { value, refusal } = await smallestAccepted(
                    blockchain,
                    (v) => confirm(config, ev, v),
                    proxy.address,
                    deliveredBy(proxy.address),
                );
                expect(refusal).toBe(Errors.proxy.lowMsgValue);
                const res = await confirm(config, ev, value);
                expect(allSucceeded(res.transactions)).toBe(true);
                expect(await balanceOf((await blockchain.treasury('carol')).address)).toBe(900n);
            });
        }
    });

    describe('fees', () => {
        it('should validate the fee setters and keep them owner-only', async () => {
            const bad: [bigint, bigint][] = [
                [0n, 0n],
                [2n, 1n],
            ];
            for (const [n, d] of bad) {
                let res = await proxy.sendBody(owner.getSender(), ProxyMessages.setDefaultFee(n, d));
                expect(res.transactions).toHaveTransaction({
                    to: proxy.address,
                    success: false,
                    exitCode: Errors.proxy.wrongTokensAmountInPayload,
                });
                res = await proxy.sendBody(owner.getSender(), ProxyMessages.setTokenFee(minter.address, n, d));
                expect(res.transactions).toHaveTransaction({
                    to: proxy.address,
                    success: false,
                    exitCode: Errors.proxy.wrongTokensAmountInPayload,
                });
            }
            let res = await proxy.sendBody(alice.getSender(), ProxyMessages.setDefaultFee(1n, 2n));
            expect(res.transactions).toHaveTransaction({
                to: proxy.address,
                success: false,
                exitCode: Errors.proxy.notOwner,
            });
            res = await proxy.sendBody(alice.getSender(), ProxyMessages.setTokenFee(minter.address, 1n, 2n));
            expect(res.transactions).toHaveTransaction({
                to: proxy.address,
                success: false,
                exitCode: Errors.proxy.notOwner,
            });
            expect((await proxy.getDefaultFee()).denominator).toBe(1n);
            expect((await proxy.getDefaultFee()).numerator).toBe(0n);

            await proxy.sendBody(owner.getSender(), ProxyMessages.setDefaultFee(1n, 1n)); // 100% is allowed
            expect(await proxy.getFeeFor(minter.address, 1000n)).toBe(1000n);
            await proxy.sendBody(owner.getSender(), ProxyMessages.setTokenFee(minter.address, 3n, 1000n));
            expect(await proxy.getFeeFor(minter.address, 1000n)).toBe(3n);
            expect(await proxy.getFeeFor(alice.address, 1000n)).toBe(1000n);
            await proxy.sendBody(owner.getSender(), ProxyMessages.removeTokenFee(minter.address));
            expect((await proxy.getTokenFee(minter.address)).numerator).toBe(1n);
        });

        it('should let the owner withdraw accumulated fees (and no more)', async () => {
            await lock(100_000n);
            await proxy.sendBody(owner.getSender(), ProxyMessages.setTokenFee(minter.address, 5n, 100n));
            await confirm(config, alienEvent({ amount: 2000n }));
            expect(await proxy.getAccumulatedFees(minter.address)).toBe(100n);
            let res = await proxy.sendBody(
                owner.getSender(),
                ProxyMessages.withdrawFees(minter.address, 101n, owner.address),
                toNano('0.1'),
            );
            expect(res.transactions).toHaveTransaction({
                to: proxy.address,
                success: false,
                exitCode: Errors.proxy.wrongTokensAmountInPayload,
            });
            res = await proxy.sendBody(
                alice.getSender(),
                ProxyMessages.withdrawFees(minter.address, 10n, alice.address),
                toNano('0.1'),
            );
            expect(res.transactions).toHaveTransaction({
                to: proxy.address,
                success: false,
                exitCode: Errors.proxy.notOwner,
            });
            res = await proxy.sendBody(
                owner.getSender(),
                ProxyMessages.withdrawFees(minter.address, 60n, owner.address),
                toNano('0.1'),
            );
            expect(allSucceeded(res.transactions)).toBe(true);
            expect(await balanceOf(owner.address)).toBe(60n);
            expect(await proxy.getAccumulatedFees(minter.address)).toBe(40n);
        });
    });

    describe('owner operations', () => {
        it('should pause, list configurations (TVM, and EVM for later), move ownership, withdraw TON above its reserve', async () => {
            let res = await proxy.sendBody(alice.getSender(), ProxyMessages.setPaused(true));
            expect(res.transactions).toHaveTransaction({
                to: proxy.address,
                success: false,
                exitCode: Errors.proxy.notOwner,
            });
            await proxy.sendBody(owner.getSender(), ProxyMessages.setTvmConfiguration(alice.address, true));
            expect(await proxy.getIsTvmConfiguration(alice.address)).toBe(true);
            await proxy.sendBody(owner.getSender(), ProxyMessages.setTvmConfiguration(config.address, false));
            expect(await proxy.getIsTvmConfiguration(config.address)).toBe(false);
            await proxy.sendBody(owner.getSender(), ProxyMessages.setEvmConfiguration(bob.address, true));
            expect(await proxy.getIsEvmConfiguration(bob.address)).toBe(true);
            res = await proxy.sendBody(owner.getSender(), ProxyMessages.withdrawTon(toNano('10'), owner.address));
            expect(res.transactions).toHaveTransaction({
                to: proxy.address,
                success: false,
                exitCode: Errors.proxy.lowMsgValue,
            });
            res = await proxy.sendBody(owner.getSender(), ProxyMessages.withdrawTon(toNano('0.1'), bob.address));
            expect(res.transactions).toHaveTransaction({ from: proxy.address, to: bob.address, value: toNano('0.1') });
            await proxy.sendBody(owner.getSender(), ProxyMessages.transferOwnership(alice.address));
            expect((await proxy.getOwner()).equals(alice.address)).toBe(true);
            res = await proxy.sendBody(owner.getSender(), ProxyMessages.setPaused(true));
            expect(res.transactions).toHaveTransaction({
                to: proxy.address,
                success: false,
                exitCode: Errors.proxy.notOwner,
            });
        });
    });

    describe('gas constants (contracts/bridge/proxy_common.tact)', () => {
        const G = proxyGasConstants();
        const pin = (name: string, measured: number) => pinGas(G, name, measured);

        it('gas constants: native lock', async () => {
            const res = await lock(10n, {
                forwardPayload: transferPayloadCell(payloadArgs({ payload: longPayload() })),
            });
            pin('GAS_NATIVE_LOCK', gasUsed(txOf(res.transactions, proxy.address, Op.jetton.transferNotification)));
        });

        it('gas constants: native refund', async () => {
            await proxy.sendBody(owner.getSender(), ProxyMessages.setTvmConfiguration(alice.address, true));
            const worst = [
                await lock(10n, {
                    forwardPayload: transferPayloadCell(
                        payloadArgs({ expectedGas: toNano('1'), payload: longPayload() }),
                    ),
                }),
                await lock(10n, { forwardPayload: beginCell().storeUint(1, 900).endCell() }),
            ];
            pin(
                'GAS_NATIVE_REFUND',
                Math.max(
                    ...worst.map((r) => gasUsed(txOf(r.transactions, proxy.address, Op.jetton.transferNotification))),
                ),
            );
        });

        it('gas constants: native unlock', async () => {
            await lock(100_000n);
            await proxy.sendBody(owner.getSender(), ProxyMessages.setTokenFee(minter.address, 1n, 100n));
            // the worst case: a fee, a payload and a daily limit counted
            await proxy.sendBody(owner.getSender(), ProxyMessages.setDailyLimit(minter.address, 10n ** 12n));
            const res = await confirm(config, alienEvent({ amount: 1000n, payload: longPayload() }));
            const viaAlien = await confirm(
                alienProxy,
                alienEvent({ kind: 'native', amount: 1000n, payload: longPayload() }),
            );
            pin(
                'GAS_NATIVE_UNLOCK',
                Math.max(
                    gasUsed(txOf(res.transactions, proxy.address, Op.bridge.onTvmEventConfirmedExtended)),
                    gasUsed(txOf(viaAlien.transactions, proxy.address, Op.bridge.onTvmEventConfirmedExtended)),
                ),
            );
        });

        it('gas constants: pay out', async () => {
            await lock(100_000n);
            await proxy.sendBody(owner.getSender(), ProxyMessages.setTokenFee(minter.address, 1n, 100n));
            await confirm(config, alienEvent({ amount: 1000n }));
            const w = await proxy.sendBody(
                owner.getSender(),
                ProxyMessages.withdrawFees(minter.address, 10n, owner.address),
                toNano('0.1'),
            );
            await lock(300n, { forwardTonAmount: toNano('0.002') });
            const c = await proxy.sendBody(
                alice.getSender(),
                ProxyMessages.claimRefund(proxyWallet.address),
                toNano('0.1'),
            );
            // withdraw_liquidity pays out the same way (the owner's liquidity to itself)
            const l = await proxy.sendBody(
                owner.getSender(),
                ProxyMultiVaultNative.withdrawLiquidityMessage(minter.address, 100n, owner.address),
                toNano('0.1'),
            );
            const measured = Math.max(
                gasUsed(txOf(w.transactions, proxy.address, Op.proxy.withdrawFees)),
                gasUsed(txOf(c.transactions, proxy.address, Op.proxy.claimRefund)),
                gasUsed(txOf(l.transactions, proxy.address, Op.proxy.withdrawLiquidity)),
            );
            // GAS_PAY_OUT is shared with the alien proxy, whose mints measure less
            // (tests/proxy_alien.spec.ts): the native proxy's transfers, kept in flight, pin it
            pin('GAS_PAY_OUT', measured);
        });
    });
});
