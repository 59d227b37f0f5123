/**
 * TVM to EVM transfers as the TVM indexer reads them (contracts/bridge/tvm_evm.tlb): a proxy
 * transaction emitting TvmEvmNative (a lock in the native proxy) or TvmEvmAlien (a burn of an EVM
 * alien token in the alien proxy) as an external outbound message is a transfer; its hash is the
 * Transfer ID and, with the proxy's workchain, the MultiVault's withdrawal id, so the EVM indexer's
 * withdrawal rows (service/storage/withdrawals.ts) join it by link key `wd:<withdrawal id>`.
 */
import { Address, Transaction, TupleItem, beginCell } from '@ton/core';
import { TonClient } from '@ton/ton';
import { decodeTvmEvmEvent, isTvmEvmEvent } from '../../lib/tvmEvmEvents';
import { externalOutMessages } from '../../lib/transferId';
import { runGetMethodV2 } from '../../lib/toncenterV2';
import { WithdrawalKind, withdrawalId } from '../../wrappers/evm/withdrawals';
import { DECIMALS_UNKNOWN, TransferRow } from '../storage/store';
import { withdrawalLinkKey } from '../storage/withdrawals';

const INT32_MAX = 2 ** 31 - 1;

/**
 * The TVM to EVM transfers of one transaction of `proxy` (pure). An alien burn's token is the alien
 * minter that sent the burn (the TVM token), its decimals DECIMALS_UNKNOWN until read from the alien
 * proxy. An event to an EVM chain id that does not fit the storage's integer (the proxies emit only
 * chains their owner listed) is left out.
 */
export function tvmEvmTransfersOf(tx: Transaction, proxy: Address, chainId: number): TransferRow[] {
    const d = tx.description;
    if (d.type !== 'generic' || d.aborted) return [];
    if (d.computePhase.type !== 'vm' || !d.computePhase.success) return [];
    // the cheap test first (the parsed messages): most proxy transactions emit none
    if (![...tx.outMessages.values()].some((m) => m.info.type === 'external-out' && isTvmEvmEvent(m.body))) return [];
    const out: TransferRow[] = [];
    for (const m of externalOutMessages(tx)) {
        const info = m.message.info;
        if (info.type !== 'external-out' || !info.src.equals(proxy) || !isTvmEvmEvent(m.message.body)) continue;
        let e: ReturnType<typeof decodeTvmEvmEvent>;
        try {
            e = decodeTvmEvmEvent(m.message.body);
        } catch {
            continue;
        }
        if (e.evmChainId > BigInt(INT32_MAX)) continue;
        const native = e.kind === WithdrawalKind.Native;
        const meta = native ? (e.token as { root: Address; symbol: string; decimals: number }) : undefined;
        const src = tx.inMessage?.info.type === 'internal' ? tx.inMessage.info.src : undefined;
        if (!native && !src) continue;
        const transferId = tx.hash().toString('hex');
        const id = withdrawalId(proxy.workChain, BigInt('0x' + transferId));
        out.push({
            transferId,
            kind: 'TvmToEvm',
            createdAt: tx.now,
            fromChainId: chainId,
            toChainId: Number(e.evmChainId),
            tokenType: native ? 'Native' : 'Alien',
            sender: e.sender.toRawString(),
            recipient: e.recipient.toLowerCase(),
            token: native ? meta!.root.toRawString() : src!.toRawString(),
            proxy: proxy.toRawString(),
            amount: e.amount.toString(),
            decimals: native ? meta!.decimals : DECIMALS_UNKNOWN,
            symbol: native ? meta!.symbol : '',
            messageHash: m.cell.hash().toString('hex'),
            linkKey: withdrawalLinkKey(id),
            expectedGas: '0',
            sourceLt: tx.lt.toString(),
            outMsgIndex: m.index,
            proofPayload: null,
        });
    }
    return out;
}

/**
 * The decimals and symbol of an EVM alien token on TVM, from the alien proxy's `evm_alien_token`
 * (its record of the token: base chain, base token, name, symbol, decimals). Cached by the caller.
 */
export async function tvmEvmAlienMeta(
    client: TonClient,
    alienProxy: Address,
    minter: Address,
): Promise<{ decimals: number; symbol: string } | null> {
    const arg: TupleItem = { type: 'slice', cell: beginCell().storeAddress(minter).endCell() };
    const r = await runGetMethodV2(client, alienProxy, 'evm_alien_token', [arg]);
    const t = r.readTupleOpt();
    if (!t) return null;
    t.readBigNumber(); // base chain id
    t.readBigNumber(); // base token
    t.readString(); // name
    const symbol = t.readString();
    const decimals = t.readNumber();
    return { decimals, symbol };
}
