import { toNano } from '@ton/core';
import { NetworkProvider } from '@ton/blueprint';
import { ProxyMessages, ProxyMultiVaultNative } from '../wrappers/ProxyMultiVaultNative';
import { Bridge } from '../wrappers/Bridge';
import { adminContext, argAt, boolArg, runAdminAction } from '../lib/deploy/admin';
import { open } from '../lib/deploy/ops';

/**
 * Pause or unpause a proxy (no new outgoing transfer, no delivery: 2702) or the relays' Bridge.
 *
 *   npx blueprint run setPaused <network options> -- <deployment> <network> <native|alien|bridge> <true|false> [--yes]
 */
export async function run(provider: NetworkProvider, args: string[]) {
    const c = await adminContext(provider, args, '<native|alien|bridge> <true|false>');
    const which = argAt(c, 0, 'native|alien|bridge');
    const paused = boolArg(c, 1, 'paused');
    if (which === 'bridge') {
        const bridge = open(c.ops, Bridge.createFromAddress(c.address('bridge')));
        return runAdminAction(
            c.ops,
            c.ui,
            {
                what: `Bridge: set_paused ${paused}`,
                target: bridge.address,
                current: async () => `paused ${await bridge.getIsPaused()}`,
                planned: `paused ${paused}`,
                value: toNano('0.5'),
                body: Bridge.setPausedMessage(paused),
                check: async () => (await bridge.getIsPaused()) === paused,
                warning: paused ? 'EVM to TVM events can no longer be deployed until unpaused' : undefined,
            },
            c,
        );
    }
    if (which !== 'native' && which !== 'alien') throw new Error(`native, alien or bridge, got ${which}`);
    const proxy = open(
        c.ops,
        ProxyMultiVaultNative.createFromAddress(c.address(which === 'native' ? 'nativeProxy' : 'alienProxy')),
    );
    return runAdminAction(
        c.ops,
        c.ui,
        {
            what: `${which} proxy: set_paused ${paused}`,
            target: proxy.address,
            current: async () => `paused ${await proxy.getPaused()}`,
            planned: `paused ${paused}`,
            value: toNano('0.05'),
            body: ProxyMessages.setPaused(paused),
            check: async () => (await proxy.getPaused()) === paused,
            warning: paused
                ? 'no transfer leaves or arrives through this proxy until unpaused (deliveries wait in Verified)'
                : undefined,
        },
        c,
    );
}
