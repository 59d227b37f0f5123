import hre from 'hardhat';
import '@ton/test-utils';
import { createHash } from 'crypto';
import fs from 'fs';
import path from 'path';
import { Address, beginCell, Cell, toNano } from '@ton/core';
import { SendMessageResult } from '@ton/sandbox';
import { AbiCoder, Contract, TransactionReceipt } from 'ethers';
import { Errors, ErrorsEvm, OpEvm } from '../wrappers/constants';
import { Bridge } from '../wrappers/Bridge';
import {
    EventVoteData,
    EvmEventStatus,
    EvmTvmEventConfiguration,
    evmEventAddress,
    evmEventDeliveryFailedMessage,
    evmEventDeliveryRefusedMessage,
    evmEventRetryMessage,
    parseAlienTransfer,
    parseBridgeState,
    parseNativeTransfer,
    parseOnEvmEventConfirmedExtended,
    VoteKind,
} from '../wrappers/EvmTvmEventConfiguration';
import { MultiVaultEvmTvmEventAlien } from '../wrappers/MultiVaultEvmTvmEventAlien';
import { MultiVaultEvmTvmEventNative } from '../wrappers/MultiVaultEvmTvmEventNative';
import { storeDeployEvmEvent } from '../build/EvmTvmEventConfiguration/tact_EvmTvmEventConfiguration';
import { MultiVaultEvmTvmEventAlien as GeneratedAlien } from '../build/MultiVaultEvmTvmEventAlien/tact_MultiVaultEvmTvmEventAlien';
import { depositNativeTokenParams, depositParams } from '../wrappers/evm/MultiVault';
import { findDepositEvent } from '../wrappers/evm/depositEvents';
import {
    EvmRelay,
    EvmRelayService,
    readConfiguration,
    RelaySet,
    verifyVoteData,
    globalIdOf,
    voteDataOf,
} from '../harness/evm/relay';
import { deployEventNonCredit } from '../harness/evm/user';
import { dailyLimitReachedMessage, limitActionMessage } from '../wrappers/tvmTvmEvent';
import { EVENT_INITIAL_BALANCE, EvmTvmSetup, evmTvmSetup, refusedExternal, tvmRecipient } from '../harness/evm/fixture';
import { deployedOnce } from './evm_tvm.util';

const E = Errors.bridge;
const EC = Errors.eventConfiguration;
const PAYLOAD_CELL = beginCell().storeUint(0xcafe, 16).storeRef(beginCell().storeUint(7, 8)).endCell();
const PAYLOAD = '0x' + PAYLOAD_CELL.toBoc().toString('hex');
const NATIVE_ROOT = Address.parse('0:' + '5e'.repeat(32));

async function mined(tx: Promise<{ wait(): Promise<TransactionReceipt | null> }>): Promise<TransactionReceipt> {
    const r = await (await tx).wait();
    if (!r) throw new Error('no receipt');
    return r;
}

/** ERC-20 deposit (AlienTransfer), 2 blocks mined on top (eventBlocksToConfirm). */
async function depositAlien(
    s: EvmTvmSetup,
    amount = 5_000_000n,
    creditGas = 777n,
    confirmations = 2,
): Promise<TransactionReceipt> {
    const user = s.evm.signers.user;
    await mined((s.evm.token.connect(user) as Contract).getFunction('approve')(s.evm.vaultAddress, amount));
    const r = await mined(
        s.evm.vaultAs(user).getFunction('deposit')(
            depositParams(tvmRecipient(s.recipient.address), s.evm.tokenAddress, amount, {
                expectedGas: 123_456n,
                payload: PAYLOAD,
            }),
            { value: creditGas },
        ),
    );
    if (confirmations) await s.evm.mine(confirmations);
    return r;
}

async function depositWeth(s: EvmTvmSetup, amount = 10n ** 15n, creditGas = 999n): Promise<TransactionReceipt> {
    const r = await mined(
        s.evm.vaultAs(s.evm.signers.user).getFunction('depositByNativeToken')(
            depositNativeTokenParams(tvmRecipient(s.recipient.address), { creditGas, expectedGas: 5n, payload: '0x' }),
            { value: amount + creditGas },
        ),
    );
    await s.evm.mine(2);
    return r;
}

/** A representation of NATIVE_ROOT deployed and minted to the user, then deposited (burned): NativeTransfer. */
async function depositNative(s: EvmTvmSetup, amount = 4_000n): Promise<TransactionReceipt> {
    const { governance, user } = s.evm.signers;
    const root = tvmRecipient(NATIVE_ROOT);
    await mined(s.evm.vaultAs(governance).getFunction('deployNativeToken')(root.wid, root.addr, 'Toncoin', 'TON', 9));
    const token: string = await s.evm.vault.getFunction('predictNativeTokenAddress')(root.wid, root.addr);
    await mined(s.evm.vaultAs(governance).getFunction('testMintNative')(token, user.address, 10n ** 12n));
    const r = await mined(
        s.evm.vaultAs(user).getFunction('deposit')(
            depositParams(tvmRecipient(s.recipient.address), token, amount, { expectedGas: 9n, payload: PAYLOAD }),
        ),
    );
    await s.evm.mine(2);
    return r;
}

/** The on_evm_event_confirmed_extended the proxy received in `result`. */
function forwardedTo(result: SendMessageResult, proxy: Address) {
    const tx = result.transactions.find((t) => {
        const m = t.inMessage;
        if (!m || m.info.type !== 'internal' || !m.info.dest.equals(proxy)) return false;
        const s = m.body.beginParse();
        return s.remainingBits >= 32 && s.loadUint(32) === OpEvm.onEvmEventConfirmedExtended;
    });
    if (!tx) throw new Error('no on_evm_event_confirmed_extended to the proxy');
    const info = tx.inMessage!.info as { src: Address; value: { coins: bigint } };
    return { sender: info.src, value: info.value.coins, msg: parseOnEvmEventConfirmedExtended(tx.inMessage!.body) };
}

