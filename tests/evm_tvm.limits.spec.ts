/**
 * EVM -> TVM under the proxies' daily limits (contracts/bridge/evm.tlb, "daily limit"), end to end
 * through the real proxies: an EVM Event over the limit goes to LimitReached, and the limit
 * approver's actions (approve_limit, reject_limit) and the retry work there as on TVM to TVM.
 */
import '@ton/test-utils';
import { Address, toNano } from '@ton/core';
import { SendMessageResult } from '@ton/sandbox';
import { Errors, OpEvm } from '../wrappers/constants';
import { EvmEventStatus, evmEventRetryMessage } from '../wrappers/EvmTvmEventConfiguration';
import { MultiVaultEvmTvmEventAlien } from '../wrappers/MultiVaultEvmTvmEventAlien';
import { MultiVaultEvmTvmEventNative } from '../wrappers/MultiVaultEvmTvmEventNative';
import { ProxyMessages } from '../wrappers/ProxyMultiVaultNative';
import { EventOp, limitActionMessage } from '../wrappers/tvmTvmEvent';
import { toTransferStatus, TransferStatus } from '../wrappers/eventStatus';
import { EvmRelayService } from '../harness/evm/relay';
import { deployEventNonCredit } from '../harness/evm/user';
import { EvmTvmProxySetup } from '../harness/evm/proxyFixture';
import { depositErc20, depositRepresentation, evmFee, lastOf, freshSetup, tvmFee } from './evm_tvm.util';

jest.setTimeout(180_000);

const DAY = 86400;

/** Deposits an ERC-20 amount and has the relays (one service: it remembers what it processed) deploy the Event and vote. */
async function bridgeErc20(s: EvmTvmProxySetup, relays: EvmRelayService, amount: bigint) {
    await depositErc20(s, amount);
    const [p] = await relays.poll();
    return {
        p,
        last: lastOf(p.votes),
        event: s.blockchain.openContract(MultiVaultEvmTvmEventAlien.createFromAddress(p.eventAddress)),
    };
}

const statusOf = async (e: { getGetStatus(): Promise<bigint> }) => Number(await e.getGetStatus());
const minterOf = async (s: EvmTvmProxySetup) =>
    (await s.proxies.alien.getEvmMinter(BigInt(s.evm.chainId), BigInt(s.evm.tokenAddress)))!;
const received = (s: EvmTvmProxySetup, amount: bigint) => {
    const bridged = amount - evmFee(amount);
    return bridged - tvmFee(s, bridged);
};

function expectLimitReached(r: SendMessageResult, from: Address, event: Address) {
    expect(r.transactions).toHaveTransaction({ from, to: event, op: EventOp.dailyLimitReached, success: true });
}

