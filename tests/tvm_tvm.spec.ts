/**
 * TVM to TVM end to end: two simulated networks (A: global id -239, B: 2000, 100 validators each
 * with mainnet-like weights), the bridge deployed on both (harness/bridge.ts), real contracts only
 * (jettons, proxies, configurations, Events, LiteClient, TransactionChecker), the off-chain actors
 * of harness/actors.ts. Every test starts from the same deployed state (snapshot).
 *
 * Flows: lock native on A -> mint alien on B; burn alien on B -> unlock native on A; native in both
 * networks (predeployed token); each in credit mode (backend deploys the Event and pays) and
 * non-credit mode (the user sends proofPayload.abiTx). Rejections with their exact codes, refunds,
 * validator rotation, and the status mapping.
 */
import { Address, beginCell, Cell, toNano } from '@ton/core';
import { BlockchainTransaction, internal, SandboxContract, SendMessageResult, TreasuryContract } from '@ton/sandbox';
import '@ton/test-utils';
import { NETWORK_T0, TvmNetwork } from '../harness/network';
import { BridgePair, BridgeSide, costOf, Direction, TokenInfo } from '../harness/bridge';
import { completeWithAbiTx, MIN_LOCK_FORWARD_TON } from '../harness/actors';
import { BridgeTestbed, expectAllOk as expectAllTxsOk, LockOptions, Treasury } from '../harness/testing';
import {
    buildProofPayload,
    BuiltProofPayload,
    decodeTvmTvmEvent,
    deployTvmEventBody,
    findTransferId,
    FoundTransfer,
} from '../harness/transfer';
import { TvmTvmEventConfiguration, TokenType } from '../wrappers/TvmTvmEventConfiguration';
import { EventStatus, toTransferStatus, TransferStatus } from '../wrappers/eventStatus';
import {
    parseRefundPayload,
    onTvmEventConfirmedExtendedMessage,
    ProxyMessages,
} from '../wrappers/ProxyMultiVaultNative';
import { loadJettonTransferInternal } from '../wrappers/JettonWallet';
import { Errors, Op, OpEvent } from '../wrappers/constants';
import { parseTvmEventDeliveryFailed, parseTvmEventRefused, processProofMessage } from '../wrappers/tvmTvmEvent';

type Mode = 'credit' | 'non-credit';
const MODES: Mode[] = ['credit', 'non-credit'];
const FORWARD_TON = toNano('0.5');
const AMOUNT = 1_000_000_000n;

/** numbers for the report (printed once at the end) */
const report: string[] = [];
const fmt = (n: bigint) => (Number(n) / 1e9).toFixed(6);

