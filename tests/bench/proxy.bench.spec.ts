import { Blockchain, internal, SandboxContract, SendMessageResult, TreasuryContract } from '@ton/sandbox';
import { Address, beginCell, Cell, Sender, toNano, Transaction } from '@ton/core';
import { flattenTransaction } from '@ton/test-utils';
import '@ton/test-utils';
import { benchBlockchain, GasSection } from '../../harness/bench';
import { JettonMinter } from '../../wrappers/JettonMinter';
import { JettonWallet } from '../../wrappers/JettonWallet';
import { ProxyMultiVaultNative } from '../../wrappers/ProxyMultiVaultNative';
import {
    onTvmEventConfirmedExtendedMessage,
    ProxyMessages,
    ProxyMultiVaultAlien,
    transferPayloadCell,
    tvmTvmEventCell,
} from '../../wrappers/ProxyMultiVaultAlien';
import { MergePool } from '../../wrappers/MergePool';
import { MergeRouter } from '../../wrappers/MergeRouter';
import { Op, OpEvent, OpMerge } from '../../wrappers/constants';
import { gasUsed, mintBounce, mintSent, txOf } from '../proxy.util';

/**
 * Gas of the proxies' paths (contracts/bridge/proxy_*.tact), one network: each row is the proxy's
 * transaction's compute gas; notes give the fees of the whole chain (sum of total_fees of every
 * transaction of the chain, nanoton). The gas constants of proxy_common.tact are pinned by
 * tests/proxy_native.spec.ts and tests/proxy_alien.spec.ts ('gas constants').
 */
const section = new GasSection('Proxies (TVM to TVM, Tact)');

const chainFees = (txs: Transaction[]) =>
    txs.filter((t) => flattenTransaction(t).from !== undefined).reduce((s, t) => s + t.totalFees.coins, 0n);

