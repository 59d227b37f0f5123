/**
 * The two-network merge testbed shared by tests/merge_bridge.spec.ts and tests/merge.random.spec.ts:
 * the bridge on A and B (harness/testing.ts BridgeTestbed), and on B three alien tokens in one
 * MergePool (contracts/bridge/merge.tlb):
 * - T1: the alien token of A's test token (9 decimals),
 * - T2: the alien token of a second native token of A, `four` (4 decimals),
 * - C: a canonical alien token of another origin (6 decimals), the pool's canonical token;
 * their routers (deploy_merge_router by the proxy's owner, owned by `poolOwner`) name the pool.
 * The state after create() is the testbed's checkpoint (testbed.reset() returns to it).
 * Units: a supply "in T1's unit" is t1 + t2 * 10^5 + c * 10^3.
 */
import { Address, toNano } from '@ton/core';
import { SandboxContract, SendMessageResult, TreasuryContract } from '@ton/sandbox';
import { TvmNetwork } from '../harness/network';
import { BridgePair, TokenInfo } from '../harness/bridge';
import { findTransferId, FoundTransfer } from '../harness/transfer';
import { BridgeTestbed, expectAllOk, Treasury } from '../harness/testing';
import { JettonMinter } from '../wrappers/JettonMinter';
import { JettonWallet } from '../wrappers/JettonWallet';
import { MergePool } from '../wrappers/MergePool';
import { MergeRouter } from '../wrappers/MergeRouter';

/** 1 token of A's test token (9 decimals) */
export const AMOUNT = 1_000_000_000n;
/** A's second native token (T2's origin) */
export const FOUR = { name: 'A Four', symbol: 'AFOUR', decimals: 4 };
/** the canonical token's origin (a network the testbed does not run) */
export const CANON = {
    baseChainId: 1,
    baseToken: new Address(0, Buffer.alloc(32, 7)),
    name: 'Canonical',
    symbol: 'CAN',
    decimals: 6,
};

/** The merge testbed; see the file comment. */
export class MergeBed {
    private constructor(
        readonly testbed: BridgeTestbed,
        readonly poolOwner: SandboxContract<TreasuryContract>,
        readonly stranger: SandboxContract<TreasuryContract>,
        readonly four: TokenInfo,
        readonly T1: SandboxContract<JettonMinter>,
        readonly T2: SandboxContract<JettonMinter>,
        readonly C: SandboxContract<JettonMinter>,
        readonly pool: SandboxContract<MergePool>,
        readonly routers: Map<string, SandboxContract<MergeRouter>>,
    ) {}

    get A(): TvmNetwork {
        return this.testbed.A;
    }
    get B(): TvmNetwork {
        return this.testbed.B;
    }
    get pair(): BridgePair {
        return this.testbed.pair;
    }
    get userA(): Treasury {
        return this.testbed.userA;
    }
    get userB(): Treasury {
        return this.testbed.userB;
    }

