/**
 * TvmTvmEventConfiguration and the TVM to TVM Event contracts, through the real LiteClient and
 * TransactionChecker: source transactions are real sandbox transactions of a test emitter (standing
 * in for the source proxy), placed in blocks of a SyntheticChain signed by the set the LiteClient holds.
 */
import fs from 'fs';
import path from 'path';
import { Address, beginCell, Cell, Dictionary, toNano } from '@ton/core';
import { SendMessageResult } from '@ton/sandbox';
import { makeValidatorSet } from '../harness/validators';
import '@ton/test-utils';
import { Errors, Op } from '../wrappers/constants';
import { EventStatus, toTransferStatus, TransferStatus, transferStatusName } from '../wrappers/eventStatus';
import { TokenType, TvmTvmEventConfiguration } from '../wrappers/TvmTvmEventConfiguration';
import { parseTvmEventRefused, tvmEventInitData, tvmTvmEventBody } from '../wrappers/tvmTvmEvent';
import {
    MultiVaultTvmTvmEventAlien as AlienBase,
    loadTvmEventState,
    loadTvmEventStateHead,
    loadTvmEventStateRest,
    storeTvmEventState,
    storeTvmEventStateHead,
    TvmEventState,
} from '../build/MultiVaultTvmTvmEventAlien/tact_MultiVaultTvmTvmEventAlien';
import {
    addr,
    computeGas,
    DEPLOY_VALUE,
    DST_CHAIN,
    EVENT_INITIAL_BALANCE,
    eventFields,
    eventFixture,
    EventFixture,
    SRC_CHAIN,
    T0,
} from './event.util';

