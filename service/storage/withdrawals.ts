/**
 * TVM to EVM on the EVM side: the MultiVault's withdrawals (evm/MultiVaultWithdrawals.sol), one row
 * each, keyed by the link key of their TVM transfer (`wd:<withdrawal id>`, the id being
 * keccak256(abi.encode(eventWid, eventAddr)) of the proxy transaction that emitted the event). The
 * EVM indexer applies the vault's logs in chain order, in the transaction that commits its cursor:
 *
 * - Withdrawal(withdrawalId, token, recipient, amount, fee): paid at once (state Paid);
 * - PendingWithdrawalCreated(recipient, id, token, amount, withdrawalId, approveStatus): pending,
 *   over a limit (Required) or short of liquidity (NotRequired); later logs name it by
 *   (recipient, id) only, so that pair is indexed;
 * - PendingWithdrawalBounty: the recipient's bounty;
 * - PendingWithdrawalApprove: Approved (then paid in the same transaction if it can be) or Rejected;
 * - PendingWithdrawalPaid(recipient, id, amount, filler, bounty): paid by the approval, by
 *   forceWithdraw, or by a deposit's fill (filler: the depositor, who earned the bounty);
 * - PendingWithdrawalCancel(recipient, id, amount): sent back to TVM (the same transaction's
 *   AlienTransfer is an EVM to TVM transfer whose Transfer ID is this transaction's hash); what is
 *   left stays pending, all of it: Cancelled.
 *
 * Each row remembers the position (block, log index) of the last log applied, so a log is applied
 * once even if a batch were read twice.
 */
import { Queryable, Row } from './db';

export type WithdrawalState = 'Paid' | 'Pending' | 'Rejected' | 'Cancelled';
export type PaidBy = 'Withdrawal' | 'Approval' | 'Force' | 'Fill';

/** The vault's ApproveStatus, by its number. */
export const APPROVE_STATUS_NAMES = ['NotRequired', 'Required', 'Approved', 'Rejected'] as const;

export const withdrawalLinkKey = (withdrawalId: string) => `wd:${withdrawalId.toLowerCase()}`;

interface StepBase {
    chainId: number;
    vault: string;
    /** transaction hash (0x, lowercase) */
    tx: string;
    block: number;
    logIndex: number;
    /** block time, unix seconds */
    at: number;
}

/** A MultiVault withdrawal log, decoded (addresses lowercase, amounts as bigint). */
export type WithdrawalStep = StepBase &
    (
        | { kind: 'Withdrawal'; withdrawalId: string; token: string; recipient: string; amount: bigint; fee: bigint }
        | {
              kind: 'Created';
              withdrawalId: string;
              recipient: string;
              pendingId: bigint;
              token: string;
              amount: bigint;
              approveStatus: number;
              /** the bounty the withdrawal started with (the log names none: read from the vault) */
              bounty: bigint;
          }
        | { kind: 'Bounty'; recipient: string; pendingId: bigint; bounty: bigint }
        | { kind: 'Approve'; recipient: string; pendingId: bigint; approveStatus: number }
        | { kind: 'Paid'; recipient: string; pendingId: bigint; amount: bigint; filler: string; bounty: bigint }
        | { kind: 'Cancel'; recipient: string; pendingId: bigint; amount: bigint }
    );

/** A withdrawal as stored (and as the API reads it). */
export interface WithdrawalRow {
    linkKey: string;
    withdrawalId: string;
    chainId: number;
    vault: string;
    token: string;
    recipient: string;
    state: WithdrawalState;
    netAmount: string;
    fee: string | null;
    pendingId: string | null;
    approveStatus: number | null;
    owed: string;
    bounty: string;
    paidAmount: string;
    paidBy: PaidBy | null;
    filler: string | null;
    cancelledAmount: string;
    savedTx: string;
    savedAt: number;
    approveTx: string | null;
    approvedAt: number | null;
    paidTx: string | null;
    paidAt: number | null;
    cancelTx: string | null;
    cancelledAt: number | null;
    lastPos: string;
    updatedAt: number;
}

