/**
 * Native Event, the Event side of a liquidity request (contracts/bridge/tvm_tvm_event_native.tact,
 * event.tlb): a real source proof through the real LiteClient / TransactionChecker (tests/event.util.ts),
 * a real jetton minter as the token root, a treasury standing in for the native proxy.
 * - not_enough_liquidity (proxy only: 2331; Confirmed only: 2316) -> LiquidityRequested (6, API
 *   Pending); the Event asks the token root for its own wallet (TEP-89), take_wallet_address only
 *   from the token root (2326), recorded (getDecodedData tokenWallet_);
 * - set_bounty: sender or recipient (2332), LiquidityRequested (2324), the NEW value at most the
 *   amount (2333: the stored one is not what is checked);
 * - tvm_event_retry from LiquidityRequested -> Verified -> confirmed again to the proxy.
 * The native proxy's side (its liquidity), the provider step and the whole path end to end:
 * tests/lifecycle.provider.spec.ts. Cancel is not built yet.
 */
import { Address, beginCell, toNano } from '@ton/core';
import { SandboxContract, SendMessageResult, TreasuryContract } from '@ton/sandbox';
import '@ton/test-utils';
import { EventStatus, toTransferStatus, TransferStatus } from '../wrappers/eventStatus';
import { Errors, Op, OpEvent } from '../wrappers/constants';
import { JettonMinter } from '../wrappers/JettonMinter';
import { TvmTvmEventConfiguration } from '../wrappers/TvmTvmEventConfiguration';
import { limitActionMessage, tvmTvmEventBody } from '../wrappers/tvmTvmEvent';
import { DEPLOY_VALUE, eventFields, eventFixture, EventFixture } from './event.util';

const OP_NOT_ENOUGH_LIQUIDITY = OpEvent.notEnoughLiquidity;
const OP_SET_BOUNTY = OpEvent.setBounty;
const notEnoughLiquidity = (remainingGasTo: Address) =>
    beginCell().storeUint(OP_NOT_ENOUGH_LIQUIDITY, 32).storeUint(0, 64).storeAddress(remainingGasTo).endCell();
const setBounty = (bounty: bigint) =>
    beginCell().storeUint(OP_SET_BOUNTY, 32).storeUint(0, 64).storeUint(bounty, 128).endCell();

