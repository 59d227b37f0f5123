/**
 * TVM to EVM relays, what every party computes the same way (the simulator's relays, the relay
 * operator processes, a wallet completing a withdrawal): the events a relay takes from a sealed
 * proxy transaction, the withdrawal it signs for the Bridge's current round, the JSON a relay serves
 * its signature in (`GET /v1/withdrawals/<id>`, service/operators/README.md), a wallet's collection
 * of signatures from several relays (each one checked here, not trusted), and the
 * saveWithdrawNative / saveWithdrawAlien call.
 */
import { Address, Transaction } from '@ton/core';
import { Contract, ContractTransactionResponse, SigningKey, getAddress, isHexString } from 'ethers';
import { FoundTvmEvmEvent, tvmEvmEventsOf, withdrawalOf } from './tvmEvmEvents';
import {
    RelaySignature,
    Withdrawal,
    WithdrawalKind,
    packSignatures,
    recoverSigner,
    signDigest,
    withdrawalDigest,
} from '../wrappers/evm/withdrawals';

/** A withdrawal a relay signed: the event it comes from, the withdrawal, its digest, the signatures. */
export interface SignedWithdrawal {
    found: FoundTvmEvmEvent;
    withdrawal: Withdrawal;
    digest: string;
    signatures: RelaySignature[];
}

/** The TvmEvm events of `chainId` a (sealed) transaction of one of `proxies` emitted. */
export function tvmEvmEventsFor(tx: Transaction, proxies: Address[], chainId: bigint | number): FoundTvmEvmEvent[] {
    const out: FoundTvmEvmEvent[] = [];
    for (const proxy of proxies)
        for (const found of tvmEvmEventsOf(tx, proxy)) if (found.event.evmChainId === BigInt(chainId)) out.push(found);
    return out;
}

/** The withdrawal `found` names for `round`, its EIP-712 digest on (chainId, vault), signed by each key. */
export function signWithdrawal(
    found: FoundTvmEvmEvent,
    round: number,
    chainId: bigint | number,
    vault: string,
    keys: SigningKey[],
): SignedWithdrawal {
    const withdrawal = withdrawalOf(found, round);
    const digest = withdrawalDigest(chainId, vault, withdrawal);
    return { found, withdrawal, digest, signatures: keys.map((k) => signDigest(k, digest)) };
}

/** The Transfer ID of a TVM to EVM transfer: the proxy transaction's hash, 0x and 64 hex digits. */
export function tvmEvmTransferId(transactionHash: bigint): string {
    return '0x' + transactionHash.toString(16).padStart(64, '0');
}

/**
 * The sender's side: the withdrawal and `count` of its signatures (default all) sent to the
 * MultiVault by `vault` (a contract connected to the sender); `bounty` for an Alien withdrawal that
 * may become pending for lack of liquidity.
 */
export function sendWithdrawal(
    vault: Contract,
    s: { withdrawal: Withdrawal; signatures: RelaySignature[] },
    o: { count?: number; bounty?: bigint } = {},
): Promise<ContractTransactionResponse> {
    const sigs = packSignatures(s.signatures.slice(0, o.count ?? s.signatures.length));
    const { kind, ...w } = s.withdrawal;
    return kind === WithdrawalKind.Native
        ? vault.getFunction('saveWithdrawNative')(w, sigs)
        : vault.getFunction('saveWithdrawAlien')(w, sigs, o.bounty ?? 0n);
}

// ---------------------------------------------------------------- the relays' JSON