const COLUMN_OF: Record<keyof WithdrawalRow, string> = {
    linkKey: 'link_key',
    withdrawalId: 'withdrawal_id',
    chainId: 'chain_id',
    vault: 'vault',
    token: 'token',
    recipient: 'recipient',
    state: 'state',
    netAmount: 'net_amount',
    fee: 'fee',
    pendingId: 'pending_id',
    approveStatus: 'approve_status',
    owed: 'owed',
    bounty: 'bounty',
    paidAmount: 'paid_amount',
    paidBy: 'paid_by',
    filler: 'filler',
    cancelledAmount: 'cancelled_amount',
    savedTx: 'saved_tx',
    savedAt: 'saved_at',
    approveTx: 'approve_tx',
    approvedAt: 'approved_at',
    paidTx: 'paid_tx',
    paidAt: 'paid_at',
    cancelTx: 'cancel_tx',
    cancelledAt: 'cancelled_at',
    lastPos: 'last_pos',
    updatedAt: 'updated_at',
};
const FIELDS = Object.keys(COLUMN_OF) as (keyof WithdrawalRow)[];
const NUMBERS = new Set<keyof WithdrawalRow>(['chainId', 'savedAt', 'updatedAt']);
const NULLABLE_NUMBERS = new Set<keyof WithdrawalRow>(['approveStatus', 'approvedAt', 'paidAt', 'cancelledAt']);

/** The withdrawal columns of a joined row, `w_<column>` (select them with WITHDRAWAL_COLUMNS). */
export const WITHDRAWAL_COLUMNS = FIELDS.map((f) => `w.${COLUMN_OF[f]} AS w_${COLUMN_OF[f]}`).join(', ');

/** A withdrawal from the columns of `r` named `<prefix><column>` (undefined when there is none). */
export function withdrawalOfRow(r: Row, prefix = ''): WithdrawalRow | undefined {
    const v = (f: keyof WithdrawalRow) => r[`${prefix}${COLUMN_OF[f]}`];
    if (v('linkKey') === null || v('linkKey') === undefined) return undefined;
    const out: Record<string, unknown> = {};
    for (const f of FIELDS) {
        const x = v(f);
        if (NUMBERS.has(f)) out[f] = Number(x);
        else if (NULLABLE_NUMBERS.has(f)) out[f] = x === null || x === undefined ? null : Number(x);
        else out[f] = x === null || x === undefined ? null : String(x);
    }
    return out as unknown as WithdrawalRow;
}

const pos = (s: StepBase) => BigInt(s.block) * 1_000_000n + BigInt(s.logIndex);

async function byLinkKey(q: Queryable, linkKey: string): Promise<WithdrawalRow | undefined> {
    return withdrawalOfRow((await q.query('SELECT * FROM withdrawals WHERE link_key = $1', [linkKey]))[0] ?? {});
}

async function byPendingId(
    q: Queryable,
    chainId: number,
    recipient: string,
    pendingId: bigint,
): Promise<WithdrawalRow | undefined> {
    const rows = await q.query('SELECT * FROM withdrawals WHERE chain_id = $1 AND recipient = $2 AND pending_id = $3', [
        chainId,
        recipient,
        pendingId.toString(),
    ]);
    return withdrawalOfRow(rows[0] ?? {});
}

/** Stores a new withdrawal; false (nothing written) when it is stored already. */
async function insertRow(q: Queryable, w: WithdrawalRow): Promise<boolean> {
    const cols = FIELDS.map((f) => COLUMN_OF[f]);
    const rows = await q.query(
        `INSERT INTO withdrawals (${cols.join(', ')}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(', ')})
         ON CONFLICT DO NOTHING RETURNING link_key`,
        FIELDS.map((f) => w[f]),
    );
    return rows.length > 0;
}

/** Writes back what a log changed (never a row already past the log's position). */
async function updateRow(q: Queryable, w: WithdrawalRow, at: bigint) {
    const mutable = FIELDS.filter((f) => !['linkKey', 'withdrawalId', 'chainId', 'vault'].includes(f));
    await q.query(
        `UPDATE withdrawals SET ${mutable.map((f, i) => `${COLUMN_OF[f]} = $${i + 2}`).join(', ')}
         WHERE link_key = $1 AND last_pos < $${mutable.length + 2}`,
        [w.linkKey, ...mutable.map((f) => w[f]), at.toString()],
    );
}

const min = (a: bigint, b: bigint) => (a < b ? a : b);

/**
 * Applies the logs of a batch, in chain order. Returns how many changed a withdrawal; a log naming a
 * pending withdrawal this storage never saw created (the indexer started after it) is skipped and
 * reported in `unknown`.
 */
