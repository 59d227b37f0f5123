/**
 * TVM to EVM transfers in the API (`transfer.tvmEvm`; the specification shows no record for them,
 * service/README.md "TVM to EVM transfers" documents this one): the TVM to TVM record's fields, the
 * incoming side being the MultiVault's withdrawal, with `incoming.messageHash` (EVM has no
 * messages) replaced by `incoming.withdrawalId`; `notInstantTransfer` describes a pending
 * withdrawal; `details` carries the withdrawal, the next actions and who may take them, and the
 * timeline on both networks.
 */
import { TransferView } from '../storage/store';
import { APPROVE_STATUS_NAMES, WithdrawalRow } from '../storage/withdrawals';
import { feeVolume, formatUnits, PriceTable, tvmOutgoing, usdtVolume } from './format';
import type { NextAction, TimelineStep } from './details';

/** The MultiVault's withdrawal id of a TVM to EVM transfer (its link key is `wd:<id>`). */
export const withdrawalIdOf = (v: TransferView) => v.linkKey.slice(3);

/** The withdrawal fee, once the withdrawal is saved on EVM (gross amount less what the vault owes). */
function feeOf(v: TransferView): bigint | undefined {
    const w = v.withdrawal;
    return w ? BigInt(v.amount) - BigInt(w.netAmount) : undefined;
}

export function tvmEvmRecord(v: TransferView, prices: PriceTable) {
    const w = v.withdrawal;
    const paid = v.status === 'Completed' && !!w;
    const fee = feeOf(v);
    return {
        transferStatus: v.status,
        timestampCreatedAt: v.createdAt,
        outgoing: tvmOutgoing(v, fee, prices),
        incoming: {
            // a lock (Native) is minted on EVM as the token's representation, a burn (Alien) pays the EVM token
            tokenType: v.tokenType === 'Native' ? 'Alien' : 'Native',
            chainId: v.toChainId,
            userAddress: v.recipient,
            tokenAddress: paid ? w!.token : '',
            proxyAddress: paid ? w!.vault : '',
            volumeExec: paid ? formatUnits(w!.paidAmount, v.decimals) : '0',
            volumeUsdtExec: paid ? usdtVolume(w!.paidAmount, v.decimals, prices[w!.token] ?? prices[v.token]) : '0',
            feeVolumeExec: feeVolume(fee, v.decimals),
            withdrawalId: withdrawalIdOf(v),
            transactionHash: paid ? w!.paidTx : null,
        },
    };
}

/**
 * `notInstantTransfer` of a TVM to EVM transfer whose withdrawal went pending (over a limit, or short
 * of liquidity): the vault's PendingWithdrawalId (what forceWithdraw, a filling deposit and the
 * approval take), the token, what is still owed and the bounty, the approval status. Null otherwise.
 */
export function tvmEvmNotInstant(v: TransferView) {
    const w = v.withdrawal;
    if (!w || w.pendingId === null) return null;
    return {
        pendingWithdrawalId: { recipient: w.recipient, id: w.pendingId },
        tokenAddress: w.token,
        amount: w.owed,
        bounty: w.bounty,
        approveStatus: APPROVE_STATUS_NAMES[w.approveStatus ?? 0],
    };
}

const waitingForLiquidity = (w: WithdrawalRow) =>
    w.state === 'Pending' && (w.approveStatus === 0 || w.approveStatus === 2);

