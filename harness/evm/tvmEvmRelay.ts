/**
 * TVM to EVM relays (contracts/bridge/tvm_evm.tlb, "relays"): each relay of the EVM Bridge's round
 * watches the TVM network on its own, takes the TvmEvmNative / TvmEvmAlien events of the proxies it
 * serves from transactions in SEALED blocks only (a transaction still open could be dropped), for
 * its EVM chain only, and signs the EIP-712 digest of the withdrawal each names with its secp256k1
 * key. The service keeps the signatures and serves them to anyone (signaturesOf); the user, or any
 * executor, collects them and sends saveWithdrawNative / saveWithdrawAlien. A relay never signs an
 * event twice, nor one of another round's Bridge than the one it reads when it signs.
 */
import { Address } from '@ton/core';
import { Contract, SigningKey, computeAddress, ContractTransactionResponse } from 'ethers';
import { FoundTvmEvmEvent, tvmEvmEventsOf, withdrawalOf } from '../../lib/tvmEvmEvents';
import {
    RelaySignature,
    Withdrawal,
    WithdrawalKind,
    packSignatures,
    signDigest,
    withdrawalDigest,
} from '../../wrappers/evm/withdrawals';
import { TvmNetwork } from '../network';

export interface SignedWithdrawal {
    found: FoundTvmEvmEvent;
    withdrawal: Withdrawal;
    digest: string;
    signatures: RelaySignature[];
}

export interface TvmEvmRelayOptions {
    net: TvmNetwork;
    /** the proxies whose events the relays take (the MultiVault's listed configurations) */
    proxies: Address[];
    chainId: bigint | number;
    vaultAddress: string;
    /** the EVM Bridge, read for its current round */
    bridge: Contract;
    /** the relays' EVM keys (a subset stands for relays that are down) */
    keys: SigningKey[];
}

export class TvmEvmRelayService {
    private cursor = 0;
    private readonly signed = new Map<string, SignedWithdrawal>();

    constructor(readonly o: TvmEvmRelayOptions) {}

    get addresses(): string[] {
        return this.o.keys.map((k) => computeAddress(k.publicKey));
    }

    /**
     * Reads the transactions since the last poll that are sealed (stops at the first one that is
     * not: it is read again next time) and signs each new event for this EVM chain.
     */
    async poll(): Promise<SignedWithdrawal[]> {
        const txs = this.o.net.transactionsSince(this.cursor);
        const round = Number(await this.o.bridge.getFunction('lastRound')());
        const out: SignedWithdrawal[] = [];
        let i = 0;
        for (; i < txs.length; i++) {
            const tx = txs[i];
            if (!this.o.net.isSealed(tx)) break;
            for (const proxy of this.o.proxies) {
                for (const found of tvmEvmEventsOf(tx, proxy)) {
                    if (found.event.evmChainId !== BigInt(this.o.chainId)) continue;
                    const key = found.transactionHash.toString(16);
                    if (this.signed.has(key)) continue;
                    const withdrawal = withdrawalOf(found, round);
                    const digest = withdrawalDigest(this.o.chainId, this.o.vaultAddress, withdrawal);
                    const s: SignedWithdrawal = {
                        found,
                        withdrawal,
                        digest,
                        signatures: this.o.keys.map((k) => signDigest(k, digest)),
                    };
                    this.signed.set(key, s);
                    out.push(s);
                }
            }
        }
        this.cursor += i;
        return out;
    }

    /** What the service serves for a Transfer ID (the proxy transaction's hash), or undefined. */
    signaturesOf(transactionHash: bigint | string): SignedWithdrawal | undefined {
        return this.signed.get(BigInt(transactionHash).toString(16));
    }
}

/**
 * The user's (or anyone's) side: the withdrawal and `count` of its signatures (default all the
 * service has) sent to the MultiVault by `vault` (a contract connected to the sender).
 */
export function sendWithdrawal(
    vault: Contract,
    s: SignedWithdrawal,
    o: { count?: number; bounty?: bigint } = {},
): Promise<ContractTransactionResponse> {
    const sigs = packSignatures(s.signatures.slice(0, o.count ?? s.signatures.length));
    const { kind, ...w } = s.withdrawal;
    return kind === WithdrawalKind.Native
        ? vault.getFunction('saveWithdrawNative')(w, sigs)
        : vault.getFunction('saveWithdrawAlien')(w, sigs, o.bounty ?? 0n);
}
