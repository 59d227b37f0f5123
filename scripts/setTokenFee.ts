import { toNano } from '@ton/core';
import { NetworkProvider } from '@ton/blueprint';
import { ProxyMessages, ProxyMultiVaultNative } from '../wrappers/ProxyMultiVaultNative';
import { addressArg, adminContext, argAt, bigArg, proxyArg, runAdminAction } from '../lib/deploy/admin';
import { open } from '../lib/deploy/ops';

/**
 * A token's own fee on a proxy (overrides the default), or `remove` to fall back to the default.
 *
 *   npx blueprint run setTokenFee <network options> -- <deployment> <network> <native|alien> <token> <numerator> <denominator> [--yes]
 *   npx blueprint run setTokenFee <network options> -- <deployment> <network> <native|alien> <token> remove [--yes]
 */
export async function run(provider: NetworkProvider, args: string[]) {
    const c = await adminContext(provider, args, '<native|alien> <token> <numerator> <denominator> | remove');
    const { kind, address } = proxyArg(c, 0);
    const token = addressArg(c, 1, 'token');
    const remove = argAt(c, 2, 'numerator or remove') === 'remove';
    const proxy = open(c.ops, ProxyMultiVaultNative.createFromAddress(address));
    const show = async () => {
        const f = await proxy.getTokenFee(token);
        return `${f.numerator}/${f.denominator}`;
    };
    const planned = remove ? 'the default fee' : `${bigArg(c, 2, 'numerator')}/${bigArg(c, 3, 'denominator')}`;
    const defaultFee = async () => {
        const f = await proxy.getDefaultFee();
        return `${f.numerator}/${f.denominator}`;
    };
    await runAdminAction(
        c.ops,
        c.ui,
        {
            what: `${kind} proxy: ${remove ? 'remove_token_fee' : 'set_token_fee'} ${token.toString()}`,
            target: address,
            current: show,
            planned,
            value: toNano('0.05'),
            body: remove
                ? ProxyMessages.removeTokenFee(token)
                : ProxyMessages.setTokenFee(token, bigArg(c, 2, 'numerator'), bigArg(c, 3, 'denominator')),
            check: async () => (await show()) === (remove ? await defaultFee() : planned),
        },
        c,
    );
}
