/**
 * Issue 11, an EVM to TVM delivery of a token a MergePool named, end to end (Hardhat's EVM beside
 * @ton/sandbox: the real MultiVault, relays, EvmTvmEventConfiguration, alien proxy, minters,
 * MergeRouters and MergePool; tests/tvm_evm.util.ts).
 *
 * Two EVM tokens go to TVM: BIG (an ERC-20 deployed here, 18 decimals) and the setup's TST (6
 * decimals). A MergePool holds both minters, their routers name it. A swap of TST into BIG through the
 * pool mints 10^12 BIG units per TST unit: BIG's TVM supply comes near 2^120 while the vault's
 * tvmOutstanding(BIG) stays small (what the vault counts is only what it sent). BIG's minter then
 * refuses a mint that would take its total_supply to 2^120 (exit 5: Coins).
 *
 * Before, such a deposit of BIG was delivered with a non-bounceable mint: refused silently, the Event
 * Confirmed (the API said Completed), the deposit locked in the vault. Now the alien proxy keeps the
 * mint of a token a pool ever named in flight (MergeInFlight kind MINT_KEPT_EVM_DELIVERY, keyed by the
 * mint's query_id) and sends it bounceable; the bounce gives back the fee and the day's count and tells
 * the Event (evm_event_delivery_failed 2715): back to Verified, where anyone's evm_event_retry delivers
 * once the supply has room. The router unset (its pool addr_none) keeps the entry: still kept.
 *
 * What it holds, every token followed on both sides (EVM balances, the vault's balance, fees and
 * tvmOutstanding; TVM supplies, the recipient's wallets, the proxy's accumulated fees and day's count):
 * - the refused delivery: Event Verified with 2715 (the API's status not Completed), fee and count back,
 *   the record gone, the supply unchanged, the deposit still in the vault and counted;
 * - the way out: the recipient swaps BIG back into TST through the pool, anyone retries: amount - fee
 *   to the recipient, Event Confirmed;
 * - gas: the proxy's transaction of a kept delivery (a token fee, a payload, a daily limit counted, the
 *   oldest record dropped) pins GAS_EVM_ALIEN_MINT_KEPT (contracts/bridge/proxy_evm.tact) within 15%;
 * - a bounced mint with a record's query_id from a stranger, or from the other token's minter, changes
 *   nothing;
 * - the owner's withdrawal of the token's fees (the in-flight delivery's fee among them) reaching the
 *   proxy before the minter's bounce must not strand the deposit: the bounce is still handled, the
 *   Event back to Verified. (It fails: bounced<Mint> reads the accumulated fees with `!!`, exit 128;
 *   the Event stays Confirmed, retry refused with 2324, the deposit locked on EVM.)
 */
import '@ton/test-utils';
import hre from 'hardhat';
import { Address, beginCell, Cell, toNano } from '@ton/core';
import { BlockchainTransaction, internal, SandboxContract, SendMessageResult, TreasuryContract } from '@ton/sandbox';
import { Contract } from 'ethers';
import { Errors, Op, OpEvm } from '../wrappers/constants';
import { deployTestToken, depositParams } from '../wrappers/evm/MultiVault';
import {
    EvmEventStatus,
    evmEventRetryMessage,
    parseEvmEventDeliveryFailed,
} from '../wrappers/EvmTvmEventConfiguration';
import { toTransferStatus, TransferStatus } from '../wrappers/eventStatus';
import { JettonMinter } from '../wrappers/JettonMinter';
import { JettonWallet } from '../wrappers/JettonWallet';
import { MergePool } from '../wrappers/MergePool';
import { MergeRouter } from '../wrappers/MergeRouter';
import { MultiVaultEvmTvmEventAlien } from '../wrappers/MultiVaultEvmTvmEventAlien';
import { ProxyMessages } from '../wrappers/ProxyMultiVaultNative';
import { EvmRelayService } from '../harness/evm/relay';
import { tvmRecipient } from '../harness/evm/fixture';
import { computeOf, evmFee, EXPECTED_GAS, isAt, lastOf, mined, opOf, proxyTx, tvmFee } from './evm_tvm.util';
import { tvmEvmSetup, TvmEvmSetup } from './tvm_evm.util';
import { mintBounceTx, mintSent, tactConstants } from './proxy.util';

