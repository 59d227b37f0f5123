/**
 * Tokens on a deployed bridge: a jetton deployed and minted by its owner (the local network's test
 * tokens), and the native proxy's registration of a native token (its own wallet of it learnt by
 * TEP-89, or read from the minter's get_wallet_address for any TEP-74 minter; name, symbol and
 * decimals read from the root's metadata: nativeTokenFacts), both confirmed on chain.
 */
import { Address, toNano } from '@ton/core';
import { JettonMinter, parseOnchainMetadata } from '../../wrappers/JettonMinter';
import { JettonWallet } from '../../wrappers/JettonWallet';
import { ProxyMultiVaultNative } from '../../wrappers/ProxyMultiVaultNative';
import { ChainOps, ensureDeployed, open, sendAndConfirm } from './ops';

export interface TokenMeta {
    name: string;
    symbol: string;
    decimals: number;
}

/** Deploys a jetton owned by the ops' wallet (idempotent); returns its minter's address. */
export async function deployJetton(ops: ChainOps, meta: TokenMeta): Promise<Address> {
    const minter = await JettonMinter.createFromConfig({ owner: ops.sender.address, content: { ...meta } });
    await ensureDeployed(ops, {
        what: `jetton ${meta.symbol}`,
        to: minter.address,
        value: toNano('0.1'),
        init: minter.init!,
    });
    return minter.address;
}

/** Mints `amount` of the jetton to `to` (the wallet must be its owner) and confirms the balance grew. */
export async function mintJetton(ops: ChainOps, minter: Address, to: Address, amount: bigint): Promise<void> {
    const wallet = open(ops, await JettonWallet.createFromOwner(to, minter));
    const balance = async () =>
        (await ops.provider(wallet.address).getState()).state.type === 'active' ? await wallet.getJettonBalance() : 0n;
    const before = await balance();
    await sendAndConfirm(ops, {
        what: `mint ${amount} to ${to.toString()}`,
        to: minter,
        value: toNano('0.1'),
        body: JettonMinter.mintMessage({ to, amount, responseDestination: ops.sender.address }),
        check: async () => (await balance()) >= before + amount,
    });
}

/**
 * register_native_token: the native proxy takes `token` as a native token (owner only). Without
 * `wallet` the proxy asks the minter (TEP-89); with it (nativeTokenFacts: any TEP-74 minter, a
 * plain one too) it records that wallet, and the change is confirmed only if it is that one.
 */
export async function registerNativeToken(
    ops: ChainOps,
    nativeProxy: Address,
    token: Address,
    meta: TokenMeta,
    wallet?: Address,
): Promise<void> {
    const proxy = open(ops, ProxyMultiVaultNative.createFromAddress(nativeProxy));
    if (await proxy.getWalletOf(token)) {
        ops.log(`  ${meta.symbol}: already registered in the native proxy`);
        return;
    }
    await sendAndConfirm(ops, {
        what: `register_native_token ${meta.symbol}`,
        to: nativeProxy,
        value: toNano('0.2'),
        body: ProxyMultiVaultNative.registerNativeTokenMessage({ token, wallet: wallet ?? null, ...meta }),
        check: async () => {
            const w = await proxy.getWalletOf(token);
            return !!w && (!wallet || w.equals(wallet));
        },
    });
}

/** What the native proxy is registered with, read from the token's root (nativeTokenFacts). */
export interface NativeTokenFacts {
    /** the native proxy's wallet of the token: the minter's get_wallet_address(native proxy) */
    wallet: Address;
    meta: TokenMeta;
    /** where name, symbol and decimals came from */
    metaSource: 'on-chain metadata' | 'given';
}

/**
 * Reads from a TEP-74 minter what registering it needs, instead of trusting typed-in values: the
 * native proxy's wallet (get_wallet_address, which every TEP-74 minter answers: a plain minter
 * without TEP-89 discovery, such as the reference one, never answers the proxy's on-chain
 * question) and the TEP-64 metadata. On-chain metadata (prefix 0x00) gives name, symbol and
 * decimals (decimals 9 when absent, as TEP-64 says); off-chain metadata (0x01, a URI) cannot be read
 * on chain, so `given` must carry them, and an error names what is missing. Values given for
 * on-chain metadata must agree with it.
 */
export async function nativeTokenFacts(
    ops: ChainOps,
    nativeProxy: Address,
    token: Address,
    given: Partial<TokenMeta> = {},
): Promise<NativeTokenFacts> {
    const minter = open(ops, JettonMinter.createFromAddress(token));
    const wallet = await minter.getWalletAddress(nativeProxy);
    const content = (await minter.getJettonData()).content;
    const prefix = content.beginParse().preloadUint(8);
    if (prefix === 0) {
        const m = parseOnchainMetadata(content);
        const meta: TokenMeta = {
            name: m.name ?? '',
            symbol: m.symbol ?? '',
            decimals: m.decimals === undefined ? 9 : Number(m.decimals),
        };
        if (!Number.isInteger(meta.decimals) || meta.decimals < 0 || meta.decimals > 255)
            throw new Error(`${token.toString()}: on-chain decimals "${m.decimals}" is not a number 0..255`);
        for (const k of ['name', 'symbol', 'decimals'] as const)
            if (given[k] !== undefined && given[k] !== meta[k])
                throw new Error(
                    `${token.toString()}: ${k} given as "${given[k]}", the root's on-chain metadata says "${meta[k]}"`,
                );
        return { wallet, meta, metaSource: 'on-chain metadata' };
    }
    const missing = (['name', 'symbol', 'decimals'] as const).filter((k) => given[k] === undefined);
    if (missing.length)
        throw new Error(
            `${token.toString()}: its metadata is ${prefix === 1 ? 'off-chain (a URI)' : `of an unknown kind (prefix ${prefix})`}, not readable on chain: give ${missing.join(', ')}`,
        );
    return { wallet, meta: given as TokenMeta, metaSource: 'given' };
}
