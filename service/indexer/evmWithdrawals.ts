/**
 * The EVM indexer's TVM to EVM part: the MultiVault's withdrawal logs of a block range (Withdrawal,
 * PendingWithdrawalCreated / Bounty / Approve / Paid / Cancel) decoded into WithdrawalSteps in chain
 * order, which service/storage/withdrawals.ts applies in the transaction that commits the cursor.
 */
import { Interface } from 'ethers';
import { WithdrawalStep } from '../storage/withdrawals';

export const WITHDRAWAL_EVENTS = [
    'Withdrawal',
    'PendingWithdrawalCreated',
    'PendingWithdrawalBounty',
    'PendingWithdrawalApprove',
    'PendingWithdrawalPaid',
    'PendingWithdrawalCancel',
] as const;

/** The view of the vault's withdrawals part (not in the MultiVault's own ABI: reached by its fallback). */
const PENDING_VIEW = new Interface([
    'function pendingWithdrawal(address recipient, uint256 id) view returns ((address token, uint8 approveStatus, uint128 amount, uint128 bounty, address callback, bytes payload))',
]);

export interface RpcLog {
    address: string;
    topics: string[];
    data: string;
    logIndex: string;
    transactionHash: string;
    blockNumber: string;
    blockHash: string;
    removed?: boolean;
}

export type Rpc = <T>(method: string, params: unknown[]) => Promise<T>;

const hexQ = (n: number) => '0x' + n.toString(16);
const lower = (a: unknown) => String(a).toLowerCase();

/**
 * The withdrawal steps of the vault's logs in blocks [from, to], oldest first. A new pending
 * withdrawal's starting bounty (its log names none) is read from the vault at the log's block.
 */
export async function withdrawalStepsIn(
    o: { rpc: Rpc; iface: Interface; vault: string; chainId: number; blockTime: (block: string) => Promise<number> },
    from: number,
    to: number,
): Promise<WithdrawalStep[]> {
    const topics = [WITHDRAWAL_EVENTS.map((n) => o.iface.getEvent(n)!.topicHash)];
    const logs = await o.rpc<RpcLog[]>('eth_getLogs', [
        { address: o.vault, fromBlock: hexQ(from), toBlock: hexQ(to), topics },
    ]);
    const sorted = logs
        .filter((l) => !l.removed)
        .map((l) => ({ l, block: Number(BigInt(l.blockNumber)), index: Number(BigInt(l.logIndex)) }))
        .sort((a, b) => a.block - b.block || a.index - b.index);
    const out: WithdrawalStep[] = [];
    for (const { l, block, index } of sorted) {
        const parsed = o.iface.parseLog({ topics: l.topics, data: l.data });
        if (!parsed) continue;
        const a = parsed.args;
        const base = {
            chainId: o.chainId,
            vault: o.vault,
            tx: lower(l.transactionHash),
            block,
            logIndex: index,
            at: await o.blockTime(l.blockNumber),
        };
        switch (parsed.name) {
            case 'Withdrawal':
                out.push({
                    ...base,
                    kind: 'Withdrawal',
                    withdrawalId: lower(a.withdrawalId),
                    token: lower(a.token),
                    recipient: lower(a.recipient),
                    amount: BigInt(a.amount),
                    fee: BigInt(a.fee),
                });
                break;
            case 'PendingWithdrawalCreated': {
                const recipient = lower(a.recipient);
                const pendingId = BigInt(a.id);
                const call = {
                    to: o.vault,
                    data: PENDING_VIEW.encodeFunctionData('pendingWithdrawal', [recipient, pendingId]),
                };
                // at the log's block; a node without that block's state answers for the latest (later
                // Bounty logs, applied after this one, set it right)
                const view = await o
                    .rpc<string>('eth_call', [call, hexQ(block)])
                    .catch(() => o.rpc<string>('eth_call', [call, 'latest']));
                const [p] = PENDING_VIEW.decodeFunctionResult('pendingWithdrawal', view);
                out.push({
                    ...base,
                    kind: 'Created',
                    withdrawalId: lower(a.withdrawalId),
                    recipient,
                    pendingId,
                    token: lower(a.token),
                    amount: BigInt(a.amount),
                    approveStatus: Number(a.approveStatus),
                    bounty: BigInt(p.bounty),
                });
                break;
            }
            case 'PendingWithdrawalBounty':
                out.push({
                    ...base,
                    kind: 'Bounty',
                    recipient: lower(a.recipient),
                    pendingId: BigInt(a.id),
                    bounty: BigInt(a.bounty),
                });
                break;
            case 'PendingWithdrawalApprove':
                out.push({
                    ...base,
                    kind: 'Approve',
                    recipient: lower(a.recipient),
                    pendingId: BigInt(a.id),
                    approveStatus: Number(a.approveStatus),
                });
                break;
            case 'PendingWithdrawalPaid':
                out.push({
                    ...base,
                    kind: 'Paid',
                    recipient: lower(a.recipient),
                    pendingId: BigInt(a.id),
                    amount: BigInt(a.amount),
                    filler: lower(a.filler),
                    bounty: BigInt(a.bounty),
                });
                break;
            case 'PendingWithdrawalCancel':
                out.push({
                    ...base,
                    kind: 'Cancel',
                    recipient: lower(a.recipient),
                    pendingId: BigInt(a.id),
                    amount: BigInt(a.amount),
                });
                break;
        }
    }
    return out;
}