async function voteData(s: EvmTvmSetup, receipt: TransactionReceipt, c = s.alienConfiguration): Promise<EventVoteData> {
    const config = await readConfiguration(c, s.blockchain);
    return voteDataOf(
        findDepositEvent(receipt, [config.eventAbi], {
            vault: s.evm.vaultAddress,
            name: config.eventAbi.name as 'AlienTransfer',
        }),
        config.eventAbi,
        config.flags,
    );
}

async function deploy(
    s: EvmTvmSetup,
    v: EventVoteData,
    value = EVENT_INITIAL_BALANCE,
    c = s.alienConfiguration,
    via = s.relayer,
) {
    return via.send({ to: c.address, value, body: EvmTvmEventConfiguration.deployEventMessage(v) });
}

async function eventOf(s: EvmTvmSetup, v: EventVoteData, c = s.alienConfiguration) {
    const address = await c.getDeriveEventAddress(
        v.eventTransaction,
        BigInt(v.eventIndex),
        v.eventData,
        BigInt(v.eventBlockNumber),
        v.eventBlock,
    );
    return s.blockchain.openContract(MultiVaultEvmTvmEventAlien.createFromAddress(address));
}

/** evmTvmSetup with no options, deployed once (deployedOnce: both networks restored on each call). */
const freshSetup = deployedOnce(
    () => evmTvmSetup(hre),
    (s) => s.blockchain,
);