describe('TVM to TVM events', () => {
    let f: EventFixture;

    beforeEach(async () => {
        f = await eventFixture();
    });

    // ------------------------------------------------------------ happy paths

    it('deploys the Alien Event, verifies the transaction and forwards on_tvm_event_confirmed_extended to the proxy', async () => {
        const ev = await f.sourceEvent('native');
        const event = f.alienEvent(ev.msgHash);
        expect((await f.alienConfig.getEventAddress(ev.msgHash)).equals(event.address)).toBe(true);

        const r = await f.deploy(f.alienConfig, ev);
        expect(r.transactions).toHaveTransaction({
            from: f.user.address,
            to: f.alienConfig.address,
            op: Op.bridge.deployTvmEvent,
            success: true,
        });
        expect(r.transactions).toHaveTransaction({
            from: f.alienConfig.address,
            to: event.address,
            op: Op.bridge.processProof,
            deploy: true,
            success: true,
        });
        expect(r.transactions).toHaveTransaction({
            from: event.address,
            to: f.checker.address,
            op: Op.transactionChecker.checkTransaction,
            success: true,
        });
        expect(r.transactions).toHaveTransaction({
            from: f.checker.address,
            to: f.liteClient.address,
            op: Op.liteClient.checkBlock,
            success: true,
        });
        expect(r.transactions).toHaveTransaction({
            from: f.checker.address,
            to: event.address,
            op: Op.transactionChecker.transactionChecked,
            success: true,
        });
        expect(r.transactions).toHaveTransaction({
            from: event.address,
            to: f.alienConfig.address,
            op: Op.bridge.tvmEventConfirmed,
            success: true,
        });
        const expected = beginCell()
            .storeUint(Op.bridge.onTvmEventConfirmedExtended, 32)
            .storeAddress(event.address)
            .storeUint(ev.msgHash, 256)
            .storeInt(SRC_CHAIN, 32)
            .storeAddress(f.alienConfig.address)
            .storeRef(beginCell().storeAddress(f.user.address).storeRef(ev.body).storeBit(false)) // limit_approved
            .endCell();
        expect(r.transactions).toHaveTransaction({
            from: f.alienConfig.address,
            to: f.alienProxy.address,
            op: Op.bridge.onTvmEventConfirmedExtended,
            body: expected,
            success: true,
        });
        // nothing fails anywhere, every transaction is far below the basechain gas limit
        for (const t of r.transactions) {
            expect(t.description.type === 'generic' && t.description.aborted).toBe(false);
            expect(computeGas(t)).toBeLessThan(1_000_000);
        }
        // the value reaches the proxy: DEPLOY_VALUE minus fees, minus the Event's reserve
        const toProxy = r.transactions.find((t) => addr(t.inMessage?.info.dest) === f.alienProxy.address.toString())!;
        const carried = toProxy.inMessage!.info.type === 'internal' ? toProxy.inMessage!.info.value.coins : 0n;
        expect(carried).toBeGreaterThan(DEPLOY_VALUE - toNano('0.2'));

        expect(await event.getStatus()).toBe(EventStatus.Confirmed);
        const d = await event.getDetails();
        expect(d.eventInitData.msgHash).toBe(ev.msgHash);
        expect(d.eventInitData.configuration.equals(f.alienConfig.address)).toBe(true);
        expect(d.eventInitData.chainId).toBe(SRC_CHAIN);
        expect(d.initializer!.equals(f.user.address)).toBe(true);
        expect(d.status).toBe(EventStatus.Confirmed);
        expect(toTransferStatus(d.status)).toBe(TransferStatus.Completed);
        expect(await event.getTransactionHash()).toBe(BigInt('0x' + ev.tx.raw.hash().toString('hex')));
        expect((await event.getEventBody())!.equals(ev.body)).toBe(true);

        const dd = await event.getDecodedData();
        const ff = f.fields();
        expect(dd.baseChainId).toBe(BigInt(SRC_CHAIN));
        expect(dd.baseToken.equals(ff.token.token)).toBe(true);
        expect(dd.baseNativeProxyWallet!.equals(ff.token.nativeProxyWallet!)).toBe(true);
        expect([dd.name, dd.symbol, dd.decimals]).toEqual(['Tether USD', 'USDT', 6n]);
        expect(dd.amount).toBe(ff.amount);
        expect(dd.recipient.equals(f.user.address)).toBe(true);
        expect(dd.attachedGas).toBe(ff.value);
        expect(dd.expectedGas).toBe(ff.expectedGas);
        expect(dd.payload!.equals(ff.transfer.payload!)).toBe(true);
        expect(dd.proxy.equals(f.alienProxy.address)).toBe(true);
        expect(dd.token).toBeNull();
        expect(dd.nativeProxyTokenWallet).toBeNull();
    });

    it('deploys the Native Event from a TvmTvmAlien event and confirms to the native proxy', async () => {
        const ev = await f.sourceEvent('alien');
        const event = f.nativeEvent(ev.msgHash);
        expect((await f.nativeConfig.getEventAddress(ev.msgHash)).equals(event.address)).toBe(true);
        const r = await f.deploy(f.nativeConfig, ev);
        expect(r.transactions).toHaveTransaction({
            from: f.nativeConfig.address,
            to: f.nativeProxy.address,
            op: Op.bridge.onTvmEventConfirmedExtended,
            success: true,
        });
        for (const t of r.transactions) expect(computeGas(t)).toBeLessThan(1_000_000);
        expect(await event.getStatus()).toBe(EventStatus.Confirmed);
        const dd = await event.getDecodedData();
        const ff = f.fields();
        expect(dd.token.equals(ff.token.token)).toBe(true);
        expect([dd.name, dd.symbol, dd.decimals]).toEqual(['Tether USD', 'USDT', 6n]);
        expect(dd.sender.equals(f.user.address)).toBe(true);
        expect(dd.amount).toBe(ff.amount);
        expect(dd.recipient.equals(f.user.address)).toBe(true);
        expect(dd.value).toBe(ff.value);
        expect(dd.expectedGas).toBe(ff.expectedGas);
        expect(dd.payload!.equals(ff.transfer.payload!)).toBe(true);
        expect(dd.proxy.equals(f.nativeProxy.address)).toBe(true);
        expect(dd.tokenWallet!.equals(ff.token.nativeProxyWallet!)).toBe(true);
        expect(dd.bounty).toBe(0n);
    });

    it('takes the out message at out_msg_index, and a masterchain block as well', async () => {
        const ev = await f.sourceEvent('native', undefined, { first: beginCell().storeUint(0xdead, 16).endCell() });
        const r = await f.deploy(f.alienConfig, { ...ev, proof: f.prove(ev.tx.raw, { shard: false }) });
        expect(r.transactions).toHaveTransaction({
            from: f.alienConfig.address,
            to: f.alienProxy.address,
            success: true,
        });
        expect(await f.alienEvent(ev.msgHash).getStatus()).toBe(EventStatus.Confirmed);
    });

    it('derives the Event address as the Tact contract parameters do', async () => {
        const h = 0x1234n;
        const fromTact = await AlienBase.fromInit(
            h,
            f.alienConfig.address,
            BigInt(SRC_CHAIN),
            0n,
            null,
            Dictionary.empty(),
        );
        expect(fromTact.init!.data.equals(tvmEventInitData(h, f.alienConfig.address, SRC_CHAIN))).toBe(true);
        expect((await f.alienConfig.getEventAddress(h)).equals(fromTact.address)).toBe(true);
        expect(
            TvmTvmEventConfiguration.eventAddress(f.codes.alien, h, f.alienConfig.address, SRC_CHAIN).equals(
                fromTact.address,
            ),
        ).toBe(true);
    });

    it('shows its configuration (getDetails)', async () => {
        const d = await f.alienConfig.getDetails();
        expect(d.basicConfiguration.eventCode.equals(f.codes.alien)).toBe(true);
        expect(d.basicConfiguration.eventInitialBalance).toBe(EVENT_INITIAL_BALANCE);
        expect(d.networkConfiguration.chainId).toBe(SRC_CHAIN);
        expect(d.networkConfiguration.eventEmitter.equals(f.emitter.address)).toBe(true);
        expect(d.networkConfiguration.proxy.equals(f.alienProxy.address)).toBe(true);
        expect(d.networkConfiguration.startTimestamp).toBe(T0);
        expect(d.networkConfiguration.endTimestamp).toBe(0);
        const x = await f.nativeConfig.getExtra();
        expect(x.tokenType).toBe(TokenType.Native);
        expect(x.ownChainId).toBe(DST_CHAIN);
        expect(x.owner.equals(f.owner.address)).toBe(true);
        expect(x.transactionChecker.equals(f.checker.address)).toBe(true);
    });
});

