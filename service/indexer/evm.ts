/**
 * The indexer of the EVM network: the MultiVault's AlienTransfer / NativeTransfer logs through
 * JSON-RPC (eth_getLogs, eth_getTransactionReceipt, eth_getBlockByNumber), a transfer per log (its
 * Transfer ID is the deposit transaction's hash), and its withdrawal logs, the EVM side of TVM to
 * EVM transfers (./evmWithdrawals.ts). Block ranges are the batches: the transfers and withdrawals
 * of a range and the cursor after it (the last block read) are committed in one transaction.
 */
import { Interface } from 'ethers';
import { findDepositEvents } from '../../wrappers/evm/depositEvents';
import { Deployment } from '../../lib/deploy/deployment';
import { multiVaultInterface } from '../../lib/deploy/tvm';
import { Db } from '../storage/db';
import { getCursor, insertTransfers, relaxedCommit, setCursor, TransferRow } from '../storage/store';
import { Logger } from '../log';
import { PollLoop } from './pollLoop';
import { RpcLog, withdrawalStepsIn } from './evmWithdrawals';
import { applyWithdrawalSteps } from '../storage/withdrawals';
import { noteWrites } from '../storage/vacuum';

export interface EvmIndexerOptions {
    deployment: Deployment;
    db: Db;
    /** JSON-RPC endpoint (default: the deployment's) */
    endpoint?: string;
    /** blocks per committed batch (default 500) */
    blocksPerBatch?: number;
    /** blocks a log needs on top before it is indexed (default: the deployment's blocksToConfirm) */
    confirmations?: number;
    log?: Logger;
    afterCommit?: (block: number, rows: number) => void;
}

export class EvmIndexer {
    readonly chainId: number;
    readonly tvmChainId: number;
    private vault: string;
    private endpoint: string;
    private iface: Interface;
    private readonly poller = new PollLoop(
        () => this.pollOnce(),
        (e) => this.log('indexer.error', { network: this.chainId, error: e.message }),
    );
    private log: Logger;
    private decimals = new Map<string, number>();
    private id = 0;

    constructor(private o: EvmIndexerOptions) {
        const evm = o.deployment.evm;
        if (!evm?.multiVault) throw new Error(`deployment ${o.deployment.name}: no evm.multiVault`);
        this.chainId = evm.chainId;
        this.tvmChainId = o.deployment.tvm[evm.tvm].globalId;
        this.vault = evm.multiVault.toLowerCase();
        if (!o.endpoint && !evm.endpoint) throw new Error('deployment: evm.endpoint is not set');
        this.endpoint = o.endpoint ?? evm.endpoint!;
        this.iface = multiVaultInterface();
        this.log = o.log ?? (() => undefined);
    }

    get cursorName() {
        return `evm:${this.chainId}:${this.vault}`;
    }