describe('bench: proxies', () => {
    let blockchain: Blockchain;
    let owner: SandboxContract<TreasuryContract>;
    let alice: SandboxContract<TreasuryContract>;
    let bob: SandboxContract<TreasuryContract>;
    let config: SandboxContract<TreasuryContract>;
    let minter: SandboxContract<JettonMinter>;
    let native: SandboxContract<ProxyMultiVaultNative>;
    let alien: SandboxContract<ProxyMultiVaultAlien>;
    const META = { name: 'Bench', symbol: 'BNC', decimals: 9 };
    let baseToken: Address;
    const payload = beginCell().storeUint(0xabcdef, 64).endCell();

    const event = (kind: 'native' | 'alien', token: Address, wallet: Address, amount = 1000n) =>
        tvmTvmEventCell({
            kind,
            destinationChainId: -3,
            amount,
            recipient: bob.address,
            value: toNano('0.1'),
            expectedGas: 0n,
            token: { token, nativeProxyWallet: wallet, ...META, decimals: BigInt(META.decimals) },
            transfer: { sender: alice.address, remainingGasTo: alice.address, payload },
        });
    /** bob burns 100 of the wallet's token with a malformed payload: refused (2704), minted back */
    const refusedBurn = (w: SandboxContract<JettonWallet>) =>
        w.sendBurn(bob.getSender(), {
            amount: 100n,
            responseDestination: bob.address,
            customPayload: beginCell().storeUint(1, 64).endCell(),
            value: toNano('0.05'),
        });
    const confirm = (
        to: { sendBody: (via: Sender, body: Cell, value: bigint) => Promise<SendMessageResult> },
        ev: Cell,
    ) =>
        to.sendBody(
            config.getSender(),
            onTvmEventConfirmedExtendedMessage({
                eventAddress: config.address,
                msgHash: 1n,
                chainId: -239,
                configuration: config.address,
                remainingGasTo: alice.address,
                event: ev,
            }),
            toNano('0.3'),
        );

    beforeAll(async () => {
        blockchain = await benchBlockchain();
        owner = await blockchain.treasury('owner');
        alice = await blockchain.treasury('alice');
        bob = await blockchain.treasury('bob');
        config = await blockchain.treasury('configuration');
        baseToken = (await blockchain.treasury('base token')).address;
        minter = blockchain.openContract(await JettonMinter.createFromConfig({ owner: owner.address, content: META }));
        await minter.sendMint(owner.getSender(), { to: alice.address, amount: 1_000_000n });
        native = blockchain.openContract(
            await ProxyMultiVaultNative.createFromConfig({
                owner: owner.address,
                tvmConfigurations: [config.address],
                tvmChains: [-3],
            }),
        );
        await native.sendDeploy(owner.getSender());
        await native.sendRegisterNativeToken(owner.getSender(), { token: minter.address, ...META });
        alien = blockchain.openContract(
            await ProxyMultiVaultAlien.createFromConfig({
                owner: owner.address,
                tvmConfigurations: [config.address],
                nativeProxy: native.address,
            }),
        );
        await alien.sendDeploy(owner.getSender());
        await native.sendSetAlienProxy(owner.getSender(), alien.address);
        await native.sendBody(owner.getSender(), ProxyMessages.setDefaultFee(1n, 1000n));
        await alien.sendBody(owner.getSender(), ProxyMessages.setDefaultFee(1n, 1000n));
    });

    afterAll(() => section.write());

    it('native: lock, refund, unlock', async () => {
        const w = blockchain.openContract(await JettonWallet.createFromOwner(alice.address, minter.address));
        const fp = transferPayloadCell({
            destinationChainId: -3,
            recipient: bob.address,
            remainingGasTo: alice.address,
            payload,
        });
        const lock = await w.sendTransfer(alice.getSender(), {
            to: native.address,
            amount: 100_000n,
            responseDestination: alice.address,
            forwardTonAmount: toNano('0.05'),
            forwardPayload: fp,
        });
        section.record({
            path: 'ProxyMultiVaultNative.transfer_notification (lock, emits TvmTvmNative)',
            gas: gasUsed(txOf(lock.transactions, native.address, Op.jetton.transferNotification)),
            notes: `chain fees ${chainFees(lock.transactions)} (user transfer included)`,
        });
        const bad = await w.sendTransfer(alice.getSender(), {
            to: native.address,
            amount: 10n,
            responseDestination: alice.address,
            forwardTonAmount: toNano('0.05'),
            forwardPayload: beginCell().storeUint(1, 64).endCell(),
        });
        section.record({
            path: 'ProxyMultiVaultNative.transfer_notification (refused, tokens sent back)',
            gas: gasUsed(txOf(bad.transactions, native.address, Op.jetton.transferNotification)),
            notes: `chain fees ${chainFees(bad.transactions)}`,
        });
        const wallet = (await native.getWalletOf(minter.address))!;
        const unlock = await confirm(native, event('alien', minter.address, wallet));
        section.record({
            path: 'ProxyMultiVaultNative.on_tvm_event_confirmed_extended (unlock, fee, payload)',
            gas: gasUsed(txOf(unlock.transactions, native.address, Op.bridge.onTvmEventConfirmedExtended)),
            notes: `chain fees ${chainFees(unlock.transactions)}`,
        });
    });

    it('alien: mint (first use, warm), burn -> emit, burn refused, predeployed forward, deploy', async () => {
        const first = await confirm(alien, event('native', baseToken, bob.address));
        section.record({
            path: 'ProxyMultiVaultAlien.on_tvm_event_confirmed_extended (first mint, deploys the minter)',
            gas: gasUsed(txOf(first.transactions, alien.address, Op.bridge.onTvmEventConfirmedExtended)),
            notes: `chain fees ${chainFees(first.transactions)}`,
        });
        const warm = await confirm(alien, event('native', baseToken, bob.address));
        section.record({
            path: 'ProxyMultiVaultAlien.on_tvm_event_confirmed_extended (warm mint)',
            gas: gasUsed(txOf(warm.transactions, alien.address, Op.bridge.onTvmEventConfirmedExtended)),
            notes: `chain fees ${chainFees(warm.transactions)}`,
        });

        const m = await alien.getAlienTokenAddress(-239n, baseToken, META.name, META.symbol, BigInt(META.decimals));
        const bw = blockchain.openContract(await JettonWallet.createFromOwner(bob.address, m));
        const fp = transferPayloadCell({
            destinationChainId: -239,
            recipient: alice.address,
            remainingGasTo: bob.address,
            payload,
        });
        const burn = await bw.sendBurn(bob.getSender(), {
            amount: 100n,
            responseDestination: bob.address,
            customPayload: fp,
            value: toNano('0.05'),
        });
        section.record({
            path: 'ProxyMultiVaultAlien.accept_tokens_burn (emits TvmTvmAlien)',
            gas: gasUsed(txOf(burn.transactions, alien.address, Op.jetton.acceptTokensBurn)),
            notes: `chain fees ${chainFees(burn.transactions)} (user burn included)`,
        });
        const bad = await refusedBurn(bw);
        section.record({
            path: 'ProxyMultiVaultAlien.accept_tokens_burn (refused, minted back)',
            gas: gasUsed(txOf(bad.transactions, alien.address, Op.jetton.acceptTokensBurn)),
            notes: `chain fees ${chainFees(bad.transactions)}`,
        });

        // predeployed: the native token of this network, registered under another origin
        const wallet = (await native.getWalletOf(minter.address))!;
        const other = (await blockchain.treasury('other base')).address;
        await alien.sendSetPredeployedToken(owner.getSender(), {
            baseChainId: -239,
            baseToken: other,
            token: minter.address,
            nativeProxyWallet: wallet,
        });
        const fwd = await confirm(alien, event('native', other, bob.address));
        section.record({
            path: 'ProxyMultiVaultAlien.on_tvm_event_confirmed_extended (predeployed, forwarded)',
            gas: gasUsed(txOf(fwd.transactions, alien.address, Op.bridge.onTvmEventConfirmedExtended)),
            notes: `chain fees ${chainFees(fwd.transactions)}`,
        });
        section.record({
            path: 'ProxyMultiVaultNative.on_tvm_event_confirmed_extended (from the alien proxy)',
            gas: gasUsed(txOf(fwd.transactions, native.address, Op.bridge.onTvmEventConfirmedExtended)),
        });

        const dep = await alien.sendDeployTvmAlienToken(owner.getSender(), {
            baseChainId: 7,
            baseToken,
            ...META,
            remainingGasTo: owner.address,
        });
        section.record({
            path: 'ProxyMultiVaultAlien.deploy_tvm_alien_token',
            gas: gasUsed(txOf(dep.transactions, alien.address, Op.bridge.deployTvmAlienToken)),
            notes: `chain fees ${chainFees(dep.transactions)}`,
        });
    });

    it('alien: merge (deploy_merge_router, merge_router_update, delivery to a MergePool, merge_mint)', async () => {
        // the warm minter of the test above and the one deploy_tvm_alien_token made (canonical), one pool
        const t = await alien.getAlienTokenAddress(-239n, baseToken, META.name, META.symbol, BigInt(META.decimals));
        const c = await alien.getAlienTokenAddress(7n, baseToken, META.name, META.symbol, BigInt(META.decimals));
        const pool = blockchain.openContract(
            await MergePool.createFromConfig({
                proxy: alien.address,
                owner: owner.address,
                walletCode: await JettonWallet.code(),
            }),
        );
        await pool.sendDeploy(owner.getSender(), toNano('1'));
        for (const m of [t, c]) await pool.sendBody(owner.getSender(), MergePool.setTokenMessage(m, META.decimals));
        await pool.sendBody(owner.getSender(), MergePool.setCanonicalMessage(c));
        for (const m of [t, c]) {
            const d = await alien.sendDeployMergeRouter(owner.getSender(), { token: m, owner: owner.address });
            if (m === t)
                section.record({
                    path: 'ProxyMultiVaultAlien.deploy_merge_router',
                    gas: gasUsed(txOf(d.transactions, alien.address, Op.proxy.deployMergeRouter)),
                    notes: `chain fees ${chainFees(d.transactions)}`,
                });
            const router = blockchain.openContract(MergeRouter.createFromAddress(await alien.getMergeRouterAddress(m)));
            const u = await router.sendBody(owner.getSender(), MergeRouter.setPoolMessage(pool.address));
            if (m === t)
                section.record({
                    path: 'ProxyMultiVaultAlien.merge_router_update (records the pool)',
                    gas: gasUsed(txOf(u.transactions, alien.address, OpMerge.routerUpdate)),
                });
        }
        const merged = await confirm(alien, event('native', baseToken, bob.address));
        expect(merged.transactions).toHaveTransaction({
            from: pool.address,
            to: config.address,
            op: OpMerge.poolDelivered,
        });
        section.record({
            path: 'ProxyMultiVaultAlien.on_tvm_event_confirmed_extended (merged delivery: tvm_event_merge, mint to the pool)',
            gas: gasUsed(txOf(merged.transactions, alien.address, Op.bridge.onTvmEventConfirmedExtended)),
            notes: `chain fees ${chainFees(merged.transactions)} (pool, burn, canonical mint included)`,
        });
        section.record({
            path: 'ProxyMultiVaultAlien.accept_tokens_burn (merge_mint from the pool: canonical minted, kept in flight)',
            gas: gasUsed(txOf(merged.transactions, alien.address, Op.jetton.acceptTokensBurn)),
        });
        // the canonical minter's bounce of that mint (it refuses a mint that would take its supply to
        // 2^120, exit 5; played here with the mint's query_id): the burned token minted back, the Event told
        const mint = merged.transactions.find(
            (x) =>
                x.inMessage?.info.type === 'internal' &&
                x.inMessage.info.dest.equals(c) &&
                x.inMessage.body.beginParse().preloadUint(32) === Op.jetton.mint,
        )!;
        const key = mint.inMessage!.body.beginParse().skip(32).loadUintBig(64);
        const bounced = await blockchain.sendMessage(
            internal({
                from: c,
                to: alien.address,
                value: toNano('0.2'),
                bounced: true,
                body: beginCell().storeUint(0xffffffff, 32).storeUint(Op.jetton.mint, 32).storeUint(key, 64).endCell(),
            }),
        );
        expect(bounced.transactions).toHaveTransaction({
            from: alien.address,
            to: config.address,
            op: OpMerge.mergeMintRefused,
        });
        section.record({
            path: 'ProxyMultiVaultAlien bounced mint (a merge mint the target minter refused: source minted back, the Event told)',
            gas: gasUsed(txOf(bounced.transactions, alien.address)),
        });

        // merge.tlb 5: t's router names no pool now; the proxy keeps t's entry, and every mint of t is
        // kept in flight (a bounce played with each mint's query_id, as a minter refusing it at 2^120)
        const routerT = blockchain.openContract(MergeRouter.createFromAddress(await alien.getMergeRouterAddress(t)));
        const unset = await routerT.sendBody(owner.getSender(), MergeRouter.setPoolMessage(null));
        section.record({
            path: 'ProxyMultiVaultAlien.merge_router_update (no pool now: the entry kept)',
            gas: gasUsed(txOf(unset.transactions, alien.address, OpMerge.routerUpdate)),
        });
        const keyOf = (r: SendMessageResult) => mintSent(r, alien.address, t).key;
        const bounceOf = (key: bigint) => blockchain.sendMessage(mintBounce(t, alien.address, key, toNano('0.2')));
        const kept = await confirm(alien, event('native', baseToken, bob.address));
        section.record({
            path: 'ProxyMultiVaultAlien.on_tvm_event_confirmed_extended (a token a pool once named: plain mint kept in flight)',
            gas: gasUsed(txOf(kept.transactions, alien.address, Op.bridge.onTvmEventConfirmedExtended)),
            notes: `chain fees ${chainFees(kept.transactions)}`,
        });
        const keptBounce = await bounceOf(keyOf(kept));
        expect(keptBounce.transactions).toHaveTransaction({
            from: alien.address,
            to: config.address,
            op: OpEvent.tvmEventDeliveryFailed,
        });
        section.record({
            path: 'ProxyMultiVaultAlien bounced mint (a kept delivery: fee and day count back, tvm_event_delivery_failed 2715)',
            gas: gasUsed(txOf(keptBounce.transactions, alien.address)),
        });
        const bw = blockchain.openContract(await JettonWallet.createFromOwner(bob.address, t));
        const back = await refusedBurn(bw);
        section.record({
            path: 'ProxyMultiVaultAlien.accept_tokens_burn (refused, minted back kept in flight: a token a pool named)',
            gas: gasUsed(txOf(back.transactions, alien.address, Op.jetton.acceptTokensBurn)),
            notes: `chain fees ${chainFees(back.transactions)}`,
        });
        const refundBounce = await bounceOf(keyOf(back));
        expect(await alien.getRefundOf(t, bob.address)).toBe(100n);
        section.record({
            path: 'ProxyMultiVaultAlien bounced mint (a kept refund: recorded for claim_refund)',
            gas: gasUsed(txOf(refundBounce.transactions, alien.address)),
        });
        const claim = await alien.sendBody(bob.getSender(), ProxyMessages.claimRefund(t), toNano('0.2'));
        expect(claim.transactions).toHaveTransaction({ from: t, op: Op.jetton.internalTransfer, success: true });
        section.record({
            path: 'ProxyMultiVaultAlien.claim_refund (a token a pool named: the mint kept in flight)',
            gas: gasUsed(txOf(claim.transactions, alien.address, Op.proxy.claimRefund)),
            notes: `chain fees ${chainFees(claim.transactions)}`,
        });
    });
});
