import { Address, toNano } from '@ton/core';
import { NetworkProvider } from '@ton/blueprint';
import { ProxyMultiVaultAlien } from '../wrappers/ProxyMultiVaultAlien';
import { adminContext, addressArg, argAt, runAdminAction } from '../lib/deploy/admin';
import { open } from '../lib/deploy/ops';

/**
 * A token native in both networks: the alien proxy forwards incoming transfers of the other
 * network's <base token> to the native proxy, which unlocks the local <token> from its wallet
 * <native proxy wallet> instead of minting. `remove` deletes the entry.
 *
 *   npx blueprint run setPredeployedToken <network options> -- <deployment> <network> <base chain id> <base token> <token> <native proxy wallet> [--yes]
 *   npx blueprint run setPredeployedToken <network options> -- <deployment> <network> <base chain id> <base token> remove [--yes]
 */
export async function run(provider: NetworkProvider, args: string[]) {
    const c = await adminContext(provider, args, '<base chain id> <base token> <token> <native proxy wallet> | remove');
    const chainArg = argAt(c, 0, 'base chain id');
    if (!/^-?\d+$/.test(chainArg)) throw new Error(`base chain id: an integer, got ${chainArg}`);
    const baseChainId = Number(chainArg);
    const baseToken = addressArg(c, 1, 'base token');
    const remove = argAt(c, 2, 'token or remove') === 'remove';
    const proxy = open(c.ops, ProxyMultiVaultAlien.createFromAddress(c.address('alienProxy')));
    const read = () => proxy.getPredeployedToken(BigInt(baseChainId), baseToken);
    const token: Address | null = remove ? null : addressArg(c, 2, 'token');
    const wallet: Address | null = remove ? null : addressArg(c, 3, 'native proxy wallet');
    await runAdminAction(
        c.ops,
        c.ui,
        {
            what: `alien proxy: ${remove ? 'remove_predeployed_token' : 'set_predeployed_token'} (${baseChainId}, ${baseToken.toString()})`,
            target: proxy.address,
            current: async () => {
                const p = await read();
                return p
                    ? `token ${p.token.toString()}, native proxy wallet ${p.nativeProxyWallet.toString()}`
                    : 'none';
            },
            planned: remove ? 'none' : `token ${token!.toString()}, native proxy wallet ${wallet!.toString()}`,
            value: toNano('0.05'),
            body: remove
                ? ProxyMultiVaultAlien.removePredeployedTokenMessage(baseChainId, baseToken)
                : ProxyMultiVaultAlien.setPredeployedTokenMessage({
                      baseChainId,
                      baseToken,
                      token: token!,
                      nativeProxyWallet: wallet!,
                  }),
            check: async () => {
                const p = await read();
                return remove ? p === null : !!p && p.token.equals(token!) && p.nativeProxyWallet.equals(wallet!);
            },
            warning:
                'incoming transfers of the base token unlock the local token from now on: the native proxy needs its liquidity',
        },
        c,
    );
}
