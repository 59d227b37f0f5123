import { Address, toNano } from '@ton/core';
import { NetworkProvider } from '@ton/blueprint';
import { ProxyMessages, ProxyMultiVaultNative } from '../wrappers/ProxyMultiVaultNative';
import { Bridge } from '../wrappers/Bridge';
import { adminContext, argAt, boolArg, runAdminAction } from '../lib/deploy/admin';
import { open } from '../lib/deploy/ops';
import { TvmContracts } from '../lib/deploy/deployment';

/**
 * Lists (true) or delists (false) a configuration: in a proxy (TVM or EVM configuration: its
 * deliveries are accepted only while listed), or in the relays' Bridge (EVM configurations).
 * <configuration>: an address or a deployment field (alienConfiguration, evmNativeConfiguration, ...).
 *
 *   npx blueprint run setConfiguration <network options> -- <deployment> <network> <native|alien|bridge> <tvm|evm> <configuration> <true|false> [--yes]
 */
export async function run(provider: NetworkProvider, args: string[]) {
    const c = await adminContext(provider, args, '<native|alien|bridge> <tvm|evm> <configuration> <true|false>');
    const which = argAt(c, 0, 'native|alien|bridge');
    const kind = argAt(c, 1, 'tvm|evm');
    if (kind !== 'tvm' && kind !== 'evm') throw new Error(`tvm or evm, got ${kind}`);
    const v = argAt(c, 2, 'configuration');
    const configuration = v in c.contracts ? c.address(v as keyof TvmContracts) : Address.parse(v);
    const allowed = boolArg(c, 3, 'allowed');
    const warning = allowed
        ? undefined
        : 'transfers of this configuration that are not delivered yet will be refused until it is listed again';
    if (which === 'bridge') {
        if (kind !== 'evm') throw new Error('the Bridge lists EVM configurations only');
        const bridge = open(c.ops, Bridge.createFromAddress(c.address('bridge')));
        const read = async () => (await bridge.getGetConfiguration(configuration)) === true;
        return runAdminAction(
            c.ops,
            c.ui,
            {
                what: `Bridge: set_configuration ${configuration.toString()}`,
                target: bridge.address,
                current: async () => `active ${await read()}`,
                planned: `active ${allowed}`,
                value: toNano('0.5'),
                body: Bridge.setConfigurationMessage(configuration, allowed),
                check: async () => (await read()) === allowed,
                warning,
            },
            c,
        );
    }
    if (which !== 'native' && which !== 'alien') throw new Error(`native, alien or bridge, got ${which}`);
    const proxy = open(
        c.ops,
        ProxyMultiVaultNative.createFromAddress(c.address(which === 'native' ? 'nativeProxy' : 'alienProxy')),
    );
    const read = () =>
        kind === 'tvm' ? proxy.getIsTvmConfiguration(configuration) : proxy.getIsEvmConfiguration(configuration);
    await runAdminAction(
        c.ops,
        c.ui,
        {
            what: `${which} proxy: set_${kind}_configuration ${configuration.toString()}`,
            target: proxy.address,
            current: async () => `listed ${await read()}`,
            planned: `listed ${allowed}`,
            value: toNano('0.05'),
            body:
                kind === 'tvm'
                    ? ProxyMessages.setTvmConfiguration(configuration, allowed)
                    : ProxyMessages.setEvmConfiguration(configuration, allowed),
            check: async () => (await read()) === allowed,
            warning,
        },
        c,
    );
}
