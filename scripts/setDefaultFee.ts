import { toNano } from '@ton/core';
import { NetworkProvider } from '@ton/blueprint';
import { ProxyMessages, ProxyMultiVaultNative } from '../wrappers/ProxyMultiVaultNative';
import { adminContext, bigArg, proxyArg, runAdminAction } from '../lib/deploy/admin';
import { open } from '../lib/deploy/ops';

/**
 * The default fee of a proxy's incoming transfers: numerator / denominator of the amount.
 *
 *   npx blueprint run setDefaultFee <network options> -- <deployment> <network> <native|alien> <numerator> <denominator> [--yes]
 */
export async function run(provider: NetworkProvider, args: string[]) {
    const c = await adminContext(provider, args, '<native|alien> <numerator> <denominator>');
    const { kind, address } = proxyArg(c, 0);
    const numerator = bigArg(c, 1, 'numerator');
    const denominator = bigArg(c, 2, 'denominator');
    const proxy = open(c.ops, ProxyMultiVaultNative.createFromAddress(address));
    const show = async () => {
        const f = await proxy.getDefaultFee();
        return `${f.numerator}/${f.denominator}`;
    };
    await runAdminAction(
        c.ops,
        c.ui,
        {
            what: `${kind} proxy: set_default_fee`,
            target: address,
            current: show,
            planned: `${numerator}/${denominator}`,
            value: toNano('0.05'),
            body: ProxyMessages.setDefaultFee(numerator, denominator),
            check: async () => (await show()) === `${numerator}/${denominator}`,
        },
        c,
    );
}