jest.setTimeout(180_000);

const MAX = 2n ** 120n;
/** BIG's decimals (18) over TST's (the setup's token, 6): a swap of TST into BIG scales by this */
const SCALE = 10n ** 12n;
const UNIT = 10n ** 18n;
/** what BIG's supply lacks of 2^120 after the swaps */
const GAP = 3n * UNIT;
/** the first deposit of BIG (deploys its minter) and the deposit the minter refuses */
const BIG_FIRST = 5n * UNIT;
const BIG_KEPT = 10n * UNIT;
/** TST deposited: more than what the swaps need (about 1.33 * 10^24) */
const TST_DEPOSIT = 2n * 10n ** 24n;
/** BIG swapped back into TST to make room */
const BACK = 100n * UNIT;
/** BIG's token fee (1 / 100) and daily limit, set before the kept deposit */
const BIG_FEE = { numerator: 1n, denominator: 100n };
const BIG_DAILY_LIMIT = 1000n * UNIT;
/** a payload of two full cells (the worst case of tests/evm_tvm.e2e.spec.ts 'gas constants') */
const LONG_PAYLOAD: Cell = beginCell().storeUint(1, 1000).storeRef(beginCell().storeUint(2, 1000)).endCell();

/** a constant of contracts/bridge/`file` (const NAME: Int = digits;) */
function constantOf(file: string, name: string): number {
    const v = tactConstants(`bridge/${file}`)[name];
    if (v === undefined) throw new Error(`${name} not found in contracts/bridge/${file}`);
    return v;
}

/** the record kind of a kept EVM to TVM delivery's mint */
const MINT_KEPT_EVM_DELIVERY = BigInt(constantOf('proxy_alien.tact', 'MINT_KEPT_EVM_DELIVERY'));

