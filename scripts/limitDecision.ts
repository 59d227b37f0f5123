import { Address, toNano } from '@ton/core';
import { NetworkProvider } from '@ton/blueprint';
import { MultiVaultTvmTvmEventNative } from '../wrappers/MultiVaultTvmTvmEventNative';
import { MultiVaultTvmTvmEventAlien } from '../wrappers/MultiVaultTvmTvmEventAlien';
import { cancelMessage, limitActionMessage } from '../wrappers/tvmTvmEvent';
import { EventStatus } from '../wrappers/eventStatus';
import { addressArg, adminContext, argAt, runAdminAction } from '../lib/deploy/admin';
import { loadCodes } from '../lib/deploy/codes';
import { codeOf, open } from '../lib/deploy/ops';

/**
 * The limit approver's decision on a transfer over the daily limit (its Event in LimitReached):
 * approve (delivered now), reject (final: the tokens stay on the source side), or cancel (a reverse
 * transfer sends the tokens back to <new recipient> on the source network; it is completed like any
 * other transfer, here in non-credit mode: the recipient proves it).
 *
 *   npx blueprint run limitDecision <network options> -- <deployment> <network> <event address> <approve|reject> [--yes]
 *   npx blueprint run limitDecision <network options> -- <deployment> <network> <event address> cancel <new recipient> [--yes]
 */
export async function run(provider: NetworkProvider, args: string[]) {
    const c = await adminContext(provider, args, '<event address> <approve|reject|cancel> [new recipient]');
    const eventAddress = addressArg(c, 0, 'event address');
    const decision = argAt(c, 1, 'approve|reject|cancel');
    if (decision !== 'approve' && decision !== 'reject' && decision !== 'cancel')
        throw new Error(`approve, reject or cancel, got ${decision}`);
    // both Event kinds share getStatus and the limit actions (wrappers/tvmTvmEvent.ts)
    const event = open(c.ops, MultiVaultTvmTvmEventNative.createFromAddress(eventAddress));
    const status = async () => `status ${EventStatus[await event.getStatus()]}`;
    if (decision === 'cancel') {
        const newRecipient = addressArg(c, 2, 'new recipient');
        // the layout of cancel differs by kind: the Event's code says which one it is
        const code = await codeOf(c.ops, eventAddress);
        const codes = loadCodes();
        const kind = code?.equals(codes.MultiVaultTvmTvmEventNative)
            ? 'native'
            : code?.equals(codes.MultiVaultTvmTvmEventAlien)
              ? 'alien'
              : undefined;
        if (!kind) throw new Error(`${eventAddress.toString()} is not a TVM to TVM Event of this build`);
        const wallet = Address.parse(c.ops.sender.address.toRawString());
        return runAdminAction(
            c.ops,
            c.ui,
            {
                what: `${kind === 'native' ? MultiVaultTvmTvmEventNative.name : MultiVaultTvmTvmEventAlien.name}: cancel`,
                target: eventAddress,
                current: status,
                planned: `Cancelled: the tokens go back to ${newRecipient.toString()} on the source network`,
                value: toNano('1'),
                body: cancelMessage(kind, { newRecipient, remainingGasTo: wallet, expectedGasReceiver: wallet }),
                check: async () => (await event.getStatus()) === EventStatus.Cancelled,
                warning: 'final: the transfer is never delivered here; the reverse transfer is a new transfer',
            },
            c,
        );
    }
    await runAdminAction(
        c.ops,
        c.ui,
        {
            what: `Event: ${decision === 'approve' ? 'approve_limit' : 'reject_limit'}`,
            target: eventAddress,
            current: status,
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