export function tvmEvmNextActions(v: TransferView): NextAction[] {
    const w = v.withdrawal;
    if (!w) {
        // the relays serve their signatures by Transfer ID (service/operators/README.md, "TVM to EVM relays")
        const method = v.tokenType === 'Native' ? 'saveWithdrawNative' : 'saveWithdrawAlien';
        return [
            {
                action: method,
                caller: 'anyone (the recipient, or an executor)',
                note:
                    'once the source block is sealed the relays sign the withdrawal (details.withdrawal.signatureUrls); ' +
                    'send it to the MultiVault with the signatures of keys*2/3+1 relays of the round' +
                    (v.tokenType === 'Alien'
                        ? ' (the recipient sending it may name a bounty, kept if the vault is short of liquidity)'
                        : ''),
            },
        ];
    }
    if (w.state === 'Pending' && w.approveStatus === 1)
        return [
            {
                action: 'wait for the withdraw guardian',
                caller: 'withdrawGuardian',
                note: "over the token's withdrawal limit: the withdraw guardian approves or rejects it (setPendingWithdrawalApprove)",
            },
        ];
    if (waitingForLiquidity(w))
        return [
            {
                action: 'setPendingWithdrawalBounty',
                caller: 'recipient',
                note: 'a reward, at most the amount, for whoever fills the withdrawal with a deposit',
            },
            {
                action: 'fill',
                caller: 'anyone depositing the token',
                note: 'deposit(d, expectedMinBounty, [notInstantTransfer.pendingWithdrawalId]) pays the recipient the amount less the bounty; the bounty goes to TVM with the deposit',
            },
            {
                action: 'forceWithdraw',
                caller: 'anyone',
                note: 'once the vault holds the tokens: forceWithdraw([notInstantTransfer.pendingWithdrawalId])',
            },
            {
                action: 'cancelPendingWithdrawal',
                caller: 'recipient',
                note: 'sends the amount back to TVM as an EVM to TVM transfer (no deposit fee); what is left stays pending',
            },
        ];
    return [];
}

export function tvmEvmTimeline(v: TransferView): TimelineStep[] {
    const out: TimelineStep[] = [{ at: v.createdAt, chainId: v.fromChainId, step: 'Sent', transaction: v.transferId }];
    const w = v.withdrawal;
    if (!w) return out;
    const at = (step: string, when: number | null, transaction: string | null) =>
        out.push({ at: when, chainId: w.chainId, step, transaction });
    if (w.paidBy === 'Withdrawal') at('Withdrawn', w.savedAt, w.savedTx);
    else at('Withdrawal pending', w.savedAt, w.savedTx);
    if (w.approveTx) at(`Withdrawal ${APPROVE_STATUS_NAMES[w.approveStatus ?? 0]}`, w.approvedAt, w.approveTx);
    if (w.cancelTx)
        at(
            w.state === 'Cancelled' ? 'Cancelled back to TVM' : 'Partly cancelled back to TVM',
            w.cancelledAt,
            w.cancelTx,
        );
    if (w.paidTx && w.paidBy !== 'Withdrawal') at(`Paid (${w.paidBy})`, w.paidAt, w.paidTx);
    return out;
}

/**
 * (extension) `details` of a TVM to EVM transfer: no Event contract; the withdrawal instead, with
 * where each relay of `relayEndpoints` serves its signature of it.
 */
export function tvmEvmDetails(v: TransferView, relayEndpoints: string[] = []) {
    const w = v.withdrawal;
    return {
        timeline: tvmEvmTimeline(v),
        eventContract: null,
        eventStatus: null,
        eventStatusCode: null,
        lastErrorCode: 0,
        nextActions: tvmEvmNextActions(v),
        withdrawal: {
            withdrawalId: withdrawalIdOf(v),
            state: w ? w.state : 'NotSaved',
            approveStatus: w && w.approveStatus !== null ? APPROVE_STATUS_NAMES[w.approveStatus] : null,
            pendingId: w?.pendingId ?? null,
            owed: w?.owed ?? '0',
            bounty: w?.bounty ?? '0',
            paidAmount: w?.paidAmount ?? '0',
            paidBy: w?.paidBy ?? null,
            filler: w?.filler ?? null,
            cancelledAmount: w?.cancelledAmount ?? '0',
            returnTransfer: w?.cancelTx ?? null,
            signatureUrls: relayEndpoints.map((u) => `${u.replace(/\/+$/, '')}/v1/withdrawals/${v.transferId}`),
        },
    };
}
