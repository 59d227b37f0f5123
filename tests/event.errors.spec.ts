/**
 * Every refusal of TvmTvmEventConfiguration and of the TVM to TVM Event contracts, with its exact
 * exit code, and the ways out of the failure states (Rejected, Verified).
 */
import { Address, beginCell, Cell, internal, toNano } from '@ton/core';
import { SendMessageResult } from '@ton/sandbox';
import '@ton/test-utils';
import { makeValidatorSet } from '../harness/validators';
import { SyntheticChain } from '../harness/chain';
import { Errors, Op } from '../wrappers/constants';
import { EventStatus } from '../wrappers/eventStatus';
import { TvmTvmEventConfiguration } from '../wrappers/TvmTvmEventConfiguration';
import {
    EventOp,
    parseTvmEventRefused,
    processProofMessage,
    tvmEventInit,
    tvmTvmEventBody,
} from '../wrappers/tvmTvmEvent';
import { TransactionChecker } from '../wrappers/TransactionChecker';
import {
    addr,
    DEPLOY_VALUE,
    EVENT_INITIAL_BALANCE,
    eventFixture,
    EventFixture,
    SRC_CHAIN,
    T0,
    T_EMIT,
} from './event.util';

const E = Errors.event;
const C = Errors.eventConfiguration;