export async function applyWithdrawalSteps(
    q: Queryable,
    steps: WithdrawalStep[],
): Promise<{ applied: number; unknown: WithdrawalStep[] }> {
    let applied = 0;
    const unknown: WithdrawalStep[] = [];
    const now = Math.floor(Date.now() / 1000);
    for (const s of steps) {
        const p = pos(s);
        if (s.kind === 'Withdrawal' || s.kind === 'Created') {
            const paid = s.kind === 'Withdrawal';
            const linkKey = withdrawalLinkKey(s.withdrawalId);
            const inserted = await insertRow(q, {
                linkKey,
                withdrawalId: s.withdrawalId.toLowerCase(),
                chainId: s.chainId,
                vault: s.vault,
                token: s.token,
                recipient: s.recipient,
                state: paid ? 'Paid' : s.approveStatus === 3 ? 'Rejected' : 'Pending',
                netAmount: s.amount.toString(),
                fee: paid ? s.fee.toString() : null,
                pendingId: paid ? null : s.pendingId.toString(),
                approveStatus: paid ? null : s.approveStatus,
                owed: paid ? '0' : s.amount.toString(),
                bounty: paid ? '0' : min(s.bounty, s.amount).toString(),
                paidAmount: paid ? s.amount.toString() : '0',
                paidBy: paid ? 'Withdrawal' : null,
                filler: null,
                cancelledAmount: '0',
                savedTx: s.tx,
                savedAt: s.at,
                approveTx: null,
                approvedAt: null,
                paidTx: paid ? s.tx : null,
                paidAt: paid ? s.at : null,
                cancelTx: null,
                cancelledAt: null,
                lastPos: p.toString(),
                updatedAt: now,
            });
            if (inserted) applied++;
            continue;
        }
        const w = await byPendingId(q, s.chainId, s.recipient, s.pendingId);
        if (!w) {
            unknown.push(s);
            continue;
        }
        if (BigInt(w.lastPos) >= p) continue;
        const owed = BigInt(w.owed);
        switch (s.kind) {
            case 'Bounty':
                w.bounty = s.bounty.toString();
                break;
            case 'Approve':
                w.approveStatus = s.approveStatus;
                w.approveTx = s.tx;
                w.approvedAt = s.at;
                if (s.approveStatus === 3) w.state = 'Rejected';
                break;
            case 'Paid':
                w.owed = '0';
                w.paidAmount = (BigInt(w.paidAmount) + s.amount).toString();
                w.state = 'Paid';
                w.paidBy = s.filler !== ZERO_ADDRESS ? 'Fill' : w.approveTx === s.tx ? 'Approval' : 'Force';
                w.filler = s.filler !== ZERO_ADDRESS ? s.filler : null;
                if (s.filler !== ZERO_ADDRESS) w.bounty = s.bounty.toString();
                w.paidTx = s.tx;
                w.paidAt = s.at;
                break;
            case 'Cancel': {
                const left = owed - s.amount;
                w.owed = left.toString();
                w.cancelledAmount = (BigInt(w.cancelledAmount) + s.amount).toString();
                w.bounty = min(BigInt(w.bounty), left).toString();
                w.cancelTx = s.tx;
                w.cancelledAt = s.at;
                if (left === 0n) w.state = 'Cancelled';
                break;
            }
        }
        w.lastPos = p.toString();
        w.updatedAt = now;
        await updateRow(q, w, p);
        applied++;
    }
    return { applied, unknown };
}

export const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';

/** A withdrawal by its id (0x hex) or link key. */
export async function getWithdrawal(q: Queryable, idOrLinkKey: string): Promise<WithdrawalRow | undefined> {
    return byLinkKey(q, idOrLinkKey.startsWith('wd:') ? idOrLinkKey : withdrawalLinkKey(idOrLinkKey));
}

/**
 * TransferStatus of a TVM to EVM transfer from its withdrawal `w` (documented in service/README.md,
 * "TVM to EVM transfers"): none yet or pending: Pending; paid: Completed; rejected or cancelled (all
 * of it back to TVM): Failed.
 */
export const TVM_EVM_STATUS_SQL = `CASE WHEN w.state = 'Paid' THEN 'Completed' WHEN w.state IN ('Rejected', 'Cancelled') THEN 'Failed' ELSE 'Pending' END`;

/** The join of a transfer `t` with its withdrawal `w`. */
export const JOIN_WITHDRAWALS = `LEFT JOIN withdrawals w ON t.kind = 'TvmToEvm' AND w.link_key = t.link_key`;