describe('EVM -> TVM (relay-voted)', () => {
    describe('deposits confirmed end to end', () => {
        it('should confirm an ERC-20 deposit in credit mode and forward the decoded AlienTransfer to the alien proxy', async () => {
            const s = await freshSetup();
            const receipt = await depositAlien(s, 5_000_000n, 777n);
            const service = new EvmRelayService(
                s.evm,
                s.blockchain,
                s.alienConfiguration,
                s.relays,
                s.relayer,
                toNano('0.5'),
            );
            const [p] = await service.poll();
            expect(p.eventAddress.equals(await (await eventOf(s, p.voteData)).address)).toBe(true);
            expect(p.deploy.transactions).toHaveTransaction({
                from: s.alienConfiguration.address,
                to: p.eventAddress,
                deploy: true,
                success: true,
            });
            expect(p.votes).toHaveLength(s.relays.requiredVotes);

            const event = s.blockchain.openContract(MultiVaultEvmTvmEventAlien.createFromAddress(p.eventAddress));
            const details = await event.getGetDetails();
            expect(Number(details.status)).toBe(EvmEventStatus.Confirmed);
            expect(Number(details.confirms)).toBe(3);
            expect(Number(details.requiredVotes)).toBe(3);
            expect(details.initializer!.equals(s.relayer.address)).toBe(true);
            expect(details.voteData.eventTransaction).toBe(BigInt(receipt.hash));

            const last = p.votes[p.votes.length - 1];
            expect(last.transactions).toHaveTransaction({
                from: p.eventAddress,
                to: s.alienConfiguration.address,
                success: true,
            });
            const f = forwardedTo(last, s.alienProxy.address);
            expect(f.sender.equals(s.alienConfiguration.address)).toBe(true);
            expect(f.msg.eventAddress.equals(p.eventAddress)).toBe(true);
            expect(f.msg.chainId).toBe(31337);
            expect(f.msg.eventTransaction).toBe(BigInt(receipt.hash));
            expect(f.msg.eventIndex).toBe(p.event.logIndex);
            expect(f.msg.remainingGasTo.equals(s.relayer.address)).toBe(true);
            expect(f.value).toBeGreaterThan(toNano('1.3')); // the Event's balance less the votes and its reserve
            const t = parseAlienTransfer(f.msg.transfer);
            expect(t).toMatchObject({
                baseChainId: 31337n,
                baseToken: BigInt(s.evm.tokenAddress),
                name: 'Test Token',
                symbol: 'TST',
                decimals: 6,
                amount: 5_000_000n,
                value: 777n,
                expectedGas: 123_456n,
            });
            expect(t.recipient.equals(s.recipient.address)).toBe(true);
            expect(t.payload!.equals(PAYLOAD_CELL)).toBe(true);
            // the Event shows the same decoding
            const decoded = await event.getGetDecodedData();
            expect(decoded.amount).toBe(5_000_000n);
            expect(decoded.recipient.equals(s.recipient.address)).toBe(true);
        });

        it('should wait for eventBlocksToConfirm before the relays deploy and vote', async () => {
            const s = await freshSetup();
            await depositAlien(s, 1_000n, 0n, 0);
            const service = new EvmRelayService(s.evm, s.blockchain, s.alienConfiguration, s.relays, s.relayer);
            expect(await service.poll()).toEqual([]);
            await s.evm.mine(1);
            expect(await service.poll()).toEqual([]);
            await s.evm.mine(1);
            const done = await service.poll();
            expect(done).toHaveLength(1);
            expect(await service.poll()).toEqual([]); // processed once
        });

        it('should confirm a depositByNativeToken (WETH) the same way', async () => {
            const s = await freshSetup();
            await depositWeth(s, 10n ** 15n, 999n);
            const service = new EvmRelayService(s.evm, s.blockchain, s.alienConfiguration, s.relays, s.relayer);
            const [p] = await service.poll();
            const f = forwardedTo(p.votes[p.votes.length - 1], s.alienProxy.address);
            const t = parseAlienTransfer(f.msg.transfer);
            expect(t).toMatchObject({
                baseChainId: 31337n,
                baseToken: BigInt(await s.evm.weth.getAddress()),
                amount: 10n ** 15n,
                value: 999n,
                expectedGas: 5n,
                payload: null,
            });
            expect(t.recipient.equals(s.recipient.address)).toBe(true);
        });

        it('should confirm a NativeTransfer through the Native configuration to the native proxy', async () => {
            const s = await freshSetup();
            const receipt = await depositNative(s, 4_000n);
            const service = new EvmRelayService(s.evm, s.blockchain, s.nativeConfiguration, s.relays, s.relayer);
            const [p] = await service.poll();
            expect(p.event.name).toBe('NativeTransfer');
            expect(p.event.transactionHash).toBe(receipt.hash);
            const event = s.blockchain.openContract(MultiVaultEvmTvmEventNative.createFromAddress(p.eventAddress));
            expect(Number(await event.getGetStatus())).toBe(EvmEventStatus.Confirmed);
            const f = forwardedTo(p.votes[p.votes.length - 1], s.nativeProxy.address);
            expect(f.sender.equals(s.nativeConfiguration.address)).toBe(true);
            const t = parseNativeTransfer(f.msg.transfer);
            expect(t.token.equals(NATIVE_ROOT)).toBe(true);
            expect(t.recipient.equals(s.recipient.address)).toBe(true);
            expect(t).toMatchObject({ amount: 4_000n, value: 0n, expectedGas: 9n });
            expect(t.payload!.equals(PAYLOAD_CELL)).toBe(true);
            expect((await event.getGetDecodedData()).token.equals(NATIVE_ROOT)).toBe(true);
        });

        it('should complete in non-credit mode by the spec procedure: the user deploys, the relays vote', async () => {
            const s = await freshSetup();
            const receipt = await depositAlien(s, 1_000n, 0n);
            const d = await deployEventNonCredit(s.evm, s.alienConfiguration, s.user, receipt.hash);
            expect(d.event.name).toBe('AlienTransfer');
            expect(d.result.transactions).toHaveTransaction({
                from: s.user.address,
                to: s.alienConfiguration.address,
                success: true,
            });
            expect(d.result.transactions).toHaveTransaction({ to: d.eventAddress, deploy: true, success: true });
            const event = s.blockchain.openContract(MultiVaultEvmTvmEventAlien.createFromAddress(d.eventAddress));
            expect(Number(await event.getGetStatus())).toBe(EvmEventStatus.Pending);
            let last: SendMessageResult | undefined;
            // each relay reads the configuration on its own network
            const relayView = await readConfiguration(s.alienConfiguration, s.blockchain);
            for (const relay of s.relays.relays.slice(0, 3)) {
                const verdict = await verifyVoteData(s.evm, relayView, d.voteData);
                expect(verdict.kind).toBe(VoteKind.Confirm);
                last = await relay.confirm(s.blockchain, d.eventAddress);
            }
            const f = forwardedTo(last!, s.alienProxy.address);
            expect(f.msg.remainingGasTo.equals(s.user.address)).toBe(true);
            expect(parseAlienTransfer(f.msg.transfer).amount).toBe(1_000n);
            const details = await event.getGetDetails();
            expect(details.initializer!.equals(s.user.address)).toBe(true);
        });
    });

    describe('configuration view', () => {
        it('should show _basicConfiguration, _networkConfiguration, _meta and readable flags (getDetails, getFlags)', async () => {
            const s = await freshSetup();
            const d = await s.alienConfiguration.getGetDetails();
            const abi = JSON.parse(Buffer.from(d.basicConfiguration.eventABI, 'base64').toString('utf8'));
            expect(abi).toMatchObject({ type: 'event', name: 'AlienTransfer' });
            expect(abi.inputs.map((i: { type: string }) => i.type)).toEqual([
                'uint256',
                'uint160',
                'string',
                'string',
                'uint8',
                'uint128',
                'int8',
                'uint256',
                'uint256',
                'uint256',
                'bytes',
            ]);
            expect(d.basicConfiguration.roundDeployer.equals(s.bridge.address)).toBe(true);
            expect(d.basicConfiguration.eventInitialBalance).toBe(EVENT_INITIAL_BALANCE);
            expect(d.basicConfiguration.eventCode.equals(await MultiVaultEvmTvmEventAlien.code())).toBe(true);
            expect(d.networkConfiguration).toMatchObject({
                chainId: 31337n,
                eventEmitter: BigInt(s.evm.vaultAddress),
                eventBlocksToConfirm: 2n,
                startBlockNumber: 0n,
                endBlockNumber: 0n,
            });
            expect(d.networkConfiguration.proxy.equals(s.alienProxy.address)).toBe(true);
            expect(d.meta.equals(beginCell().endCell())).toBe(true);
            const f = await s.alienConfiguration.getGetFlags();
            expect(f).toMatchObject({ flags: 3n, addressPairs: true, bytesAsBoc: true, eventType: 0n });
            expect(Number((await s.nativeConfiguration.getGetFlags()).eventType)).toBe(1);
            const st = parseBridgeState((await s.alienConfiguration.getGetBridgeState())!);
            expect(st).toMatchObject({
                round: 1,
                registered: true,
                active: true,
                paused: false,
                configurationActive: true,
                requiredVotes: 3,
            });
        });
    });

    describe('votes', () => {
        async function pending(s: EvmTvmSetup) {
            const v = await voteData(s, await depositAlien(s));
            await deploy(s, v);
            return { v, event: await eventOf(s, v) };
        }

        it('should refuse a vote from a key that is not a relay of the round (2337) at no cost to the Event', async () => {
            const s = await freshSetup();
            const { event } = await pending(s);
            const before = (await s.blockchain.getContract(event.address)).balance;
            expect(await refusedExternal(EvmRelay.fromSeed('intruder').confirm(s.blockchain, event.address))).toBe(
                ErrorsEvm.notRelay,
            );
            expect((await s.blockchain.getContract(event.address)).balance).toBe(before);
            expect(Number((await event.getGetDetails()).confirms)).toBe(0);
        });

        it('should count a relay once: its replayed message and any new vote are refused (2338)', async () => {
            const s = await freshSetup();
            const { event } = await pending(s);
            const relay = s.relays.relays[0];
            const body = relay.voteBody(
                event.address,
                VoteKind.Confirm,
                Math.floor(Date.now() / 1000) + 600,
                globalIdOf(s.blockchain),
            );
            const { external } = await import('@ton/core');
            await s.blockchain.sendMessage(external({ to: event.address, body }));
            expect(await refusedExternal(s.blockchain.sendMessage(external({ to: event.address, body })))).toBe(
                ErrorsEvm.alreadyVoted,
            );
            expect(await refusedExternal(relay.confirm(s.blockchain, event.address))).toBe(ErrorsEvm.alreadyVoted);
            expect(await refusedExternal(relay.reject(s.blockchain, event.address))).toBe(ErrorsEvm.alreadyVoted);
            const d = await event.getGetDetails();
            expect(Number(d.confirms)).toBe(1);
            expect(Number(d.rejects)).toBe(0);
            expect((await event.getGetVoters()).get(relay.publicKey)).toBe(VoteKind.Confirm);
        });

        it('should refuse a vote addressed to another Event (2336), a bad signature (2339), an expired vote (2340), a bad kind (2342)', async () => {
            const s = await freshSetup();
            const { event } = await pending(s);
            const relay = s.relays.relays[1];
            const { external } = await import('@ton/core');
            // signed for another Event, replayed here
            const other = Address.parse('0:' + '11'.repeat(32));
            expect(
                await refusedExternal(
                    relay.vote(s.blockchain, event.address, VoteKind.Confirm, { voteReceiver: other }),
                ),
            ).toBe(ErrorsEvm.wrongVoteReceiver);
            // signed by another key in the relay's name
            const { evmEventVoteBody } = await import('../wrappers/EvmTvmEventConfiguration');
            const forged = evmEventVoteBody(
                {
                    kind: VoteKind.Confirm,
                    voteReceiver: event.address,
                    validUntil: Math.floor(Date.now() / 1000) + 60,
                    globalId: globalIdOf(s.blockchain),
                    publicKey: relay.keys.publicKey,
                    secretKey: relay.keys.secretKey,
                },
                EvmRelay.fromSeed('intruder').keys.secretKey,
            );
            expect(await refusedExternal(s.blockchain.sendMessage(external({ to: event.address, body: forged })))).toBe(
                ErrorsEvm.invalidSignature,
            );
            expect(
                await refusedExternal(relay.vote(s.blockchain, event.address, VoteKind.Confirm, { validUntil: 1000 })),
            ).toBe(ErrorsEvm.voteExpired);
            expect(await refusedExternal(relay.vote(s.blockchain, event.address, 3 as VoteKind))).toBe(
                ErrorsEvm.wrongVoteKind,
            );
            expect(Number((await event.getGetDetails()).confirms)).toBe(0);
        });

        it('should refuse votes once the Event is confirmed (2312)', async () => {
            const s = await freshSetup();
            const { event } = await pending(s);
            for (const r of s.relays.relays.slice(0, 3)) await r.confirm(s.blockchain, event.address);
            expect(Number(await event.getGetStatus())).toBe(EvmEventStatus.Confirmed);
            expect(await refusedExternal(s.relays.relays[3].confirm(s.blockchain, event.address))).toBe(
                Errors.event.eventNotPending,
            );
        });

        it('should reject forged vote data: the relays check the EVM and vote reject; the balance goes back to the initializer', async () => {
            const s = await freshSetup();
            const real = await voteData(s, await depositAlien(s, 10n));
            // the same deposit with a larger amount: a different eventData, so a different Event
            const { convertEventData } = await import('../harness/evm/eventData');
            const config = await readConfiguration(s.alienConfiguration, s.blockchain);
            const log = findDepositEvent(
                await s.evm.receipt('0x' + real.eventTransaction.toString(16).padStart(64, '0')),
                [config.eventAbi],
                { name: 'AlienTransfer' },
            );
            const values = AbiCoder.defaultAbiCoder().decode(config.eventAbi.inputs, log.data).toArray();
            values[5] = 65_535n; // amount
            const forgedData = AbiCoder.defaultAbiCoder().encode(config.eventAbi.inputs, values);
            expect(forgedData).not.toBe(log.data);
            const forged: EventVoteData = {
                ...real,
                eventData: convertEventData(config.eventAbi, forgedData, config.flags),
            };
            await deploy(s, forged, EVENT_INITIAL_BALANCE, s.alienConfiguration, s.user);
            const event = await eventOf(s, forged);
            expect(Number(await event.getGetStatus())).toBe(EvmEventStatus.Pending);
            const verdict = await verifyVoteData(s.evm, config, forged);
            expect(verdict).toEqual({ kind: VoteKind.Reject, reason: 'eventData' });
            let last: SendMessageResult | undefined;
            for (const r of s.relays.relays.slice(0, 3))
                last = await r.vote(s.blockchain, event.address, VoteKind.Reject);
            expect(Number(await event.getGetStatus())).toBe(EvmEventStatus.Rejected);
            expect(last!.transactions).toHaveTransaction({ from: event.address, to: s.user.address, success: true });
            expect(last!.transactions).not.toHaveTransaction({ to: s.alienConfiguration.address });
        });

        it('should refuse a vote the Event cannot pay for (2341)', async () => {
            const s = await freshSetup();
            const { event } = await pending(s);
            const c = await s.blockchain.getContract(event.address);
            c.balance = toNano('0.01');
            expect(await refusedExternal(s.relays.relays[0].confirm(s.blockchain, event.address))).toBe(
                ErrorsEvm.eventBalanceTooLow,
            );
        });
    });

    describe('delivery failures', () => {
        async function confirmed(s: EvmTvmSetup) {
            const v = await voteData(s, await depositAlien(s));
            await deploy(s, v, toNano('2'));
            const event = await eventOf(s, v);
            for (const r of s.relays.relays.slice(0, 3)) await r.confirm(s.blockchain, event.address);
            expect(Number(await event.getGetStatus())).toBe(EvmEventStatus.Confirmed);
            return event;
        }

        it('should go back to Verified when the proxy reports a failed delivery, and deliver again on retry', async () => {
            const s = await freshSetup();
            const event = await confirmed(s);
            // only the configuration's proxy (2331), only in Confirmed (2316)
            const fail = (via = s.alienProxy, value = toNano('1.5')) =>
                via.send({ to: event.address, value, body: evmEventDeliveryFailedMessage(s.recipient.address) });
            expect((await fail(s.user)).transactions).toHaveTransaction({
                to: event.address,
                exitCode: Errors.event.senderNotProxy,
            });
            const r = await fail();
            expect(r.transactions).toHaveTransaction({
                from: event.address,
                to: s.recipient.address,
                value: (x) => x! > toNano('1.4'),
            });
            expect(Number(await event.getGetStatus())).toBe(EvmEventStatus.Verified);
            expect((await fail()).transactions).toHaveTransaction({
                to: event.address,
                exitCode: Errors.event.eventNotConfirmed,
            });
            // votes are over
            expect(await refusedExternal(s.relays.relays[3].confirm(s.blockchain, event.address))).toBe(
                Errors.event.eventNotPending,
            );

            const retry = (value: bigint) =>
                s.user.send({ to: event.address, value, body: evmEventRetryMessage(s.user.address) });
            expect((await retry(toNano('0.01'))).transactions).toHaveTransaction({
                to: event.address,
                exitCode: Errors.event.tooLowMsgValue,
            });
            const again = await retry(toNano('1'));
            expect(Number(await event.getGetStatus())).toBe(EvmEventStatus.Confirmed);
            const f = forwardedTo(again, s.alienProxy.address);
            expect(f.msg.remainingGasTo.equals(s.user.address)).toBe(true);
            expect(parseAlienTransfer(f.msg.transfer).amount).toBe(5_000_000n);
            expect((await retry(toNano('1'))).transactions).toHaveTransaction({
                to: event.address,
                exitCode: Errors.event.wrongStatus,
            });
        });
        it('should keep the last error code, and take the refusal of an unlisting proxy (2701) from its configuration only', async () => {
            const s = await freshSetup();
            const event = await confirmed(s);
            expect(Number(await event.getGetLastErrorCode())).toBe(0);
            await s.alienProxy.send({
                to: event.address,
                value: toNano('0.5'),
                body: evmEventDeliveryFailedMessage(s.recipient.address, 0n, Errors.proxy.proxyPaused),
            });
            expect(Number(await event.getGetLastErrorCode())).toBe(Errors.proxy.proxyPaused);
            // evm_event_delivery_refused: the configuration takes it from its proxy only (2331) and
            // passes it on; the Event takes evm_event_delivery_failed from its configuration
            const again = await s.user.send({
                to: event.address,
                value: toNano('1'),
                body: evmEventRetryMessage(s.user.address),
            });
            expect(Number(await event.getGetStatus())).toBe(EvmEventStatus.Confirmed);
            const refused = evmEventDeliveryRefusedMessage(
                event.address,
                s.recipient.address,
                Errors.proxy.notEvmConfig,
            );
            expect(
                (await s.user.send({ to: s.alienConfiguration.address, value: toNano('0.5'), body: refused }))
                    .transactions,
            ).toHaveTransaction({ to: s.alienConfiguration.address, exitCode: Errors.event.senderNotProxy });
            const r = await s.alienProxy.send({
                to: s.alienConfiguration.address,
                value: toNano('0.5'),
                body: refused,
            });
            expect(r.transactions).toHaveTransaction({
                from: s.alienConfiguration.address,
                to: event.address,
                op: OpEvm.evmEventDeliveryFailed,
                success: true,
            });
            expect(Number(await event.getGetStatus())).toBe(EvmEventStatus.Verified);
            expect(Number(await event.getGetLastErrorCode())).toBe(Errors.proxy.notEvmConfig);
            expect(again.transactions).toHaveTransaction({ to: s.alienProxy.address });
        });

        it('should take daily_limit_reached only from the proxy (2331), only in Confirmed (2316) -> LimitReached', async () => {
            const s = await freshSetup();
            const event = await confirmed(s);
            const approver = await s.blockchain.treasury('approver');
            const limit = (via = s.alienProxy) =>
                via.send({
                    to: event.address,
                    value: toNano('0.5'),
                    body: dailyLimitReachedMessage(approver.address, s.recipient.address),
                });
            expect((await limit(s.user)).transactions).toHaveTransaction({
                to: event.address,
                exitCode: Errors.event.senderNotProxy,
            });
            expect((await limit()).transactions).toHaveTransaction({ from: event.address, to: s.recipient.address });
            expect(Number(await event.getGetStatus())).toBe(EvmEventStatus.LimitReached);
            expect((await event.getGetLimitApprover())!.equals(approver.address)).toBe(true);
            expect((await limit()).transactions).toHaveTransaction({
                to: event.address,
                exitCode: Errors.event.eventNotConfirmed,
            });
            // the relay-voted delivery carries limit_approved once approved
            const r = await approver.send({
                to: event.address,
                value: toNano('1'),
                body: limitActionMessage('approveLimit'),
            });
            expect(forwardedTo(r, s.alienProxy.address).msg.limitApproved).toBe(true);
            expect(Number(await event.getGetStatus())).toBe(EvmEventStatus.Confirmed);
            // approved survives a failed delivery and the retry
            await s.alienProxy.send({
                to: event.address,
                value: toNano('0.5'),
                body: evmEventDeliveryFailedMessage(s.user.address),
            });
            const retried = await s.user.send({
                to: event.address,
                value: toNano('1'),
                body: evmEventRetryMessage(s.user.address),
            });
            expect(forwardedTo(retried, s.alienProxy.address).msg.limitApproved).toBe(true);
        });
    });

    describe('deployEvent', () => {
        it('should take the raw body of the spec: SHA-256 function id, then the fields, eventData as the reference', async () => {
            const id = createHash('sha256')
                .update('deployEvent((uint256,uint32,cell,uint32,uint256))()')
                .digest()
                .readUInt32BE(0);
            expect(OpEvm.deployEvmEvent).toBe(id);
            const v: EventVoteData = {
                eventTransaction: 1n,
                eventIndex: 2,
                eventData: beginCell().storeUint(3, 8).endCell(),
                eventBlockNumber: 4,
                eventBlock: 5n,
            };
            const body = EvmTvmEventConfiguration.deployEventMessage(v);
            const manual = beginCell()
                .storeUint(id, 32)
                .storeUint(1n, 256)
                .storeUint(2, 32)
                .storeUint(4, 32)
                .storeUint(5n, 256)
                .storeRef(v.eventData)
                .endCell();
            expect(body.equals(manual)).toBe(true);
            expect(
                beginCell()
                    .store(
                        storeDeployEvmEvent({
                            $$type: 'DeployEvmEvent',
                            voteData: { $$type: 'EvmEventVoteData', ...v, eventIndex: 2n, eventBlockNumber: 4n },
                        }),
                    )
                    .endCell()
                    .equals(manual),
            ).toBe(true);
        });

        it('should derive the Event address from the vote data as the Event itself is built (deriveEventAddress)', async () => {
            const s = await freshSetup();
            const v = await voteData(s, await depositAlien(s));
            const { eventCode } = await readConfiguration(s.alienConfiguration, s.blockchain);
            const onChain = (await eventOf(s, v)).address;
            expect(onChain.equals(evmEventAddress(eventCode, s.alienConfiguration.address, v))).toBe(true);
            const generated = await GeneratedAlien.fromInit(
                s.alienConfiguration.address,
                {
                    $$type: 'EvmEventVoteData',
                    ...v,
                    eventIndex: BigInt(v.eventIndex),
                    eventBlockNumber: BigInt(v.eventBlockNumber),
                },
                0n,
                null,
            );
            expect(generated.address.equals(onChain)).toBe(true);
            // any change of the vote data moves the address
            expect(
                evmEventAddress(eventCode, s.alienConfiguration.address, { ...v, eventIndex: v.eventIndex + 1 }).equals(
                    onChain,
                ),
            ).toBe(false);
        });

        it('should refuse a value below eventInitialBalance (2213) and return it', async () => {
            const s = await freshSetup();
            const v = await voteData(s, await depositAlien(s));
            const r = await deploy(s, v, EVENT_INITIAL_BALANCE - 1n);
            expect(r.transactions).toHaveTransaction({
                to: s.alienConfiguration.address,
                success: false,
                exitCode: EC.tooLowDeployValue,
            });
            expect(r.transactions).toHaveTransaction({
                from: s.alienConfiguration.address,
                to: s.relayer.address,
                inMessageBounced: true,
            });
            expect((await s.blockchain.getContract((await eventOf(s, v)).address)).accountState?.type).not.toBe(
                'active',
            );
        });

        it('should refuse a block below startBlockNumber (2210), and after endBlockNumber once set (2215)', async () => {
            const s = await evmTvmSetup(hre, { startBlockNumber: 1_000_000 });
            const v = await voteData(s, await depositAlien(s));
            expect((await deploy(s, v)).transactions).toHaveTransaction({
                to: s.alienConfiguration.address,
                exitCode: EC.eventBlockNumberLessThanStart,
            });

            const t = await evmTvmSetup(hre);
            const w = await voteData(t, await depositAlien(t));
            const setEnd = (n: number, via = t.owner) =>
                via.send({
                    to: t.alienConfiguration.address,
                    value: toNano('0.1'),
                    body: EvmTvmEventConfiguration.setEndBlockNumberMessage(n),
                });
            expect((await setEnd(1, t.user)).transactions).toHaveTransaction({
                to: t.alienConfiguration.address,
                exitCode: ErrorsEvm.notOwner,
            });
            expect((await setEnd(w.eventBlockNumber - 1)).transactions).toHaveTransaction({
                to: t.alienConfiguration.address,
                success: true,
            });
            expect((await setEnd(w.eventBlockNumber + 5)).transactions).toHaveTransaction({
                to: t.alienConfiguration.address,
                exitCode: EC.endTimestampAlreadySet,
            });
            expect((await deploy(t, w)).transactions).toHaveTransaction({
                to: t.alienConfiguration.address,
                exitCode: EC.eventTimestampAfterEnd,
            });
            const u = await evmTvmSetup(hre, { startBlockNumber: 50 });
            expect(
                (
                    await u.owner.send({
                        to: u.alienConfiguration.address,
                        value: toNano('0.1'),
                        body: EvmTvmEventConfiguration.setEndBlockNumberMessage(49),
                    })
                ).transactions,
            ).toHaveTransaction({
                to: u.alienConfiguration.address,
                exitCode: EC.endTimestampLessThanStart,
            });
        });

        it('should refuse eventData that does not parse by the configured event and flags (2214)', async () => {
            const s = await freshSetup();
            const v = await voteData(s, await depositAlien(s));
            const r = await deploy(s, { ...v, eventData: beginCell().storeUint(1, 8).endCell() });
            expect(r.transactions).toHaveTransaction({
                to: s.alienConfiguration.address,
                exitCode: ErrorsEvm.wrongEventData,
            });
            // an AlienTransfer's data sent to the Native configuration
            const n = await deploy(s, v, EVENT_INITIAL_BALANCE, s.nativeConfiguration);
            expect(n.transactions).toHaveTransaction({
                to: s.nativeConfiguration.address,
                exitCode: ErrorsEvm.wrongEventData,
            });
        });

        it('should deploy the same deposit once: a second deployEvent changes nothing and gets its value back', async () => {
            const s = await freshSetup();
            const v = await voteData(s, await depositAlien(s));
            await deploy(s, v);
            const event = await eventOf(s, v);
            await s.relays.relays[0].confirm(s.blockchain, event.address);
            const before = (await s.blockchain.getContract(event.address)).account;
            const dataBefore =
                before.account!.storage.state.type === 'active'
                    ? before.account!.storage.state.state.data!.hash()
                    : null;

            const r = await deploy(s, v, toNano('1.5'), s.alienConfiguration, s.user);
            expect(r.transactions).toHaveTransaction({
                from: s.alienConfiguration.address,
                to: event.address,
                success: true,
                deploy: false,
            });
            const back = r.transactions.find(
                (t) =>
                    t.inMessage?.info.type === 'internal' &&
                    t.inMessage.info.dest.equals(s.user.address) &&
                    t.inMessage.info.src.equals(event.address),
            );
            expect(back).toBeDefined();
            const body = back!.inMessage!.body.beginParse();
            expect(body.loadUint(32)).toBe(OpEvm.evmEventAlreadyDeployed);
            expect(body.loadUint(8)).toBe(EvmEventStatus.Pending);
            expect((back!.inMessage!.info as { value: { coins: bigint } }).value.coins).toBeGreaterThan(toNano('1.45')); // less the configuration's and the Event's gas and fees
            const after = (await s.blockchain.getContract(event.address)).account;
            const dataAfter =
                after.account!.storage.state.type === 'active' ? after.account!.storage.state.state.data!.hash() : null;
            expect(dataAfter!.equals(dataBefore!)).toBe(true);
            const d = await event.getGetDetails();
            expect(d.initializer!.equals(s.relayer.address)).toBe(true);
            expect(Number(d.confirms)).toBe(1);
        });

        it('should take evm_event_confirmed only from the derived Event (2212)', async () => {
            const s = await freshSetup();
            const v = await voteData(s, await depositAlien(s));
            const r = await s.user.send({
                to: s.alienConfiguration.address,
                value: toNano('1'),
                body: EvmTvmEventConfiguration.evmEventConfirmedMessage(v, s.user.address),
            });
            expect(r.transactions).toHaveTransaction({
                to: s.alienConfiguration.address,
                exitCode: EC.senderNotEventContract,
            });
            expect(r.transactions).not.toHaveTransaction({ to: s.alienProxy.address });
        });
    });

    describe('Bridge', () => {
        async function deployedWith(s: EvmTvmSetup, body: Cell) {
            await s.ownerSend(body);
            const v = await voteData(s, await depositAlien(s));
            return deploy(s, v);
        }

        it('should compute requiredVotes = keys * 2 / 3 + 1 and push the round to the configurations', async () => {
            const s = await freshSetup();
            expect(Number(await s.bridge.getRequiredVotes())).toBe(3);
            for (const [n, want] of [
                [1, 1],
                [2, 2],
                [3, 3],
                [6, 5],
                [7, 5],
                [100, 67],
            ] as const) {
                await s.ownerSend(Bridge.setRelaysMessage(2, RelaySet.generate(n, `r${n}`).publicKeys), toNano('1'));
                expect(Number(await s.bridge.getRequiredVotes())).toBe(want);
                const st = parseBridgeState((await s.alienConfiguration.getGetBridgeState())!);
                expect(st.requiredVotes).toBe(want);
                expect(st.relays.size).toBe(n);
            }
        });

        it('should snapshot the relay keys at deployment: a new round does not change deployed Events', async () => {
            const s = await freshSetup();
            const v = await voteData(s, await depositAlien(s));
            await deploy(s, v);
            const oldEvent = await eventOf(s, v);
            const next = RelaySet.generate(3, 'round2');
            await s.ownerSend(Bridge.setRelaysMessage(2, next.publicKeys));
            expect(await refusedExternal(next.relays[0].confirm(s.blockchain, oldEvent.address))).toBe(
                ErrorsEvm.notRelay,
            );
            for (const r of s.relays.relays.slice(0, 3)) await r.confirm(s.blockchain, oldEvent.address);
            expect(Number(await oldEvent.getGetStatus())).toBe(EvmEventStatus.Confirmed);

            const w = await voteData(s, await depositAlien(s));
            await deploy(s, w);
            const newEvent = await eventOf(s, w);
            expect(Number((await newEvent.getGetDetails()).round)).toBe(2);
            expect(await refusedExternal(s.relays.relays[0].confirm(s.blockchain, newEvent.address))).toBe(
                ErrorsEvm.notRelay,
            );
            for (const r of next.relays) await r.confirm(s.blockchain, newEvent.address);
            expect(Number(await newEvent.getGetStatus())).toBe(EvmEventStatus.Confirmed);
        });

        it('should refuse deployEvent while the bridge is not active (2102)', async () => {
            const s = await freshSetup();
            const r = await deployedWith(s, Bridge.setActiveMessage(false));
            expect(r.transactions).toHaveTransaction({
                to: s.alienConfiguration.address,
                success: false,
                exitCode: E.bridgeNotActive,
            });
            expect(r.transactions).toHaveTransaction({
                from: s.alienConfiguration.address,
                to: s.relayer.address,
                inMessageBounced: true,
            });
        });

        it('should refuse deployEvent while the bridge is paused (2108)', async () => {
            const s = await freshSetup();
            const r = await deployedWith(s, Bridge.setPausedMessage(true));
            expect(r.transactions).toHaveTransaction({ to: s.alienConfiguration.address, exitCode: E.bridgePaused });
            await s.ownerSend(Bridge.setPausedMessage(false));
            const v = await voteData(s, await depositAlien(s));
            expect((await deploy(s, v)).transactions).toHaveTransaction({
                to: s.alienConfiguration.address,
                success: true,
            });
        });

        it('should refuse deployEvent on a configuration that is not active (2103)', async () => {
            const s = await freshSetup();
            const r = await deployedWith(s, Bridge.setConfigurationMessage(s.alienConfiguration.address, false));
            expect(r.transactions).toHaveTransaction({
                to: s.alienConfiguration.address,
                exitCode: E.eventConfigurationNotActive,
            });
            expect(await s.bridge.getGetConfiguration(s.alienConfiguration.address)).toBe(false);
        });

        it('should refuse deployEvent on a configuration that is not registered (2105), never or no more', async () => {
            const s = await evmTvmSetup(hre, { unregistered: true });
            const v = await voteData(s, await depositAlien(s));
            expect((await deploy(s, v)).transactions).toHaveTransaction({
                to: s.alienConfiguration.address,
                exitCode: E.eventConfigurationNotRegistered,
            });
            expect(await s.bridge.getGetConfiguration(s.alienConfiguration.address)).toBeNull();

            const t = await evmTvmSetup(hre);
            const r = await deployedWith(t, Bridge.removeConfigurationMessage(t.alienConfiguration.address));
            expect(r.transactions).toHaveTransaction({
                to: t.alienConfiguration.address,
                exitCode: E.eventConfigurationNotRegistered,
            });
            expect(
                (await t.ownerSend(Bridge.removeConfigurationMessage(t.alienConfiguration.address))).transactions,
            ).toHaveTransaction({
                to: t.bridge.address,
                exitCode: E.eventConfigurationNotRegistered,
            });
            expect(
                (
                    await t.user.send({
                        to: t.bridge.address,
                        value: toNano('0.5'),
                        body: Bridge.syncConfigurationMessage(t.alienConfiguration.address),
                    })
                ).transactions,
            ).toHaveTransaction({
                to: t.bridge.address,
                exitCode: E.eventConfigurationNotRegistered,
            });
        });

        it('should refuse a zero address in its setters (2112)', async () => {
            const s = await freshSetup();
            const zero = Address.parse('0:' + '00'.repeat(32));
            for (const body of [
                Bridge.setConfigurationMessage(zero, true),
                Bridge.removeConfigurationMessage(zero),
                Bridge.transferOwnershipMessage(zero),
            ]) {
                expect((await s.ownerSend(body)).transactions).toHaveTransaction({
                    to: s.bridge.address,
                    success: false,
                    exitCode: E.zeroAddress,
                });
            }
            expect((await s.bridge.getGetOwner()).equals(s.owner.address)).toBe(true);
        });

        it('should take bridge_push_state only from the bridge (2209), owner operations only from the owner (132), relays of 0 only (2113)', async () => {
            const s = await freshSetup();
            const { beginCell: bc } = await import('@ton/core');
            const fake = bc()
                .storeUint(OpEvm.bridgePushState, 32)
                .storeUint(9, 32)
                .storeBit(true)
                .storeBit(true)
                .storeBit(false)
                .storeBit(true)
                .storeUint(1, 16)
                .storeBit(false)
                .endCell();
            expect(
                (await s.user.send({ to: s.alienConfiguration.address, value: toNano('0.1'), body: fake }))
                    .transactions,
            ).toHaveTransaction({
                to: s.alienConfiguration.address,
                exitCode: EC.senderNotBridge,
            });
            expect(parseBridgeState((await s.alienConfiguration.getGetBridgeState())!).round).toBe(1);
            expect(
                (await s.user.send({ to: s.bridge.address, value: toNano('0.5'), body: Bridge.setPausedMessage(true) }))
                    .transactions,
            ).toHaveTransaction({
                to: s.bridge.address,
                exitCode: ErrorsEvm.notOwner,
            });
            const { relayMap } = await import('../wrappers/Bridge');
            const bad = relayMap([1n, 2n]);
            bad.set(2n, 1);
            expect((await s.ownerSend(Bridge.setRelaysMessage(2, bad))).transactions).toHaveTransaction({
                to: s.bridge.address,
                exitCode: ErrorsEvm.wrongRelays,
            });
            expect((await s.ownerSend(Bridge.setRelaysMessage(2, []))).transactions).toHaveTransaction({
                to: s.bridge.address,
                exitCode: ErrorsEvm.wrongRelays,
            });
        });

        it('should push again on bridge_sync_configuration (anyone) and return the rest of the value', async () => {
            const s = await freshSetup();
            const r = await s.user.send({
                to: s.bridge.address,
                value: toNano('0.5'),
                body: Bridge.syncConfigurationMessage(s.alienConfiguration.address),
            });
            expect(r.transactions).toHaveTransaction({
                from: s.bridge.address,
                to: s.alienConfiguration.address,
                success: true,
                value: toNano('0.02'),
            });
            expect(r.transactions).toHaveTransaction({ from: s.bridge.address, to: s.user.address });
        });
    });
});

