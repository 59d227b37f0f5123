/**
 * Tokens on a deployed bridge: a jetton deployed and minted by its owner (the local network's test
 * tokens), and the native proxy's registration of a native token (it learns its own wallet of it:
 * TEP-89), both confirmed on chain.
 */
import { Address, toNano } from '@ton/core';
import { JettonMinter } from '../../wrappers/JettonMinter';
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

/** register_native_token: the native proxy takes `token` as a native token (owner only). */
export async function registerNativeToken(
    ops: ChainOps,
    nativeProxy: Address,
    token: Address,
    meta: TokenMeta,
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
        body: ProxyMultiVaultNative.registerNativeTokenMessage({ token, ...meta }),
        check: async () => !!(await proxy.getWalletOf(token)),
    });
}
