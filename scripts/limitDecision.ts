import { toNano } from '@ton/core';
import { NetworkProvider } from '@ton/blueprint';
import { MultiVaultTvmTvmEventNative } from '../wrappers/MultiVaultTvmTvmEventNative';
import { limitActionMessage } from '../wrappers/tvmTvmEvent';
import { EventStatus } from '../wrappers/eventStatus';
import { addressArg, adminContext, argAt, runAdminAction } from '../lib/deploy/admin';
import { open } from '../lib/deploy/ops';

/**
 * The limit approver's decision on a transfer over the daily limit (its Event in LimitReached):
 * approve (delivered now) or reject (final: the tokens stay on the source side). To send the
 * tokens back instead, the approver cancels: see README (cancel).
 *
 *   npx blueprint run limitDecision <network options> -- <deployment> <network> <event address> <approve|reject> [--yes]
 */
export async function run(provider: NetworkProvider, args: string[]) {
    const c = await adminContext(provider, args, '<event address> <approve|reject>');
    const eventAddress = addressArg(c, 0, 'event address');
    const decision = argAt(c, 1, 'approve|reject');
    if (decision !== 'approve' && decision !== 'reject') throw new Error(`approve or reject, got ${decision}`);
    // both Event kinds share getStatus and the limit actions (wrappers/tvmTvmEvent.ts)
    const event = open(c.ops, MultiVaultTvmTvmEventNative.createFromAddress(eventAddress));
    await runAdminAction(
        c.ops,
        c.ui,
        {
            what: `Event: ${decision === 'approve' ? 'approve_limit' : 'reject_limit'}`,
            target: eventAddress,
            current: async () => `status ${EventStatus[await event.getStatus()]}`,
            planned: decision === 'approve' ? 'delivered (Confirmed)' : 'Rejected (final)',
            value: toNano('0.5'),
            body: limitActionMessage(decision === 'approve' ? 'approveLimit' : 'rejectLimit'),
            check: async () => (await event.getStatus()) !== EventStatus.LimitReached,
            warning:
                decision === 'reject'
                    ? 'final: the transfer is never delivered; the tokens stay locked or burned on the source side'
                    : undefined,
        },
        c,
    );
}
