import { Address, toNano } from '@ton/core';
import { NetworkProvider } from '@ton/blueprint';
import { ProxyMessages, ProxyMultiVaultNative } from '../wrappers/ProxyMultiVaultNative';
import { adminContext, argAt, proxyArg, runAdminAction } from '../lib/deploy/admin';
import { open } from '../lib/deploy/ops';

/**
 * Who approves, rejects or cancels transfers over the daily limit on a proxy (`owner`: the owner).
 *
 *   npx blueprint run setLimitApprover <network options> -- <deployment> <network> <native|alien> <address|owner> [--yes]
 */
export async function run(provider: NetworkProvider, args: string[]) {
    const c = await adminContext(provider, args, '<native|alien> <address|owner>');
    const { kind, address } = proxyArg(c, 0);
    const v = argAt(c, 1, 'approver');
    const approver = v === 'owner' ? null : Address.parse(v);
    const proxy = open(c.ops, ProxyMultiVaultNative.createFromAddress(address));
    const expected = async () => approver ?? (await proxy.getOwner());
    await runAdminAction(
        c.ops,
        c.ui,
        {
            what: `${kind} proxy: set_limit_approver`,
            target: address,
            current: async () => (await proxy.getLimitApprover()).toString(),
            planned: approver ? approver.toString() : 'the owner',
            value: toNano('0.05'),
            body: ProxyMessages.setLimitApprover(approver),
            check: async () => (await proxy.getLimitApprover()).equals(await expected()),
            warning: 'the approver alone decides on transfers over the limit: use a multisig',
        },
        c,
    );
}