describe('TVM to TVM events: refusals', () => {
    let f: EventFixture;

    beforeEach(async () => {
        f = await eventFixture();
    });

    function deployBody(ev: { msgHash: bigint; index: number; proof: Cell }, payer = f.user) {
        return TvmTvmEventConfiguration.deployTvmEventMessage({
            msgHash: ev.msgHash,
            outMsgIndex: ev.index,
            remainingGasTo: payer.address,
            proof: ev.proof,
        });
    }

    function expectConfigRefused(r: SendMessageResult, cfg: { address: Address }, exitCode: number) {
        expect(r.transactions).toHaveTransaction({
            from: f.user.address,
            to: cfg.address,
            op: Op.bridge.deployTvmEvent,
            success: false,
            exitCode,
        });
        expect(r.transactions).not.toHaveTransaction({ from: cfg.address, op: Op.bridge.processProof });
        // bounced back to the sender
        expect(r.transactions).toHaveTransaction({ from: cfg.address, to: f.user.address, inMessageBounced: true });
    }

    async function confirmed(kind: 'native' | 'alien' = 'native') {
        const ev = await f.sourceEvent(kind);
        const cfg = kind === 'native' ? f.alienConfig : f.nativeConfig;
        const event = kind === 'native' ? f.alienEvent(ev.msgHash) : f.nativeEvent(ev.msgHash);
        const r = await f.deploy(cfg, ev);
        expect(r.transactions).toHaveTransaction({
            from: cfg.address,
            op: Op.bridge.onTvmEventConfirmedExtended,
            success: true,
        });
        expect(await event.getStatus()).toBe(EventStatus.Confirmed);
        return { ev, cfg, event };
    }

    /** The tvm_event_refused the Event sent to `to` (the error code), asserting there is exactly one. */
    function refusedCode(r: SendMessageResult, event: { address: Address }, to = f.user.address): number {
        const found = r.transactions.filter(
            (t) =>
                t.inMessage?.info.type === 'internal' &&
                t.inMessage.info.src.equals(event.address) &&
                t.inMessage.info.dest.equals(to) &&
                parseTvmEventRefused(t.inMessage.body) !== null,
        );
        expect(found).toHaveLength(1);
        return parseTvmEventRefused(found[0].inMessage!.body)!.errorCode;
    }

    // ------------------------------------------------------------ configuration

    describe('TvmTvmEventConfiguration', () => {
        it('2213: less than eventInitialBalance attached', async () => {
            const ev = await f.sourceEvent();
            expectConfigRefused(
                await f.deploy(f.alienConfig, ev, EVENT_INITIAL_BALANCE - 1n),
                f.alienConfig,
                C.tooLowDeployValue,
            );
            // exactly eventInitialBalance is enough
            const r = await f.deploy(f.alienConfig, ev, EVENT_INITIAL_BALANCE);
            expect(r.transactions).toHaveTransaction({
                from: f.alienConfig.address,
                to: f.alienProxy.address,
                success: true,
            });
        });

        it('2221: the proven block is of another network', async () => {
            const other = new SyntheticChain({ globalId: 7, validators: f.set, startUtime: T0 + 10 });
            const ev = await f.sourceEvent();
            expectConfigRefused(
                await f.deploy(f.alienConfig, { ...ev, proof: f.prove(ev.tx.raw, { chain: other }) }),
                f.alienConfig,
                C.wrongDispatchChainId,
            );
        });

        it('2222: msg_hash differs from the out message, or no out message at the index', async () => {
            const ev = await f.sourceEvent();
            expectConfigRefused(
                await f.deploy(f.alienConfig, { ...ev, msgHash: ev.msgHash ^ 1n }),
                f.alienConfig,
                C.wrongMessageHash,
            );
            expectConfigRefused(await f.deploy(f.alienConfig, { ...ev, index: 1 }), f.alienConfig, C.wrongMessageHash);
        });

        it('2220: the message is not from the configured emitter, or not an external out message', async () => {
            const other = await f.otherEmitter();
            const ev = await f.sourceEvent('native', undefined, { emitter: other });
            expectConfigRefused(await f.deploy(f.alienConfig, ev), f.alienConfig, C.senderIsNotEventEmitter);

            // an internal message of the right emitter
            const r = await f.emitter.send(
                f.user.getSender(),
                { value: toNano('0.2') },
                {
                    $$type: 'TestSend',
                    to: f.user.address,
                    value: toNano('0.01'),
                    code: null,
                    data: null,
                    body: tvmTvmEventBody('native', f.fields()),
                },
            );
            const tx = r.transactions.find((t) => addr(t.inMessage?.info.dest) === f.emitter.address.toString())!;
            const msgHash = TvmTvmEventConfiguration.eventMessageHash(tx.raw, 0);
            expectConfigRefused(
                await f.deploy(f.alienConfig, { msgHash, index: 0, proof: f.prove(tx.raw) }),
                f.alienConfig,
                C.senderIsNotEventEmitter,
            );
        });

        it('2211: the event is older than startTimestamp', async () => {
            const cfg = await f.makeConfig({ network: { startTimestamp: T_EMIT + 1 } });
            const ev = await f.sourceEvent();
            expectConfigRefused(await f.deploy(cfg, ev), cfg, C.eventTimestampLessThanStart);
        });

        it('2215: the event is newer than endTimestamp (endTimestamp itself is in)', async () => {
            const closed = await f.makeConfig({ network: { endTimestamp: T_EMIT - 1 } });
            const ev = await f.sourceEvent();
            expectConfigRefused(await f.deploy(closed, ev), closed, C.eventTimestampAfterEnd);
            const edge = await f.makeConfig({ network: { endTimestamp: T_EMIT } });
            const r = await f.deploy(edge, ev);
            expect(r.transactions).toHaveTransaction({ from: edge.address, op: Op.bridge.processProof, success: true });
        });

        it('2223: the event is for another network, or of the other kind', async () => {
            const ev = await f.sourceEvent('native', { destinationChainId: 1 });
            expectConfigRefused(await f.deploy(f.alienConfig, ev), f.alienConfig, C.wrongDestinationChainId);
            const alienKind = await f.sourceEvent('alien');
            expectConfigRefused(await f.deploy(f.alienConfig, alienKind), f.alienConfig, C.wrongDestinationChainId);
            const nativeKind = await f.sourceEvent('native');
            expectConfigRefused(await f.deploy(f.nativeConfig, nativeKind), f.nativeConfig, C.wrongDestinationChainId);
        });

        it('set_end_timestamp: owner only (132), 2216 before the start, 2218 once set', async () => {
            let r = await f.alienConfig.sendSetEndTimestamp(f.user.getSender(), T_EMIT);
            expect(r.transactions).toHaveTransaction({ to: f.alienConfig.address, success: false, exitCode: 132 });
            r = await f.alienConfig.sendSetEndTimestamp(f.owner.getSender(), T0 - 1);
            expect(r.transactions).toHaveTransaction({
                to: f.alienConfig.address,
                success: false,
                exitCode: C.endTimestampLessThanStart,
            });
            r = await f.alienConfig.sendSetEndTimestamp(f.owner.getSender(), T_EMIT - 1);
            expect(r.transactions).toHaveTransaction({ to: f.alienConfig.address, success: true });
            expect((await f.alienConfig.getDetails()).networkConfiguration.endTimestamp).toBe(T_EMIT - 1);
            r = await f.alienConfig.sendSetEndTimestamp(f.owner.getSender(), T_EMIT + 100);
            expect(r.transactions).toHaveTransaction({
                to: f.alienConfig.address,
                success: false,
                exitCode: C.endTimestampAlreadySet,
            });
            // and events after it are refused
            expectConfigRefused(
                await f.deploy(f.alienConfig, await f.sourceEvent()),
                f.alienConfig,
                C.eventTimestampAfterEnd,
            );
        });

        it('2212: tvm_event_confirmed not from the derived Event', async () => {
            const ev = await f.sourceEvent();
            const r = await f.user.send({
                to: f.alienConfig.address,
                value: toNano('0.5'),
                body: TvmTvmEventConfiguration.tvmEventConfirmedMessage(ev.msgHash, SRC_CHAIN, f.user.address, ev.body),
            });
            expect(r.transactions).toHaveTransaction({
                from: f.user.address,
                to: f.alienConfig.address,
                success: false,
                exitCode: C.senderNotEventContract,
            });
            expect(r.transactions).not.toHaveTransaction({ to: f.alienProxy.address });
        });
    });

    // ------------------------------------------------------------ events

    describe('Event contracts', () => {
        it('2313: process_proof not from the configuration', async () => {
            const { ev, event } = await confirmed();
            const body = processProofMessage({
                initializer: f.user.address,
                remainingGasTo: f.user.address,
                transactionChecker: f.checker.address,
                proxy: f.user.address,
                event: ev.body,
                proof: ev.proof,
            });
            const r = await f.user.send({ to: event.address, value: DEPLOY_VALUE, body });
            expect(r.transactions).toHaveTransaction({
                from: f.user.address,
                to: event.address,
                success: false,
                exitCode: E.senderNotEventConfiguration,
            });
            // also on an Event that does not exist yet (deployed by the sender with the right state init)
            const ev2 = await f.sourceEvent();
            const ghost = f.alienEvent(ev2.msgHash);
            const r2 = await f.user.send({ to: ghost.address, value: DEPLOY_VALUE, body, init: ghost.init });
            expect(r2.transactions).toHaveTransaction({
                to: ghost.address,
                success: false,
                exitCode: E.senderNotEventConfiguration,
            });
        });

        it('2317: process_proof with too little value (the configuration lets it through): the value comes back (tvm_event_refused)', async () => {
            const cheap = await f.makeConfig({ eventInitialBalance: toNano('0.1') });
            const ev = await f.sourceEvent();
            const event = f.alienEvent(ev.msgHash, cheap.address);
            const cfg0 = (await f.blockchain.getContract(cheap.address)).balance;
            const r = await f.deploy(cheap, ev, toNano('0.1'));
            // not thrown: the Event sends the value back to remaining_gas_to with the code
            expect(r.transactions).toHaveTransaction({
                from: cheap.address,
                to: event.address,
                op: Op.bridge.processProof,
                success: true,
            });
            expect(refusedCode(r, event)).toBe(E.tooLowMsgValue);
            expect(r.transactions).not.toHaveTransaction({ to: f.checker.address });
            expect(r.transactions).not.toHaveTransaction({ from: event.address, to: cheap.address });
            // nothing kept by the configuration (it only paid its own gas from the value)
            expect((await f.blockchain.getContract(cheap.address)).balance).toBeLessThanOrEqual(cfg0);
            expect(await event.getStatus()).toBe(EventStatus.Initializing);
            // withdraw_ton of the configuration: owner only, keeps its reserve
            const kept = (await f.blockchain.getContract(cheap.address)).balance;
            let w = await cheap.sendWithdrawTon(f.user.getSender(), toNano('0.01'), f.user.address);
            expect(w.transactions).toHaveTransaction({ to: cheap.address, success: false, exitCode: 132 });
            w = await cheap.sendWithdrawTon(f.owner.getSender(), kept, f.owner.address);
            expect(w.transactions).toHaveTransaction({
                to: cheap.address,
                success: false,
                exitCode: Errors.proxy.lowMsgValue,
            });
            // the Event is still Initializing: a deploy_tvm_event with enough value goes through
            const r2 = await f.deploy(cheap, ev, DEPLOY_VALUE);
            expect(r2.transactions).toHaveTransaction({ from: cheap.address, to: f.alienProxy.address, success: true });
            expect(await event.getStatus()).toBe(EventStatus.Confirmed);
        });

        it('2321: the same source transaction processed again after Confirmed', async () => {
            const { ev, cfg, event } = await confirmed();
            const r = await f.deploy(cfg, ev);
            expect(r.transactions).toHaveTransaction({
                from: cfg.address,
                to: event.address,
                op: Op.bridge.processProof,
                success: true,
            });
            expect(refusedCode(r, event)).toBe(E.eventNotInitializing);
            expect(r.transactions).not.toHaveTransaction({ from: event.address, to: cfg.address });
            expect(r.transactions).not.toHaveTransaction({ to: f.checker.address });
            expect(r.transactions).not.toHaveTransaction({ to: f.alienProxy.address });
            expect(await event.getStatus()).toBe(EventStatus.Confirmed);
        });

        it('2329: verifier answers not from the TransactionChecker', async () => {
            const { ev, event } = await confirmed();
            for (const body of [
                TransactionChecker.transactionCheckedMessage(ev.tx.raw),
                TransactionChecker.transactionCheckFailedMessage(ev.tx.raw),
            ]) {
                const r = await f.user.send({ to: event.address, value: toNano('0.1'), body });
                expect(r.transactions).toHaveTransaction({
                    from: f.user.address,
                    to: event.address,
                    success: false,
                    exitCode: E.senderNotTxChecker,
                });
            }
            expect(await event.getStatus()).toBe(EventStatus.Confirmed);
        });

        it('two proofs of the same transaction at once: each check is answered to its own payer, the second after Confirmed comes back', async () => {
            const ev = await f.sourceEvent();
            const event = f.alienEvent(ev.msgHash);
            const other = { ...ev, proof: f.prove(ev.tx.raw) };
            const second = await f.blockchain.treasury('second-payer');
            // two deploy_tvm_event of the same transaction (two proofs), two payers, in one step
            const r = await f.user.sendMessages([
                internal({ to: f.alienConfig.address, value: DEPLOY_VALUE, body: deployBody(ev) }),
                internal({ to: f.alienConfig.address, value: DEPLOY_VALUE, body: deployBody(other, second) }),
            ]);
            const answers = r.transactions.filter(
                (t) =>
                    t.inMessage?.info.type === 'internal' &&
                    t.inMessage.info.src.equals(f.checker.address) &&
                    t.inMessage.info.dest.equals(event.address),
            );
            expect(answers).toHaveLength(2);
            for (const a of answers)
                expect(
                    a.description.type === 'generic' &&
                        a.description.computePhase.type === 'vm' &&
                        a.description.computePhase.exitCode,
                ).toBe(0);
            expect(r.transactions).toHaveTransaction({
                from: f.alienConfig.address,
                to: f.alienProxy.address,
                success: true,
            });
            // the second answer's value went back to the second payer, and to it only
            expect(r.transactions).toHaveTransaction({ from: event.address, to: second.address, success: true });
            expect(await event.getStatus()).toBe(EventStatus.Confirmed);
            expect((await event.getChecks()).size).toBe(0);
        });

        it('2312: a checker answer naming no check in flight (a stand-in plays the TransactionChecker)', async () => {
            const stand = await f.blockchain.treasury('checker-stand-in');
            const cfg = await f.makeConfig({ transactionChecker: stand.address });
            const ev = await f.sourceEvent();
            const event = f.alienEvent(ev.msgHash, cfg.address);
            const r0 = await f.deploy(cfg, ev);
            expect(r0.transactions).toHaveTransaction({
                from: event.address,
                to: stand.address,
                op: Op.transactionChecker.checkTransaction,
            });
            const [queryId] = [...(await event.getChecks()).keys()];
            const answer = (q: bigint) =>
                stand.send({
                    to: event.address,
                    value: toNano('0.5'),
                    body: TransactionChecker.transactionCheckedMessage(ev.tx.raw, q),
                });
            let r = await answer(queryId + 1n);
            expect(r.transactions).toHaveTransaction({
                to: event.address,
                success: false,
                exitCode: E.eventNotPending,
            });
            expect(await event.getStatus()).toBe(EventStatus.Pending);
            r = await answer(queryId);
            expect(r.transactions).toHaveTransaction({ from: cfg.address, to: f.alienProxy.address, success: true });
            expect(await event.getStatus()).toBe(EventStatus.Confirmed);
            // the same answer again: no check of that query is left
            r = await answer(queryId);
            expect(r.transactions).toHaveTransaction({
                to: event.address,
                success: false,
                exitCode: E.eventNotPending,
            });
            expect(await event.getStatus()).toBe(EventStatus.Confirmed);
        });

        it('2331 / 2316: delivery failure only from the proxy and only in Confirmed; back to Verified, then retried', async () => {
            const { ev, cfg, event } = await confirmed('alien');
            let r = await event.sendDeliveryFailed(f.user.getSender(), f.user.address);
            expect(r.transactions).toHaveTransaction({
                from: f.user.address,
                to: event.address,
                success: false,
                exitCode: E.senderNotProxy,
            });
            // the Alien configuration's proxy is not this Event's proxy
            r = await event.sendDeliveryFailed(f.alienProxy.getSender(), f.user.address);
            expect(r.transactions).toHaveTransaction({ to: event.address, success: false, exitCode: E.senderNotProxy });

            expect(await event.getLastErrorCode()).toBe(0);
            r = await event.sendDeliveryFailed(
                f.nativeProxy.getSender(),
                f.nativeProxy.address,
                toNano('0.05'),
                Errors.proxy.proxyPaused,
            );
            expect(r.transactions).toHaveTransaction({ from: f.nativeProxy.address, to: event.address, success: true });
            expect(r.transactions).toHaveTransaction({ from: event.address, to: f.nativeProxy.address });
            expect(await event.getStatus()).toBe(EventStatus.Verified);
            expect(await event.getLastErrorCode()).toBe(Errors.proxy.proxyPaused);

            r = await event.sendDeliveryFailed(f.nativeProxy.getSender(), f.nativeProxy.address);
            expect(r.transactions).toHaveTransaction({
                to: event.address,
                success: false,
                exitCode: E.eventNotConfirmed,
            });

            // retry from Verified: the same deploy_tvm_event verifies again and confirms again
            r = await f.deploy(cfg, ev);
            expect(r.transactions).toHaveTransaction({
                from: cfg.address,
                to: f.nativeProxy.address,
                op: Op.bridge.onTvmEventConfirmedExtended,
                success: true,
            });
            expect(await event.getStatus()).toBe(EventStatus.Confirmed);
        });

        it('Alien Event: the native proxy of a predeployed token (named by the proxy) may call back', async () => {
            const { ev } = await confirmed('native');
            const event = f.alienEvent(ev.msgHash);
            const wallet = f.deployer.address;
            let r = await event.sendNativeProxy(f.user.getSender(), f.nativeProxy.address, wallet, f.user.address);
            expect(r.transactions).toHaveTransaction({ to: event.address, success: false, exitCode: E.senderNotProxy });
            r = await event.sendDeliveryFailed(f.nativeProxy.getSender(), f.nativeProxy.address);
            expect(r.transactions).toHaveTransaction({ to: event.address, success: false, exitCode: E.senderNotProxy });

            r = await event.sendNativeProxy(
                f.alienProxy.getSender(),
                f.nativeProxy.address,
                wallet,
                f.alienProxy.address,
            );
            expect(r.transactions).toHaveTransaction({
                from: f.alienProxy.address,
                to: event.address,
                op: EventOp.tvmEventNativeProxy,
                success: true,
            });
            expect((await event.getDecodedData()).nativeProxyTokenWallet!.equals(wallet)).toBe(true);

            r = await event.sendDeliveryFailed(f.nativeProxy.getSender(), f.nativeProxy.address);
            expect(r.transactions).toHaveTransaction({ from: f.nativeProxy.address, to: event.address, success: true });
            expect(await event.getStatus()).toBe(EventStatus.Verified);
            // 2316: only a Confirmed Event takes it
            r = await event.sendNativeProxy(
                f.alienProxy.getSender(),
                f.nativeProxy.address,
                wallet,
                f.alienProxy.address,
            );
            expect(r.transactions).toHaveTransaction({
                to: event.address,
                success: false,
                exitCode: E.eventNotConfirmed,
            });
        });
    });

    // ------------------------------------------------------------ forged proofs

    describe('forged proofs', () => {
        it('a block signed by another set: the LiteClient refuses, the Event is Rejected and refunds; a valid proof then confirms', async () => {
            const ev = await f.sourceEvent();
            const event = f.alienEvent(ev.msgHash);
            const forger = makeValidatorSet({
                size: 9,
                main: 9,
                seed: 'forger',
                utimeSince: T0,
                utimeUntil: T0 + 1_000_000,
            });
            const forged = { ...ev, proof: f.prove(ev.tx.raw, { signWith: forger }) };
            const before = await f.user.getBalance();
            const r = await f.deploy(f.alienConfig, forged);
            // the LiteClient answers its refusal (114) to the checker, which passes it on
            expect(r.transactions).toHaveTransaction({
                from: f.liteClient.address,
                to: f.checker.address,
                op: Op.liteClient.checkBlockFailed,
            });
            expect(r.transactions).toHaveTransaction({
                from: f.checker.address,
                to: event.address,
                op: Op.transactionChecker.transactionCheckFailed,
                body: (b: Cell | undefined) =>
                    b !== undefined && TransactionChecker.failedCode(b) === Errors.liteClient.invalidSignature,
                success: true,
            });
            expect(r.transactions).not.toHaveTransaction({ to: f.alienProxy.address });
            expect(await event.getStatus()).toBe(EventStatus.Rejected);
            // the value came back (all but the fees and the Event's reserve)
            expect(r.transactions).toHaveTransaction({ from: event.address, to: f.user.address, success: true });
            expect(before - (await f.user.getBalance())).toBeLessThan(toNano('0.15'));

            const r2 = await f.deploy(f.alienConfig, ev);
            expect(r2.transactions).toHaveTransaction({
                from: f.alienConfig.address,
                to: f.alienProxy.address,
                success: true,
            });
            expect(await event.getStatus()).toBe(EventStatus.Confirmed);
        });

        it('a proof of another transaction: the TransactionChecker bounces, the Event is Rejected and refunds', async () => {
            const ev = await f.sourceEvent();
            const event = f.alienEvent(ev.msgHash);
            const decoy = await f.sourceEvent('native', { amount: 5n });
            const b = f.chain.blockWithTransactions([decoy.tx.raw], { shard: true });
            const forgedProof = beginCell().storeRef(ev.tx.raw).storeRef(b.txProof).storeRef(b.currentBlock).endCell();
            const r = await f.deploy(f.alienConfig, { ...ev, proof: forgedProof });
            expect(r.transactions).toHaveTransaction({
                from: event.address,
                to: f.checker.address,
                success: false,
                exitCode: Errors.transactionChecker.transactionNotFound,
            });
            expect(r.transactions).toHaveTransaction({
                from: f.checker.address,
                to: event.address,
                inMessageBounced: true,
                success: true,
            });
            expect(r.transactions).toHaveTransaction({ from: event.address, to: f.user.address, success: true });
            expect(await event.getStatus()).toBe(EventStatus.Rejected);
        });
    });

    // ------------------------------------------------------------ bounced confirmation

    it('a bounced tvm_event_confirmed puts the Event back to Verified and returns the value', async () => {
        // the emitter plays a configuration that refuses the confirmation (it has no handler: 130)
        const ev = await f.sourceEvent();
        const { init, address } = tvmEventInit(f.codes.alien, ev.msgHash, f.emitter.address, SRC_CHAIN);
        const event = f.blockchain.openContract(
            (await import('../wrappers/MultiVaultTvmTvmEventAlien')).MultiVaultTvmTvmEventAlien.createFromAddress(
                address,
            ),
        );
        const body = processProofMessage({
            initializer: f.user.address,
            remainingGasTo: f.user.address,
            transactionChecker: f.checker.address,
            proxy: f.alienProxy.address,
            event: ev.body,
            proof: ev.proof,
        });
        const r = await f.emitter.send(
            f.user.getSender(),
            { value: DEPLOY_VALUE + toNano('0.1') },
            { $$type: 'TestSend', to: address, value: DEPLOY_VALUE, code: init.code, data: init.data, body },
        );
        expect(r.transactions).toHaveTransaction({
            from: event.address,
            to: f.emitter.address,
            op: Op.bridge.tvmEventConfirmed,
            success: false,
        });
        expect(r.transactions).toHaveTransaction({
            from: f.emitter.address,
            to: event.address,
            inMessageBounced: true,
            success: true,
        });
        expect(r.transactions).toHaveTransaction({ from: event.address, to: f.user.address, success: true });
        expect(await event.getStatus()).toBe(EventStatus.Verified);
    });
});