    /** Deploys the testbed (1000 AMOUNT of each of A's tokens to userA) and checkpoints it. */
    static async create(): Promise<MergeBed> {
        const testbed = await BridgeTestbed.create({ token: 1000n * AMOUNT });
        const { A, B, pair, userA } = testbed;
        const poolOwner = await B.treasury('pool-owner');
        const stranger = await B.treasury('stranger');
        const ownerA = pair.A.owner.getSender();

        // a second native token of A (4 decimals), registered in A's native proxy
        const fourMinter = A.blockchain.openContract(
            await JettonMinter.createFromConfig({ owner: pair.A.owner.address, content: FOUR }),
        );
        await fourMinter.sendDeploy(ownerA);
        await pair.A.nativeProxy.sendRegisterNativeToken(ownerA, { token: fourMinter.address, ...FOUR }, toNano('0.1'));
        const four: TokenInfo = {
            minter: fourMinter,
            ...FOUR,
            proxyWallet: (await pair.wallet(A, fourMinter.address, pair.A.nativeProxy.address)).address,
        };
        expect((await pair.A.nativeProxy.getWalletOf(fourMinter.address))!.equals(four.proxyWallet)).toBe(true);
        await fourMinter.sendMint(ownerA, { to: userA.address, amount: 1000n * AMOUNT });

        // B: the three alien minters, deployed by the owner (so their routers can be deployed first)
        const ownerB = pair.B.owner.getSender();
        const deployAlien = async (a: {
            baseChainId: number;
            baseToken: Address;
            name: string;
            symbol: string;
            decimals: number;
        }) => {
            await pair.B.alienProxy.sendDeployTvmAlienToken(ownerB, { ...a, remainingGasTo: pair.B.owner.address });
            const addr = await pair.B.alienProxy.getAlienTokenAddress(
                BigInt(a.baseChainId),
                a.baseToken,
                a.name,
                a.symbol,
                BigInt(a.decimals),
            );
            expect((await B.blockchain.getContract(addr)).accountState?.type).toBe('active');
            return B.blockchain.openContract(JettonMinter.createFromAddress(addr));
        };
        const T1 = await deployAlien({
            baseChainId: A.globalId,
            baseToken: pair.A.token.minter.address,
            name: pair.A.token.name,
            symbol: pair.A.token.symbol,
            decimals: pair.A.token.decimals,
        });
        expect(T1.address.equals((await pair.alienMinter(pair.B, pair.A, pair.A.token)).address)).toBe(true);
        const T2 = await deployAlien({ baseChainId: A.globalId, baseToken: fourMinter.address, ...FOUR });
        const C = await deployAlien(CANON);

        // the pool (T1: 9, T2: 4, C: 6 decimals; C canonical)
        const pool = B.blockchain.openContract(
            await MergePool.createFromConfig({
                proxy: pair.B.alienProxy.address,
                owner: poolOwner.address,
                walletCode: await JettonWallet.code(),
            }),
        );
        await pool.sendDeploy(poolOwner.getSender(), toNano('1'));
        for (const [m, d] of [
            [T1, 9],
            [T2, 4],
            [C, 6],
        ] as const)
            await pool.sendBody(poolOwner.getSender(), MergePool.setTokenMessage(m.address, d));
        await pool.sendBody(poolOwner.getSender(), MergePool.setCanonicalMessage(C.address));

        // the routers: deployed by the proxy's owner, pointed to the pool by their owner
        const routers = new Map<string, SandboxContract<MergeRouter>>();
        for (const m of [T1, T2, C]) {
            await pair.B.alienProxy.sendDeployMergeRouter(ownerB, { token: m.address, owner: poolOwner.address });
            const router = B.blockchain.openContract(
                MergeRouter.createFromAddress(await pair.B.alienProxy.getMergeRouterAddress(m.address)),
            );
            routers.set(m.address.toRawString(), router);
            const set = await router.sendBody(poolOwner.getSender(), MergeRouter.setPoolMessage(pool.address));
            expectAllOk(set.transactions);
            expect((await pair.B.alienProxy.getMergePool(m.address))!.equals(pool.address)).toBe(true);
        }
        testbed.checkpoint();
        return new MergeBed(testbed, poolOwner, stranger, four, T1, T2, C, pool, routers);
    }

    /** the router of a pool token */
    routerOf(m: { address: Address }): SandboxContract<MergeRouter> {
        return this.routers.get(m.address.toRawString())!;
    }

    /** jetton balance of `owner` under `minter` on `net` */
    balanceOf(net: TvmNetwork, minter: Address, owner: Address): Promise<bigint> {
        return this.testbed.balanceOf(net, minter, owner);
    }

    /** the three pool tokens' total supplies on B */
    async supplies(): Promise<{ t1: bigint; t2: bigint; c: bigint }> {
        return {
            t1: await this.T1.getTotalSupply(),
            t2: await this.T2.getTotalSupply(),
            c: await this.C.getTotalSupply(),
        };
    }

    /** what A's native proxy holds of T1's and T2's origins, in T1's unit */
    async lockedOnA(): Promise<bigint> {
        const { A, pair } = this;
        const locked1 = await this.balanceOf(A, pair.A.token.minter.address, pair.A.nativeProxy.address);
        const locked2 = await this.balanceOf(A, this.four.minter.address, pair.A.nativeProxy.address);
        return locked1 + locked2 * 10n ** 5n;
    }

    /** userA locks `amount` of `token` on A for `recipient` (default userB); the credit backend delivers it on B. */
    async lockAndDeliver(
        token: TokenInfo,
        amount: bigint,
        recipient: Address = this.userB.address,
    ): Promise<{ found: FoundTransfer; result: SendMessageResult }> {
        const { result: src } = await this.testbed.lock(this.pair.A, this.userA, token, recipient, { amount });
        expectAllOk(src.transactions);
        const found = findTransferId(this.A, src.transactions[0].hash(), this.pair.A.nativeProxy.address);
        const d = (await this.pair.AB.credit.deliver(found))!;
        return { found, result: d.result };
    }

    /** `from` (default userB) transfers `amount` of `minter` to `to` (a pool) with a swap to `target` */
    async swap(minter: Address, to: Address, amount: bigint, target: Address, from: Treasury = this.userB) {
        const w = await this.pair.wallet(this.B, minter, from.address);
        const fwd = (await this.pool.getRequiredValue()).swapWithDust + toNano('0.01');
        return w.sendTransfer(from.getSender(), {
            to,
            amount,
            responseDestination: from.address,
            forwardTonAmount: fwd,
            forwardPayload: MergePool.swapPayload(target),
        });
    }
}
