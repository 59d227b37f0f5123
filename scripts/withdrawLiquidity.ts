import { toNano } from '@ton/core';
import { NetworkProvider } from '@ton/blueprint';
import { ProxyMultiVaultNative } from '../wrappers/ProxyMultiVaultNative';
import { addressArg, adminContext, bigArg, runAdminAction } from '../lib/deploy/admin';
import { open } from '../lib/deploy/ops';

/**
 * Takes liquidity of a native token out of the native proxy (what pays unlocks of transfers coming
 * back: a native-in-both-networks token's incoming transfers wait in LiquidityRequested without it).
 *
 *   npx blueprint run withdrawLiquidity <network options> -- <deployment> <network> <token> <amount> <recipient> [--yes]
 */
export async function run(provider: NetworkProvider, args: string[]) {
    const c = await adminContext(provider, args, '<token> <amount> <recipient>');
    const token = addressArg(c, 0, 'token');
    const amount = bigArg(c, 1, 'amount');
    const recipient = addressArg(c, 2, 'recipient');
    const proxy = open(c.ops, ProxyMultiVaultNative.createFromAddress(c.address('nativeProxy')));
    const before = await proxy.getLiquidity(token);
    if (amount > before) throw new Error(`the native proxy holds ${before} of liquidity of ${token.toString()}`);
    await runAdminAction(
        c.ops,
        c.ui,
        {
            what: `native proxy: withdraw_liquidity ${token.toString()}`,
            target: proxy.address,
            current: async () => `liquidity ${await proxy.getLiquidity(token)}`,
            planned: `${amount} to ${recipient.toString()}, ${before - amount} left`,
            value: toNano('0.2'),
            body: ProxyMultiVaultNative.withdrawLiquidityMessage(token, amount, recipient),
            check: async () => (await proxy.getLiquidity(token)) === before - amount,
            warning: 'incoming transfers of this token wait in LiquidityRequested while the liquidity is short',
        },
        c,
    );
}