describe('TVM to TVM bridge, end to end', () => {
    /** two networks, the bridge on both, userA and userB (harness/testing.ts); its parts as the tests read them */
    let testbed: BridgeTestbed;
    let A: TvmNetwork, B: TvmNetwork, pair: BridgePair, userA: Treasury, userB: Treasury;
    let stranger: SandboxContract<TreasuryContract>;

    beforeAll(async () => {
        testbed = await BridgeTestbed.create({ token: 1000n * AMOUNT, shared: 1000n * AMOUNT });
        ({ A, B, pair, userA, userB } = testbed);
        stranger = await B.treasury('stranger');
        testbed.checkpoint();
    });

    beforeEach(async () => {
        await testbed.reset();
    });

    afterAll(() => {
        if (report.length) console.log(['TVM to TVM e2e numbers (TON):', ...report].join('\n'));
    });

    // ------------------------------------------------------------------ helpers (plumbing: harness/testing.ts)

    const isAt = (a: Address | { toString(): string } | null | undefined, b: Address) =>
        !!a && Address.isAddress(a) && a.equals(b);
    const balanceOf = (net: TvmNetwork, minter: Address, owner: Address) => testbed.balanceOf(net, minter, owner);
    const tonOf = (net: TvmNetwork, a: Address) => testbed.tonOf(net, a);

    /** Source side of the native flow: the user locks `token` in `side`'s native proxy (AMOUNT unless given). */
    const lock = (
        side: BridgeSide,
        user: SandboxContract<TreasuryContract>,
        token: TokenInfo,
        recipient: Address,
        o?: Partial<LockOptions>,
    ) => testbed.lock(side, user, token, recipient, { ...o, amount: o?.amount ?? AMOUNT });

    /** Source side of the alien flow: the user burns alien tokens (minter `minter` on `side`; AMOUNT unless given). */
    const burn = (
        side: BridgeSide,
        user: SandboxContract<TreasuryContract>,
        minter: Address,
        recipient: Address,
        o?: { amount?: bigint; value?: bigint },
    ) => testbed.burn(side, user, minter, recipient, { ...o, amount: o?.amount ?? AMOUNT });

    /**
     * Destination side: the credit backend, or the user as the spec's non-credit client does it:
     * ask the status (Pending, proofPayload.abiTx present), send abiTx, see it Completed.
     */
    async function deliver(
        mode: Mode,
        dir: Direction,
        found: FoundTransfer,
        payer?: SandboxContract<TreasuryContract>,
    ): Promise<{ result: SendMessageResult; built?: BuiltProofPayload; payer: SandboxContract<TreasuryContract> }> {
        if (mode === 'credit') {
            const d = await dir.credit.deliver(found);
            if (!d) throw new Error('already delivered');
            return { result: d.result, built: d.built, payer: dir.backendWallet };
        }
        const p = payer ?? userB;
        const st = await pair.status(dir.from.network, found.transferIdHex, p.address);
        expect(st.transferStatus).toBe('Pending');
        expect(st.eventStatus).toBeNull();
        expect(st.proofPayload.abiTx!.executionAddress).toBe(
            pair.route(dir.from, decodeTvmTvmEvent(found.eventBody)).address.toRawString(),
        );
        const result = await completeWithAbiTx(p, st.proofPayload.abiTx!);
        return { result, payer: p };
    }

    /** here also: no transaction aborted */
    const expectAllOk = (txs: BlockchainTransaction[]) => expectAllTxsOk(txs, { notAborted: true });

    /** The destination transactions after the payer's own (configuration -> ... -> recipient's wallet, excesses). */
    const destinationTxs = (r: SendMessageResult) => r.transactions.slice(1);

    /** lock on A, mint on B (the alien token of A's native token), returns everything. */
    async function lockAndMint(mode: Mode, amount = AMOUNT) {
        const tonA0 = await tonOf(A, userA.address);
        const { result: src, wallet } = await lock(pair.A, userA, pair.A.token, userB.address, { amount });
        const found = findTransferId(A, src.transactions[0].hash(), pair.A.nativeProxy.address);
        const tonA1 = await tonOf(A, userA.address);
        const d = await deliver(mode, pair.AB, found);
        return { src, found, wallet, sourceTonSpent: tonA0 - tonA1, ...d };
    }

    // ------------------------------------------------------------------ flows

    for (const mode of MODES) {
        it(`lock native on A -> mint alien on B (${mode})`, async () => {
            const proxyWalletA = pair.A.token.proxyWallet;
            const lockedBefore = await balanceOf(A, pair.A.token.minter.address, pair.A.nativeProxy.address);
            const userBefore = await balanceOf(A, pair.A.token.minter.address, userA.address);
            const payerTon0 = await tonOf(B, (mode === 'credit' ? pair.AB.backendWallet : userB).address);
            const userBTon0 = await tonOf(B, userB.address);
            const r = await lockAndMint(mode);

            // source: tokens locked in the native proxy's wallet, event emitted by the proxy
            expectAllOk(r.src.transactions);
            expect(await balanceOf(A, pair.A.token.minter.address, userA.address)).toBe(userBefore - AMOUNT);
            expect(await balanceOf(A, pair.A.token.minter.address, pair.A.nativeProxy.address)).toBe(
                lockedBefore + AMOUNT,
            );
            expect(
                proxyWalletA.equals(
                    (await pair.wallet(A, pair.A.token.minter.address, pair.A.nativeProxy.address)).address,
                ),
            ).toBe(true);
            const ev = decodeTvmTvmEvent(r.found.eventBody);
            expect(ev).toMatchObject({
                tokenType: 'Native',
                destinationChainId: 2000,
                amount: AMOUNT,
                name: pair.A.token.name,
                decimals: 9,
            });
            expect(ev.token.equals(pair.A.token.minter.address)).toBe(true);
            expect(ev.nativeProxyWallet!.equals(proxyWalletA)).toBe(true);
            expect(ev.recipient.equals(userB.address)).toBe(true);
            expect(ev.value).toBeGreaterThan(FORWARD_TON - toNano('0.02'));

            // the user paid the forward TON (the event's value, kept by the proxy) and the source fees
            expect(r.sourceTonSpent).toBeGreaterThan(FORWARD_TON);
            expect(r.sourceTonSpent).toBeLessThan(FORWARD_TON + toNano('0.05'));
            // Transfer ID: the proxy's transaction, not the wallet's
            const proxyTx = r.src.transactions.find((t) => isAt(t.inMessage?.info.dest, pair.A.nativeProxy.address))!;
            expect(r.found.transferIdHex).toBe(proxyTx.hash().toString('hex'));
            expect(r.found.transferIdHex).not.toBe(r.src.transactions[0].hash().toString('hex'));

            // destination: Event confirmed, alien minted to the recipient
            expectAllOk(r.result.transactions);
            const minter = await pair.alienMinter(pair.B, pair.A, pair.A.token);
            expect(await balanceOf(B, minter.address, userB.address)).toBe(AMOUNT);
            expect(await minter.getTotalSupply()).toBe(AMOUNT);
            const md = await minter.getMetadata();
            expect(md).toMatchObject({ name: pair.A.token.name, symbol: pair.A.token.symbol, decimals: '9' });
            const event = pair.alienEvent(pair.B, r.found.messageHash);
            expect(await event.getStatus()).toBe(EventStatus.Confirmed);
            expect(toTransferStatus(await event.getStatus())).toBe(TransferStatus.Completed);
            expect(await event.getTransactionHash()).toBe(BigInt('0x' + r.found.transferIdHex));
            const details = await event.getDetails();
            expect(details.initializer!.equals(r.payer.address)).toBe(true);
            expect(details.eventInitData.chainId).toBe(-239);
            expect(
                (await pair.B.alienConfig.getEventAddress(BigInt('0x' + r.found.messageHash.toString('hex')))).equals(
                    event.address,
                ),
            ).toBe(true);

            // the status API's view: Completed, with the delivery transaction
            const st = await pair.status(A, r.found.transferIdHex);
            expect(st).toMatchObject({ transferStatus: 'Completed', eventStatus: EventStatus.Confirmed });
            expect(st.eventAddress.equals(event.address)).toBe(true);
            const delivery = r.result.transactions.find((t) =>
                isAt(t.inMessage?.info.dest, pair.B.alienProxy.address),
            )!;
            expect(st.incomingTransactionHash).toBe(delivery.hash().toString('hex'));
            expect(st.proofPayload.messageHash).toBe(r.found.messageHash.toString('hex'));

            // TON: who paid the destination side, and how much
            const payerTon1 = await tonOf(B, r.payer.address);
            const dest = costOf(destinationTxs(r.result));
            const payerSpent = payerTon0 - payerTon1;
            expect(payerSpent).toBeGreaterThan(0n);
            expect(payerSpent).toBeLessThan(toNano('0.3'));
            if (mode === 'credit') expect(await tonOf(B, userB.address)).toBe(userBTon0);
            report.push(
                `lock->mint ${mode}: source user spent ${fmt(r.sourceTonSpent)} (event value ${fmt(ev.value)} stays in A's proxy), ` +
                    `destination ${dest.transactions} txs gas ${dest.gas} fees ${fmt(dest.fees)}, payer (${mode === 'credit' ? 'backend' : 'user'}) net ${fmt(payerSpent)} of ${fmt(pair.deployValue)} attached`,
            );
        });
    }

    for (const mode of MODES) {
        it(`burn alien on B -> unlock native on A (${mode})`, async () => {
            const m = await lockAndMint('credit');
            expectAllOk(m.result.transactions);
            const minter = await pair.alienMinter(pair.B, pair.A, pair.A.token);
            const lockedBefore = await balanceOf(A, pair.A.token.minter.address, pair.A.nativeProxy.address);
            const userABefore = await balanceOf(A, pair.A.token.minter.address, userA.address);
            const tonB0 = await tonOf(B, userB.address);
            const part = 400_000_000n;
            const { result: src } = await burn(pair.B, userB, minter.address, userA.address, { amount: part });
            expectAllOk(src.transactions);
            const found = findTransferId(B, src.transactions[0].hash(), pair.B.alienProxy.address);
            const sourceSpent = tonB0 - (await tonOf(B, userB.address));
            const ev = decodeTvmTvmEvent(found.eventBody);
            expect(ev.tokenType).toBe('Alien');
            expect(ev.token.equals(pair.A.token.minter.address)).toBe(true);
            expect(ev.nativeProxyWallet!.equals(pair.A.token.proxyWallet)).toBe(true);
            expect(await balanceOf(B, minter.address, userB.address)).toBe(AMOUNT - part);
            expect(await minter.getTotalSupply()).toBe(AMOUNT - part);

            const payer = mode === 'credit' ? pair.BA.backendWallet : await A.treasury('user');
            const payerTon0 = await tonOf(A, payer.address);
            const d = await deliver(mode, pair.BA, found, payer);
            expectAllOk(d.result.transactions);
            expect(await balanceOf(A, pair.A.token.minter.address, userA.address)).toBe(userABefore + part);
            expect(await balanceOf(A, pair.A.token.minter.address, pair.A.nativeProxy.address)).toBe(
                lockedBefore - part,
            );
            const event = pair.nativeEvent(pair.A, found.messageHash);
            expect(toTransferStatus(await event.getStatus())).toBe(TransferStatus.Completed);
            expect(await event.getTransactionHash()).toBe(BigInt('0x' + found.transferIdHex));
            const dest = costOf(destinationTxs(d.result));
            const spent = payerTon0 - (await tonOf(A, payer.address));
            report.push(
                `burn->unlock ${mode}: source user spent ${fmt(sourceSpent)}, destination ${dest.transactions} txs gas ${dest.gas} fees ${fmt(dest.fees)}, payer net ${fmt(spent)}`,
            );
        });
    }

    for (const mode of MODES) {
        it(`native in both networks: lock on A -> alien proxy forwards -> native proxy unlocks on B (${mode})`, async () => {
            const liquidity0 = await balanceOf(B, pair.B.shared.minter.address, pair.B.nativeProxy.address);
            const { result: src } = await lock(pair.A, userA, pair.A.shared, userB.address, { amount: 5_000_000n });
            const found = findTransferId(A, src.transactions[0].hash(), pair.A.nativeProxy.address);
            expect(decodeTvmTvmEvent(found.eventBody).token.equals(pair.A.shared.minter.address)).toBe(true);
            const d = await deliver(mode, pair.AB, found);
            expectAllOk(d.result.transactions);
            // the alien proxy forwarded to the native proxy, nothing minted
            expect(d.result.transactions).toHaveTransaction({
                from: pair.B.alienProxy.address,
                to: pair.B.nativeProxy.address,
                op: Op.bridge.onTvmEventConfirmedExtended,
                success: true,
            });
            expect(
                await pair.B.alienProxy.getAlienTokenByBase(BigInt(A.globalId), pair.A.shared.minter.address),
            ).toBeNull();
            expect(await balanceOf(B, pair.B.shared.minter.address, userB.address)).toBe(5_000_000n);
            expect(await balanceOf(B, pair.B.shared.minter.address, pair.B.nativeProxy.address)).toBe(
                liquidity0 - 5_000_000n,
            );
            expect(toTransferStatus(await pair.alienEvent(pair.B, found.messageHash).getStatus())).toBe(
                TransferStatus.Completed,
            );
            const dest = costOf(destinationTxs(d.result));
            report.push(
                `native-native ${mode}: destination ${dest.transactions} txs gas ${dest.gas} fees ${fmt(dest.fees)}`,
            );
        });
    }

    it('native in both networks, the other way: lock on B -> unlock on A (credit)', async () => {
        await pair.B.shared.minter.sendMint(pair.B.owner.getSender(), { to: userB.address, amount: 7_000_000n });
        const liquidity0 = await balanceOf(A, pair.A.shared.minter.address, pair.A.nativeProxy.address);
        const userA0 = await balanceOf(A, pair.A.shared.minter.address, userA.address);
        const { result } = await lock(pair.B, userB, pair.B.shared, userA.address, { amount: 7_000_000n });
        expectAllOk(result.transactions);
        const delivered = await pair.BA.credit.run();
        expect(delivered).toHaveLength(1);
        expectAllOk(delivered[0].result.transactions);
        expect(await balanceOf(A, pair.A.shared.minter.address, userA.address)).toBe(userA0 + 7_000_000n);
        expect(await balanceOf(A, pair.A.shared.minter.address, pair.A.nativeProxy.address)).toBe(
            liquidity0 - 7_000_000n,
        );
        expect(await balanceOf(B, pair.B.shared.minter.address, pair.B.nativeProxy.address)).toBeGreaterThanOrEqual(
            7_000_000n,
        );
    });

    it('an alien token the owner deployed beforehand (deploy_tvm_alien_token) receives the mint', async () => {
        const t = pair.A.token;
        await pair.B.alienProxy.sendDeployTvmAlienToken(pair.B.owner.getSender(), {
            baseChainId: A.globalId,
            baseToken: t.minter.address,
            name: t.name,
            symbol: t.symbol,
            decimals: t.decimals,
            remainingGasTo: pair.B.owner.address,
        });
        const minter = await pair.alienMinter(pair.B, pair.A, t);
        expect((await B.blockchain.getContract(minter.address)).accountState?.type).toBe('active');
        expect(await minter.getTotalSupply()).toBe(0n);
        const r = await lockAndMint('credit');
        expectAllOk(r.result.transactions);
        expect(r.result.transactions).not.toHaveTransaction({ to: minter.address, deploy: true });
        expect(await balanceOf(B, minter.address, userB.address)).toBe(AMOUNT);
        // the native proxy wallet of the base token is learnt from the first event (for the way back)
        expect(
            (await pair.B.alienProxy.getAlienToken(minter.address))!.baseNativeProxyWallet!.equals(t.proxyWallet),
        ).toBe(true);
    });

    it('bridge fees on incoming transfers: the destination proxy keeps amount * fee', async () => {
        await pair.B.alienProxy.sendBody(pair.B.owner.getSender(), ProxyMessages.setDefaultFee(3n, 1000n));
        const r = await lockAndMint('credit');
        expectAllOk(r.result.transactions);
        const minter = await pair.alienMinter(pair.B, pair.A, pair.A.token);
        const fee = (AMOUNT * 3n) / 1000n;
        expect(await balanceOf(B, minter.address, userB.address)).toBe(AMOUNT - fee);
        expect(await pair.B.alienProxy.getAccumulatedFees(minter.address)).toBe(fee);
        report.push(`bridge fee 0.3%: recipient got ${AMOUNT - fee} of ${AMOUNT}, proxy accumulated ${fee}`);
    });

    it('the Transfer ID is found from the wallet transaction or the external message hash, and names the Event', async () => {
        const { result } = await lock(pair.A, userA, pair.A.token, userB.address);
        const root = result.transactions[0];
        const byTx = findTransferId(A, root.hash().toString('hex'), pair.A.nativeProxy.address);
        const inMsgHash = root.raw.refs[0].beginParse().loadRef().hash();
        const byMsg = findTransferId(A, inMsgHash, pair.A.nativeProxy.address);
        expect(byMsg.transferIdHex).toBe(byTx.transferIdHex);
        expect(byTx.root).toBe(root);
        // the credit backend, which watches the proxy, finds the same transfer
        const scanned = pair.AB.credit.scan();
        expect(scanned.map((f) => f.transferIdHex)).toEqual([byTx.transferIdHex]);
        const d = await pair.AB.credit.deliver(scanned[0]);
        expect(await pair.alienEvent(pair.B, byTx.messageHash).getTransactionHash()).toBe(
            BigInt('0x' + byTx.transferIdHex),
        );
        // delivered once: the backend skips it afterwards
        expect(d).not.toBeNull();
        expect(await pair.AB.credit.deliver(scanned[0])).toBeNull();
    });

    it('status: Pending (Pending, Verified) until the tokens are delivered, then Completed', async () => {
        const { result } = await lock(pair.A, userA, pair.A.token, userB.address);
        const found = findTransferId(A, result.transactions[0].hash(), pair.A.nativeProxy.address);
        const built = buildProofPayload(A, found, {
            configuration: pair.B.alienConfig.address,
            attachedValue: pair.deployValue,
            remainingGasTo: userB.address,
        });
        const event = pair.alienEvent(pair.B, found.messageHash);
        const seen: EventStatus[] = [];
        const iter = await B.blockchain.sendMessageIter(
            internal({
                from: userB.address,
                to: pair.B.alienConfig.address,
                value: pair.deployValue,
                body: built.body,
            }),
        );
        for await (const tx of iter) {
            if (isAt(tx.inMessage?.info.dest, event.address) || isAt(tx.inMessage?.info.src, event.address)) {
                const st = await event.getStatus();
                if (seen[seen.length - 1] !== st) seen.push(st);
            }
        }
        expect(seen).toEqual([EventStatus.Pending, EventStatus.Confirmed]);
        expect(seen.map(toTransferStatus)).toEqual([TransferStatus.Pending, TransferStatus.Completed]);
        expect(toTransferStatus(EventStatus.Verified)).toBe(TransferStatus.Pending);
        expect(toTransferStatus(EventStatus.Rejected)).toBe(TransferStatus.Failed);
    });

    // ------------------------------------------------------------------ rejections

    async function lockedTransfer(o?: Parameters<typeof lock>[4]) {
        const { result } = await lock(pair.A, userA, pair.A.token, userB.address, o);
        return findTransferId(A, result.transactions[0].hash(), pair.A.nativeProxy.address);
    }

    function configurationExit(r: SendMessageResult, config: Address, code: number) {
        expect(r.transactions).toHaveTransaction({
            from: stranger.address,
            to: config,
            op: Op.bridge.deployTvmEvent,
            success: false,
            exitCode: code,
        });
        // the value goes back to the sender (bounce), no Event is deployed
        expect(r.transactions).toHaveTransaction({ from: config, to: stranger.address, inMessageBounced: true });
        expect(r.transactions).not.toHaveTransaction({ from: config, op: Op.bridge.processProof });
    }

    async function send(config: Address, body: Cell, value = pair.deployValue) {
        return stranger.send({ to: config, value, body });
    }

    /** The error code of the one tvm_event_refused `event` sent in `r` (event.tlb), and its recipient. */
    function refusedBy(r: SendMessageResult, event: Address): { code: number; to: Address } {
        const found = r.transactions.filter(
            (t) =>
                t.inMessage?.info.type === 'internal' &&
                t.inMessage.info.src.equals(event) &&
                parseTvmEventRefused(t.inMessage.body),
        );
        expect(found).toHaveLength(1);
        return {
            code: parseTvmEventRefused(found[0].inMessage!.body)!.errorCode,
            to: found[0].inMessage!.info.dest as Address,
        };
    }

    /** The error code of the one tvm_event_delivery_failed sent to `event` in `r`, and its sender. */
    function deliveryFailedTo(r: SendMessageResult, event: Address): { code: number; from: Address } {
        const found = r.transactions.filter(
            (t) =>
                isAt(t.inMessage?.info.dest, event) &&
                t.inMessage!.info.type === 'internal' &&
                parseTvmEventDeliveryFailed(t.inMessage!.body),
        );
        expect(found).toHaveLength(1);
        const m = found[0].inMessage!;
        if (m.info.type !== 'internal') throw new Error('tvm_event_delivery_failed is an internal message');
        return { code: parseTvmEventDeliveryFailed(m.body)!.errorCode, from: m.info.src };
    }

    it('rejects the same source transaction processed twice (2321 in the Event), tokens minted once', async () => {
        const r = await lockAndMint('credit');
        const again = await pair.AB.credit.deliver(r.found, { force: true });
        const event = pair.alienEvent(pair.B, r.found.messageHash).address;
        expect(again!.result.transactions).toHaveTransaction({ to: event, op: Op.bridge.processProof, success: true });
        // refused without a throw: the value goes back to remaining_gas_to (the backend) with the code
        const refused = refusedBy(again!.result, event);
        expect(refused.code).toBe(Errors.event.eventNotInitializing);
        expect(refused.to.equals(pair.AB.backendWallet.address)).toBe(true);
        const minter = await pair.alienMinter(pair.B, pair.A, pair.A.token);
        expect(await balanceOf(B, minter.address, userB.address)).toBe(AMOUNT);
        expect(await minter.getTotalSupply()).toBe(AMOUNT);
    });

    it('rejects a proof from another network (2221)', async () => {
        const found = await lockedTransfer();
        // the same transaction in a block of B's own chain (global id 2000): not A's
        const forged = B.forgeProof(found.transaction);
        const body = deployTvmEventBody({
            msgHash: found.messageHash,
            outMsgIndex: found.outMessageIndex,
            remainingGasTo: stranger.address,
            proofData: forged.proofData,
        });
        configurationExit(
            await send(pair.B.alienConfig.address, body),
            pair.B.alienConfig.address,
            Errors.eventConfiguration.wrongDispatchChainId,
        );
    });

    it('rejects a wrong message hash or index (2222)', async () => {
        const found = await lockedTransfer();
        const proof = A.proveTransaction(found.transaction);
        const wrongHash = deployTvmEventBody({
            msgHash: Buffer.alloc(32, 9),
            outMsgIndex: found.outMessageIndex,
            remainingGasTo: stranger.address,
            proofData: proof.proofData,
        });
        configurationExit(
            await send(pair.B.alienConfig.address, wrongHash),
            pair.B.alienConfig.address,
            Errors.eventConfiguration.wrongMessageHash,
        );
        const wrongIndex = deployTvmEventBody({
            msgHash: found.messageHash,
            outMsgIndex: found.outMessageIndex + 5,
            remainingGasTo: stranger.address,
            proofData: proof.proofData,
        });
        configurationExit(
            await send(pair.B.alienConfig.address, wrongIndex),
            pair.B.alienConfig.address,
            Errors.eventConfiguration.wrongMessageHash,
        );
    });

    it('rejects an event meant for another destination (2223)', async () => {
        // the source proxy refuses such a lock itself (proxy_native.spec.ts): here its owner has
        // listed a network no configuration of B serves, so the event exists and reaches B
        expect(
            (await pair.A.nativeProxy.sendBody(pair.A.owner.getSender(), ProxyMessages.setTvmTvmChain(777, true)))
                .transactions,
        ).toHaveTransaction({ to: pair.A.nativeProxy.address, success: true });
        const found = await lockedTransfer({ destinationChainId: 777 });
        expect(decodeTvmTvmEvent(found.eventBody).destinationChainId).toBe(777);
        const b = buildProofPayload(A, found, {
            configuration: pair.B.alienConfig.address,
            remainingGasTo: stranger.address,
        });
        configurationExit(
            await send(pair.B.alienConfig.address, b.body),
            pair.B.alienConfig.address,
            Errors.eventConfiguration.wrongDestinationChainId,
        );
        // nor does the credit backend of B pick it up
        expect(pair.AB.credit.scan()).toHaveLength(0);
    });

    it('rejects an event of another emitter (2220): a native-proxy event at the Native configuration', async () => {
        const found = await lockedTransfer();
        const b = buildProofPayload(A, found, {
            configuration: pair.B.nativeConfig.address,
            remainingGasTo: stranger.address,
        });
        configurationExit(
            await send(pair.B.nativeConfig.address, b.body),
            pair.B.nativeConfig.address,
            Errors.eventConfiguration.senderIsNotEventEmitter,
        );
    });

    async function extraConfig(start: number) {
        const c = B.blockchain.openContract(
            await TvmTvmEventConfiguration.createFromConfig({
                owner: pair.B.owner.address,
                tokenType: TokenType.Alien,
                ownChainId: B.globalId,
                transactionChecker: pair.B.transactionChecker.address,
                eventInitialBalance: TvmTvmEventConfiguration.DEFAULT_EVENT_INITIAL_BALANCE,
                eventCode: pair.codes.alienEvent,
                network: {
                    chainId: A.globalId,
                    eventEmitter: pair.A.nativeProxy.address,
                    proxy: pair.B.alienProxy.address,
                    startTimestamp: start,
                    endTimestamp: 0,
                },
            }),
        );
        await c.sendDeploy(pair.B.owner.getSender(), toNano('0.1'));
        return c;
    }

    it('rejects an event before the start (2211) or after the end (2215) of the configuration', async () => {
        A.advanceTime(100);
        const found = await lockedTransfer();
        const createdAt = (found.message.info as { createdAt: number }).createdAt;
        expect(createdAt).toBe(NETWORK_T0 + 100);
        const late = await extraConfig(createdAt + 1);
        const b1 = buildProofPayload(A, found, { configuration: late.address, remainingGasTo: stranger.address });
        configurationExit(
            await send(late.address, b1.body),
            late.address,
            Errors.eventConfiguration.eventTimestampLessThanStart,
        );
        const closed = await extraConfig(NETWORK_T0);
        await closed.sendSetEndTimestamp(pair.B.owner.getSender(), createdAt - 1);
        const b2 = buildProofPayload(A, found, {
            configuration: closed.address,
            remainingGasTo: stranger.address,
            proven: b1.proven,
        });
        configurationExit(
            await send(closed.address, b2.body),
            closed.address,
            Errors.eventConfiguration.eventTimestampAfterEnd,
        );
        // at the edges it is accepted
        const edge = await extraConfig(createdAt);
        const b3 = buildProofPayload(A, found, {
            configuration: edge.address,
            remainingGasTo: stranger.address,
            proven: b1.proven,
        });
        const r = await send(edge.address, b3.body);
        expect(r.transactions).toHaveTransaction({ to: edge.address, op: Op.bridge.deployTvmEvent, success: true });
    });

    it('rejects too little value (2213); the value comes back and a later delivery works', async () => {
        const found = await lockedTransfer();
        const b = buildProofPayload(A, found, {
            configuration: pair.B.alienConfig.address,
            remainingGasTo: stranger.address,
        });
        const ton0 = await tonOf(B, stranger.address);
        const r = await send(
            pair.B.alienConfig.address,
            b.body,
            TvmTvmEventConfiguration.DEFAULT_EVENT_INITIAL_BALANCE - 1n,
        );
        configurationExit(r, pair.B.alienConfig.address, Errors.eventConfiguration.tooLowDeployValue);
        // lost: the forward fee of the message carrying the proof (a few KB) and the configuration's gas
        const lost = ton0 - (await tonOf(B, stranger.address));
        expect(lost).toBeLessThan(toNano('0.05'));
        report.push(
            `2213 refusal: sender lost ${fmt(lost)} (forward fee of the proof message + gas), the rest bounced back`,
        );
        // exactly eventInitialBalance is enough for the most expensive path (first mint deploys the minter)
        const ok = await send(
            pair.B.alienConfig.address,
            b.body,
            TvmTvmEventConfiguration.DEFAULT_EVENT_INITIAL_BALANCE,
        );
        expectAllOk(ok.transactions);
        const minter = await pair.alienMinter(pair.B, pair.A, pair.A.token);
        expect(await balanceOf(B, minter.address, userB.address)).toBe(AMOUNT);
    });

    it('rejects callbacks from wrong senders (2212, 2710, 2329, 2313)', async () => {
        const r = await lockAndMint('credit');
        const event = pair.alienEvent(pair.B, r.found.messageHash);
        const h = BigInt('0x' + r.found.messageHash.toString('hex'));
        // tvm_event_confirmed to the configuration from anyone but the derived Event
        let x = await stranger.send({
            to: pair.B.alienConfig.address,
            value: toNano('1'),
            body: TvmTvmEventConfiguration.tvmEventConfirmedMessage(h, A.globalId, stranger.address, r.found.eventBody),
        });
        expect(x.transactions).toHaveTransaction({
            to: pair.B.alienConfig.address,
            success: false,
            exitCode: Errors.eventConfiguration.senderNotEventContract,
        });
        // on_tvm_event_confirmed_extended to the proxies from anyone but a listed configuration
        const ext = onTvmEventConfirmedExtendedMessage({
            eventAddress: event.address,
            msgHash: h,
            chainId: A.globalId,
            configuration: pair.B.alienConfig.address,
            remainingGasTo: stranger.address,
            event: r.found.eventBody,
        });
        x = await stranger.send({ to: pair.B.alienProxy.address, value: toNano('1'), body: ext });
        expect(x.transactions).toHaveTransaction({
            to: pair.B.alienProxy.address,
            success: false,
            exitCode: Errors.proxy.notTvmConfig,
        });
        x = await stranger.send({ to: pair.B.nativeProxy.address, value: toNano('1'), body: ext });
        expect(x.transactions).toHaveTransaction({
            to: pair.B.nativeProxy.address,
            success: false,
            exitCode: Errors.proxy.notTvmConfig,
        });
        // transaction_checked to the Event from anyone but its TransactionChecker
        x = await stranger.send({
            to: event.address,
            value: toNano('0.1'),
            body: beginCell()
                .storeUint(Op.transactionChecker.transactionChecked, 32)
                .storeUint(0, 64) // query_id
                .storeRef(r.found.transaction.raw)
                .endCell(),
        });
        expect(x.transactions).toHaveTransaction({
            to: event.address,
            success: false,
            exitCode: Errors.event.senderNotTxChecker,
        });
        // process_proof to the Event from anyone but its configuration
        const pp = processProofMessage({
            initializer: stranger.address,
            remainingGasTo: stranger.address,
            transactionChecker: stranger.address,
            proxy: stranger.address,
            event: r.found.eventBody,
            proof: r.built!.proven.proofData,
        });
        x = await stranger.send({ to: event.address, value: toNano('1'), body: pp });
        expect(x.transactions).toHaveTransaction({
            to: event.address,
            success: false,
            exitCode: Errors.event.senderNotEventConfiguration,
        });
        // nothing more was minted
        const minter = await pair.alienMinter(pair.B, pair.A, pair.A.token);
        expect(await minter.getTotalSupply()).toBe(AMOUNT);
    });

    // ------------------------------------------------------------------ verification and validator sets

    it('a proof signed by another set is rejected by the LiteClient (Event Rejected = Failed); a new proof completes it', async () => {
        const found = await lockedTransfer();
        const stranger_set = A.nextValidatorSet();
        const forged = A.proveTransaction(found.transaction, { signWith: stranger_set });
        const body = deployTvmEventBody({
            msgHash: found.messageHash,
            outMsgIndex: found.outMessageIndex,
            remainingGasTo: userB.address,
            proofData: forged.proofData,
        });
        const r = await userB.send({ to: pair.B.alienConfig.address, value: pair.deployValue, body });
        const event = pair.alienEvent(pair.B, found.messageHash);
        expect(r.transactions).toHaveTransaction({
            from: pair.B.transactionChecker.address,
            to: event.address,
            op: Op.transactionChecker.transactionCheckFailed,
        });
        expect(await event.getStatus()).toBe(EventStatus.Rejected);
        expect(toTransferStatus(await event.getStatus())).toBe(TransferStatus.Failed);
        // the value went back to remaining_gas_to (all but fees and the Event's reserve)
        expect(r.transactions).toHaveTransaction({ from: event.address, to: userB.address });
        // the credit backend retries a Rejected transfer with a good proof
        const d = await pair.AB.credit.deliver(found);
        expectAllOk(d!.result.transactions);
        expect(await event.getStatus()).toBe(EventStatus.Confirmed);
        const minter = await pair.alienMinter(pair.B, pair.A, pair.A.token);
        expect(await balanceOf(B, minter.address, userB.address)).toBe(AMOUNT);
    });

    it("A rotates its validators: the sync service moves B's LiteClient before the backend delivers", async () => {
        const seq0 = await pair.B.liteClient.getCurrentSeqNo();
        A.rotateValidators(undefined, { announce: true });
        A.rotateValidators();
        const found = await lockedTransfer();
        // a user who delivers before the sync: the LiteClient does not know the new set
        const b = buildProofPayload(A, found, {
            configuration: pair.B.alienConfig.address,
            attachedValue: pair.deployValue,
            remainingGasTo: userB.address,
        });
        await completeWithAbiTx(userB, b.payload.abiTx!);
        const event = pair.alienEvent(pair.B, found.messageHash);
        expect(await event.getStatus()).toBe(EventStatus.Rejected);
        // the backend syncs (two switching key blocks, the announcement skipped) and delivers
        const d = await pair.AB.credit.run();
        expect(d).toHaveLength(1);
        expect(await pair.B.liteClient.getCurrentSeqNo()).toBeGreaterThan(seq0);
        expect(await pair.B.liteClient.getCurrentEpochSince()).toBe(A.chain.current.utimeSince);
        expect(await event.getStatus()).toBe(EventStatus.Confirmed);
        expect(pair.AB.sync.behind).toBe(0);
    });

    // ------------------------------------------------------------------ nothing lost

    function refundCode(r: SendMessageResult, wallet: Address): number | null {
        const tx = r.transactions.find(
            (t) =>
                isAt(t.inMessage?.info.dest, wallet) &&
                t.inMessage!.body.beginParse().preloadUint(32) === Op.jetton.internalTransfer,
        )!;
        return (
            parseRefundPayload(loadJettonTransferInternal(tx.inMessage!.body.beginParse()).forwardPayload)?.errorCode ??
            null
        );
    }

    it('too little value with the lock: the tokens come back (2713), no event', async () => {
        const before = await balanceOf(A, pair.A.token.minter.address, userA.address);
        // below the expected gas, above what sending the tokens back needs (any standard wallet)
        const { result, wallet } = await lock(pair.A, userA, pair.A.token, userB.address, {
            forwardTon: toNano('0.08'),
        });
        expect(result.externals).toHaveLength(0);
        expect(refundCode(result, wallet.address)).toBe(Errors.proxy.lowMsgValue);
        expect(await balanceOf(A, pair.A.token.minter.address, userA.address)).toBe(before);
        expect(() => findTransferId(A, result.transactions[0].hash(), pair.A.nativeProxy.address)).toThrow();
    });

    it('the lock builder refuses a forward_ton_amount the native proxy could not run with (tokens would be stuck); at the minimum nothing is lost', async () => {
        const before = await balanceOf(A, pair.A.token.minter.address, userA.address);
        const locked0 = await balanceOf(A, pair.A.token.minter.address, pair.A.nativeProxy.address);
        await expect(
            lock(pair.A, userA, pair.A.token, userB.address, { forwardTon: MIN_LOCK_FORWARD_TON - 1n }),
        ).rejects.toThrow(/forward_ton_amount/);
        await expect(lock(pair.A, userA, pair.A.token, userB.address, { forwardTon: toNano('0.001') })).rejects.toThrow(
            /forward_ton_amount/,
        );
        expect(await balanceOf(A, pair.A.token.minter.address, userA.address)).toBe(before);
        // the least it builds: the proxy runs; too little to send the tokens back (expected_gas is above
        // the value: 2713), so it records the refund, which the user claims
        const { result } = await lock(pair.A, userA, pair.A.token, userB.address, { forwardTon: MIN_LOCK_FORWARD_TON });
        expect(result.externals).toHaveLength(0);
        const proxyWallet = pair.A.token.proxyWallet;
        expect(await pair.A.nativeProxy.getRefundOf(proxyWallet, userA.address)).toBe(AMOUNT);
        const claim = await pair.A.nativeProxy.sendBody(
            userA.getSender(),
            ProxyMessages.claimRefund(proxyWallet),
            toNano('0.1'),
        );
        expectAllOk(claim.transactions);
        expect(await balanceOf(A, pair.A.token.minter.address, userA.address)).toBe(before);
        expect(await balanceOf(A, pair.A.token.minter.address, pair.A.nativeProxy.address)).toBe(locked0);
    });

    it('a malformed transfer payload: the tokens come back (2704), no event', async () => {
        const before = await balanceOf(A, pair.A.token.minter.address, userA.address);
        const { result, wallet } = await lock(pair.A, userA, pair.A.token, userB.address, {
            rawPayload: beginCell().storeUint(0xdead, 16).endCell(),
        });
        expect(result.externals).toHaveLength(0);
        expect(refundCode(result, wallet.address)).toBe(Errors.proxy.wrongTokensAmountInPayload);
        expect(await balanceOf(A, pair.A.token.minter.address, userA.address)).toBe(before);
    });

    it('too little value with the burn: the alien tokens are minted back (2713), no event', async () => {
        await lockAndMint('credit');
        const minter = await pair.alienMinter(pair.B, pair.A, pair.A.token);
        const { result, wallet } = await burn(pair.B, userB, minter.address, userA.address, { value: toNano('0.06') });
        expect(result.externals).toHaveLength(0);
        expect(refundCode(result, wallet.address)).toBe(Errors.proxy.lowMsgValue);
        expect(await balanceOf(B, minter.address, userB.address)).toBe(AMOUNT);
        expect(await minter.getTotalSupply()).toBe(AMOUNT);
    });

    // Value of a refused step: the Event answers a process_proof it refuses (2321, 2317) with
    // tvm_event_refused to remaining_gas_to, and a destination proxy that refuses a legitimate
    // confirmation tells the Event (tvm_event_delivery_failed): nothing stays in the configuration.
    it('a duplicate deploy_tvm_event gets its value back (tvm_event_refused 2321), the configuration keeps nothing', async () => {
        const r = await lockAndMint('credit');
        const ton0 = await tonOf(B, stranger.address);
        const cfgTon0 = await tonOf(B, pair.B.alienConfig.address);
        const b = buildProofPayload(A, r.found, {
            configuration: pair.B.alienConfig.address,
            remainingGasTo: stranger.address,
        });
        const again = await send(pair.B.alienConfig.address, b.body);
        const refused = refusedBy(again, pair.alienEvent(pair.B, r.found.messageHash).address);
        expect(refused.code).toBe(Errors.event.eventNotInitializing);
        expect(refused.to.equals(stranger.address)).toBe(true);
        expect(ton0 - (await tonOf(B, stranger.address))).toBeLessThan(toNano('0.1'));
        expect(await tonOf(B, pair.B.alienConfig.address)).toBeLessThanOrEqual(cfgTon0);
        report.push(
            `duplicate deploy_tvm_event: ${fmt(ton0 - (await tonOf(B, stranger.address)))} of ${fmt(pair.deployValue)} spent (the rest back with tvm_event_refused)`,
        );
    });

    it('an Event refusing process_proof (2317, configuration with a low eventInitialBalance) returns the value (tvm_event_refused)', async () => {
        const low = B.blockchain.openContract(
            await TvmTvmEventConfiguration.createFromConfig({
                owner: pair.B.owner.address,
                tokenType: TokenType.Alien,
                ownChainId: B.globalId,
                transactionChecker: pair.B.transactionChecker.address,
                eventInitialBalance: toNano('0.1'),
                eventCode: pair.codes.alienEvent,
                network: {
                    chainId: A.globalId,
                    eventEmitter: pair.A.nativeProxy.address,
                    proxy: pair.B.alienProxy.address,
                    startTimestamp: NETWORK_T0,
                    endTimestamp: 0,
                },
            }),
        );
        await low.sendDeploy(pair.B.owner.getSender(), toNano('0.1'));
        const found = await lockedTransfer();
        const b = buildProofPayload(A, found, { configuration: low.address, remainingGasTo: stranger.address });
        const ton0 = await tonOf(B, stranger.address);
        const r = await send(low.address, b.body, toNano('0.3'));
        const event = await low.getEventAddress(BigInt('0x' + found.messageHash.toString('hex')));
        expect(r.transactions).toHaveTransaction({
            from: low.address,
            to: event,
            op: Op.bridge.processProof,
            success: true,
        });
        expect(refusedBy(r, event).code).toBe(Errors.event.tooLowMsgValue);
        expect(ton0 - (await tonOf(B, stranger.address))).toBeLessThan(toNano('0.1'));
    });

    it('a paused destination proxy tells the Event (2702): Verified (Pending), nothing minted, value back; retried once unpaused', async () => {
        await pair.B.alienProxy.sendBody(pair.B.owner.getSender(), ProxyMessages.setPaused(true));
        const payerTon0 = await tonOf(B, pair.AB.backendWallet.address);
        const cfgTon0 = await tonOf(B, pair.B.alienConfig.address);
        const r = await lockAndMint('credit');
        expectAllOk(r.result.transactions);
        const event = pair.alienEvent(pair.B, r.found.messageHash);
        const failed = deliveryFailedTo(r.result, event.address);
        expect(failed.code).toBe(Errors.proxy.proxyPaused);
        expect(failed.from.equals(pair.B.alienProxy.address)).toBe(true);
        expect(await event.getStatus()).toBe(EventStatus.Verified);
        expect(toTransferStatus(await event.getStatus())).toBe(TransferStatus.Pending);
        expect(await event.getLastErrorCode()).toBe(Errors.proxy.proxyPaused);
        const st = await pair.status(A, r.found.transferIdHex);
        expect(st).toMatchObject({
            transferStatus: 'Pending',
            eventStatus: EventStatus.Verified,
            lastErrorCode: Errors.proxy.proxyPaused,
            incomingTransactionHash: null,
        });
        expect(await pair.B.alienProxy.getAlienTokenByBase(BigInt(A.globalId), pair.A.token.minter.address)).toBeNull();
        // the value came back to remaining_gas_to (the backend), less the gas and the TransactionChecker's fees
        expect(r.result.transactions).toHaveTransaction({ from: event.address, to: pair.AB.backendWallet.address });
        const spent = payerTon0 - (await tonOf(B, pair.AB.backendWallet.address));
        expect(spent).toBeLessThan(toNano('0.3'));
        expect(await tonOf(B, pair.B.alienConfig.address)).toBeLessThanOrEqual(cfgTon0);
        report.push(
            `paused destination proxy: backend net ${fmt(spent)} of ${fmt(pair.deployValue)}, Event back to Verified (2702)`,
        );

        // unpaused: the backend delivers again (same proof), the Event confirms, the tokens are minted
        await pair.B.alienProxy.sendBody(pair.B.owner.getSender(), ProxyMessages.setPaused(false));
        const again = await pair.AB.credit.deliver(r.found);
        expect(again).not.toBeNull();
        expectAllOk(again!.result.transactions);
        expect(await event.getStatus()).toBe(EventStatus.Confirmed);
        const minter = await pair.alienMinter(pair.B, pair.A, pair.A.token);
        expect(await balanceOf(B, minter.address, userB.address)).toBe(AMOUNT);
        const done = await pair.status(A, r.found.transferIdHex);
        expect(done.transferStatus).toBe('Completed');
        const delivery = again!.result.transactions.find((t) =>
            isAt(t.inMessage?.info.dest, pair.B.alienProxy.address),
        )!;
        expect(done.incomingTransactionHash).toBe(delivery.hash().toString('hex'));
    });

    it('a paused native proxy (burn -> unlock) tells the Native Event (2702): Verified, nothing unlocked, value back', async () => {
        const m = await lockAndMint('credit');
        expectAllOk(m.result.transactions);
        const minter = await pair.alienMinter(pair.B, pair.A, pair.A.token);
        await pair.A.nativeProxy.sendBody(pair.A.owner.getSender(), ProxyMessages.setPaused(true));
        const locked0 = await balanceOf(A, pair.A.token.minter.address, pair.A.nativeProxy.address);
        const userA0 = await balanceOf(A, pair.A.token.minter.address, userA.address);
        const { result: src } = await burn(pair.B, userB, minter.address, userA.address, { amount: 400_000_000n });
        const found = findTransferId(B, src.transactions[0].hash(), pair.B.alienProxy.address);
        const d = await deliver('credit', pair.BA, found);
        expectAllOk(d.result.transactions);
        const event = pair.nativeEvent(pair.A, found.messageHash);
        const failed = deliveryFailedTo(d.result, event.address);
        expect(failed.code).toBe(Errors.proxy.proxyPaused);
        expect(failed.from.equals(pair.A.nativeProxy.address)).toBe(true);
        expect(await event.getStatus()).toBe(EventStatus.Verified);
        expect(await event.getLastErrorCode()).toBe(Errors.proxy.proxyPaused);
        expect(await balanceOf(A, pair.A.token.minter.address, pair.A.nativeProxy.address)).toBe(locked0);
        expect(await balanceOf(A, pair.A.token.minter.address, userA.address)).toBe(userA0);
        expect(d.result.transactions).toHaveTransaction({ from: event.address, to: pair.BA.backendWallet.address });
    });

    it('a refusing native proxy behind the alien proxy (predeployed token, 2702) reaches the Event through the alien proxy', async () => {
        await pair.B.nativeProxy.sendBody(pair.B.owner.getSender(), ProxyMessages.setPaused(true));
        const liquidity0 = await balanceOf(B, pair.B.shared.minter.address, pair.B.nativeProxy.address);
        const { result: src } = await lock(pair.A, userA, pair.A.shared, userB.address, { amount: 5_000_000n });
        const found = findTransferId(A, src.transactions[0].hash(), pair.A.nativeProxy.address);
        const d = await deliver('credit', pair.AB, found);
        expectAllOk(d.result.transactions);
        expect(d.result.transactions).toHaveTransaction({
            from: pair.B.nativeProxy.address,
            to: pair.B.alienProxy.address,
            op: OpEvent.nativeDeliveryFailed,
        });
        const event = pair.alienEvent(pair.B, found.messageHash);
        const failed = deliveryFailedTo(d.result, event.address);
        expect(failed.code).toBe(Errors.proxy.proxyPaused);
        expect(await event.getStatus()).toBe(EventStatus.Verified);
        expect(await event.getLastErrorCode()).toBe(Errors.proxy.proxyPaused);
        expect(await balanceOf(B, pair.B.shared.minter.address, userB.address)).toBe(0n);
        expect(await balanceOf(B, pair.B.shared.minter.address, pair.B.nativeProxy.address)).toBe(liquidity0);
        expect(d.result.transactions).toHaveTransaction({ from: event.address, to: pair.AB.backendWallet.address });
    });
});
