import { toNano } from '@ton/core';
import { NetworkProvider } from '@ton/blueprint';
import { ProxyMessages, ProxyMultiVaultNative } from '../wrappers/ProxyMultiVaultNative';
import { addressArg, adminContext, bigArg, proxyArg, runAdminAction } from '../lib/deploy/admin';
import { open } from '../lib/deploy/ops';

/**
 * Sends accumulated fees of a token from a proxy to a recipient.
 *
 *   npx blueprint run withdrawFees <network options> -- <deployment> <network> <native|alien> <token> <amount> <recipient> [--yes]
 */
export async function run(provider: NetworkProvider, args: string[]) {
    const c = await adminContext(provider, args, '<native|alien> <token> <amount> <recipient>');
    const { kind, address } = proxyArg(c, 0);
    const token = addressArg(c, 1, 'token');
    const amount = bigArg(c, 2, 'amount');
    const recipient = addressArg(c, 3, 'recipient');
    const proxy = open(c.ops, ProxyMultiVaultNative.createFromAddress(address));
    const before = await proxy.getAccumulatedFees(token);
    if (amount > before) throw new Error(`only ${before} of fees accumulated for ${token.toString()}`);
    await runAdminAction(
        c.ops,
        c.ui,
        {
            what: `${kind} proxy: withdraw_fees ${token.toString()}`,
            target: address,
            current: async () => `accumulated ${await proxy.getAccumulatedFees(token)}`,
            planned: `${amount} to ${recipient.toString()}, ${before - amount} left`,
            value: toNano('0.2'),
            body: ProxyMessages.withdrawFees(token, amount, recipient),
            check: async () => (await proxy.getAccumulatedFees(token)) === before - amount,
        },
        c,
    );
}
