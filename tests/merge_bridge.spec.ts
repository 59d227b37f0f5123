/**
 * MergePool and MergeRouter wired into the alien proxy and the Alien Event, end to end (harness/bridge.ts
 * deployBridgePair: two simulated networks, real jettons, proxies, configurations, Events, LiteClient
 * and TransactionChecker, real proofs, the credit backend). Layouts: contracts/bridge/merge.tlb.
 *
 * On B: T1 = the alien token of A's test token (9 decimals), T2 = the alien token of a second native
 * token of A (4 decimals), C = a canonical alien token (6 decimals, another origin), all three in one
 * MergePool with C canonical; their routers (deploy_merge_router, owner only) point to the pool.
 * What these tests hold:
 * - an incoming transfer of T1 or T2 is delivered as C (decimal conversion, the dust as T1), the
 *   Event records the router, the pool and what was delivered; supplies move exactly;
 * - the pool refusing (no canonical, canonical disabled): the recipient gets T itself, the Event
 *   stays Confirmed with the error code;
 * - a user's swap T1 -> C through the proxy's merge_mint path; a burn with merge_mint from a pool the
 *   routers do not name, or from a user, or while paused, is minted back to refund_to (2708, 2702);
 * - the Event's merge callbacks only from the router (2327), the pool (2328), the proxy (2331), in
 *   Confirmed (2316); deploy_merge_router owner only (132), of a minter (2708);
 *   merge_router_update only from the router (2708);
 * - conservation after every test: the alien supply of the pool tokens (in the 9-decimal unit)
 *   equals what is locked on A;
 * - gas: GAS_ALIEN_MINT_MERGE, GAS_EVENT_MERGE, GAS_EVENT_MERGE_DELIVERED and the merge_mint path
 *   within GAS_OWNER_ACCEPT_BURN.
 */
import { Address, beginCell, Cell, toNano } from '@ton/core';
import { internal, SandboxContract, SendMessageResult, TreasuryContract } from '@ton/sandbox';
import '@ton/test-utils';
import { TvmNetwork } from '../harness/network';
import { BridgePair, gasOf, TokenInfo } from '../harness/bridge';
import { FoundTransfer } from '../harness/transfer';
import { BridgeTestbed, expectAllOk, Treasury, txOn } from '../harness/testing';
import { EventStatus } from '../wrappers/eventStatus';
import { JettonMinter } from '../wrappers/JettonMinter';
import { JettonWallet, loadJettonTransferInternal } from '../wrappers/JettonWallet';
import { MergePool } from '../wrappers/MergePool';
import { MergeRouter } from '../wrappers/MergeRouter';
import { parseRefundPayload, ProxyMessages } from '../wrappers/ProxyMultiVaultNative';
import { Errors, ErrorsMerge, Op, OpMerge } from '../wrappers/constants';
import { mintBounceTx, mintSent, tactConstants } from './proxy.util';
import { AMOUNT, MergeBed } from './merge.util';

const P = tactConstants('bridge/proxy_common.tact');
const M = tactConstants('bridge/merge_messages.tact');

/** proxy constants: within 15% (as tests/proxy_alien.spec.ts); Event constants: within 40% (as tests/event.spec.ts) */
function pinGas(name: string, constant: number, measured: number, slack: number) {
    if (process.env.DBG) console.log(`gas ${name} measured ${measured}`);
    if (!(measured <= constant && constant <= Math.ceil(measured * slack))) {
        throw new Error(`${name} = ${constant}, measured ${measured}: set it to about ${Math.ceil(measured * 1.05)}`);
    }
}

