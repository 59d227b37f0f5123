import { toNano } from '@ton/core';
import { NetworkProvider } from '@ton/blueprint';
import { TvmTvmEventConfiguration } from '../wrappers/TvmTvmEventConfiguration';
import { adminContext, argAt, bigArg, runAdminAction } from '../lib/deploy/admin';
import { open } from '../lib/deploy/ops';

/**
 * Closes a TvmTvmEventConfiguration: events emitted after <end> (unix seconds) are refused (2215).
 * It can be set once (2218) and not before the start (2216): deploy a new configuration to reopen.
 *
 *   npx blueprint run setEndTimestamp <network options> -- <deployment> <network> <alienConfiguration|nativeConfiguration> <end> [--yes]
 */
export async function run(provider: NetworkProvider, args: string[]) {
    const c = await adminContext(provider, args, '<alienConfiguration|nativeConfiguration> <end>');
    const field = argAt(c, 0, 'configuration');
    if (field !== 'alienConfiguration' && field !== 'nativeConfiguration')
        throw new Error(`alienConfiguration or nativeConfiguration, got ${field}`);
    const end = bigArg(c, 1, 'end timestamp');
    const cfg = open(c.ops, TvmTvmEventConfiguration.createFromAddress(c.address(field)));
    const read = async () => (await cfg.getDetails()).networkConfiguration.endTimestamp;
    await runAdminAction(
        c.ops,
        c.ui,
        {
            what: `${field}: set_end_timestamp`,
            target: cfg.address,
            current: async () => `end ${(await read()) || 'open'}`,
            planned: `end ${end} (${new Date(Number(end) * 1000).toISOString()})`,
            value: toNano('0.05'),
            body: TvmTvmEventConfiguration.setEndTimestampMessage(Number(end)),
            check: async () => BigInt(await read()) === end,
            warning: 'final: this configuration never accepts a later event again',
        },
        c,
    );
}