    private async rpc<T>(method: string, params: unknown[]): Promise<T> {
        const r = await fetch(this.endpoint, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ jsonrpc: '2.0', id: ++this.id, method, params }),
        });
        const body = (await r.json()) as { result?: T; error?: { message: string } };
        if (body.error) throw new Error(`${method}: ${body.error.message}`);
        return body.result as T;
    }

    /**
     * The decimals of a representation token (cached). The vault deployed it with decimals(): an
     * endpoint that does not answer fails the pass, which reads the blocks again (never a guess).
     */
    private async tokenDecimals(token: string): Promise<number> {
        const known = this.decimals.get(token);
        if (known !== undefined) return known;
        const out = await this.rpc<string>('eth_call', [{ to: token, data: '0x313ce567' }, 'latest']);
        const d = Number(BigInt(out));
        if (!(d <= 255)) throw new Error(`decimals() of ${token} answered ${out}`);
        this.decimals.set(token, d);
        return d;
    }

    private representations = new Map<string, string>();

    /** The representation token of the TVM-native token `wid:addr`: the vault's CREATE2 address (cached). */
    private async representationOf(wid: bigint, addr: bigint): Promise<string> {
        const key = `${wid}:${addr}`;
        let token = this.representations.get(key);
        if (token === undefined) {
            const data = this.iface.encodeFunctionData('predictNativeTokenAddress', [wid, addr]);
            const out = await this.rpc<string>('eth_call', [{ to: this.vault, data }, 'latest']);
            token = String(this.iface.decodeFunctionResult('predictNativeTokenAddress', out)[0]).toLowerCase();
            this.representations.set(key, token);
        }
        return token;
    }

    private times = new Map<string, number>();

    /** A block's time (unix seconds), cached for the last blocks asked. */
    private async blockTime(blockNumber: string): Promise<number> {
        const key = '0x' + BigInt(blockNumber).toString(16);
        let t = this.times.get(key);
        if (t === undefined) {
            const block = await this.rpc<{ timestamp: string }>('eth_getBlockByNumber', [key, false]);
            t = Number(BigInt(block.timestamp));
            if (this.times.size > 1000) this.times.clear();
            this.times.set(key, t);
        }
        return t;
    }

    /** Transfers of the logs in blocks [from, to]. */
    async transfersIn(from: number, to: number): Promise<TransferRow[]> {
        const topics = [
            [this.iface.getEvent('AlienTransfer')!.topicHash, this.iface.getEvent('NativeTransfer')!.topicHash],
        ];
        const logs = await this.rpc<RpcLog[]>('eth_getLogs', [
            { address: this.vault, fromBlock: '0x' + from.toString(16), toBlock: '0x' + to.toString(16), topics },
        ]);
        const byTx = new Map<string, RpcLog[]>();
        for (const l of logs) byTx.set(l.transactionHash, [...(byTx.get(l.transactionHash) ?? []), l]);
        const out: TransferRow[] = [];
        for (const [hash] of byTx) {
            const receipt = await this.rpc<{
                from: string;
                blockNumber: string;
                blockHash: string;
                status: string;
                logs: RpcLog[];
            }>('eth_getTransactionReceipt', [hash]);
            if (!receipt || receipt.status !== '0x1') continue;
            const time = await this.blockTime(receipt.blockNumber);
            const deposits = findDepositEvents(
                {
                    hash,
                    blockNumber: Number(BigInt(receipt.blockNumber)),
                    blockHash: receipt.blockHash,
                    logs: receipt.logs.map((l) => ({ ...l, index: Number(BigInt(l.logIndex)) })),
                },
                this.iface,
                { vault: this.vault },
            );
            for (const d of deposits) {
                const f = d.fields;
                const recipient = `${f.recipient_wid}:${f.recipient_addr.toString(16).padStart(64, '0')}`;
                let token: string;
                let decimals: number;
                let symbol = '';
                if (d.name === 'AlienTransfer') {
                    const a = d.fields as typeof d.fields & { base_token: bigint; decimals: number; symbol: string };
                    token = '0x' + a.base_token.toString(16).padStart(40, '0');
                    decimals = a.decimals;
                    symbol = a.symbol;
                } else {
                    // the representation NativeTransfer burned, named by the event (not by the receipt's
                    // first ERC-20 Transfer log: a router may move other tokens first in the same transaction)
                    const n = d.fields as typeof d.fields & { native_wid: bigint; native_addr: bigint };
                    token = await this.representationOf(BigInt(n.native_wid), BigInt(n.native_addr));
                    decimals = await this.tokenDecimals(token);
                }
                const txHash = hash.toLowerCase();
                out.push({
                    transferId: txHash,
                    kind: 'EvmToTvm',
                    createdAt: time,
                    fromChainId: this.chainId,
                    toChainId: this.tvmChainId,
                    tokenType: d.name === 'AlienTransfer' ? 'Alien' : 'Native',
                    sender: receipt.from.toLowerCase(),
                    recipient,
                    token,
                    proxy: '',
                    amount: f.amount.toString(),
                    decimals,
                    symbol,
                    messageHash: '',
                    linkKey: `evm:${txHash.slice(2)}:${d.logIndex}`,
                    expectedGas: f.expected_gas.toString(),
                    sourceLt: String(d.blockNumber),
                    outMsgIndex: d.logIndex,
                    proofPayload: null,
                });
            }
        }
        return out;
    }

    async pollOnce(): Promise<number> {
        const head = Number(BigInt(await this.rpc<string>('eth_blockNumber', [])));
        const safe = head - (this.o.confirmations ?? this.o.deployment.evm!.blocksToConfirm ?? 0);
        const cursor = await getCursor(this.o.db, this.cursorName);
        let next = cursor === undefined ? (this.o.deployment.evm!.startBlockNumber ?? 0) : Number(cursor) + 1;
        const step = this.o.blocksPerBatch ?? 500;
        let handled = 0;
        while (next <= safe) {
            const to = Math.min(safe, next + step - 1);
            const rows = await this.transfersIn(next, to);
            const steps = await withdrawalStepsIn(
                {
                    rpc: (m, p) => this.rpc(m, p),
                    iface: this.iface,
                    vault: this.vault,
                    chainId: this.chainId,
                    blockTime: (b) => this.blockTime(b),
                },
                next,
                to,
            );
            let inserted = 0;
            let withdrawals = 0;
            await this.o.db.transaction(async (q) => {
                await relaxedCommit(q);
                inserted = await insertTransfers(q, rows);
                const r = await applyWithdrawalSteps(q, steps);
                withdrawals = r.applied;
                for (const u of r.unknown)
                    this.log('indexer.withdrawal_unknown', { network: this.chainId, tx: u.tx, step: u.kind });
                await setCursor(q, this.cursorName, String(to));
            });
            handled += rows.length + steps.length;
            this.log('indexer.batch', {
                network: this.chainId,
                from: next,
                to,
                transfers: rows.length,
                inserted,
                withdrawalLogs: steps.length,
                withdrawals,
            });
            this.o.afterCommit?.(to, inserted);
            await noteWrites(this.o.db, inserted + withdrawals);
            next = to + 1;
        }
        return handled;
    }

    start(intervalMs = 1000) {
        this.poller.start(intervalMs);
    }

    /** Stops after the pass under way (its transaction commits or rolls back whole). */
    stop() {
        return this.poller.stop();
    }
}