describe('MergePool through a real bridge transfer (A -> B)', () => {
    /** two networks, the bridge on both, userA and userB (harness/testing.ts); its parts as the tests read them */
    let testbed: BridgeTestbed;
    let A: TvmNetwork, B: TvmNetwork, pair: BridgePair, userA: Treasury, userB: Treasury;
    let poolOwner: SandboxContract<TreasuryContract>;
    let stranger: SandboxContract<TreasuryContract>;
    let four: TokenInfo;
    let T1: SandboxContract<JettonMinter>;
    let T2: SandboxContract<JettonMinter>;
    let C: SandboxContract<JettonMinter>;
    let pool: SandboxContract<MergePool>;
    let bed: MergeBed;

    const routerOf = (m: { address: Address }) => bed.routerOf(m);

    beforeAll(async () => {
        bed = await MergeBed.create();
        ({ testbed, A, B, pair, userA, userB } = bed);
        ({ poolOwner, stranger, four, T1, T2, C, pool } = bed);
    });

    beforeEach(async () => {
        await testbed.reset();
    });

    afterEach(async () => {
        await expectConservation();
    });

    // ------------------------------------------------------------------ helpers (plumbing: harness/testing.ts)

    const balanceOf = (net: TvmNetwork, minter: Address, owner: Address) => testbed.balanceOf(net, minter, owner);
    const supplies = () => bed.supplies();
    const userBalances = async () => ({
        t1: await balanceOf(B, T1.address, userB.address),
        t2: await balanceOf(B, T2.address, userB.address),
        c: await balanceOf(B, C.address, userB.address),
    });

    /** The pool tokens' supply on B, in T1's unit (9 decimals), equals what A's native proxy holds of both tokens. */
    async function expectConservation() {
        const s = await supplies();
        expect(s.t1 + s.t2 * 10n ** 5n + s.c * 10n ** 3n).toBe(await bed.lockedOnA());
    }

    /** userA locks `amount` of `token` on A for userB; the credit backend delivers it on B. */
    const lockAndDeliver = (token: TokenInfo, amount: bigint) => bed.lockAndDeliver(token, amount);

    const eventOf = (found: FoundTransfer) => pair.alienEvent(pair.B, found.messageHash);

    /** error_code of the proxy_refund in the mint to `owner`'s wallet of `minter`, or null */
    async function mintRefundCode(r: SendMessageResult, minter: Address, owner: Address): Promise<number | null> {
        const wallet = (await pair.wallet(B, minter, owner)).address;
        const t = txOn(r.transactions, wallet, Op.jetton.internalTransfer);
        return (
            parseRefundPayload(loadJettonTransferInternal(t.inMessage!.body.beginParse()).forwardPayload)?.errorCode ??
            null
        );
    }

    /** userB gets `amount` of T1 itself: a delivery while the pool has no canonical token */
    async function giveT1(amount: bigint) {
        await pool.sendBody(poolOwner.getSender(), MergePool.setCanonicalMessage(null));
        const d = await lockAndDeliver(pair.A.token, amount);
        expectAllOk(d.result.transactions);
        await pool.sendBody(poolOwner.getSender(), MergePool.setCanonicalMessage(C.address));
        expect(await balanceOf(B, T1.address, userB.address)).toBe(amount);
    }

    /** userB transfers `amount` of `minter` to `to` (a pool) with a swap to `target` */
    const swap = (minter: Address, to: Address, amount: bigint, target: Address) =>
        bed.swap(minter, to, amount, target);

    // ------------------------------------------------------------------ deliveries

    describe('incoming transfers delivered as the canonical token', () => {
        it('lock on A -> the recipient on B receives C (9 -> 6 decimals, the dust as T1); the Event records the delivery', async () => {
            const amount = AMOUNT + 123n;
            const poolTon0 = (await B.blockchain.getContract(pool.address)).balance;
            const { found, result } = await lockAndDeliver(pair.A.token, amount);
            expectAllOk(result.transactions);
            // the proxy told the Event first, then minted T1 to the pool; the pool burned it for C
            const proxyTx = txOn(result.transactions, pair.B.alienProxy.address, Op.bridge.onTvmEventConfirmedExtended);
            const outOps = [...proxyTx.outMessages.values()].map((m) => m.body.beginParse().preloadUint(32));
            expect(outOps).toEqual([OpMerge.tvmEventMerge, Op.jetton.mint]);
            expect(await userBalances()).toEqual({ t1: 123n, t2: 0n, c: AMOUNT / 1000n });
            expect(await supplies()).toEqual({ t1: 123n, t2: 0n, c: AMOUNT / 1000n });
            expect(await balanceOf(B, T1.address, pool.address)).toBe(0n);
            // the Event: Confirmed, the router and the pool, the canonical amount
            const event = eventOf(found);
            expect(await event.getStatus()).toBe(EventStatus.Confirmed);
            const m = (await event.getMergeDelivery())!;
            expect(m.router.equals(routerOf(T1).address)).toBe(true);
            expect(m.pool.equals(pool.address)).toBe(true);
            expect(m.token!.equals(C.address)).toBe(true);
            expect({ amount: m.amount, errorCode: m.errorCode }).toEqual({ amount: AMOUNT / 1000n, errorCode: 0 });
            expect(await event.getLastErrorCode()).toBe(0);
            const st = await pair.status(A, found.transferIdHex);
            expect(st.transferStatus).toBe('Completed');
            // the pool keeps no TON of the delivery
            const poolTon1 = (await B.blockchain.getContract(pool.address)).balance;
            expect(poolTon1).toBeLessThanOrEqual(poolTon0);
            expect(poolTon1).toBeGreaterThan(poolTon0 - toNano('0.001'));
        });

        it('both alien tokens go into C: T2 (4 -> 6 decimals) after T1', async () => {
            await lockAndDeliver(pair.A.token, AMOUNT);
            const { found, result } = await lockAndDeliver(four, 5_0000n);
            expectAllOk(result.transactions);
            expect(await userBalances()).toEqual({ t1: 0n, t2: 0n, c: AMOUNT / 1000n + 5_000_000n });
            expect(await supplies()).toEqual({ t1: 0n, t2: 0n, c: AMOUNT / 1000n + 5_000_000n });
            const m = (await eventOf(found).getMergeDelivery())!;
            expect(m.router.equals(routerOf(T2).address)).toBe(true);
            expect(m.amount).toBe(5_000_000n);
        });

        it('the pool has no canonical token: the recipient gets T1 itself, the Event stays Confirmed with 2809', async () => {
            await pool.sendBody(poolOwner.getSender(), MergePool.setCanonicalMessage(null));
            const { found, result } = await lockAndDeliver(pair.A.token, AMOUNT);
            expectAllOk(result.transactions);
            expect(await userBalances()).toEqual({ t1: AMOUNT, t2: 0n, c: 0n });
            expect(await supplies()).toEqual({ t1: AMOUNT, t2: 0n, c: 0n });
            const event = eventOf(found);
            expect(await event.getStatus()).toBe(EventStatus.Confirmed);
            const m = (await event.getMergeDelivery())!;
            expect(m.token!.equals(T1.address)).toBe(true);
            expect({ amount: m.amount, errorCode: m.errorCode }).toEqual({
                amount: AMOUNT,
                errorCode: ErrorsMerge.noCanonical,
            });
            expect((await pair.status(A, found.transferIdHex)).transferStatus).toBe('Completed');
        });

        it('the canonical token disabled: the recipient gets T1 itself, the Event records 2804', async () => {
            await pool.sendBody(poolOwner.getSender(), MergePool.setEnabledMessage(C.address, false));
            const { found, result } = await lockAndDeliver(pair.A.token, AMOUNT);
            expectAllOk(result.transactions);
            expect(await userBalances()).toEqual({ t1: AMOUNT, t2: 0n, c: 0n });
            const m = (await eventOf(found).getMergeDelivery())!;
            expect({ token: m.token!.toRawString(), errorCode: m.errorCode }).toEqual({
                token: T1.address.toRawString(),
                errorCode: ErrorsMerge.tokenDisabled,
            });
        });

        it('the router unset (merge_router_set_pool addr_none): delivered as T1 with no merge', async () => {
            const r = await routerOf(T1).sendBody(poolOwner.getSender(), MergeRouter.setPoolMessage(null));
            expectAllOk(r.transactions);
            expect(await pair.B.alienProxy.getMergePool(T1.address)).toBeNull();
            const { found, result } = await lockAndDeliver(pair.A.token, AMOUNT);
            expectAllOk(result.transactions);
            expect(await userBalances()).toEqual({ t1: AMOUNT, t2: 0n, c: 0n });
            expect(await eventOf(found).getMergeDelivery()).toBeNull();
        });
    });

    // ------------------------------------------------------------------ swaps (merge_mint)

    describe("a user's swap through the proxy's merge_mint path", () => {
        it('T1 -> C: T1 burned, C minted to the user, the dust back', async () => {
            await giveT1(AMOUNT + 77n);
            const r = await swap(T1.address, pool.address, AMOUNT + 77n, C.address);
            expectAllOk(r.transactions);
            expect(await userBalances()).toEqual({ t1: 77n, t2: 0n, c: AMOUNT / 1000n });
            expect(await supplies()).toEqual({ t1: 77n, t2: 0n, c: AMOUNT / 1000n });
        });

        it('a pool the routers do not name: T1 minted back to refund_to with proxy_refund 2708', async () => {
            await giveT1(AMOUNT);
            const rogue = B.blockchain.openContract(
                await MergePool.createFromConfig({
                    proxy: pair.B.alienProxy.address,
                    owner: stranger.address,
                    id: 1n,
                    walletCode: await JettonWallet.code(),
                }),
            );
            await rogue.sendDeploy(stranger.getSender(), toNano('1'));
            for (const [m, d] of [
                [T1, 9],
                [C, 6],
            ] as const)
                await rogue.sendBody(stranger.getSender(), MergePool.setTokenMessage(m.address, d));
            const r = await swap(T1.address, rogue.address, AMOUNT, C.address);
            expectAllOk(r.transactions);
            const burn = txOn(r.transactions, pair.B.alienProxy.address, Op.jetton.acceptTokensBurn);
            expect(burn).toBeDefined();
            expect(await mintRefundCode(r, T1.address, userB.address)).toBe(Errors.proxy.wrongTokenRoot);
            expect(await userBalances()).toEqual({ t1: AMOUNT, t2: 0n, c: 0n });
            expect(await supplies()).toEqual({ t1: AMOUNT, t2: 0n, c: 0n });
        });

        it('a user burning T1 with merge_mint itself: minted back to refund_to (2708), no C; a short custom payload: 2704', async () => {
            await giveT1(AMOUNT);
            const w = await pair.wallet(B, T1.address, userB.address);
            const r = await w.sendBurn(userB.getSender(), {
                amount: AMOUNT,
                responseDestination: userB.address,
                customPayload: MergePool.mergeMintCell(C.address, AMOUNT, userB.address, userB.address),
                value: toNano('0.1'),
            });
            expectAllOk(r.transactions);
            expect(await mintRefundCode(r, T1.address, userB.address)).toBe(Errors.proxy.wrongTokenRoot);
            expect(await userBalances()).toEqual({ t1: AMOUNT, t2: 0n, c: 0n });
            // a custom payload too short for an op is no merge_mint: a TransferPayload refused (2704)
            const short = await w.sendBurn(userB.getSender(), {
                amount: AMOUNT,
                responseDestination: userB.address,
                customPayload: beginCell().storeUint(1, 8).endCell(),
                value: toNano('0.1'),
            });
            expectAllOk(short.transactions);
            expect(await mintRefundCode(short, T1.address, userB.address)).toBe(
                Errors.proxy.wrongTokensAmountInPayload,
            );
            expect(await userBalances()).toEqual({ t1: AMOUNT, t2: 0n, c: 0n });
        });

        it('the proxy paused: the swap is minted back as T1 with 2702', async () => {
            await giveT1(AMOUNT);
            await pair.B.alienProxy.sendBody(pair.B.owner.getSender(), ProxyMessages.setPaused(true));
            const r = await swap(T1.address, pool.address, AMOUNT, C.address);
            expectAllOk(r.transactions);
            expect(await mintRefundCode(r, T1.address, userB.address)).toBe(Errors.proxy.proxyPaused);
            expect(await userBalances()).toEqual({ t1: AMOUNT, t2: 0n, c: 0n });
        });
    });

    // ------------------------------------------------------------------ issue 10 §4: merge roles

    describe('issue 10 §4: merge roles (least privilege, the proxy checks conversions)', () => {
        it("a router's manager cannot point the router at a pool of its own (132); deliveries still reach the recipient", async () => {
            // the proxy's owner names a manager for T1's router
            await pair.B.alienProxy.sendDeployMergeRouter(pair.B.owner.getSender(), {
                token: T1.address,
                owner: poolOwner.address,
                manager: stranger.address,
            });
            expect((await routerOf(T1).getManager())!.equals(stranger.address)).toBe(true);
            const strangerTon0 = (await B.blockchain.getContract(stranger.address)).balance;
            // its own address as the pool (any contract of its own would do): refused, nothing reported
            const r = await routerOf(T1).sendBody(stranger.getSender(), MergeRouter.setPoolMessage(stranger.address));
            expect(r.transactions).toHaveTransaction({
                to: routerOf(T1).address,
                success: false,
                exitCode: ErrorsMerge.notOwner,
            });
            expect(r.transactions).not.toHaveTransaction({ to: pair.B.alienProxy.address });
            expect((await pair.B.alienProxy.getMergePool(T1.address))!.equals(pool.address)).toBe(true);
            // the delivery goes through the pool the owner named: userB gets C, the manager nothing
            const { result } = await lockAndDeliver(pair.A.token, AMOUNT);
            expectAllOk(result.transactions);
            expect(await userBalances()).toEqual({ t1: 0n, t2: 0n, c: AMOUNT / 1000n });
            expect(await balanceOf(B, T1.address, stranger.address)).toBe(0n);
            expect((await B.blockchain.getContract(stranger.address)).balance).toBeLessThan(strangerTon0);
            // what the manager may do: switch merging off; the next delivery is T1 itself, to userB
            const off = await routerOf(T1).sendBody(stranger.getSender(), MergeRouter.setPoolMessage(null));
            expectAllOk(off.transactions);
            expect(await pair.B.alienProxy.getMergePool(T1.address)).toBeNull();
            expectAllOk((await lockAndDeliver(pair.A.token, AMOUNT)).result.transactions);
            expect(await userBalances()).toEqual({ t1: AMOUNT, t2: 0n, c: AMOUNT / 1000n });
        });

        it('a pool declaring wrong decimals: the proxy converts by its own records, refuses the mint (2704) and gives the tokens back', async () => {
            // T1 has 9 decimals (the proxy's record); the pool's owner declares 3: 1 T1 would become 1,000,000 C
            await pool.sendBody(poolOwner.getSender(), MergePool.setTokenMessage(T1.address, 3));
            expect(await pool.getConvert(T1.address, C.address, AMOUNT)).toBe(AMOUNT * 1000n);
            // an incoming delivery of 1 T1 (10^9 units): the pool asks for 10^12 units of C
            const { found, result } = await lockAndDeliver(pair.A.token, AMOUNT);
            expectAllOk(result.transactions);
            const burn = txOn(result.transactions, pair.B.alienProxy.address, Op.jetton.acceptTokensBurn);
            expect(burn).toBeDefined();
            expect(await mintRefundCode(result, T1.address, userB.address)).toBe(
                Errors.proxy.wrongTokensAmountInPayload,
            );
            // nothing minted out of thin air: userB holds the 1 T1 it was sent, no C exists
            expect(await userBalances()).toEqual({ t1: AMOUNT, t2: 0n, c: 0n });
            expect(await supplies()).toEqual({ t1: AMOUNT, t2: 0n, c: 0n });
            expect(await eventOf(found).getStatus()).toBe(EventStatus.Confirmed);
            // within GAS_ALIEN_MERGE_MINT with the Event told (pinned by 'gas constants: the merge_mint path ...')
            expect(Number(gasOf(burn))).toBeLessThanOrEqual(M.GAS_ALIEN_MERGE_MINT);
            // the Event says so (merge_mint_refused): T1 itself, 2704 (it said C, 0 before issue 11)
            const m = (await eventOf(found).getMergeDelivery())!;
            expect({ token: m.token!.toRawString(), amount: m.amount, errorCode: m.errorCode }).toEqual({
                token: T1.address.toRawString(),
                amount: AMOUNT,
                errorCode: Errors.proxy.wrongTokensAmountInPayload,
            });
            // a user's swap through that pool: the same refusal, the T1 back
            const r = await swap(T1.address, pool.address, AMOUNT, C.address);
            expectAllOk(r.transactions);
            expect(await mintRefundCode(r, T1.address, userB.address)).toBe(Errors.proxy.wrongTokensAmountInPayload);
            expect(await userBalances()).toEqual({ t1: AMOUNT, t2: 0n, c: 0n });
            // the pool's owner corrects the decimals: the swap converts by them
            await pool.sendBody(poolOwner.getSender(), MergePool.setTokenMessage(T1.address, 9));
            expectAllOk((await swap(T1.address, pool.address, AMOUNT, C.address)).transactions);
            expect(await userBalances()).toEqual({ t1: 0n, t2: 0n, c: AMOUNT / 1000n });
        });

        it('wrong decimals in the other direction (C declared with more decimals): refused the same way', async () => {
            await giveT1(AMOUNT);
            await pool.sendBody(poolOwner.getSender(), MergePool.setTokenMessage(C.address, 12));
            const r = await swap(T1.address, pool.address, AMOUNT, C.address);
            expectAllOk(r.transactions);
            expect(await mintRefundCode(r, T1.address, userB.address)).toBe(Errors.proxy.wrongTokensAmountInPayload);
            expect(await userBalances()).toEqual({ t1: AMOUNT, t2: 0n, c: 0n });
            expect(await supplies()).toEqual({ t1: AMOUNT, t2: 0n, c: 0n });
        });
    });

    // ------------------------------------------------------------------ issue 11: the canonical supply

    describe("issue 11: a mint the target's minter refuses (its total supply would reach 2^120)", () => {
        /** 0.6 * 2^120 / 100 units of T2 (4 decimals): 0.6 * 2^120 of C (6 decimals) each, below 2^120 alone, above it twice */
        const X = (6n * (1n << 120n)) / 1000n;

        /** the query_id of the proxy's mint to `minter` in `r` (the merge mint's in-flight key) */
        const mintQueryId = (r: SendMessageResult, minter: Address) =>
            mintSent(r, pair.B.alienProxy.address, minter).key;
        /** the proxy's transaction of the minter's bounce in `r` */
        const bounceOn = (r: SendMessageResult, minter: Address) => mintBounceTx(r, pair.B.alienProxy.address, minter)!;

        /**
         * userB holds Z of T1 that no lock on A backs (a swap of C into T1, about 0.6 * 2^120): W of T2
         * delivered as 100 W of C, swapped into T1; userA holds Z of A's token, whose delivery T1's
         * minter then refuses (Z + Z passes 2^120)
         */
        async function t1RaisedBySwaps() {
            const W = (6n * (1n << 120n)) / 1_000_000n; // T2 units: 100 W of C, 10^5 W of T1
            const Z = 100_000n * W;
            await four.minter.sendMint(pair.A.owner.getSender(), { to: userA.address, amount: W });
            await pair.A.token.minter.sendMint(pair.A.owner.getSender(), { to: userA.address, amount: Z });
            expectAllOk((await lockAndDeliver(four, W)).result.transactions);
            expectAllOk((await swap(C.address, pool.address, 100n * W, T1.address)).transactions);
            expect(await userBalances()).toEqual({ t1: Z, t2: 0n, c: 0n });
            return { W, Z };
        }

        /** the mint `minter` refused in a delivery's `result`: the Event back in Verified with 2715, the fee and the day's count given back, the record gone, the API not Completed */
        async function expectDeliveryRefused(result: SendMessageResult, found: FoundTransfer, minter: Address) {
            expect(result.transactions).toHaveTransaction({
                from: pair.B.alienProxy.address,
                to: minter,
                op: Op.jetton.mint,
                success: false,
                exitCode: 5,
            });
            const event = eventOf(found);
            expect(await event.getStatus()).toBe(EventStatus.Verified);
            expect(await event.getLastErrorCode()).toBe(Errors.proxy.transferRefused);
            expect(await pair.B.alienProxy.getAccumulatedFees(minter)).toBe(0n);
            expect((await pair.B.alienProxy.getDailyLimit(minter))!.used).toBe(0n);
            expect(await pair.B.alienProxy.getMergeInFlight(mintQueryId(result, minter))).toBeNull();
            expect((await pair.status(A, found.transferIdHex)).transferStatus).not.toBe('Completed');
            return event;
        }

        it('a delivery and a swap into C past 2^120: the burned T2 minted back (2715), the Event Confirmed with 2715, nothing lost; the bounce replayed mints nothing', async () => {
            await four.minter.sendMint(pair.A.owner.getSender(), { to: userA.address, amount: 3n * X });
            const first = await lockAndDeliver(four, X);
            expectAllOk(first.result.transactions);
            expect(await userBalances()).toEqual({ t1: 0n, t2: 0n, c: 100n * X });

            // the second delivery: the pool burns X of T2 and asks for 100 X of C; C's minter refuses (exit 5)
            const second = await lockAndDeliver(four, X);
            expect(second.result.transactions).toHaveTransaction({
                from: pair.B.alienProxy.address,
                to: C.address,
                op: Op.jetton.mint,
                success: false,
                exitCode: 5,
            });
            const key = mintQueryId(second.result, C.address);
            const bounce = bounceOn(second.result, C.address);
            expect(bounce.description.type === 'generic' && bounce.description.aborted).toBe(false);
            // the burned T2 back to the recipient with proxy_refund 2715; no C minted; every token counted
            expect(await mintRefundCode(second.result, T2.address, userB.address)).toBe(Errors.proxy.transferRefused);
            expect(await userBalances()).toEqual({ t1: 0n, t2: X, c: 100n * X });
            expect(await supplies()).toEqual({ t1: 0n, t2: X, c: 100n * X });
            expect(await balanceOf(B, T2.address, pool.address)).toBe(0n);
            expect(await pair.B.alienProxy.getMergeInFlight(key)).toBeNull();
            // the Event says what the recipient got: T2 itself, with the code; the API Completed
            const event = eventOf(second.found);
            expect(await event.getStatus()).toBe(EventStatus.Confirmed);
            const m = (await event.getMergeDelivery())!;
            expect({ token: m.token!.toRawString(), amount: m.amount, errorCode: m.errorCode }).toEqual({
                token: T2.address.toRawString(),
                amount: X,
                errorCode: Errors.proxy.transferRefused,
            });
            expect((await pair.status(A, second.found.transferIdHex)).transferStatus).toBe('Completed');

            // a user's swap of that T2 into C: the same refusal, the T2 back to the swapper
            const r = await swap(T2.address, pool.address, X, C.address);
            expect(r.transactions).toHaveTransaction({ to: C.address, op: Op.jetton.mint, exitCode: 5 });
            expect(await mintRefundCode(r, T2.address, userB.address)).toBe(Errors.proxy.transferRefused);
            expect(await userBalances()).toEqual({ t1: 0n, t2: X, c: 100n * X });
            expect(await supplies()).toEqual({ t1: 0n, t2: X, c: 100n * X });

            // every mint of a token a pool names goes out bounceable, kept in flight under a key the proxy
            // chose (the merge mint, the delivery's mint to the pool, and now the give-back of the burned
            // T2, whose refusal would be recorded for claim_refund): no mint's bounce whose query_id a user
            // may choose (claim_refund, a refused burn) can be taken for one
            const bounceable = (res: SendMessageResult) =>
                res.transactions
                    .filter(
                        (x) =>
                            x.inMessage?.info.type === 'internal' &&
                            x.inMessage.info.src.equals(pair.B.alienProxy.address) &&
                            x.inMessage.body.beginParse().preloadUint(32) === Op.jetton.mint,
                    )
                    .map((x) => {
                        const info = x.inMessage!.info as { dest: Address; bounce: boolean };
                        return `${info.dest.equals(C.address) ? 'C' : info.dest.equals(T2.address) ? 'T2' : '?'} ${info.bounce}`;
                    });
            expect(bounceable(second.result)).toEqual(['T2 true', 'C true', 'T2 true']);
            expect(bounceable(r)).toEqual(['C true', 'T2 true']);

            // the bounce played again (same sender, same body): no record, nothing minted
            const again = await B.blockchain.sendMessage(bounceOn(r, C.address).inMessage!);
            expect(again.transactions).not.toHaveTransaction({ from: pair.B.alienProxy.address });
            expect(await supplies()).toEqual({ t1: 0n, t2: X, c: 100n * X });

            // gas: the bounce's handling (with the Event told, and a swap's) and the Event's answer
            const worst = Math.max(Number(gasOf(bounce)), Number(gasOf(bounceOn(r, C.address))));
            pinGas('GAS_ALIEN_MERGE_BOUNCE', M.GAS_ALIEN_MERGE_BOUNCE, worst, 1.15);
            const refusedGas = Number(gasOf(txOn(second.result.transactions, event.address, OpMerge.mergeMintRefused)));
            expect(refusedGas).toBeLessThanOrEqual(M.GAS_EVENT_MERGE_DELIVERED);
        });

        it("a delivery whose own mint its minter refuses (swaps raised T1's supply near 2^120): the Event back to Verified (2715), the fee and the day's count given back; delivered once there is room", async () => {
            const { W, Z } = await t1RaisedBySwaps();
            const ownerB = pair.B.owner.getSender();
            // a fee and a daily limit on T1, so that the refusal shows what it gives back
            await pair.B.alienProxy.sendBody(ownerB, ProxyMessages.setTokenFee(T1.address, 1n, 100n));
            await pair.B.alienProxy.sendBody(ownerB, ProxyMessages.setDailyLimit(T1.address, (1n << 120n) - 1n));

            // Z of A's token delivered: the proxy mints Z - fee of T1 to the pool; T1's minter refuses (exit 5)
            const { found, result } = await lockAndDeliver(pair.A.token, Z);
            const event = await expectDeliveryRefused(result, found, T1.address);
            expect(await userBalances()).toEqual({ t1: Z, t2: 0n, c: 0n });
            expect(await balanceOf(B, T1.address, pool.address)).toBe(0n);
            expect(Number(gasOf(bounceOn(result, T1.address)))).toBeLessThanOrEqual(M.GAS_ALIEN_MERGE_BOUNCE);

            // the way out: once T1's supply has room (userB swaps its T1 back into C), the same proof delivers
            expectAllOk((await swap(T1.address, pool.address, Z, C.address)).transactions);
            await pair.B.alienProxy.sendBody(ownerB, ProxyMessages.removeTokenFee(T1.address));
            const again = (await pair.AB.credit.deliver(found))!;
            expectAllOk(again.result.transactions);
            expect(await event.getStatus()).toBe(EventStatus.Confirmed);
            expect((await event.getMergeDelivery())!.errorCode).toBe(0);
            expect(await userBalances()).toEqual({ t1: 0n, t2: 0n, c: 200n * W });
        });

        const mintTo = (r: SendMessageResult, minter: Address) => mintSent(r, pair.B.alienProxy.address, minter);

        it("a token its router no longer names (swaps raised its supply near 2^120): a plain delivery's mint is kept in flight; its minter's refusal puts the Event back in Verified (2715), the fee and the day's count given back; the same proof delivers once there is room", async () => {
            const { W, Z } = await t1RaisedBySwaps();
            const ownerB = pair.B.owner.getSender();
            // T1's router names no pool any more: the proxy keeps T1's entry (its supply is not what A backs)
            const unset = async () =>
                expectAllOk(
                    (await routerOf(T1).sendBody(poolOwner.getSender(), MergeRouter.setPoolMessage(null))).transactions,
                );
            await unset();
            expect(await pair.B.alienProxy.getMergePool(T1.address)).toBeNull();
            await pair.B.alienProxy.sendBody(ownerB, ProxyMessages.setTokenFee(T1.address, 1n, 100n));
            await pair.B.alienProxy.sendBody(ownerB, ProxyMessages.setDailyLimit(T1.address, (1n << 120n) - 1n));

            // Z of A's token delivered: a plain mint of Z - fee of T1 to userB (no merge), bounceable; refused
            const { found, result } = await lockAndDeliver(pair.A.token, Z);
            const sent = mintTo(result, T1.address);
            expect({ bounce: sent.bounce, receiver: sent.receiver.toRawString() }).toEqual({
                bounce: true,
                receiver: userB.address.toRawString(),
            });
            const event = await expectDeliveryRefused(result, found, T1.address);
            expect(await event.getMergeDelivery()).toBeNull();
            expect(await userBalances()).toEqual({ t1: Z, t2: 0n, c: 0n });
            expect(await supplies()).toEqual({ t1: Z, t2: 0n, c: 0n });
            // the bounce played again: no record, nothing given back twice
            const replay = await B.blockchain.sendMessage(bounceOn(result, T1.address).inMessage!);
            expect(replay.transactions).not.toHaveTransaction({ from: pair.B.alienProxy.address });

            // the way out: room in T1's supply (userB swaps its T1 back into C while the router names the
            // pool again), then the same proof delivers, a plain mint kept in flight
            expectAllOk(
                (await routerOf(T1).sendBody(poolOwner.getSender(), MergeRouter.setPoolMessage(pool.address)))
                    .transactions,
            );
            expectAllOk((await swap(T1.address, pool.address, Z, C.address)).transactions);
            await unset();
            await pair.B.alienProxy.sendBody(ownerB, ProxyMessages.removeTokenFee(T1.address));
            const again = (await pair.AB.credit.deliver(found))!;
            expectAllOk(again.result.transactions);
            expect(mintTo(again.result, T1.address).bounce).toBe(true);
            expect(await event.getStatus()).toBe(EventStatus.Confirmed);
            expect(await userBalances()).toEqual({ t1: Z, t2: 0n, c: 100n * W });
            expect((await pair.B.alienProxy.getDailyLimit(T1.address))!.used).toBe(Z);
            // gas: within GAS_ALIEN_MINT_MERGE, the value this path asks for (pinned by 'gas constants: merged delivery')
            const kept = Number(
                gasOf(
                    txOn(again.result.transactions, pair.B.alienProxy.address, Op.bridge.onTvmEventConfirmedExtended),
                ),
            );
            expect(kept).toBeLessThanOrEqual(P.GAS_ALIEN_MINT_MERGE);
        });

        it("a refund's mint of a token a pool names, refused because swaps refilled its supply within the seconds of a refused burn: recorded for claim_refund with its code; a claim refused the same way is recorded again (2715); claimed once there is room, 2^119 at a time", async () => {
            const W = (6n * (1n << 120n)) / 1_000_000n;
            const Z = 100_000n * W; // about 0.6 * 2^120 of T1: twice cannot be held
            await four.minter.sendMint(pair.A.owner.getSender(), { to: userA.address, amount: 2n * W });
            expectAllOk((await lockAndDeliver(four, W)).result.transactions);
            expectAllOk((await lockAndDeliver(four, W)).result.transactions);
            expectAllOk((await swap(C.address, pool.address, 100n * W, T1.address)).transactions);
            expect(await userBalances()).toEqual({ t1: Z, t2: 0n, c: 100n * W });

            // userB burns its Z of T1 with a malformed payload (refused: 2704, minted back); while the
            // proxy's accept_tokens_burn waits, userB's swap of C into T1 fills T1's supply again
            const wallet = await pair.wallet(B, T1.address, userB.address);
            const iter = await B.blockchain.sendMessageIter(
                internal({
                    from: userB.address,
                    to: wallet.address,
                    value: toNano('0.5'),
                    body: JettonWallet.burnMessage({
                        amount: Z,
                        responseDestination: userB.address,
                        customPayload: beginCell().storeUint(5, 70).endCell(),
                    }),
                }),
                { allowParallel: true },
            );
            const txs: SendMessageResult['transactions'] = [];
            let refilled = false;
            for await (const t of iter) {
                txs.push(t);
                if (!refilled && t.inMessage?.info.dest?.toString() === T1.address.toString()) {
                    refilled = true;
                    expect(await T1.getTotalSupply()).toBe(0n);
                    expectAllOk((await swap(C.address, pool.address, 100n * W, T1.address)).transactions);
                    expect(await T1.getTotalSupply()).toBe(Z);
                }
            }
            const burnRes = { transactions: txs } as unknown as SendMessageResult;
            // the mint back goes out kept in flight, T1's minter refuses it (Z + Z), its bounce records it
            expect(mintTo(burnRes, T1.address).bounce).toBe(true);
            expect(burnRes.transactions).toHaveTransaction({ to: T1.address, op: Op.jetton.mint, exitCode: 5 });
            expect(await pair.B.alienProxy.getRefundOf(T1.address, userB.address)).toBe(Z);
            expect(await pair.B.alienProxy.getMergeInFlight(mintQueryId(burnRes, T1.address))).toBeNull();
            expect(await userBalances()).toEqual({ t1: Z, t2: 0n, c: 0n });
            expect(await supplies()).toEqual({ t1: Z, t2: 0n, c: 0n });
            const bounceGas = Number(gasOf(bounceOn(burnRes, T1.address)));
            expect(bounceGas).toBeLessThanOrEqual(M.GAS_ALIEN_MERGE_BOUNCE);

            // claim_refund now: the same refusal, recorded again with 2715 (nothing minted, nothing lost)
            const claim = () =>
                pair.B.alienProxy.sendBody(userB.getSender(), ProxyMessages.claimRefund(T1.address), toNano('0.2'));
            const refused = await claim();
            expect(mintTo(refused, T1.address).bounce).toBe(true);
            expect(refused.transactions).toHaveTransaction({ to: T1.address, op: Op.jetton.mint, exitCode: 5 });
            expect(await pair.B.alienProxy.getRefundOf(T1.address, userB.address)).toBe(Z);
            expect(await supplies()).toEqual({ t1: Z, t2: 0n, c: 0n });

            // room: userB swaps its T1 back into C; the claims mint (2^119 at most at a time: Z takes two)
            expectAllOk((await swap(T1.address, pool.address, Z, C.address)).transactions);
            const HALF = 1n << 119n;
            const paid = await claim();
            expectAllOk(paid.transactions);
            expect(await mintRefundCode(paid, T1.address, userB.address)).toBe(Errors.proxy.transferRefused);
            expect(await pair.B.alienProxy.getRefundOf(T1.address, userB.address)).toBe(Z - HALF);
            expectAllOk((await claim()).transactions);
            expect(await pair.B.alienProxy.getRefundOf(T1.address, userB.address)).toBe(0n);
            expect(await userBalances()).toEqual({ t1: Z, t2: 0n, c: 100n * W });
        });

        it("a stranger's bounce, or another minter's, cannot take a merge mint's record; a record is dropped an hour later; a bounce that cannot pay: recorded for claim_refund", async () => {
            // a delivery's merge mint of C, kept in flight
            const r = (await lockAndDeliver(pair.A.token, AMOUNT)).result;
            expectAllOk(r.transactions);
            const key = mintQueryId(r, C.address);
            const rec = (await pair.B.alienProxy.getMergeInFlight(key))!;
            expect({
                kind: rec.kind,
                target: rec.target.toRawString(),
                source: rec.source.toRawString(),
                amount: rec.amount,
            }).toEqual({
                kind: 0n, // MINT_KEPT_MERGE
                target: C.address.toRawString(),
                source: T1.address.toRawString(),
                amount: AMOUNT,
            });
            // the delivery's own mint to the pool was answered by the pool's burn: no record of it is left
            const toPool = mintQueryId(r, T1.address);
            const left = await pair.B.alienProxy.getMergeInFlight(toPool);
            expect(left === null || left.kind !== 1n).toBe(true);
            // a bounced mint with the record's query_id, from a stranger and from T1's minter: ignored
            const body = beginCell()
                .storeUint(0xffffffff, 32)
                .storeUint(Op.jetton.mint, 32)
                .storeUint(key, 64)
                .endCell();
            for (const from of [stranger.address, T1.address]) {
                const f = await B.blockchain.sendMessage(
                    internal({ from, to: pair.B.alienProxy.address, value: toNano('1'), bounced: true, body }),
                );
                expect(f.transactions).toHaveTransaction({ to: pair.B.alienProxy.address, success: true });
                expect(f.transactions).not.toHaveTransaction({ from: pair.B.alienProxy.address });
                expect(await pair.B.alienProxy.getMergeInFlight(key)).not.toBeNull();
            }
            expect(await userBalances()).toEqual({ t1: 0n, t2: 0n, c: AMOUNT / 1000n });
            // an hour later the next merge mint drops it (one per mint); its own is kept
            B.advanceTime(3601);
            const next = (await lockAndDeliver(pair.A.token, AMOUNT)).result;
            expectAllOk(next.transactions);
            expect(await pair.B.alienProxy.getMergeInFlight(key)).toBeNull();
            const key2 = mintQueryId(next, C.address);
            expect(await pair.B.alienProxy.getMergeInFlight(key2)).not.toBeNull();
            expect(await userBalances()).toEqual({ t1: 0n, t2: 0n, c: (2n * AMOUNT) / 1000n });
            // the record's own minter, its bounce carrying less than the handling's gas (played here: a
            // refusing minter's bounce carries what its mint left): the proxy buys the gas and records
            // the burned T1 for claim_refund by the swapper
            const low = await B.blockchain.sendMessage(
                internal({
                    from: C.address,
                    to: pair.B.alienProxy.address,
                    value: toNano('0.01'),
                    bounced: true,
                    body: beginCell()
                        .storeUint(0xffffffff, 32)
                        .storeUint(Op.jetton.mint, 32)
                        .storeUint(key2, 64)
                        .endCell(),
                }),
            );
            expect(low.transactions).toHaveTransaction({ to: pair.B.alienProxy.address, success: true });
            expect(await pair.B.alienProxy.getMergeInFlight(key2)).toBeNull();
            expect(await pair.B.alienProxy.getRefundOf(T1.address, userB.address)).toBe(AMOUNT);
        });

        it("merge_mint_refused: only from the proxy (2331), naming the Event's pool (2328); a later merge_pool_delivered does not overwrite it", async () => {
            const { found } = await lockAndDeliver(pair.A.token, AMOUNT);
            const event = eventOf(found);
            const refused = MergePool.mintRefusedMessage(
                pool.address,
                T1.address,
                AMOUNT,
                Errors.proxy.transferRefused,
            );
            let r: SendMessageResult = await stranger.send({ to: event.address, value: toNano('0.05'), body: refused });
            expect(r.transactions).toHaveTransaction({
                to: event.address,
                success: false,
                exitCode: Errors.event.senderNotProxy,
            });
            const fromProxy = (body: Cell) =>
                B.blockchain.sendMessage(
                    internal({ from: pair.B.alienProxy.address, to: event.address, value: toNano('0.05'), body }),
                );
            r = await fromProxy(MergePool.mintRefusedMessage(stranger.address, T1.address, AMOUNT, 2715));
            expect(r.transactions).toHaveTransaction({
                to: event.address,
                success: false,
                exitCode: Errors.event.senderNotMergePool,
            });
            expect((await event.getMergeDelivery())!.errorCode).toBe(0);
            r = await fromProxy(refused);
            expect(r.transactions).toHaveTransaction({ to: event.address, success: true });
            // the pool's answer arriving after it (as it could from another shard) keeps the refusal
            r = await B.blockchain.sendMessage(
                internal({
                    from: pool.address,
                    to: event.address,
                    value: toNano('0.05'),
                    body: MergePool.deliveredMessage(C.address, AMOUNT / 1000n, 0),
                }),
            );
            expect(r.transactions).toHaveTransaction({ to: event.address, success: true });
            const m = (await event.getMergeDelivery())!;
            expect({ token: m.token!.toRawString(), errorCode: m.errorCode }).toEqual({
                token: T1.address.toRawString(),
                errorCode: Errors.proxy.transferRefused,
            });
        });
    });

    // ------------------------------------------------------------------ authority

    describe('who may do what', () => {
        it('deploy_merge_router: owner only (132), of one of the proxy minters (2708); the router gets its owner', async () => {
            let r = await pair.B.alienProxy.sendDeployMergeRouter(stranger.getSender(), {
                token: T1.address,
                owner: stranger.address,
            });
            expect(r.transactions).toHaveTransaction({
                to: pair.B.alienProxy.address,
                success: false,
                exitCode: Errors.proxy.notOwner,
            });
            r = await pair.B.alienProxy.sendDeployMergeRouter(pair.B.owner.getSender(), {
                token: pair.B.token.minter.address,
                owner: stranger.address,
            });
            expect(r.transactions).toHaveTransaction({
                to: pair.B.alienProxy.address,
                success: false,
                exitCode: Errors.proxy.wrongTokenRoot,
            });
            // the router's address is the one MergeRouter derives; the proxy may re-assign its owner
            const router = routerOf(T1);
            expect(
                router.address.equals(
                    (await MergeRouter.createFromConfig({ proxy: pair.B.alienProxy.address, token: T1.address }))
                        .address,
                ),
            ).toBe(true);
            expect((await router.getOwner())!.equals(poolOwner.address)).toBe(true);
            r = await pair.B.alienProxy.sendDeployMergeRouter(pair.B.owner.getSender(), {
                token: T1.address,
                owner: stranger.address,
                manager: userB.address,
            });
            expectAllOk(r.transactions);
            expect((await router.getOwner())!.equals(stranger.address)).toBe(true);
            expect((await router.getManager())!.equals(userB.address)).toBe(true);
        });

        it('merge_router_update from anyone but the token router: 2708, nothing recorded', async () => {
            const r = await pair.B.alienProxy.sendBody(
                stranger.getSender(),
                MergeRouter.updateMessage(T1.address, stranger.address, stranger.address),
            );
            expect(r.transactions).toHaveTransaction({
                to: pair.B.alienProxy.address,
                success: false,
                exitCode: Errors.proxy.wrongTokenRoot,
            });
            expect((await pair.B.alienProxy.getMergePool(T1.address))!.equals(pool.address)).toBe(true);
            // the router of T2 cannot set T1's pool either
            const forged = await B.blockchain.sendMessage(
                internal({
                    from: routerOf(T2).address,
                    to: pair.B.alienProxy.address,
                    value: toNano('0.05'),
                    body: MergeRouter.updateMessage(T1.address, stranger.address, stranger.address),
                }),
            );
            expect(forged.transactions).toHaveTransaction({
                to: pair.B.alienProxy.address,
                success: false,
                exitCode: Errors.proxy.wrongTokenRoot,
            });
            expect((await pair.B.alienProxy.getMergePool(T1.address))!.equals(pool.address)).toBe(true);
        });

        it('the Event: merge_router_pool only from the router (2327), merge_pool_delivered only from the pool (2328)', async () => {
            const { found } = await lockAndDeliver(pair.A.token, AMOUNT);
            const event = eventOf(found);
            const view = async () =>
                JSON.stringify(await event.getMergeDelivery(), (_k, v) =>
                    Address.isAddress(v) ? v.toRawString() : typeof v === 'bigint' ? v.toString() : v,
                );
            const before = await view();
            let r: SendMessageResult = await stranger.send({
                to: event.address,
                value: toNano('0.05'),
                body: MergeRouter.poolMessage(T1.address, pool.address),
            });
            expect(r.transactions).toHaveTransaction({
                to: event.address,
                success: false,
                exitCode: Errors.event.senderNotMergeRouter,
            });
            r = await stranger.send({
                to: event.address,
                value: toNano('0.05'),
                body: MergePool.deliveredMessage(C.address, 10n ** 12n, 0),
            });
            expect(r.transactions).toHaveTransaction({
                to: event.address,
                success: false,
                exitCode: Errors.event.senderNotMergePool,
            });
            // the router of another token is not this Event's router; the real router is heard (informational)
            r = await B.blockchain.sendMessage(
                internal({
                    from: routerOf(T2).address,
                    to: event.address,
                    value: toNano('0.05'),
                    body: MergeRouter.poolMessage(T2.address, pool.address),
                }),
            );
            expect(r.transactions).toHaveTransaction({
                to: event.address,
                success: false,
                exitCode: Errors.event.senderNotMergeRouter,
            });
            r = await B.blockchain.sendMessage(
                internal({
                    from: routerOf(T1).address,
                    to: event.address,
                    value: toNano('0.05'),
                    body: MergeRouter.poolMessage(T1.address, pool.address),
                }),
            );
            expect(r.transactions).toHaveTransaction({ to: event.address, success: true });
            expect(await view()).toBe(before);
        });

        it('an Event without a merge: merge_router_pool 2327, merge_pool_delivered 2328 even from the real router and pool', async () => {
            await routerOf(T1).sendBody(poolOwner.getSender(), MergeRouter.setPoolMessage(null));
            const { found } = await lockAndDeliver(pair.A.token, AMOUNT);
            const event = eventOf(found);
            let r: SendMessageResult = await B.blockchain.sendMessage(
                internal({
                    from: routerOf(T1).address,
                    to: event.address,
                    value: toNano('0.05'),
                    body: MergeRouter.poolMessage(T1.address, pool.address),
                }),
            );
            expect(r.transactions).toHaveTransaction({
                to: event.address,
                success: false,
                exitCode: Errors.event.senderNotMergeRouter,
            });
            r = await B.blockchain.sendMessage(
                internal({
                    from: pool.address,
                    to: event.address,
                    value: toNano('0.05'),
                    body: MergePool.deliveredMessage(C.address, 1n, 0),
                }),
            );
            expect(r.transactions).toHaveTransaction({
                to: event.address,
                success: false,
                exitCode: Errors.event.senderNotMergePool,
            });
        });

        it('tvm_event_merge: only from the alien proxy (2331), only in Confirmed (2316)', async () => {
            // a delivery the paused proxy refuses leaves the Event in Verified
            await pair.B.alienProxy.sendBody(pair.B.owner.getSender(), ProxyMessages.setPaused(true));
            const { found } = await lockAndDeliver(pair.A.token, AMOUNT);
            const event = eventOf(found);
            expect(await event.getStatus()).toBe(EventStatus.Verified);
            const body = MergePool.tvmEventMergeMessage(routerOf(T1).address, pool.address, stranger.address);
            let r: SendMessageResult = await stranger.send({ to: event.address, value: toNano('0.05'), body });
            expect(r.transactions).toHaveTransaction({
                to: event.address,
                success: false,
                exitCode: Errors.event.senderNotProxy,
            });
            // playing the proxy (a forged sender address in the sandbox)
            r = await B.blockchain.sendMessage(
                internal({ from: pair.B.alienProxy.address, to: event.address, value: toNano('0.05'), body }),
            );
            expect(r.transactions).toHaveTransaction({
                to: event.address,
                success: false,
                exitCode: Errors.event.eventNotConfirmed,
            });
            expect(await event.getMergeDelivery()).toBeNull();
            // unpaused, the same proof delivers through the pool
            await pair.B.alienProxy.sendBody(pair.B.owner.getSender(), ProxyMessages.setPaused(false));
            const again = (await pair.AB.credit.deliver(found))!;
            expectAllOk(again.result.transactions);
            expect(await event.getStatus()).toBe(EventStatus.Confirmed);
            expect((await event.getMergeDelivery())!.errorCode).toBe(0);
            expect(await userBalances()).toEqual({ t1: 0n, t2: 0n, c: AMOUNT / 1000n });
        });
    });

    // ------------------------------------------------------------------ gas

    describe('gas constants', () => {
        const pin = pinGas;

        it('gas constants: merged delivery (GAS_ALIEN_MINT_MERGE)', async () => {
            const { result } = await lockAndDeliver(pair.A.token, AMOUNT + 1n);
            pin(
                'GAS_ALIEN_MINT_MERGE',
                P.GAS_ALIEN_MINT_MERGE,
                Number(
                    gasOf(txOn(result.transactions, pair.B.alienProxy.address, Op.bridge.onTvmEventConfirmedExtended)),
                ),
                1.15,
            );
        });

        it('gas constants: Event merge callbacks (GAS_EVENT_MERGE, GAS_EVENT_MERGE_DELIVERED)', async () => {
            const { found, result } = await lockAndDeliver(pair.A.token, AMOUNT);
            const event = eventOf(found).address;
            pin(
                'GAS_EVENT_MERGE',
                M.GAS_EVENT_MERGE,
                Number(gasOf(txOn(result.transactions, event, OpMerge.tvmEventMerge))),
                1.4,
            );
            // the worst answer: a refusal (the pool records the delivered token and a code)
            await pool.sendBody(poolOwner.getSender(), MergePool.setCanonicalMessage(null));
            const refused = await lockAndDeliver(pair.A.token, AMOUNT);
            const delivered = Math.max(
                Number(gasOf(txOn(result.transactions, event, OpMerge.poolDelivered))),
                Number(gasOf(txOn(refused.result.transactions, eventOf(refused.found).address, OpMerge.poolDelivered))),
            );
            pin('GAS_EVENT_MERGE_DELIVERED', M.GAS_EVENT_MERGE_DELIVERED, delivered, 1.4);
        });

        it("gas constants: the merge_mint path of accept_tokens_burn (GAS_ALIEN_MERGE_MINT): a delivery's (its mint's record ended, the canonical mint kept in flight), refused", async () => {
            const ok = (await lockAndDeliver(pair.A.token, AMOUNT)).result;
            expectAllOk(ok.transactions);
            await giveT1(AMOUNT);
            const rogue = B.blockchain.openContract(
                await MergePool.createFromConfig({
                    proxy: pair.B.alienProxy.address,
                    owner: stranger.address,
                    id: 1n,
                    walletCode: await JettonWallet.code(),
                }),
            );
            await rogue.sendDeploy(stranger.getSender(), toNano('1'));
            for (const [m, d] of [
                [T1, 9],
                [C, 6],
            ] as const)
                await rogue.sendBody(stranger.getSender(), MergePool.setTokenMessage(m.address, d));
            const refused = await swap(T1.address, rogue.address, AMOUNT, C.address);
            // a delivery refused with its Event told (the pool declares wrong decimals: 2704), the T1
            // given back kept in flight (a token a pool names)
            await pool.sendBody(poolOwner.getSender(), MergePool.setTokenMessage(T1.address, 3));
            const refusedDelivery = (await lockAndDeliver(pair.A.token, AMOUNT)).result;
            expect(await mintRefundCode(refusedDelivery, T1.address, userB.address)).toBe(
                Errors.proxy.wrongTokensAmountInPayload,
            );
            const worst = Math.max(
                ...[ok, refused, refusedDelivery].map((r) =>
                    Number(gasOf(txOn(r.transactions, pair.B.alienProxy.address, Op.jetton.acceptTokensBurn))),
                ),
            );
            pin('GAS_ALIEN_MERGE_MINT', M.GAS_ALIEN_MERGE_MINT, worst, 1.15);
        });
    });
});
