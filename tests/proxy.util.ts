import fs from 'fs';
import path from 'path';
import { Blockchain, internal, loadConfig, SendMessageResult, updateConfig } from '@ton/sandbox';
import { Address, beginCell, Cell, toNano, Transaction } from '@ton/core';
import { flattenTransaction } from '@ton/test-utils';
import '@ton/test-utils';
import { loadJettonTransferInternal } from '../wrappers/JettonWallet';
import { parseRefundPayload } from '../wrappers/ProxyMultiVaultNative';
import { Errors, Op, OpEvent } from '../wrappers/constants';

/** Helpers of tests/proxy*.spec.ts and tests/bench/proxy.bench.spec.ts. */

/** The integer constants (`const NAME: Int = digits;`) of contracts/`file`, read from the source. */
export function tactConstants(file: string): Record<string, number> {
    const src = fs.readFileSync(path.resolve(__dirname, '..', 'contracts', file), 'utf8');
    const out: Record<string, number> = {};
    for (const m of src.matchAll(/^const (\w+): Int = (\d+);/gm)) out[m[1]] = Number(m[2]);
    return out;
}

/** Gas constants of contracts/bridge/proxy_common.tact, read from the source. */
export function proxyGasConstants(): Record<string, number> {
    return Object.fromEntries(
        Object.entries(tactConstants('bridge/proxy_common.tact')).filter(([k]) => k.startsWith('GAS_')),
    );
}

/**
 * Pins gas constant `name` (of `G`, read from proxy_common.tact) to what a test measured: the
 * constant must cover it by at most 15% (DBG=1 prints the measurement).
 */
export function pinGas(G: Record<string, number>, name: string, measured: number) {
    expect(G[name]).toEqual(expect.any(Number));
    if (process.env.DBG) console.log(`gas ${name} measured ${measured}`);
    if (!(measured <= G[name] && G[name] <= Math.ceil(measured * 1.15))) {
        throw new Error(
            `${name} = ${G[name]} in proxy_common.tact, measured ${measured}: set it to about ${Math.ceil(measured * 1.05)}`,
        );
    }
}

/** A payload of 2000 bits in two cells (the gas tests' worst case). */
export const longPayload = () => beginCell().storeUint(1, 1000).storeRef(beginCell().storeUint(2, 1000)).endCell();

export function gasUsed(tx: Transaction): number {
    if (tx.description.type !== 'generic' || tx.description.computePhase.type !== 'vm')
        throw new Error('no compute phase');
    return Number(tx.description.computePhase.gasUsed);
}

export function exitCode(tx: Transaction): number {
    if (tx.description.type !== 'generic' || tx.description.computePhase.type !== 'vm') return -1;
    return tx.description.computePhase.exitCode;
}

/** The one transaction on `to` (optionally with op `op`) in `txs`. */
export function txOf(txs: Transaction[], to: Address, op?: number): Transaction {
    const found = txs.filter((tx) => {
        const f = flattenTransaction(tx);
        return f.to?.equals(to) && (op === undefined || f.op === op);
    });
    if (found.length !== 1)
        throw new Error(`expected one transaction to ${to} (op ${op?.toString(16)}), found ${found.length}`);
    return found[0];
}

/**
 * No transaction in `txs` failed (compute or action phase). A skipped compute phase (a 1-nanoton
 * transfer_notification to a wallet contract) is not a failure.
 */
export function allSucceeded(txs: Transaction[]): boolean {
    return txs.every((tx) => {
        const d = tx.description;
        if (d.type !== 'generic') return true;
        if (d.computePhase.type === 'skipped') return true;
        if (d.aborted) return false;
        if (d.computePhase.type === 'vm' && !d.computePhase.success) return false;
        if (d.actionPhase && !d.actionPhase.success) return false;
        return true;
    });
}

/** The error code of the refund that internal_transfer to `wallet` carries (proxy.tlb, proxy_refund). */
export function refundCodeTo(txs: Transaction[], wallet: Address): number | null {
    const tx = txOf(txs, wallet, Op.jetton.internalTransfer);
    const msg = loadJettonTransferInternal(tx.inMessage!.body.beginParse());
    return parseRefundPayload(msg.forwardPayload)?.errorCode ?? null;
}

/**
 * The error code of the delivery failure `from` sent (tvm_event_delivery_failed to the Event, or
 * native_delivery_failed to the alien proxy: event.tlb, proxy.tlb), or null when it sent none.
 */
export function deliveryFailedCode(txs: Transaction[], from: Address): number | null {
    for (const tx of txs) {
        const m = tx.inMessage;
        if (!m || m.info.type !== 'internal' || !m.info.src.equals(from)) continue;
        const s = m.body.beginParse();
        if (s.remainingBits < 32) continue;
        const op = s.loadUint(32);
        if (op === OpEvent.tvmEventDeliveryFailed) {
            s.loadUintBig(64);
            s.loadAddress();
            return s.loadUint(16);
        }
        if (op === OpEvent.nativeDeliveryFailed) {
            s.loadAddress();
            s.loadUintBig(64);
            s.loadAddress();
            return s.loadUint(16);
        }
    }
    return null;
}