describe('EventStatus', () => {
    it('maps every Event status to the API TransferStatus', () => {
        const want: [EventStatus, string][] = [
            [EventStatus.Initializing, 'Pending'],
            [EventStatus.Pending, 'Pending'],
            [EventStatus.Confirmed, 'Completed'],
            [EventStatus.Rejected, 'Failed'],
            [EventStatus.Cancelled, 'Failed'],
            [EventStatus.LimitReached, 'Pending'],
            [EventStatus.LiquidityRequested, 'Pending'],
            [EventStatus.LiquidityProvided, 'Completed'],
            [EventStatus.Verified, 'Pending'],
        ];
        for (const [s, name] of want) expect(transferStatusName(toTransferStatus(s))).toBe(name);
        expect(Object.keys(EventStatus).filter((k) => isNaN(Number(k)))).toHaveLength(9);
        expect(() => toTransferStatus(9)).toThrow();
        expect(TransferStatus.Pending).toBe(1);
        expect(TransferStatus.Completed).toBe(2);
        expect(TransferStatus.Failed).toBe(3);
    });
});

describe('gas constants (contracts/bridge/event_common.tact)', () => {
    const src = fs.readFileSync(path.resolve(__dirname, '..', 'contracts', 'bridge', 'event_common.tact'), 'utf8');
    function constant(name: string): number {
        const m = src.match(new RegExp(`const ${name}: Int = (\\d+);`));
        if (!m) throw new Error(`${name} not found`);
        return Number(m[1]);
    }
    /** measured <= constant, and the constant overstates it by at most 40% */
    function pin(name: string, measured: number) {
        const c = constant(name);
        expect(measured).toBeLessThanOrEqual(c);
        expect(measured * 1.4).toBeGreaterThan(c);
    }
    function gasOf(r: SendMessageResult, from: Address, to: Address, op?: number): number {
        const t = r.transactions.find(
            (t) =>
                addr(t.inMessage?.info.src) === from.toString() &&
                addr(t.inMessage?.info.dest) === to.toString() &&
                (op === undefined || t.inMessage?.body.beginParse().preloadUint(32) === op),
        );
        expect(t).toBeDefined();
        return computeGas(t!);
    }

    it('process_proof (worst: a retry after Rejected), transaction_checked, tvm_event_confirmed', async () => {
        const f = await eventFixture();
        const who = { recipient: f.user.address, sender: f.user.address, token: f.deployer.address };
        const body = tvmTvmEventBody('native', eventFields({}, who));
        const tx = await f.emit(body);
        const msgHash = TvmTvmEventConfiguration.eventMessageHash(tx.raw, 0);
        const event = f.alienEvent(msgHash);
        const forger = makeValidatorSet({
            size: 9,
            main: 9,
            seed: 'forger',
            utimeSince: T0,
            utimeUntil: T0 + 1_000_000,
        });
        const send = (proof: Cell) =>
            f.alienConfig.sendDeployTvmEvent(f.user.getSender(), {
                value: DEPLOY_VALUE,
                msgHash,
                outMsgIndex: 0,
                remainingGasTo: f.user.address,
                proof,
            });
        const first = await send(f.prove(tx.raw, { signWith: forger }));
        expect(await event.getStatus()).toBe(EventStatus.Rejected);
        const retry = await send(f.prove(tx.raw));
        expect(await event.getStatus()).toBe(EventStatus.Confirmed);
        const processFirst = gasOf(first, f.alienConfig.address, event.address, Op.bridge.processProof);
        const processRetry = gasOf(retry, f.alienConfig.address, event.address, Op.bridge.processProof);
        expect(processRetry).toBeGreaterThanOrEqual(processFirst);
        pin('GAS_EVENT_PROCESS_PROOF', processRetry);
        pin(
            'GAS_EVENT_ON_VERIFY',
            gasOf(retry, f.checker.address, event.address, Op.transactionChecker.transactionChecked),
        );
        pin(
            'GAS_CONFIGURATION_ON_CONFIRMED',
            gasOf(retry, event.address, f.alienConfig.address, Op.bridge.tvmEventConfirmed),
        );
        // deploy_tvm_event of the configuration, for the record (not a constant: the sender pays it)
        expect(gasOf(retry, f.user.address, f.alienConfig.address)).toBeLessThan(20_000);
    });
});