/** One relay's signature of one withdrawal, as `GET /v1/withdrawals/<id>` serves it. */
export interface WithdrawalSignatureJson {
    /** the Transfer ID: the proxy transaction's hash (= withdrawal.eventAddr), 0x + 64 hex */
    id: string;
    /** the proxy that emitted the event (raw 0:<hex>) and its transaction's lt */
    proxy: string;
    lt: string;
    kind: 'Native' | 'Alien';
    /** the EIP-712 domain: the EVM chain and the MultiVault */
    chainId: number;
    vault: string;
    /**
     * the MultiVault's NativeWithdrawal / AlienWithdrawal struct, field for field (integers as
     * decimal strings): pass it as the first argument of saveWithdrawNative / saveWithdrawAlien
     */
    withdrawal: Record<string, string | number>;
    /** the EIP-712 digest the relay signed */
    digest: string;
    /** the relay's signature: its EVM address, r, s, v, and the 65 bytes (r, s, v) the Bridge reads */
    signature: { signer: string; r: string; s: string; v: number; bytes: string };
    /** when this relay signed it (ISO time) */
    signedAt: string;
}

const NATIVE_FIELDS = ['tokenWid', 'tokenAddr', 'name', 'symbol', 'decimals'] as const;
const REF_FIELDS = ['round', 'eventWid', 'eventAddr', 'configurationWid', 'configurationAddr'] as const;
const TAIL_FIELDS = ['amount', 'recipient', 'callback', 'payload'] as const;

/** A withdrawal as JSON: its struct's fields, integers as decimal strings (uint8 / int8 / uint32 as numbers). */
export function withdrawalJson(w: Withdrawal): Record<string, string | number> {
    const out: Record<string, string | number> = {};
    const put = (k: string, v: unknown) => (out[k] = typeof v === 'bigint' ? v.toString() : (v as string | number));
    const r = w as unknown as Record<string, unknown>;
    for (const k of REF_FIELDS) put(k, r[k]);
    if (w.kind === WithdrawalKind.Native) for (const k of NATIVE_FIELDS) put(k, r[k]);
    else put('token', w.token);
    for (const k of TAIL_FIELDS) put(k, r[k]);
    return out;
}

/** Reads a withdrawal back from its JSON (throws naming the field that is wrong). */
export function withdrawalFromJson(kind: 'Native' | 'Alien', j: Record<string, unknown>): Withdrawal {
    const int = (k: string, min: bigint, max: bigint): bigint => {
        const v = j[k];
        if ((typeof v !== 'string' || !/^-?\d+$/.test(v)) && !(typeof v === 'number' && Number.isSafeInteger(v)))
            throw new Error(`withdrawal.${k}: an integer is expected`);
        const n = BigInt(v);
        if (n < min || n > max) throw new Error(`withdrawal.${k}: out of range`);
        return n;
    };
    const addr = (k: string): string => {
        const v = j[k];
        if (typeof v !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(v))
            throw new Error(`withdrawal.${k}: an EVM address is expected`);
        return getAddress(v);
    };
    const str = (k: string): string => {
        const v = j[k];
        if (typeof v !== 'string') throw new Error(`withdrawal.${k}: a string is expected`);
        return v;
    };
    const U256 = (1n << 256n) - 1n;
    const ref = {
        round: Number(int('round', 0n, 0xffffffffn)),
        eventWid: Number(int('eventWid', -128n, 127n)),
        eventAddr: int('eventAddr', 0n, U256),
        configurationWid: Number(int('configurationWid', -128n, 127n)),
        configurationAddr: int('configurationAddr', 0n, U256),
    };
    const payload = str('payload');
    if (!isHexString(payload)) throw new Error('withdrawal.payload: 0x-hex bytes are expected');
    const tail = {
        amount: int('amount', 0n, (1n << 128n) - 1n),
        recipient: addr('recipient'),
        callback: addr('callback'),
        payload,
    };
    if (kind === 'Native')
        return {
            kind: WithdrawalKind.Native,
            ...ref,
            tokenWid: Number(int('tokenWid', -128n, 127n)),
            tokenAddr: int('tokenAddr', 0n, U256),
            name: str('name'),
            symbol: str('symbol'),
            decimals: Number(int('decimals', 0n, 255n)),
            ...tail,
        };
    return { kind: WithdrawalKind.Alien, ...ref, token: addr('token'), ...tail };
}

