/**
 * TVM to EVM relays in the simulator (contracts/bridge/tvm_evm.tlb, "relays"): a thin adapter over
 * lib/tvmEvmRelay.ts, what the relay operator processes (service/operators/tvmEvmRelay.ts) compute
 * the same way. Each relay of the EVM Bridge's round takes the TvmEvmNative / TvmEvmAlien events of
 * the proxies it serves from transactions in SEALED blocks only (a transaction still open could be
 * dropped), for its EVM chain only, and signs the EIP-712 digest of the withdrawal each names with
 * its secp256k1 key, for the Bridge's round it reads when it signs. Here one object stands for all
 * the relays and reads the sandbox's transactions directly; signaturesOf is what they serve.
 */
import { Address } from '@ton/core';
import { Contract, SigningKey, computeAddress } from 'ethers';
import { SignedWithdrawal, signWithdrawal, tvmEvmEventsFor } from '../../lib/tvmEvmRelay';
import { TvmNetwork } from '../network';

export { sendWithdrawal } from '../../lib/tvmEvmRelay';
export type { SignedWithdrawal } from '../../lib/tvmEvmRelay';

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
            for (const found of tvmEvmEventsFor(tx, this.o.proxies, this.o.chainId)) {
                const key = found.transactionHash.toString(16);
                if (this.signed.has(key)) continue;
                const s = signWithdrawal(found, round, this.o.chainId, this.o.vaultAddress, this.o.keys);
                this.signed.set(key, s);
                out.push(s);
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
