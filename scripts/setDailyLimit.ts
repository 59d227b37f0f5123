import { toNano } from '@ton/core';
import { NetworkProvider } from '@ton/blueprint';
import { ProxyMessages, ProxyMultiVaultNative } from '../wrappers/ProxyMultiVaultNative';
import { addressArg, adminContext, bigArg, proxyArg, runAdminAction } from '../lib/deploy/admin';
import { open } from '../lib/deploy/ops';

/**
 * The daily security limit of a token on a proxy (incoming amounts per UTC day above it wait in
 * LimitReached for the limit approver); 0 removes the limit.
 *
 *   npx blueprint run setDailyLimit <network options> -- <deployment> <network> <native|alien> <token> <limit> [--yes]
 */
export async function run(provider: NetworkProvider, args: string[]) {
    const c = await adminContext(provider, args, '<native|alien> <token> <limit>');
    const { kind, address } = proxyArg(c, 0);
    const token = addressArg(c, 1, 'token');
    const limit = bigArg(c, 2, 'limit');
    const proxy = open(c.ops, ProxyMultiVaultNative.createFromAddress(address));
    const read = async () => (await proxy.getDailyLimit(token))?.limit ?? 0n;
    await runAdminAction(
        c.ops,
        c.ui,
        {
            what: `${kind} proxy: set_daily_limit ${token.toString()}`,
            target: address,
            current: async () => {
                const d = await proxy.getDailyLimit(token);
                return d ? `limit ${d.limit}, used today ${d.used}` : 'no limit';
            },
            planned: limit === 0n ? 'no limit' : `limit ${limit}`,
            value: toNano('0.05'),
            body: ProxyMessages.setDailyLimit(token, limit),
            check: async () => (await read()) === limit,
            warning:
                limit === 0n
                    ? 'without a limit any amount is delivered at once: set limits before opening the bridge'
                    : undefined,
        },
        c,
    );
}