/** What a relay serves for one signed withdrawal. */
export function withdrawalSignatureJson(
    s: SignedWithdrawal,
    o: { chainId: number; vault: string; signedAt: Date },
): WithdrawalSignatureJson {
    const sig = s.signatures[0];
    return {
        id: tvmEvmTransferId(s.found.transactionHash),
        proxy: s.found.proxy.toRawString(),
        lt: s.found.lt.toString(),
        kind: s.withdrawal.kind === WithdrawalKind.Native ? 'Native' : 'Alien',
        chainId: o.chainId,
        vault: getAddress(o.vault),
        withdrawal: withdrawalJson(s.withdrawal),
        digest: s.digest,
        signature: { ...sig, bytes: packSignatures([sig]) },
        signedAt: o.signedAt.toISOString(),
    };
}

export interface CollectedSignatures {
    withdrawal: Withdrawal;
    digest: string;
    /** valid signatures of distinct signers over `digest`, one per relay */
    signatures: RelaySignature[];
    /** relays that answered something else: unreachable, not signed yet, or a signature that does not check */
    failed: { url: string; reason: string }[];
}

/**
 * A wallet's side: asks each relay (`GET <url>/v1/withdrawals/<id>`) for its signature of the
 * withdrawal of Transfer ID `id`, and keeps what checks here: the digest recomputed from the
 * withdrawal for (chainId, vault), the signer recovered from the signature. Relays may disagree
 * (a relay that signed in another round): the digest most relays signed wins. With `isRelay` (the
 * Bridge's isRelay) a signer outside the withdrawal's round is left out too. The caller compares
 * the count with the round's requiredSignatures (Bridge.rounds(round)) before sending.
 */
export async function collectSignatures(
    urls: string[],
    id: string,
    o: {
        chainId: number | bigint;
        vault: string;
        timeoutMs?: number;
        isRelay?: (round: number, signer: string) => Promise<boolean>;
    },
): Promise<CollectedSignatures | null> {
    const failed: { url: string; reason: string }[] = [];
    type Group = { withdrawal: Withdrawal; signatures: Map<string, RelaySignature>; urls: string[] };
    const groups = new Map<string, Group>();
    await Promise.all(
        urls.map(async (url) => {
            const base = url.replace(/\/+$/, '');
            try {
                const r = await fetch(`${base}/v1/withdrawals/${id}`, {
                    signal: AbortSignal.timeout(o.timeoutMs ?? 5000),
                });
                const body = (await r.json()) as { ok: boolean; result?: WithdrawalSignatureJson; error?: string };
                if (!body.ok || !body.result) throw new Error(body.error ?? `HTTP ${r.status}`);
                const j = body.result;
                const withdrawal = withdrawalFromJson(j.kind, j.withdrawal);
                if (BigInt(j.id) !== withdrawal.eventAddr) throw new Error('the withdrawal names another event');
                const digest = withdrawalDigest(o.chainId, o.vault, withdrawal);
                const signer = recoverSigner(digest, j.signature);
                if (getAddress(signer) !== getAddress(j.signature.signer))
                    throw new Error(`the signature is not ${j.signature.signer}'s over the withdrawal`);
                if (o.isRelay && !(await o.isRelay(withdrawal.round, signer)))
                    throw new Error(`${signer} is not a relay of round ${withdrawal.round}`);
                let g = groups.get(digest);
                if (!g) groups.set(digest, (g = { withdrawal, signatures: new Map(), urls: [] }));
                g.urls.push(url);
                g.signatures.set(getAddress(signer), {
                    signer: getAddress(signer),
                    r: j.signature.r,
                    s: j.signature.s,
                    v: j.signature.v,
                });
            } catch (e) {
                failed.push({ url, reason: (e as Error).message });
            }
        }),
    );
    let best: [string, Group] | undefined;
    for (const g of groups) if (!best || g[1].signatures.size > best[1].signatures.size) best = g;
    if (!best) return null;
    for (const [digest, g] of groups)
        if (digest !== best[0])
            for (const url of g.urls)
                failed.push({ url, reason: `signed another digest (${digest}): another round or withdrawal` });
    return { withdrawal: best[1].withdrawal, digest: best[0], signatures: [...best[1].signatures.values()], failed };
}
