import { Address, toNano } from '@ton/core';
import { NetworkProvider } from '@ton/blueprint';
import { ProxyMessages, ProxyMultiVaultNative } from '../wrappers/ProxyMultiVaultNative';
import { Bridge } from '../wrappers/Bridge';
import { addressArg, AdminContext, adminContext, argAt, runAdminAction } from '../lib/deploy/admin';
import { OwnedContract, writeDeployment } from '../lib/deploy/deployment';
import { open } from '../lib/deploy/ops';

/**
 * Hands a proxy or the relays' Bridge to a new owner (immediately, no acceptance step: check the
 * address twice; a multisig is the owner a production bridge needs).
 *
 *   npx blueprint run transferOwnership <network options> -- <deployment> <network> <native|alien|bridge> <new owner> [--yes]
 */
export async function run(provider: NetworkProvider, args: string[]) {
    const c = await adminContext(provider, args, '<native|alien|bridge> <new owner>');
    const which = argAt(c, 0, 'native|alien|bridge');
    const newOwner = addressArg(c, 1, 'new owner');
    const warning = 'from now on only the new owner can change this contract: this wallet loses every owner right';
    if (which === 'bridge') {
        const bridge = open(c.ops, Bridge.createFromAddress(c.address('bridge')));
        await runAdminAction(
            c.ops,
            c.ui,
            {
                what: 'Bridge: transfer_ownership',
                target: bridge.address,
                current: async () => (await bridge.getGetOwner()).toString(),
                planned: newOwner.toString(),
                value: toNano('0.5'),
                body: Bridge.transferOwnershipMessage(newOwner),
                check: async () => (await bridge.getGetOwner()).equals(newOwner),
                warning,
            },
            c,
        );
        return record(c, 'bridge', newOwner);
    }
    if (which !== 'native' && which !== 'alien') throw new Error(`native, alien or bridge, got ${which}`);
    const proxy = open(
        c.ops,
        ProxyMultiVaultNative.createFromAddress(c.address(which === 'native' ? 'nativeProxy' : 'alienProxy')),
    );
    await runAdminAction(
        c.ops,
        c.ui,
        {
            what: `${which} proxy: transfer_ownership`,
            target: proxy.address,
            current: async () => (await proxy.getOwner()).toString(),
            planned: newOwner.toString(),
            value: toNano('0.05'),
            body: ProxyMessages.transferOwnership(newOwner),
            check: async () => (await proxy.getOwner()).equals(Address.parse(newOwner.toRawString())),
            warning,
        },
        c,
    );
    record(c, which === 'native' ? 'nativeProxy' : 'alienProxy', newOwner);
}

/** The handover in the deployment file (tvm.<network>.owners), so that verifyDeployment checks the new owner. */
function record(c: AdminContext, contract: OwnedContract, owner: Address) {
    c.deployment.tvm[c.key].owners = { ...c.deployment.tvm[c.key].owners, [contract]: owner.toRawString() };
    writeDeployment(c.file, c.deployment);
    c.ui.write(`  recorded: tvm.${c.key}.owners.${contract} in ${c.file}`);
}