/**
 * A refused on_tvm_event_confirmed_extended: from an unauthorized sender, or of an event kind the
 * sender may not send (notTvmConfig), thrown and bounced; from a legitimate one not thrown, the Event (here `config`, playing it) told the code.
 */
export function expectDeliveryRefused(txs: Transaction[], proxy: Address, config: Address, code: number) {
    if (code === Errors.proxy.notTvmConfig) {
        expect(txs).toHaveTransaction({ to: proxy, success: false, exitCode: code });
    } else {
        expect(txs).toHaveTransaction({ to: proxy, success: true });
        expect(txs).toHaveTransaction({ from: proxy, to: config, op: OpEvent.tvmEventDeliveryFailed });
        expect(deliveryFailedCode(txs, proxy)).toBe(code);
    }
}

/** `target` took the message (compute phase succeeded) and sent no delivery failure. */
export function deliveredBy(target: Address) {
    return (txs: Transaction[]) => {
        const first = txs.find((tx) => flattenTransaction(tx).to?.equals(target));
        return (
            !!first &&
            exitCode(first) === 0 &&
            !(first.description.type === 'generic' && first.description.aborted) &&
            deliveryFailedCode(txs, target) === null
        );
    };
}

/** Multiplies the basechain gas price in the sandbox's config (contracts read fees from it). */
export function scaleGasPrice(blockchain: Blockchain, factor: bigint) {
    const p = loadConfig(blockchain.config)[21].anon0;
    if (p.kind !== 'GasLimitsPrices_gas_flat_pfx' || p.other.kind !== 'GasLimitsPrices_gas_prices_ext')
        throw new Error('unexpected config 21');
    const scaled = {
        ...p,
        flat_gas_price: p.flat_gas_price * factor,
        other: { ...p.other, gas_price: p.other.gas_price * factor },
    };
    blockchain.setConfig(updateConfig(blockchain.config, { kind: 'ConfigParam_config_gas_prices', anon0: scaled }));
}

/**
 * Smallest value (to 1,000 nanoton) for which `send` is accepted by `target` (its compute phase
 * succeeds), and the code just below it (the delivery failure's error code, else the exit code).
 */
export async function smallestAccepted(
    blockchain: Blockchain,
    send: (value: bigint) => Promise<SendMessageResult>,
    target: Address,
    accepted: (txs: Transaction[]) => boolean = (txs) => {
        const first = txs.find((tx) => flattenTransaction(tx).to?.equals(target));
        return !!first && exitCode(first) === 0 && !(first.description.type === 'generic' && first.description.aborted);
    },
    hi0 = 10n ** 9n,
): Promise<{ value: bigint; refusal: number | null }> {
    let lo = 0n;
    let hi = hi0;
    let refusal: number | null = null;
    while (hi - lo > 1000n) {
        const mid = (lo + hi) / 2n;
        const snap = blockchain.snapshot();
        const res = await send(mid);
        await blockchain.loadFrom(snap);
        if (accepted(res.transactions)) hi = mid;
        else {
            lo = mid;
            const t = res.transactions.find((tx) => flattenTransaction(tx).to?.equals(target));
            refusal = deliveryFailedCode(res.transactions, target) ?? (t ? exitCode(t) : null);
        }
    }
    return { value: hi, refusal };
}

export const ZERO_ADDRESS = new Address(0, Buffer.alloc(32));
export const EMPTY = Cell.EMPTY;

/**
 * The alien proxy's mint to `minter` in `r` (the first one): its query_id (the in-flight key of a
 * kept mint, merge.tlb 5), whether it went out bounceable, and its receiver.
 */
export function mintSent(r: SendMessageResult, proxy: Address, minter: Address) {
    const t = r.transactions.find(
        (x) =>
            x.inMessage?.info.type === 'internal' &&
            x.inMessage.info.src.equals(proxy) &&
            x.inMessage.info.dest.equals(minter) &&
            x.inMessage.body.beginParse().preloadUint(32) === Op.jetton.mint,
    );
    if (!t) throw new Error(`no mint from ${proxy} to ${minter}`);
    const body = t.inMessage!.body.beginParse().skip(32);
    const key = body.loadUintBig(64);
    return { key, bounce: (t.inMessage!.info as { bounce: boolean }).bounce, receiver: body.loadAddress() };
}

/** The proxy's transaction of `minter`'s bounce (a refused mint) in `r`, or undefined. */
export function mintBounceTx<T extends Transaction>(r: { transactions: T[] }, proxy: Address, minter: Address) {
    return r.transactions.find(
        (x) =>
            x.inMessage?.info.type === 'internal' &&
            x.inMessage.info.bounced &&
            x.inMessage.info.src.equals(minter) &&
            x.inMessage.info.dest.equals(proxy),
    );
}

/** The bounce a minter sends back for the proxy's mint `key` (a mint refused: its supply at 2^120), played. */
export function mintBounce(minter: Address, proxy: Address, key: bigint, value = toNano('0.1')) {
    return internal({
        from: minter,
        to: proxy,
        value,
        bounced: true,
        body: beginCell().storeUint(0xffffffff, 32).storeUint(Op.jetton.mint, 32).storeUint(key, 64).endCell(),
    });
}