describe('Native Event: liquidity request (Event side)', () => {
    let f: EventFixture;
    let minter: SandboxContract<JettonMinter>;
    let recipient: SandboxContract<TreasuryContract>;
    let stranger: SandboxContract<TreasuryContract>;
    const AMOUNT = 1_000_000_000n;

    function exitOn(r: SendMessageResult, to: Address): number | undefined {
        const t = r.transactions.find(
            (x) =>
                x.inMessage?.info.dest && Address.isAddress(x.inMessage.info.dest) && x.inMessage.info.dest.equals(to),
        );
        if (!t) return undefined;
        const d = t.description;
        return d.type === 'generic' && d.computePhase.type === 'vm' ? d.computePhase.exitCode : -1;
    }

    /** a confirmed Native Event (TvmTvmAlien of the real minter's token) */
    async function confirmedEvent() {
        const body = tvmTvmEventBody(
            'alien',
            eventFields(
                { amount: AMOUNT },
                { recipient: recipient.address, sender: f.user.address, token: minter.address },
            ),
        );
        const tx = await f.emit(body);
        const msgHash = TvmTvmEventConfiguration.eventMessageHash(tx.raw, 0);
        const event = f.nativeEvent(msgHash);
        const r = await f.nativeConfig.sendDeployTvmEvent(f.user.getSender(), {
            value: DEPLOY_VALUE,
            msgHash,
            outMsgIndex: 0,
            remainingGasTo: f.user.address,
            proof: f.prove(tx.raw),
        });
        expect(r.transactions).toHaveTransaction({
            from: f.nativeConfig.address,
            to: f.nativeProxy.address,
            op: Op.bridge.onTvmEventConfirmedExtended,
        });
        expect(await event.getStatus()).toBe(EventStatus.Confirmed);
        return event;
    }

    beforeEach(async () => {
        f = await eventFixture();
        recipient = await f.blockchain.treasury('recipient');
        stranger = await f.blockchain.treasury('stranger');
        minter = f.blockchain.openContract(
            await JettonMinter.createFromConfig({
                owner: f.owner.address,
                content: { name: 'Tether USD', symbol: 'USDT', decimals: 6 },
            }),
        );
        await minter.sendDeploy(f.owner.getSender());
    });

    it('not_enough_liquidity: proxy only (2331), Confirmed only (2316) -> LiquidityRequested; the Event learns its token wallet from the root only (2326)', async () => {
        const event = await confirmedEvent();
        expect(
            exitOn(
                await stranger.send({
                    to: event.address,
                    value: toNano('0.1'),
                    body: notEnoughLiquidity(stranger.address),
                }),
                event.address,
            ),
        ).toBe(Errors.event.senderNotProxy);
        const r = await f.nativeProxy.send({
            to: event.address,
            value: toNano('0.1'),
            body: notEnoughLiquidity(f.user.address),
        });
        expect(r.transactions).toHaveTransaction({
            from: event.address,
            to: minter.address,
            op: Op.jetton.provideWalletAddress,
            success: true,
        });
        expect(r.transactions).toHaveTransaction({
            from: minter.address,
            to: event.address,
            op: Op.jetton.takeWalletAddress,
            success: true,
        });
        expect(r.transactions).toHaveTransaction({ from: event.address, to: f.user.address });
        expect(await event.getStatus()).toBe(EventStatus.LiquidityRequested);
        expect(toTransferStatus(await event.getStatus())).toBe(TransferStatus.Pending);
        const d = await event.getDecodedData();
        expect(d.tokenWallet!.equals(await minter.getWalletAddress(event.address))).toBe(true);
        expect(d.bounty).toBe(0n);
        // again: no longer Confirmed
        expect(
            exitOn(
                await f.nativeProxy.send({
                    to: event.address,
                    value: toNano('0.1'),
                    body: notEnoughLiquidity(f.user.address),
                }),
                event.address,
            ),
        ).toBe(Errors.event.eventNotConfirmed);
        // a take_wallet_address not from the token root
        const fake = beginCell()
            .storeUint(Op.jetton.takeWalletAddress, 32)
            .storeUint(0, 64)
            .storeAddress(stranger.address)
            .storeBit(false)
            .endCell();
        expect(
            exitOn(await stranger.send({ to: event.address, value: toNano('0.05'), body: fake }), event.address),
        ).toBe(Errors.event.senderNotTokenRoot);
    });

    it('set_bounty: sender or recipient (2332), LiquidityRequested (2324), the new bounty at most the amount (2333)', async () => {
        const event = await confirmedEvent();
        expect(
            exitOn(
                await recipient.send({ to: event.address, value: toNano('0.05'), body: setBounty(1n) }),
                event.address,
            ),
        ).toBe(Errors.event.wrongStatus);
        await f.nativeProxy.send({ to: event.address, value: toNano('0.1'), body: notEnoughLiquidity(f.user.address) });
        expect(
            exitOn(
                await stranger.send({ to: event.address, value: toNano('0.05'), body: setBounty(1n) }),
                event.address,
            ),
        ).toBe(Errors.event.senderNotRecipientOrSender);
        // the stored bounty (0) is within the amount; the new one is not
        expect(
            exitOn(
                await recipient.send({ to: event.address, value: toNano('0.05'), body: setBounty(AMOUNT + 1n) }),
                event.address,
            ),
        ).toBe(Errors.event.bountyTooHigh);
        const ok = await recipient.send({ to: event.address, value: toNano('0.05'), body: setBounty(AMOUNT) });
        expect(exitOn(ok, event.address)).toBe(0);
        expect(ok.transactions).toHaveTransaction({ from: event.address, to: recipient.address });
        expect((await event.getDecodedData()).bounty).toBe(AMOUNT);
        expect(
            exitOn(
                await f.user.send({ to: event.address, value: toNano('0.05'), body: setBounty(10n) }),
                event.address,
            ),
        ).toBe(0);
        expect((await event.getDecodedData()).bounty).toBe(10n);
    });

    it('tvm_event_retry from LiquidityRequested (recipient) -> Verified -> confirmed again to the proxy; then set_bounty is refused (2324)', async () => {
        const event = await confirmedEvent();
        await f.nativeProxy.send({ to: event.address, value: toNano('0.1'), body: notEnoughLiquidity(f.user.address) });
        expect(
            exitOn(
                await stranger.send({
                    to: event.address,
                    value: toNano('0.5'),
                    body: limitActionMessage('tvmEventRetry'),
                }),
                event.address,
            ),
        ).toBe(Errors.event.senderNotRecipientOrSender);
        const r = await recipient.send({
            to: event.address,
            value: toNano('0.5'),
            body: limitActionMessage('tvmEventRetry'),
        });
        expect(r.transactions).toHaveTransaction({
            from: f.nativeConfig.address,
            to: f.nativeProxy.address,
            op: Op.bridge.onTvmEventConfirmedExtended,
            success: true,
        });
        expect(await event.getStatus()).toBe(EventStatus.Confirmed);
        expect(
            exitOn(
                await recipient.send({ to: event.address, value: toNano('0.05'), body: setBounty(1n) }),
                event.address,
            ),
        ).toBe(Errors.event.wrongStatus);
    });
});
