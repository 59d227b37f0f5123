/**
 * TVM -> EVM withdrawals as the MultiVault verifies them (evm/MultiVaultWithdrawals.sol): the EIP-712
 * domain and types, the digests, the withdrawal structs in ABI order, and the relays' signatures
 * packed as the Bridge takes them (65 bytes each: r, s, v; signers strictly ascending). What every
 * party computes the same way: the TVM Event (on chain), the relays (they sign the digest), the
 * user or any executor (they send saveWithdrawNative / saveWithdrawAlien).
 */
import {
    AbiCoder,
    computeAddress,
    concat,
    getAddress,
    keccak256,
    recoverAddress,
    SigningKey,
    toBeHex,
    TypedDataEncoder,
} from 'ethers';

export const WITHDRAWAL_DOMAIN_NAME = 'TVM Bridge MultiVault';
export const WITHDRAWAL_DOMAIN_VERSION = '1';

/** The MultiVault's KIND_NATIVE / KIND_ALIEN (setTvmConfiguration) and the TVM Event's kinds. */
export enum WithdrawalKind {
    Native = 1,
    Alien = 2,
}

/** IMultiVaultTypes.ApproveStatus */
export enum ApproveStatus {
    NotRequired = 0,
    Required = 1,
    Approved = 2,
    Rejected = 3,
}

export const WITHDRAWAL_TYPES = {
    TvmEvmNative: [
        { name: 'round', type: 'uint32' },
        { name: 'eventWid', type: 'int8' },
        { name: 'eventAddr', type: 'uint256' },
        { name: 'configurationWid', type: 'int8' },
        { name: 'configurationAddr', type: 'uint256' },
        { name: 'tokenWid', type: 'int8' },
        { name: 'tokenAddr', type: 'uint256' },
        { name: 'name', type: 'string' },
        { name: 'symbol', type: 'string' },
        { name: 'decimals', type: 'uint8' },
        { name: 'amount', type: 'uint128' },
        { name: 'recipient', type: 'address' },
        { name: 'callback', type: 'address' },
        { name: 'payload', type: 'bytes' },
    ],
    TvmEvmAlien: [
        { name: 'round', type: 'uint32' },
        { name: 'eventWid', type: 'int8' },
        { name: 'eventAddr', type: 'uint256' },
        { name: 'configurationWid', type: 'int8' },
        { name: 'configurationAddr', type: 'uint256' },
        { name: 'token', type: 'address' },
        { name: 'amount', type: 'uint128' },
        { name: 'recipient', type: 'address' },
        { name: 'callback', type: 'address' },
        { name: 'payload', type: 'bytes' },
    ],
} as const;

/** The TVM side of a withdrawal: the Event (its identity), its configuration, the round. */
export interface TvmEventRef {
    round: number;
    eventWid: number;
    eventAddr: bigint;
    configurationWid: number;
    configurationAddr: bigint;
}

/** IMultiVaultTypes.NativeWithdrawal */
export interface NativeWithdrawal extends TvmEventRef {
    tokenWid: number;
    tokenAddr: bigint;
    name: string;
    symbol: string;
    decimals: number;
    amount: bigint;
    recipient: string;
    callback: string;
    payload: string;
}

/** IMultiVaultTypes.AlienWithdrawal */
export interface AlienWithdrawal extends TvmEventRef {
    token: string;
    amount: bigint;
    recipient: string;
    callback: string;
    payload: string;
}

export type Withdrawal =
    ({ kind: WithdrawalKind.Native } & NativeWithdrawal) | ({ kind: WithdrawalKind.Alien } & AlienWithdrawal);

export function withdrawalDomain(chainId: bigint | number, vault: string) {
    return {
        name: WITHDRAWAL_DOMAIN_NAME,
        version: WITHDRAWAL_DOMAIN_VERSION,
        chainId: BigInt(chainId),
        verifyingContract: getAddress(vault),
    };
}

/** The EIP-712 digest a relay signs (= MultiVault.hashNativeWithdrawal / hashAlienWithdrawal). */
export function withdrawalDigest(chainId: bigint | number, vault: string, w: Withdrawal): string {
    const domain = withdrawalDomain(chainId, vault);
    if (w.kind === WithdrawalKind.Native) {
        const { kind: _k, ...v } = w;
        return TypedDataEncoder.hash(domain, { TvmEvmNative: [...WITHDRAWAL_TYPES.TvmEvmNative] }, v);
    }
    const { kind: _k, ...v } = w;
    return TypedDataEncoder.hash(domain, { TvmEvmAlien: [...WITHDRAWAL_TYPES.TvmEvmAlien] }, v);
}

/** The id the MultiVault marks withdrawn: keccak256(abi.encode(eventWid, eventAddr)). */
export function withdrawalId(eventWid: number, eventAddr: bigint): string {
    return keccak256(AbiCoder.defaultAbiCoder().encode(['int8', 'uint256'], [eventWid, eventAddr]));
}

export interface RelaySignature {
    signer: string;
    r: string;
    s: string;
    v: number;
}

/** Signs a digest (no message prefix: EIP-712 digests are signed as they are). */
export function signDigest(key: SigningKey, digest: string): RelaySignature {
    const sig = key.sign(digest);
    return { signer: computeAddress(key.publicKey), r: sig.r, s: sig.s, v: sig.v };
}

/** The Bridge's `signatures` argument: 65 bytes each (r, s, v), signers strictly ascending. */
export function packSignatures(sigs: ReadonlyArray<RelaySignature>): string {
    const sorted = [...sigs].sort((a, b) => (BigInt(a.signer) < BigInt(b.signer) ? -1 : 1));
    return concat(sorted.map((x) => concat([x.r, x.s, toBeHex(x.v, 1)])));
}

/** The signer of a 65-byte signature of `digest`. */
export function recoverSigner(digest: string, sig: { r: string; s: string; v: number }): string {
    return recoverAddress(digest, sig);
}
