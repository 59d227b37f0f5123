/**
 * (extension) Why a transfer waits and what to do: the Event's on-chain status, its last error code
 * and the next actions with who may take them (spec: "Which actions are allowed, by status and
 * caller", "Completion procedure").
 */
import { TransferView } from '../storage/store';
import { tvmEvmDetails } from './tvmEvm';

export const EVENT_STATUS_NAMES = [
    'Initializing',
    'Pending',
    'Confirmed',
    'Rejected',
    'Cancelled',
    'LimitReached',
    'LiquidityRequested',
    'LiquidityProvided',
    'Verified',
];

export interface NextAction {
    action: string;
    caller: string;
    note: string;
}

export function nextActions(v: TransferView): NextAction[] {
    const e = v.event;
    if (!e) {
        if (v.kind === 'EvmToTvm') return [];
        if (BigInt(v.expectedGas) > 0n)
            return [
                {
                    action: 'wait',
                    caller: 'credit backend',
                    note: 'the credit backend deploys the Event once the block is proven',
                },
            ];
        if (!v.proofPayload)
            return [
                {
                    action: 'wait',
                    caller: 'proof service',
                    note: 'the proof is ready once the source block is sealed; poll again in 5-10 s',
                },
            ];
        return [
            {
                action: 'deployEvent',
                caller: 'anyone (the user)',
                note: 'send proofPayload.abiTx: attachedValue to abiTx.executionAddress with body abiTx.tx',
            },
        ];
    }
    switch (e.status) {
        case 0:
        case 1:
            return [{ action: 'wait', caller: 'TransactionChecker', note: 'the proof is being verified' }];
        case 2:
            return e.deliveryTx
                ? []
                : [{ action: 'wait', caller: 'proxy', note: 'confirmed; the delivery is being indexed' }];
        case 8:
            return e.lastErrorCode
                ? [
                      {
                          action: 'retry',
                          caller: 'sender, recipient or initializer',
                          note: `the proxy refused the delivery with code ${e.lastErrorCode}; retry() with about 0.5 TON once the cause is gone`,
                      },
                  ]
                : [{ action: 'wait', caller: 'proxy', note: 'verified; the proxy delivers' }];
        case 5:
            return [
                {
                    action: 'wait for the limit approver',
                    caller: 'limitApprover',
                    note: 'over the daily limit: the limit approver approves (approveLimit), rejects (rejectLimit) or cancels',
                },
                {
                    action: 'retry',
                    caller: 'sender, recipient or initializer',
                    note: 'after approval, retry() with about 0.5 TON',
                },
            ];
        case 6:
            return [
                {
                    action: 'setBounty',
                    caller: 'sender or recipient',
                    note: 'a reward for a liquidity provider (at most the amount), about 0.5 TON attached',
                },
                {
                    action: 'cancel',
                    caller: 'sender or recipient',
                    note: 'tokens go back through a reverse transfer, about 1 TON attached',
                },
                {
                    action: 'retry',
                    caller: 'sender, recipient or initializer',
                    note: 'once the proxy has liquidity, about 0.5 TON attached',
                },
            ];
        default:
            return [];
    }
}

export interface TimelineStep {
    at: number | null;
    chainId: number;
    step: string;
    transaction: string | null;
}

/** What happened to a transfer, on both networks, in order. */
export function timeline(v: TransferView): TimelineStep[] {
    const out: TimelineStep[] = [{ at: v.createdAt, chainId: v.fromChainId, step: 'Sent', transaction: v.transferId }];
    if (v.kind === 'TvmToTvm' && v.proofPayload)
        out.push({ at: null, chainId: v.fromChainId, step: 'Proof ready', transaction: null });
    const e = v.event;
    if (e) {
        out.push({ at: e.deployedAt, chainId: e.chainId, step: 'Event deployed', transaction: e.deployTx });
        if (e.status !== 0)
            out.push({
                at: e.updatedAt,
                chainId: e.chainId,
                step: `Event ${EVENT_STATUS_NAMES[e.status] ?? e.status}`,
                transaction: null,
            });
        if (e.deliveryTx)
            out.push({ at: e.deliveredAt ?? null, chainId: e.chainId, step: 'Delivered', transaction: e.deliveryTx });
    }
    return out;
}

/** `relayEndpoints`: the TVM to EVM relays' HTTP endpoints (the deployment's evm.relayEndpoints) */
export function detailsOf(v: TransferView, relayEndpoints: string[] = []) {
    if (v.kind === 'TvmToEvm') return tvmEvmDetails(v, relayEndpoints);
    const e = v.event;
    return {
        timeline: timeline(v),
        eventContract: e?.address ?? null,
        eventStatus: e ? (EVENT_STATUS_NAMES[e.status] ?? `Unknown(${e.status})`) : null,
        eventStatusCode: e ? e.status : null,
        lastErrorCode: e?.lastErrorCode ?? 0,
        nextActions: nextActions(v),
    };
}
