/**
 * Amounts as the API writes them: nano-units as integer strings, `volumeExec` as a human-readable
 * decimal (amount / 10^decimals, no trailing zeros), `volumeUsdtExec` from a price table. A token
 * whose decimals the indexers could not learn (DECIMALS_UNKNOWN) has no volume: "0", the
 * specification's default for a number that is not available (nullable fields: null), never the
 * amount in another scale.
 */
import { DECIMALS_UNKNOWN } from '../storage/store';

/** amount / 10^decimals as a decimal string: "1.5", "0.000000001", "0"; "0" when the decimals are unknown. */
export function formatUnits(amount: bigint | string, decimals: number): string {
    if (decimals === DECIMALS_UNKNOWN) return '0';
    let a = BigInt(amount);
    const neg = a < 0n;
    if (neg) a = -a;
    const s = a.toString().padStart(decimals + 1, '0');
    const int = s.slice(0, s.length - decimals) || '0';
    const frac = decimals > 0 ? s.slice(s.length - decimals).replace(/0+$/, '') : '';
    return (neg ? '-' : '') + int + (frac ? '.' + frac : '');
}

/** A price table: token address (raw TVM or lowercase EVM) -> price of one whole token, a decimal string. */
export type PriceTable = Record<string, string>;

/** volume * price, as a decimal string ("0" where no price or no decimals are known). */
export function usdtVolume(amount: bigint | string, decimals: number, price: string | undefined): string {
    if (decimals === DECIMALS_UNKNOWN || !price || !/^\d+(\.\d+)?$/.test(price)) return '0';
    const [i, f = ''] = price.split('.');
    const scaled = BigInt(i + f);
    return formatUnits(BigInt(amount) * scaled, decimals + f.length);
}

/** A nullable fee field (`incoming.feeVolumeExec`): null while the fee or the token's decimals are unknown. */
export function feeVolume(fee: bigint | undefined, decimals: number): string | null {
    return fee === undefined || decimals === DECIMALS_UNKNOWN ? null : formatUnits(fee, decimals);
}

/** Parses a price table (JSON object of decimal strings); throws naming the bad entry. */
export function parsePriceTable(json: string): PriceTable {
    const o = JSON.parse(json) as Record<string, unknown>;
    const out: PriceTable = {};
    for (const [k, v] of Object.entries(o)) {
        const s = typeof v === 'number' ? String(v) : v;
        if (typeof s !== 'string' || !/^\d+(\.\d+)?$/.test(s))
            throw new Error(`price of ${k}: a decimal string is expected`);
        out[k.startsWith('0x') ? k.toLowerCase() : k] = s;
    }
    return out;
}

/** The fields a transfer's TVM side (`outgoing` of tvmTvm and tvmEvm records) is answered with. */
export interface TvmOutgoingView {
    tokenType: string;
    fromChainId: number;
    sender: string;
    token: string;
    proxy: string;
    amount: string;
    decimals: number;
    messageHash: string;
    transferId: string;
}

/** The `outgoing` part of a TVM to TVM or TVM to EVM record: `fee` (when known) in the token's units. */
export function tvmOutgoing(v: TvmOutgoingView, fee: bigint | undefined, prices: PriceTable) {
    return {
        tokenType: v.tokenType,
        chainId: v.fromChainId,
        userAddress: v.sender,
        tokenAddress: v.token,
        proxyAddress: v.proxy,
        volumeExec: formatUnits(v.amount, v.decimals),
        volumeUsdtExec: usdtVolume(v.amount, v.decimals, prices[v.token]),
        feeVolumeExec: fee !== undefined ? formatUnits(fee, v.decimals) : '0',
        messageHash: v.messageHash,
        transactionHash: v.transferId,
    };
}