describe('EVM to TVM: a token a MergePool named, its minter refusing the mint (supply near 2^120 through swaps)', () => {
    let s: TvmEvmSetup;
    let service: EvmRelayService;
    let big: Contract;
    let bigAddress: string;
    let stranger: SandboxContract<TreasuryContract>;
    let poolOwner: SandboxContract<TreasuryContract>;
    let pool: SandboxContract<MergePool>;
    /** the TVM minters of BIG and TST */
    let B: SandboxContract<JettonMinter>;
    let T: SandboxContract<JettonMinter>;
    const routers = new Map<string, SandboxContract<MergeRouter>>();
    const chainId = () => BigInt(s.evm.chainId);

    // what the scenario passes from one step to the next
    let keptEvent: SandboxContract<MultiVaultEvmTvmEventAlien>;
    let keptProxyTx: BlockchainTransaction;
    let retryProxyTx: BlockchainTransaction;
    let retryKey: bigint;
    const swapKeys: bigint[] = [];

    // ------------------------------------------------------------------ views of both sides

    const evmBalance = (token: Contract, who: string): Promise<bigint> => token.getFunction('balanceOf')(who);
    const vaultFees = (token: string): Promise<bigint> => s.evm.vault.getFunction('fees')(token);
    const outstanding = (token: string): Promise<bigint> => s.evm.vault.getFunction('tvmOutstanding')(token);
    const held = async (m: SandboxContract<JettonMinter>, owner = s.recipient.address) =>
        (await s.walletOf(m.address, owner)).getJettonBalance();
    const accumulated = (m: SandboxContract<JettonMinter>) => s.proxies.alien.getAccumulatedFees(m.address);
    const eventOf = (a: Address) => s.blockchain.openContract(MultiVaultEvmTvmEventAlien.createFromAddress(a));
    /** the alien proxy's transaction of BIG's minter's bounce in `r` */
    const bounceOfB = (r: { transactions: BlockchainTransaction[] }) =>
        mintBounceTx(r, s.proxies.alien.address, B.address)!;

    /**
     * Every token accounted for. EVM, per token: the vault holds its fees and what it sent to TVM. TVM:
     * the pool tokens' supplies and the proxy's fees, in BIG's unit, are what the vault counts as sent of
     * both, less `inFlight` BIG units (a deposit its Event holds in Verified: counted by the vault, not
     * minted); the supplies are the recipient's wallets.
     */
    const conserved = async (inFlight = 0n) => {
        const tst = s.evm.token as Contract;
        expect(await evmBalance(tst, s.evm.vaultAddress)).toBe(
            (await vaultFees(s.evm.tokenAddress)) + (await outstanding(s.evm.tokenAddress)),
        );
        expect(await evmBalance(big, s.evm.vaultAddress)).toBe(
            (await vaultFees(bigAddress)) + (await outstanding(bigAddress)),
        );
        const onTvm =
            (await B.getTotalSupply()) +
            (await accumulated(B)) +
            ((await T.getTotalSupply()) + (await accumulated(T))) * SCALE;
        expect(onTvm + inFlight).toBe(
            (await outstanding(bigAddress)) + (await outstanding(s.evm.tokenAddress)) * SCALE,
        );
        // the recipient holds all of both supplies; the pool keeps none
        for (const m of [B, T]) {
            expect(await held(m)).toBe(await m.getTotalSupply());
            if (pool) expect(await held(m, pool.address)).toBe(0n);
        }
    };

    // ------------------------------------------------------------------ actions

    /** The EVM user deposits `amount` of `token` for the TVM recipient; the relays deploy the Event and vote. */
    const depositAndRelay = async (token: Contract, amount: bigint, payload: Cell | null = null) => {
        const user = s.evm.signers.user;
        const tokenAddress = await token.getAddress();
        await mined((token.connect(user) as Contract).getFunction('approve')(s.evm.vaultAddress, amount));
        await mined(
            s.evm.vaultAs(user).getFunction('deposit')(
                depositParams(tvmRecipient(s.recipient.address), tokenAddress, amount, {
                    expectedGas: EXPECTED_GAS,
                    payload: payload ? '0x' + payload.toBoc().toString('hex') : '0x',
                }),
                { value: 777n },
            ),
        );
        await s.evm.mine(2);
        const [p, ...more] = await service.poll();
        expect(more).toEqual([]);
        return { p, last: lastOf(p.votes), event: eventOf(p.eventAddress) };
    };

    /** The recipient sends `amount` of `from` to the pool, asking for `to` (merge_pool_swap). */
    const swap = async (from: SandboxContract<JettonMinter>, amount: bigint, to: SandboxContract<JettonMinter>) => {
        const w = await s.walletOf(from.address);
        const fwd = (await pool.getRequiredValue()).swapWithDust + toNano('0.01');
        return (await w.sendTransfer(s.recipient.getSender(), {
            to: pool.address,
            amount,
            responseDestination: s.recipient.address,
            forwardTonAmount: fwd,
            forwardPayload: MergePool.swapPayload(to.address),
        })) as unknown as SendMessageResult;
    };

    /** the query_id of the alien proxy's mint to `minter` in `r` (a kept mint's record key) */
    const mintQueryId = (r: SendMessageResult, minter: Address): bigint =>
        mintSent(r, s.proxies.alien.address, minter).key;

    /** the alien proxy's mints in `r`: to which minter, bounceable or not */
    const mintsOf = (r: SendMessageResult) =>
        r.transactions
            .filter(
                (x) =>
                    x.inMessage?.info.type === 'internal' &&
                    x.inMessage.info.src.equals(s.proxies.alien.address) &&
                    opOf(x) === Op.jetton.mint,
            )
            .map((x) => {
                const info = x.inMessage!.info as { dest: Address; bounce: boolean };
                return `${info.dest.equals(B.address) ? 'BIG' : info.dest.equals(T.address) ? 'TST' : '?'} bounce=${info.bounce}`;
            });

    // ------------------------------------------------------------------ steps 1 and 2: two tokens, a pool, swaps

    beforeAll(async () => {
        s = await tvmEvmSetup();
        const { deployer, user } = s.evm.signers;
        service = new EvmRelayService(s.evm, s.blockchain, s.alienConfiguration, s.relays, s.relayer);
        stranger = await s.blockchain.treasury('stranger');
        poolOwner = await s.blockchain.treasury('pool-owner');
        const tst = s.evm.token as Contract;
        expect(await tst.getFunction('decimals')()).toBe(6n);
        big = await deployTestToken(hre, deployer, 'Big Token', 'BIG', 18);
        bigAddress = await big.getAddress();
        await mined(big.getFunction('mint')(user.address, BIG_FIRST + BIG_KEPT));
        await mined(tst.getFunction('mint')(user.address, TST_DEPOSIT));
        const tstUser0 = await evmBalance(tst, user.address);

        // 1. both deposited to TVM and minted there (their minters deployed by the first mint)
        const first = await depositAndRelay(big, BIG_FIRST);
        const second = await depositAndRelay(tst, TST_DEPOSIT);
        for (const d of [first, second]) expect(Number(await d.event.getGetStatus())).toBe(EvmEventStatus.Confirmed);
        const open = async (token: string) =>
            s.blockchain.openContract(
                JettonMinter.createFromAddress((await s.proxies.alien.getEvmMinter(chainId(), BigInt(token)))!),
            );
        B = await open(bigAddress);
        T = await open(s.evm.tokenAddress);
        expect((await s.proxies.alien.getEvmAlienToken(B.address))!.decimals).toBe(18n);
        expect((await s.proxies.alien.getEvmAlienToken(T.address))!.decimals).toBe(6n);
        const bigBridged = BIG_FIRST - evmFee(BIG_FIRST);
        const tstBridged = TST_DEPOSIT - evmFee(TST_DEPOSIT);
        expect(await held(B)).toBe(bigBridged - tvmFee(s, bigBridged));
        expect(await held(T)).toBe(tstBridged - tvmFee(s, tstBridged));
        expect(await outstanding(bigAddress)).toBe(bigBridged);
        expect(await outstanding(s.evm.tokenAddress)).toBe(tstBridged);
        expect(await evmBalance(big, user.address)).toBe(BIG_KEPT);
        expect(await evmBalance(tst, user.address)).toBe(tstUser0 - TST_DEPOSIT);
        await conserved();

        // 2. a MergePool with both (BIG 18, TST 6 decimals), their routers (deployed by the proxy's owner)
        // naming it
        pool = s.blockchain.openContract(
            await MergePool.createFromConfig({
                proxy: s.proxies.alien.address,
                owner: poolOwner.address,
                walletCode: await JettonWallet.code(),
            }),
        );
        await pool.sendDeploy(poolOwner.getSender(), toNano('1'));
        await pool.sendBody(poolOwner.getSender(), MergePool.setTokenMessage(B.address, 18));
        await pool.sendBody(poolOwner.getSender(), MergePool.setTokenMessage(T.address, 6));
        expect(await pool.getConvert(T.address, B.address, 1n)).toBe(SCALE);
        for (const m of [B, T]) {
            const r = await s.proxies.alien.sendDeployMergeRouter(s.proxyOwner.getSender(), {
                token: m.address,
                owner: poolOwner.address,
            });
            expect(r.transactions).toHaveTransaction({ to: s.proxies.alien.address, success: true });
            const router = s.blockchain.openContract(
                MergeRouter.createFromAddress(await s.proxies.alien.getMergeRouterAddress(m.address)),
            );
            routers.set(m.address.toRawString(), router);
            await router.sendBody(poolOwner.getSender(), MergeRouter.setPoolMessage(pool.address));
            expect((await s.proxies.alien.getMergePool(m.address))!.equals(pool.address)).toBe(true);
        }

        // the recipient swaps TST into BIG (two swaps, each a merge mint kept in flight) until BIG's
        // supply lacks GAP of 2^120; the vault still counts only BIG_FIRST's bridged amount
        const want = (MAX - GAP - (await B.getTotalSupply())) / SCALE;
        const parts = [want / 2n, want - want / 2n];
        const tstHeld = await held(T);
        for (const part of parts) {
            const r = await swap(T, part, B);
            expect(r.transactions).toHaveTransaction({ from: s.proxies.alien.address, to: B.address, success: true });
            expect(mintsOf(r)).toEqual(['BIG bounce=true']);
            swapKeys.push(mintQueryId(r, B.address));
        }
        // a successful merge mint's record stays until MERGE_IN_FLIGHT_KEEP (nothing tells the proxy)
        for (const k of swapKeys) expect((await s.proxies.alien.getMergeInFlight(k))!.kind).toBe(0n);
        expect(await held(T)).toBe(tstHeld - want);
        expect(await B.getTotalSupply()).toBe(MAX - GAP - ((MAX - GAP - (bigBridged - tvmFee(s, bigBridged))) % SCALE));
        expect(await B.getTotalSupply()).toBeGreaterThan(MAX - GAP - SCALE);
        expect(await held(B)).toBe(await B.getTotalSupply());
        expect(await outstanding(bigAddress)).toBe(bigBridged);
        await conserved();
    });

    // ------------------------------------------------------------------ step 3: the refused delivery

    it("a deposit of BIG whose mint would pass 2^120 (the router unset, the entry kept): the mint kept and bounceable, refused by BIG's minter (exit 5); the Event back to Verified with 2715 (API not Completed), the fee and the day's count back, the record gone, the deposit still in the vault", async () => {
        const user = s.evm.signers.user;
        // BIG leaves the pool: its router names none (addr_none), the proxy keeps its entry
        const unset = await routers
            .get(B.address.toRawString())!
            .sendBody(poolOwner.getSender(), MergeRouter.setPoolMessage(null));
        expect(unset.transactions).toHaveTransaction({ to: s.proxies.alien.address, success: true });
        expect(await s.proxies.alien.getMergePool(B.address)).toBeNull();
        // a fee and a daily limit on BIG, so the refusal shows what it gives back
        await s.proxies.alien.sendBody(
            s.proxyOwner.getSender(),
            ProxyMessages.setTokenFee(B.address, BIG_FEE.numerator, BIG_FEE.denominator),
        );
        await s.proxies.alien.sendBody(
            s.proxyOwner.getSender(),
            ProxyMessages.setDailyLimit(B.address, BIG_DAILY_LIMIT),
        );
        const fees0 = await accumulated(B);
        expect(fees0).toBeGreaterThan(0n); // the first deposit's (the default fee)
        expect((await s.proxies.alien.getDailyLimit(B.address))!.used).toBe(0n);
        const supply0 = await B.getTotalSupply();
        const held0 = await held(B);
        const vault0 = await evmBalance(big, s.evm.vaultAddress);
        const outstanding0 = await outstanding(bigAddress);

        const bridged = BIG_KEPT - evmFee(BIG_KEPT);
        const fee = (bridged * BIG_FEE.numerator) / BIG_FEE.denominator;
        expect(supply0 + bridged - fee).toBeGreaterThanOrEqual(MAX);
        const { p, last, event } = await depositAndRelay(big, BIG_KEPT, LONG_PAYLOAD);
        keptEvent = event;
        // EVM: taken by the vault and counted as sent to TVM (below 2^120: the vault does not know the supply)
        expect(await evmBalance(big, user.address)).toBe(0n);
        expect(await evmBalance(big, s.evm.vaultAddress)).toBe(vault0 + BIG_KEPT);
        expect(await outstanding(bigAddress)).toBe(outstanding0 + bridged);
        expect(await outstanding(bigAddress)).toBeLessThan(MAX / SCALE);

        // the proxy mints amount - fee, bounceable, kept under the mint's query_id
        keptProxyTx = proxyTx(last, s.proxies.alien.address);
        expect(computeOf(keptProxyTx).exitCode).toBe(0);
        expect(mintsOf(last)).toEqual(['BIG bounce=true']);
        const key = mintQueryId(last, B.address);
        expect(last.transactions).toHaveTransaction({
            from: s.proxies.alien.address,
            to: B.address,
            op: Op.jetton.mint,
            success: false,
            exitCode: 5,
        });
        // the bounce reaches the proxy, which tells the Event: back to Verified with 2715
        const bounce = bounceOfB(last);
        expect(bounce).toBeDefined();
        expect(computeOf(bounce).exitCode).toBe(0);
        // its handling within what the proxy buys when a bounce cannot pay (GAS_ALIEN_MERGE_BOUNCE)
        if (process.env.DBG) console.log(`gas of the bounce's handling ${computeOf(bounce).gas}`);
        expect(Number(computeOf(bounce).gas)).toBeLessThanOrEqual(
            constantOf('merge_messages.tact', 'GAS_ALIEN_MERGE_BOUNCE'),
        );
        const failed = last.transactions.find(
            (x) => isAt(x, p.eventAddress) && opOf(x) === OpEvm.evmEventDeliveryFailed,
        )!;
        expect(failed.inMessage!.info.src).toEqualAddress(s.proxies.alien.address);
        expect(parseEvmEventDeliveryFailed(failed.inMessage!.body)!.errorCode).toBe(Errors.proxy.transferRefused);
        const status = Number(await event.getGetStatus());
        expect(status).toBe(EvmEventStatus.Verified);
        expect(Number(await event.getGetLastErrorCode())).toBe(Errors.proxy.transferRefused);
        // the API's status of a Verified Event: Pending (Completed needs Confirmed and the delivery)
        expect(toTransferStatus(status)).toBe(TransferStatus.Pending);

        // TVM: nothing minted; the fee and the day's count given back; no record left
        expect(await B.getTotalSupply()).toBe(supply0);
        expect(await held(B)).toBe(held0);
        expect(await accumulated(B)).toBe(fees0);
        expect((await s.proxies.alien.getDailyLimit(B.address))!.used).toBe(0n);
        expect(await s.proxies.alien.getMergeInFlight(key)).toBeNull();
        await conserved(bridged);

        // a retry before there is room: refused the same way, nothing moved
        const again = await s.user.send({
            to: event.address,
            value: toNano('1'),
            body: evmEventRetryMessage(s.user.address),
        });
        expect(again.transactions).toHaveTransaction({ to: B.address, op: Op.jetton.mint, exitCode: 5 });
        expect(Number(await event.getGetStatus())).toBe(EvmEventStatus.Verified);
        expect(await B.getTotalSupply()).toBe(supply0);
        expect(await accumulated(B)).toBe(fees0);
        expect((await s.proxies.alien.getDailyLimit(B.address))!.used).toBe(0n);
        expect(await s.proxies.alien.getMergeInFlight(mintQueryId(again, B.address))).toBeNull();
        await conserved(bridged);
    });

    // ------------------------------------------------------------------ step 3b: a withdrawal of the fees meanwhile

    it("the owner withdraws BIG's fees (the in-flight delivery's among them) before BIG's minter's bounce arrives: the bounce is still handled, the Event back to Verified", async () => {
        // (the TVM side put back afterwards: the next steps go on from step 3's state)
        const before = s.net.snapshot();
        try {
            const used0 = (await s.proxies.alien.getDailyLimit(B.address))!.used;
            const fees0 = await accumulated(B);
            const run = await s.blockchain.sendMessageIter(
                internal({
                    from: stranger.address,
                    to: keptEvent.address,
                    value: toNano('1'),
                    body: evmEventRetryMessage(stranger.address),
                }),
            );
            // up to the proxy's delivery: its kept mint to BIG's minter is on its way
            let delivery: BlockchainTransaction | undefined;
            while (!delivery) {
                const n = await run.next();
                if (n.done) throw new Error('the retry reached no delivery');
                if (isAt(n.value, s.proxies.alien.address) && opOf(n.value) === OpEvm.onEvmEventConfirmedExtended)
                    delivery = n.value;
            }
            const key = [...delivery.outMessages.values()]
                .find((m) => m.info.type === 'internal' && m.info.dest.equals(B.address))!
                .body.beginParse()
                .skip(32)
                .loadUintBig(64);
            expect((await s.proxies.alien.getMergeInFlight(key))!.kind).toBe(MINT_KEPT_EVM_DELIVERY);
            const withFee = await accumulated(B);
            expect(withFee).toBeGreaterThan(fees0);
            // the owner withdraws all of BIG's fees; the withdrawal reaches the proxy before the bounce
            // (the sandbox's queue: the mint, then this; the minter's bounce after it)
            const r = await s.blockchain.sendMessage(
                internal({
                    from: s.proxyOwner.address,
                    to: s.proxies.alien.address,
                    value: toNano('0.5'),
                    body: ProxyMessages.withdrawFees(B.address, withFee, s.proxyOwner.address),
                }),
            );
            expect(r.transactions).toHaveTransaction({ to: B.address, op: Op.jetton.mint, exitCode: 5 });
            const bounce = bounceOfB(r);
            expect(bounce).toBeDefined();
            // what must hold whatever becomes of the fee: the bounce handled, the Event told (a way out)
            expect(computeOf(bounce).exitCode).toBe(0);
            expect(Number(await keptEvent.getGetStatus())).toBe(EvmEventStatus.Verified);
            expect(Number(await keptEvent.getGetLastErrorCode())).toBe(Errors.proxy.transferRefused);
            expect(await s.proxies.alien.getMergeInFlight(key)).toBeNull();
            expect((await s.proxies.alien.getDailyLimit(B.address))!.used).toBe(used0);
        } finally {
            await s.net.loadFrom(before);
        }
    });

    // ------------------------------------------------------------------ step 4: the way out

    it('the way out: the recipient swaps BIG back into TST (room made), an hour later anyone retries: amount - fee minted, the Event Confirmed', async () => {
        const bridged = BIG_KEPT - evmFee(BIG_KEPT);
        const fee = (bridged * BIG_FEE.numerator) / BIG_FEE.denominator;
        // an hour on: the swap back and the retry each drop the oldest record (a swap's) as they add theirs
        s.net.advanceTime(3601);
        // back in the pool, the recipient swaps BACK of BIG into TST
        await routers
            .get(B.address.toRawString())!
            .sendBody(poolOwner.getSender(), MergeRouter.setPoolMessage(pool.address));
        expect((await s.proxies.alien.getMergePool(B.address))!.equals(pool.address)).toBe(true);
        const tstHeld = await held(T);
        const bigHeld = await held(B);
        const back = await swap(B, BACK, T);
        expect(back.transactions).toHaveTransaction({ from: s.proxies.alien.address, to: T.address, success: true });
        expect(await held(T)).toBe(tstHeld + BACK / SCALE);
        expect(await held(B)).toBe(bigHeld - BACK);
        expect(await s.proxies.alien.getMergeInFlight(swapKeys[0])).toBeNull();
        expect(await s.proxies.alien.getMergeInFlight(swapKeys[1])).not.toBeNull();
        await conserved(bridged);

        // anyone (a stranger here) retries: BIG's minter takes it
        const fees0 = await accumulated(B);
        const supply0 = await B.getTotalSupply();
        const r = await stranger.send({
            to: keptEvent.address,
            value: toNano('1'),
            body: evmEventRetryMessage(stranger.address),
        });
        retryProxyTx = proxyTx(r, s.proxies.alien.address);
        expect(computeOf(retryProxyTx).exitCode).toBe(0);
        expect(mintsOf(r)).toEqual(['BIG bounce=true']);
        expect(r.transactions).toHaveTransaction({ from: s.proxies.alien.address, to: B.address, success: true });
        expect(r.transactions).not.toHaveTransaction({ to: keptEvent.address, op: OpEvm.evmEventDeliveryFailed });
        retryKey = mintQueryId(r, B.address);
        expect(await s.proxies.alien.getMergeInFlight(swapKeys[1])).toBeNull();
        expect(Number(await keptEvent.getGetStatus())).toBe(EvmEventStatus.Confirmed);
        expect(toTransferStatus(EvmEventStatus.Confirmed)).toBe(TransferStatus.Completed);
        expect(await held(B)).toBe(bigHeld - BACK + bridged - fee);
        expect(await B.getTotalSupply()).toBe(supply0 + bridged - fee);
        expect(await B.getTotalSupply()).toBeLessThan(MAX);
        expect(await accumulated(B)).toBe(fees0 + fee);
        expect((await s.proxies.alien.getDailyLimit(B.address))!.used).toBe(bridged);
        // the payload and expected_gas reached the recipient with the tokens
        expect(r.transactions).toHaveTransaction({ to: s.recipient.address, op: 0x7362d09c, value: EXPECTED_GAS });
        // every BIG token: on EVM in the vault, on TVM with the recipient or the proxy's fees
        expect(await outstanding(bigAddress)).toBe(BIG_FIRST - evmFee(BIG_FIRST) + bridged);
        await conserved();
    });

    // ------------------------------------------------------------------ step 5: gas

    it('gas constants: the kept delivery of a token a pool named (GAS_EVM_ALIEN_MINT_KEPT: a token fee, a payload, a daily limit counted, the oldest record dropped)', () => {
        const constant = constantOf('proxy_evm.tact', 'GAS_EVM_ALIEN_MINT_KEPT');
        const measured = Math.max(Number(computeOf(keptProxyTx).gas), Number(computeOf(retryProxyTx).gas));
        if (process.env.DBG)
            console.log(
                `gas GAS_EVM_ALIEN_MINT_KEPT measured ${measured} (kept ${computeOf(keptProxyTx).gas}, retry ${computeOf(retryProxyTx).gas})`,
            );
        if (!(measured <= constant && constant <= Math.ceil(measured * 1.15))) {
            throw new Error(
                `GAS_EVM_ALIEN_MINT_KEPT = ${constant} in proxy_evm.tact, measured ${measured}: set it to about ${Math.ceil(measured * 1.05)}`,
            );
        }
    });

    // ------------------------------------------------------------------ step 6: strangers

    it("a bounced mint with the record's query_id from a stranger, or from TST's minter: ignored, nothing changes", async () => {
        const bridged = BIG_KEPT - evmFee(BIG_KEPT);
        const fee = (bridged * BIG_FEE.numerator) / BIG_FEE.denominator;
        // the retry's mint, taken by BIG's minter, stays recorded until MERGE_IN_FLIGHT_KEEP
        const rec = (await s.proxies.alien.getMergeInFlight(retryKey))!;
        expect({
            kind: rec.kind,
            counted: rec.counted,
            target: rec.target.toRawString(),
            amount: rec.amount,
            refundTo: rec.refundTo.toRawString(),
            event: rec.event?.toRawString(),
            fee: rec.fee,
        }).toEqual({
            kind: MINT_KEPT_EVM_DELIVERY,
            counted: true,
            target: B.address.toRawString(),
            amount: bridged,
            refundTo: s.recipient.address.toRawString(),
            event: keptEvent.address.toRawString(),
            fee,
        });
        const view = async () => ({
            fees: await accumulated(B),
            used: (await s.proxies.alien.getDailyLimit(B.address))!.used,
            supply: await B.getTotalSupply(),
            held: await held(B),
            status: Number(await keptEvent.getGetStatus()),
        });
        const before = await view();
        const body = beginCell()
            .storeUint(0xffffffff, 32)
            .storeUint(Op.jetton.mint, 32)
            .storeUint(retryKey, 64)
            .endCell();
        for (const from of [stranger.address, T.address]) {
            const r = await s.blockchain.sendMessage(
                internal({ from, to: s.proxies.alien.address, value: toNano('1'), bounced: true, body }),
            );
            expect(r.transactions).toHaveTransaction({ to: s.proxies.alien.address, success: true });
            expect(r.transactions).not.toHaveTransaction({ from: s.proxies.alien.address });
            expect(await s.proxies.alien.getMergeInFlight(retryKey)).not.toBeNull();
            expect(await view()).toEqual(before);
        }
        expect(before.status).toBe(EvmEventStatus.Confirmed);
        await conserved();
    });
});