describe('state layout (event.tlb, tvm_event_state)', () => {
    // transaction_checked reads and rewrites the state's first cell alone (TvmEventStateHead) and
    // takes the event from the second (TvmEventStateRest): both must keep TvmEventState's layout
    it("TvmEventStateHead and TvmEventStateRest read TvmEventState's cells; a rewritten head keeps the rest", () => {
        const a = (n: number) => new Address(0, Buffer.alloc(32, n));
        const ref = (n: number) => beginCell().storeUint(n, 32).endCell();
        const st: TvmEventState = {
            $$type: 'TvmEventState',
            remainingGasTo: a(1),
            transactionHash: 0x1234n,
            transactionChecker: a(2),
            verificationFailed: true,
            limitApproved: true,
            cancelPending: false,
            lastErrorCode: 2713n,
            initializer: a(3),
            proxy: a(4),
            nativeProxy: ref(5),
            event: ref(6),
            limitApprover: a(7),
            liquidity: ref(8),
            merge: ref(9),
        };
        const cell = beginCell().store(storeTvmEventState(st)).endCell();
        const head = loadTvmEventStateHead(cell.beginParse());
        const view = (x: Record<string, unknown>) =>
            Object.fromEntries(
                Object.entries(x).map(([k, v]) => [k, v instanceof Address || v instanceof Cell ? v.toString() : v]),
            );
        const { $$type: _h, rest, ...headFields } = head;
        expect(view(headFields)).toEqual(
            view({
                remainingGasTo: st.remainingGasTo,
                transactionHash: st.transactionHash,
                transactionChecker: st.transactionChecker,
                verificationFailed: st.verificationFailed,
                limitApproved: st.limitApproved,
                cancelPending: st.cancelPending,
                lastErrorCode: st.lastErrorCode,
            }),
        );
        const { $$type: _r, more: _m, ...restFields } = loadTvmEventStateRest(rest.beginParse());
        expect(view(restFields)).toEqual(
            view({ initializer: st.initializer, proxy: st.proxy, nativeProxy: st.nativeProxy, event: st.event }),
        );
        const rewritten = beginCell()
            .store(storeTvmEventStateHead({ ...head, remainingGasTo: a(10), transactionHash: 0x5678n }))
            .endCell();
        const back = loadTvmEventState(rewritten.beginParse());
        expect(beginCell().store(storeTvmEventState(back)).endCell().hash()).toEqual(
            beginCell()
                .store(storeTvmEventState({ ...st, remainingGasTo: a(10), transactionHash: 0x5678n }))
                .endCell()
                .hash(),
        );
    });
});

