import { toNano } from '@ton/core';
import { NetworkProvider } from '@ton/blueprint';
import { Bridge } from '../wrappers/Bridge';
import { adminContext, argAt, bigArg, runAdminAction } from '../lib/deploy/admin';
import { open } from '../lib/deploy/ops';

/**
 * A new round of relay keys on the Bridge (EVM to TVM votes need keys * 2 / 3 + 1 of them); the round
 * number must grow. Keys: 64 hex characters each, comma-separated.
 *
 *   npx blueprint run setRelays <network options> -- <deployment> <network> <round> <key1,key2,...> [--yes]
 */
export async function run(provider: NetworkProvider, args: string[]) {
    const c = await adminContext(provider, args, '<round> <key1,key2,...>');
    const round = bigArg(c, 0, 'round');
    const keys = argAt(c, 1, 'keys')
        .split(',')
        .map((k, i) => {
            const h = k.trim().replace(/^0x/, '');
            if (!/^[0-9a-fA-F]{64}$/.test(h)) throw new Error(`key ${i + 1}: 64 hex characters expected, got ${k}`);
            return BigInt('0x' + h);
        });
    const bridge = open(c.ops, Bridge.createFromAddress(c.address('bridge')));
    await runAdminAction(
        c.ops,
        c.ui,
        {
            what: `Bridge: set_relays round ${round}`,
            target: bridge.address,
            current: async () => `round ${await bridge.getGetRound()}, ${(await bridge.getGetRelays()).size} keys`,
            planned: `round ${round}, ${keys.length} keys (${Math.floor((keys.length * 2) / 3) + 1} votes required)`,
            value: toNano('0.5'),
            body: Bridge.setRelaysMessage(Number(round), keys),
            check: async () => (await bridge.getGetRound()) === round,
            warning:
                'events deployed from now on are voted by the new keys only; keep the old relays running until pending events are confirmed',
        },
        c,
    );
}
