/**
 * EVM to TVM through the real proxies: Hardhat's EVM network with the MultiVault (./fixture.ts)
 * beside one TvmNetwork (../network.ts) holding the Bridge, the Alien and Native
 * EvmTvmEventConfigurations, and the REAL ProxyMultiVaultAlien / ProxyMultiVaultNative as the
 * configurations' proxies (each configuration listed in its proxy's EVM set: set_evm_configuration).
 * A TVM-native jetton is registered in the native proxy and some of it sits in the proxy's wallet,
 * as after TVM to TVM locks; NativeTransfer events (a burned EVM representation) unlock it.
 */
import type { HardhatRuntimeEnvironment } from 'hardhat/types';
import { Address, Cell, toNano, Transaction } from '@ton/core';
import { Blockchain, SandboxContract, SendMessageResult } from '@ton/sandbox';
import { ProxyMessages, ProxyMultiVaultNative } from '../../wrappers/ProxyMultiVaultNative';
import { ProxyMultiVaultAlien } from '../../wrappers/ProxyMultiVaultAlien';
import { JettonMinter } from '../../wrappers/JettonMinter';
import { JettonWallet } from '../../wrappers/JettonWallet';
import { MAINNET_GLOBAL_ID, TvmNetwork } from '../network';
import { EvmTvmSetupOptions, evmTvmSetup } from './fixture';

export const NATIVE_TOKEN_META = { name: 'Tvm Native', symbol: 'TNT', decimals: 9 };
/** Native tokens in the native proxy's wallet at the start. */
export const NATIVE_LOCKED = 10n ** 12n;

/**
 * A TVM-native token other than the project's jetton (e.g. harness/statusJetton.ts's StatusJetton): its
 * root as the bridge knows it, its wallets' addresses (the native proxy is registered with its wallet
 * given) and its master's mint (with forward TON and a forward payload: the liquidity deposit).
 */
export interface NativeTokenOption {
    readonly minter: Address;
    walletAddress(owner: Address): Address;
    mint(
        to: Address,
        amount: bigint,
        o?: { forwardTonAmount?: bigint; forwardPayload?: Cell },
    ): Promise<SendMessageResult>;
}

export interface EvmTvmProxyOptions extends EvmTvmSetupOptions {
    /** global_id of the TVM network (default -239) */
    globalId?: number;
    /** both proxies' default fee (numerator / denominator); default 1 / 1000 */
    fee?: { numerator: bigint; denominator: bigint };
    /**
     * the TVM-native token registered in the native proxy, made on the TVM side's sandbox (default: the
     * project's jetton, deployed here); `nativeToken` is then opened at its root, whose own methods
     * mint, and `walletOf` gives its wallets
     */
    nativeToken?: (blockchain: Blockchain) => Promise<NativeTokenOption>;
}

function expectOk(r: { transactions: Pick<Transaction, 'description'>[] }, what: string) {
    for (const t of r.transactions) {
        const d = t.description;
        if (
            d.type === 'generic' &&
            ((d.computePhase.type === 'vm' && !d.computePhase.success) || (d.actionPhase && !d.actionPhase.success))
        )
            throw new Error(
                `${what}: a transaction failed (exit ${d.computePhase.type === 'vm' ? d.computePhase.exitCode : '-'})`,
            );
    }
}

export async function evmTvmProxySetup(hre: HardhatRuntimeEnvironment, o: EvmTvmProxyOptions = {}) {
    const net = await TvmNetwork.create({ globalId: o.globalId ?? MAINNET_GLOBAL_ID, name: 'tvm', validators: 8 });
    const blockchain = net.blockchain;
    const proxyOwner = await blockchain.treasury('proxy-owner');
    const via = proxyOwner.getSender();
    const fee = o.fee ?? { numerator: 1n, denominator: 1000n };

    const native: SandboxContract<ProxyMultiVaultNative> = blockchain.openContract(
        await ProxyMultiVaultNative.createFromConfig({ owner: proxyOwner.address, defaultFee: fee }),
    );
    const alien: SandboxContract<ProxyMultiVaultAlien> = blockchain.openContract(
        await ProxyMultiVaultAlien.createFromConfig({
            owner: proxyOwner.address,
            nativeProxy: native.address,
            defaultFee: fee,
        }),
    );
    expectOk(await native.sendDeploy(via, toNano('1')), 'native proxy deploy');
    expectOk(await alien.sendDeploy(via, toNano('1')), 'alien proxy deploy');
    expectOk(await native.sendSetAlienProxy(via, alien.address), 'set_alien_proxy');

    const s = await evmTvmSetup(hre, { ...o, blockchain, proxies: { alien: alien.address, native: native.address } });
    expectOk(
        await alien.sendBody(via, ProxyMessages.setEvmConfiguration(s.alienConfiguration.address, true)),
        'alien: set_evm_configuration',
    );
    expectOk(
        await native.sendBody(via, ProxyMessages.setEvmConfiguration(s.nativeConfiguration.address, true)),
        'native: set_evm_configuration',
    );

    // a TVM-native token, registered, NATIVE_LOCKED of it in the native proxy's wallet
    const given = o.nativeToken ? await o.nativeToken(blockchain) : undefined;
    const nativeToken = blockchain.openContract(
        given
            ? JettonMinter.createFromAddress(given.minter)
            : await JettonMinter.createFromConfig({ owner: proxyOwner.address, content: NATIVE_TOKEN_META }),
    );
    if (!given) expectOk(await nativeToken.sendDeploy(via), 'native token deploy');
    /** The wallet of `owner` of a jetton (minter): the given native token's own, else this project's. */
    const walletOf = async (minter: Address, owner: Address = s.recipient.address) =>
        blockchain.openContract(
            given && minter.equals(given.minter)
                ? JettonWallet.createFromAddress(given.walletAddress(owner))
                : await JettonWallet.createFromOwner(owner, minter),
        );
    const nativeProxyWallet = await walletOf(nativeToken.address, native.address);
    expectOk(
        await native.sendRegisterNativeToken(via, {
            token: nativeToken.address,
            wallet: nativeProxyWallet.address,
            ...NATIVE_TOKEN_META,
        }),
        'register_native_token',
    );
    // deposited as liquidity (proxy_add_liquidity), so the proxy counts it for unlocks
    const liquidity = { forwardTonAmount: toNano('0.05'), forwardPayload: ProxyMultiVaultNative.addLiquidityPayload() };
    expectOk(
        given
            ? await given.mint(native.address, NATIVE_LOCKED, liquidity)
            : await nativeToken.sendMint(via, { to: native.address, amount: NATIVE_LOCKED, ...liquidity }),
        'native token: liquidity to the proxy',
    );

    return { ...s, net, proxyOwner, proxies: { alien, native }, nativeToken, nativeProxyWallet, fee, walletOf };
}

export type EvmTvmProxySetup = Awaited<ReturnType<typeof evmTvmProxySetup>>;