describe('evm.tlb: op codes', () => {
    const crc32 = (str: string) => {
        let crc = 0xffffffff;
        for (let n = 0; n < str.length; n++) {
            let c = (crc ^ str.charCodeAt(n)) & 0xff;
            for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
            crc = (crc >>> 8) ^ c;
        }
        return ((crc ^ 0xffffffff) >>> 0) & 0x7fffffff;
    };

    it('should be CRC32 of the scheme lines (deploy_evm_event: the spec), as OpEvm and evm_messages.tact have them', () => {
        const dir = path.resolve(__dirname, '..', 'contracts', 'bridge');
        const tlb = fs.readFileSync(path.join(dir, 'evm.tlb'), 'utf8').replace(/\/\/.*$/gm, '');
        const tact = fs.readFileSync(path.join(dir, 'evm_messages.tact'), 'utf8');
        const ops = new Set<number>(Object.values(OpEvm));
        let n = 0;
        for (const m of tlb.matchAll(/^(\w+)#([0-9a-f]{8})\s+([^;]*?);/gms)) {
            const tag = parseInt(m[2], 16);
            if (m[1] !== 'deploy_evm_event') {
                expect(
                    `${m[1]} ${crc32(`${m[1]} ${m[3].replace(/\s+/g, ' ').trim()}`)
                        .toString(16)
                        .padStart(8, '0')}`,
                ).toBe(`${m[1]} ${m[2]}`);
            }
            expect(ops.has(tag)).toBe(true);
            expect(tact).toContain(`0x${m[2]};`);
            n++;
        }
        expect(n).toBeGreaterThanOrEqual(19);
    });
});