describe('values', () => {
    it('the least deploy_tvm_event value the Event accepts (2317 below) still ends Confirmed', async () => {
        const f = await eventFixture();
        const cfg = await f.makeConfig({ eventInitialBalance: 1n });
        const who = { recipient: f.user.address, sender: f.user.address, token: f.deployer.address };
        const tx = await f.emit(tvmTvmEventBody('native', eventFields({}, who)));
        const msgHash = TvmTvmEventConfiguration.eventMessageHash(tx.raw, 0);
        const proof = f.prove(tx.raw);
        const event = f.alienEvent(msgHash, cfg.address);
        const snap = f.blockchain.snapshot();
        const attempt = async (value: bigint) => {
            await f.blockchain.loadFrom(snap);
            const r = await cfg.sendDeployTvmEvent(f.user.getSender(), {
                value,
                msgHash,
                outMsgIndex: 0,
                remainingGasTo: f.user.address,
                proof,
            });
            // below it the Event answers tvm_event_refused with 2317 (event.tlb) instead of going on
            const refused = r.transactions.some(
                (t) =>
                    t.inMessage?.info.type === 'internal' &&
                    t.inMessage.info.src.equals(event.address) &&
                    parseTvmEventRefused(t.inMessage.body)?.errorCode === Errors.event.tooLowMsgValue,
            );
            return { r, accepted: !refused };
        };
        let lo = toNano('0.1'),
            hi = toNano('1');
        expect((await attempt(lo)).accepted).toBe(false);
        expect((await attempt(hi)).accepted).toBe(true);
        while (hi - lo > toNano('0.001')) {
            const mid = (lo + hi) / 2n;
            if ((await attempt(mid)).accepted) hi = mid;
            else lo = mid;
        }
        const { r } = await attempt(hi);
        expect(r.transactions).toHaveTransaction({
            from: cfg.address,
            to: f.alienProxy.address,
            op: Op.bridge.onTvmEventConfirmedExtended,
            success: true,
        });
        expect(await event.getStatus()).toBe(EventStatus.Confirmed);
        // about 0.5 TON with this proof (9 validators): 0.3 for the TransactionChecker's gas, its three
        // forward fees of check_transaction and the Event's own (each bounded by process_proof's, about
        // 0.03 TON), 0.02 reserve
        expect(hi).toBeGreaterThan(toNano('0.32'));
        expect(hi).toBeLessThan(toNano('0.55'));
        console.log(`least accepted deploy_tvm_event value: ${hi} nanoTON`);
    });
});