describe('EVM -> TVM daily limits (the proxies, end to end)', () => {
    it("an ERC-20 deposit over the minter's daily limit: LimitReached (Pending), nothing minted; retry and approve_limit by their callers only; approved: delivered over the limit and counted", async () => {
        const s = await freshSetup();
        const relays = new EvmRelayService(s.evm, s.blockchain, s.alienConfiguration, s.relays, s.relayer);
        // a first deposit deploys the minter; then the owner limits it
        const first = 1_000_000n;
        await bridgeErc20(s, relays, first);
        const minter = await minterOf(s);
        const wallet = await s.walletOf(minter);
        expect(await wallet.getJettonBalance()).toBe(received(s, first));
        const limit = 3_000_000n;
        await s.proxies.alien.sendBody(s.proxyOwner.getSender(), ProxyMessages.setDailyLimit(minter, limit));

        const amount = 5_000_000n;
        const { p, last, event } = await bridgeErc20(s, relays, amount);
        expectLimitReached(last, s.proxies.alien.address, p.eventAddress);
        expect(await statusOf(event)).toBe(EvmEventStatus.LimitReached);
        expect(toTransferStatus(EvmEventStatus.LimitReached as number)).toBe(TransferStatus.Pending);
        expect((await event.getGetLimitApprover())!.equals(s.proxyOwner.address)).toBe(true);
        expect(await wallet.getJettonBalance()).toBe(received(s, first));
        // nothing counted
        expect((await s.proxies.alien.getDailyLimit(minter))!.used).toBe(0n);

        // retry: a stranger is refused (2332); the recipient retries the same day: still over
        const stranger = await s.blockchain.treasury('stranger');
        const retry = (by: typeof stranger) =>
            by.send({ to: p.eventAddress, value: toNano('0.5'), body: evmEventRetryMessage(by.address) });
        let r = await retry(stranger);
        expect(r.transactions).toHaveTransaction({
            to: p.eventAddress,
            success: false,
            exitCode: Errors.event.senderNotRecipientOrSender,
        });
        r = await retry(s.recipient);
        expectLimitReached(r, s.proxies.alien.address, p.eventAddress);
        expect(await statusOf(event)).toBe(EvmEventStatus.LimitReached);

        // approve_limit: only the limit approver (2335), with enough value (2317)
        r = await stranger.send({ to: p.eventAddress, value: toNano('0.5'), body: limitActionMessage('approveLimit') });
        expect(r.transactions).toHaveTransaction({
            to: p.eventAddress,
            success: false,
            exitCode: Errors.event.senderNotLimitApprover,
        });
        r = await s.proxyOwner.send({
            to: p.eventAddress,
            value: toNano('0.01'),
            body: limitActionMessage('approveLimit'),
        });
        expect(r.transactions).toHaveTransaction({
            to: p.eventAddress,
            success: false,
            exitCode: Errors.event.tooLowMsgValue,
        });
        r = await s.proxyOwner.send({
            to: p.eventAddress,
            value: toNano('0.5'),
            body: limitActionMessage('approveLimit'),
        });
        expect(r.transactions).toHaveTransaction({
            from: s.alienConfiguration.address,
            to: s.proxies.alien.address,
            op: OpEvm.onEvmEventConfirmedExtended,
            success: true,
        });
        expect(await statusOf(event)).toBe(EvmEventStatus.Confirmed);
        expect(await wallet.getJettonBalance()).toBe(received(s, first) + received(s, amount));
        // approved transfers are counted (the rest of the day is over the limit)
        const bridged = amount - evmFee(amount);
        expect((await s.proxies.alien.getDailyLimit(minter))!.used).toBe(bridged);
        // the approver's actions are for LimitReached only (2324)
        r = await s.proxyOwner.send({
            to: p.eventAddress,
            value: toNano('0.5'),
            body: limitActionMessage('rejectLimit'),
        });
        expect(r.transactions).toHaveTransaction({
            to: p.eventAddress,
            success: false,
            exitCode: Errors.event.wrongStatus,
        });
    });

    it("a NativeTransfer over the token root's daily limit: reject_limit is final; exactly the limit passes; the next UTC day a retry by the initializer delivers", async () => {
        const s = await freshSetup();
        const now = Math.floor(Date.now() / 1000);
        s.blockchain.now = now - (now % DAY) + 3600; // 01:00 UTC
        const limit = 2_000_000n;
        await s.proxies.native.sendBody(
            s.proxyOwner.getSender(),
            ProxyMessages.setDailyLimit(s.nativeToken.address, limit),
        );
        const nonCredit = async (amount: bigint) => {
            const receipt = await depositRepresentation(s, amount);
            const d = await deployEventNonCredit(s.evm, s.nativeConfiguration, s.user, receipt.hash);
            const votes = await new EvmRelayService(
                s.evm,
                s.blockchain,
                s.nativeConfiguration,
                s.relays,
                s.relayer,
            ).vote(d.config, d.eventAddress, d.voteData, s.relays.requiredVotes);
            const event = s.blockchain.openContract(MultiVaultEvmTvmEventNative.createFromAddress(d.eventAddress));
            return { d, last: lastOf(votes), event };
        };
        const recipientWallet = await s.walletOf(s.nativeToken.address);

        // over: LimitReached, rejected (final)
        const over = await nonCredit(3_000_000n);
        expectLimitReached(over.last, s.proxies.native.address, over.d.eventAddress);
        expect(await statusOf(over.event)).toBe(EvmEventStatus.LimitReached);
        const stranger = await s.blockchain.treasury('stranger');
        let r = await stranger.send({
            to: over.d.eventAddress,
            value: toNano('0.5'),
            body: limitActionMessage('rejectLimit'),
        });
        expect(r.transactions).toHaveTransaction({
            to: over.d.eventAddress,
            success: false,
            exitCode: Errors.event.senderNotLimitApprover,
        });
        r = await s.proxyOwner.send({
            to: over.d.eventAddress,
            value: toNano('0.5'),
            body: limitActionMessage('rejectLimit'),
        });
        expect(r.transactions).toHaveTransaction({ from: over.d.eventAddress, to: s.proxyOwner.address });
        expect(await statusOf(over.event)).toBe(EvmEventStatus.Rejected);
        expect(toTransferStatus(EvmEventStatus.Rejected as number)).toBe(TransferStatus.Failed);
        for (const body of [limitActionMessage('approveLimit'), evmEventRetryMessage(s.user.address)]) {
            r = await s.proxyOwner.send({ to: over.d.eventAddress, value: toNano('0.5'), body });
            expect(r.transactions).toHaveTransaction({
                to: over.d.eventAddress,
                success: false,
                exitCode: Errors.event.wrongStatus,
            });
        }
        expect(await recipientWallet.getJettonBalance()).toBe(0n);

        // exactly the limit (bridged amount, after the EVM fee) passes
        let exact = limit; // the deposit whose bridged amount (after the EVM fee) is the limit
        while (exact - evmFee(exact) < limit) exact += 1n;
        const atLimit = await nonCredit(exact);
        const bridgedExact = exact - evmFee(exact);
        expect(bridgedExact).toBe(limit);
        expect(await statusOf(atLimit.event)).toBe(EvmEventStatus.Confirmed);
        expect(await recipientWallet.getJettonBalance()).toBe(limit - tvmFee(s, limit));

        // one more is over; the next UTC day, the initializer (the user, non-credit) retries: delivered
        const next = await nonCredit(1000n);
        expect(await statusOf(next.event)).toBe(EvmEventStatus.LimitReached);
        s.blockchain.now = s.blockchain.now! + DAY;
        await s.user.send({
            to: next.d.eventAddress,
            value: toNano('0.5'),
            body: evmEventRetryMessage(s.user.address),
        });
        expect(await statusOf(next.event)).toBe(EvmEventStatus.Confirmed);
        const b = 1000n - evmFee(1000n);
        expect(await recipientWallet.getJettonBalance()).toBe(limit - tvmFee(s, limit) + b - tvmFee(s, b));
        expect((await s.proxies.native.getDailyLimit(s.nativeToken.address))!.used).toBe(b);
    });
    it("approve_limit and evm_event_retry at every 0.005 TON from 0.005 to 0.1 TON, and 0.5 TON (issue 11, small values at every hop): refused (2317), or minted, or the proxy's answer taken (LimitReached, Verified): never Confirmed without the mint", async () => {
        const s = await freshSetup();
        const relays = new EvmRelayService(s.evm, s.blockchain, s.alienConfiguration, s.relays, s.relayer);
        await bridgeErc20(s, relays, 1_000_000n);
        const minter = await minterOf(s);
        const wallet = await s.walletOf(minter);
        await s.proxies.alien.sendBody(s.proxyOwner.getSender(), ProxyMessages.setDailyLimit(minter, 3_000_000n));
        const amount = 5_000_000n;
        const { p, event } = await bridgeErc20(s, relays, amount);
        expect(await statusOf(event)).toBe(EvmEventStatus.LimitReached);
        const scene = s.blockchain.snapshot();
        const wrong: string[] = [];
        const outcomes = new Set<string>();
        for (const action of ['approve', 'retry'] as const) {
            const values = [...Array.from({ length: 20 }, (_, i) => toNano('0.005') * BigInt(i + 1)), toNano('0.5')];
            for (const v of values) {
                await s.blockchain.loadFrom(scene);
                const before = await wallet.getJettonBalance();
                const r =
                    action === 'approve'
                        ? await s.proxyOwner.send({
                              to: p.eventAddress,
                              value: v,
                              body: limitActionMessage('approveLimit'),
                          })
                        : await s.recipient.send({
                              to: p.eventAddress,
                              value: v,
                              body: evmEventRetryMessage(s.recipient.address),
                          });
                const refused = r.transactions.some(
                    (t) =>
                        t.inMessage?.info.dest?.toString() === p.eventAddress.toString() &&
                        t.description.type === 'generic' &&
                        t.description.computePhase.type === 'vm' &&
                        t.description.computePhase.exitCode === Errors.event.tooLowMsgValue,
                );
                const status = await statusOf(event);
                const minted = (await wallet.getJettonBalance()) - before;
                const outcome = refused
                    ? '2317'
                    : status === EvmEventStatus.Confirmed
                      ? 'minted'
                      : status === EvmEventStatus.LimitReached || status === EvmEventStatus.Verified
                        ? 'answered'
                        : 'stuck';
                outcomes.add(`${action} ${outcome}`);
                const ok = outcome === 'minted' ? minted === received(s, amount) : outcome !== 'stuck' && minted === 0n;
                if (!ok) wrong.push(`${action} ${v}: ${outcome}, status ${status}, minted ${minted}`);
            }
        }
        expect(wrong).toEqual([]);
        // each way was taken: refused, answered; approve_limit also minted (a retry the same day cannot)
        expect([...outcomes].sort()).toEqual([
            'approve 2317',
            'approve answered',
            'approve minted',
            'retry 2317',
            'retry answered',
        ]);
    });
});
