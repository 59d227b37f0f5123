/**
 * Statuses of the TVM to TVM Event contracts (contracts/bridge/event_common.tact) and their mapping
 * to the API's TransferStatus (spec: "Mapping of Event contract status to TransferStatus").
 */
export enum EventStatus {
    /** Event contract deployed (no proof processed yet) */
    Initializing = 0,
    /** awaiting verification (check_transaction sent to the TransactionChecker) */
    Pending = 1,
    /** confirmed, proxy called, tokens delivered */
    Confirmed = 2,
    /** rejected (a failed verification: another proof may still be processed) */
    Rejected = 3,
    /** cancelled by the user */
    Cancelled = 4,
    /** daily limit exceeded, tokens held */
    LimitReached = 5,
    /** liquidity request created, tokens held */
    LiquidityRequested = 6,
    /** liquidity provided, tokens delivered */
    LiquidityProvided = 7,
    /** Merkle proof verified, tokens not yet delivered */
    Verified = 8,
}

/** API-level TransferStatus with its code (spec: "TransferStatus (API level)"). */
export enum TransferStatus {
    Pending = 1,
    Completed = 2,
    Failed = 3,
}

const MAPPING: Record<EventStatus, TransferStatus> = {
    [EventStatus.Initializing]: TransferStatus.Pending,
    [EventStatus.Pending]: TransferStatus.Pending,
    [EventStatus.Confirmed]: TransferStatus.Completed,
    [EventStatus.Rejected]: TransferStatus.Failed,
    [EventStatus.Cancelled]: TransferStatus.Failed,
    [EventStatus.LimitReached]: TransferStatus.Pending,
    [EventStatus.LiquidityRequested]: TransferStatus.Pending,
    [EventStatus.LiquidityProvided]: TransferStatus.Completed,
    [EventStatus.Verified]: TransferStatus.Pending,
};

/** The TransferStatus the API shows for an Event contract status (a number 0..8 or EventStatus). */
export function toTransferStatus(status: EventStatus | number | bigint): TransferStatus {
    const s = Number(status);
    const out = MAPPING[s as EventStatus];
    if (out === undefined) throw new Error(`unknown Event status ${status}`);
    return out;
}

/** "Pending" | "Completed" | "Failed", as the API writes it. */
export function transferStatusName(status: TransferStatus): 'Pending' | 'Completed' | 'Failed' {
    return TransferStatus[status] as 'Pending' | 'Completed' | 'Failed';
}
