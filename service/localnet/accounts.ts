/**
 * The funded accounts of the local bridge network: TVM wallets from mnemonics derived from a seed (the
 * same every start, as Hardhat's accounts are), so a developer can keep WALLET_MNEMONIC in their shell.
 */
import { Address } from '@ton/core';
import { KeyPair, mnemonicToPrivateKey, sha256 } from '@ton/crypto';
// not re-exported by @ton/crypto's index: a mnemonic from given entropy (deterministic)
import { mnemonicFromRandomSeed } from '@ton/crypto/dist/mnemonic/mnemonic';
import { WalletContractV4, WalletContractV5R1 } from '@ton/ton';

/** The wallet_id network of a v5r1 wallet as blueprint's `--custom-type testnet` builds it. */
export const V5_TESTNET_NETWORK_ID = -3;

export interface TvmAccount {
    mnemonic: string[];
    keys: KeyPair;
    /** the v4r2 wallet (WALLET_VERSION=v4) */
    v4: WalletContractV4;
    /** the v5r1 wallet with the testnet wallet_id (WALLET_VERSION=v5r1, --custom-type testnet) */
    v5: WalletContractV5R1;
}

/** A valid 24-word mnemonic derived from `seed`: the same words for the same seed. */
export async function deterministicMnemonic(seed: string): Promise<string[]> {
    return mnemonicFromRandomSeed(await sha256(`tvm-bridge/localnet/${seed}`), 24);
}

export async function tvmAccount(seed: string): Promise<TvmAccount> {
    const mnemonic = await deterministicMnemonic(seed);
    const keys = await mnemonicToPrivateKey(mnemonic);
    return {
        mnemonic,
        keys,
        v4: WalletContractV4.create({ workchain: 0, publicKey: keys.publicKey }),
        v5: WalletContractV5R1.create({
            publicKey: keys.publicKey,
            walletId: {
                networkGlobalId: V5_TESTNET_NETWORK_ID,
                context: { workchain: 0, subwalletNumber: 0, walletVersion: 'v5r1' },
            },
        }),
    };
}

/** Both wallet addresses of an account (each is funded). */
export function walletAddresses(a: TvmAccount): Address[] {
    return [a.v4.address, a.v5.address];
}
