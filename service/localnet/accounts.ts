/**
 * The funded accounts of the local bridge network: TVM wallets from fixed mnemonics (the same every
 * start, as Hardhat's accounts are), so a developer can keep WALLET_MNEMONIC in their shell.
 */
import { Address } from '@ton/core';
import { KeyPair, mnemonicToSeed, sha256 } from '@ton/crypto';
// not re-exported by @ton/crypto's index: a mnemonic from given entropy (deterministic)
import { mnemonicFromRandomSeed } from '@ton/crypto/dist/mnemonic/mnemonic';
import { WalletContractV4, WalletContractV5R1 } from '@ton/ton';
import { keyPairFromSeedFast } from '../../harness/validators';

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

/**
 * The network's own accounts: `deterministicMnemonic` of each name, written out (finding one takes
 * hundreds of PBKDF2 tries, about 0.2 s of CPU, at every start of a network).
 */
export const LOCALNET_MNEMONICS: Readonly<Record<'deployer' | 'user' | 'operator', string>> = {
    deployer:
        'scale edit wear gentle number galaxy possible credit empty humble horse proud else teach supreme lock chalk lava such stumble theory reject clip fold',
    user: 'flee talk siege rate say slot cinnamon ten manual beauty outside segment bless kiwi kick city brief snack neither hole clerk stumble puzzle cake',
    operator:
        'answer cross wage useful net polar sand thing record pull milk fabric multiply episode lonely certain kick energy travel rabbit vicious mountain kitten enact',
};

/**
 * The account of `seed` (a LOCALNET_MNEMONICS name, or any other seed: deterministicMnemonic). Its
 * keys are @ton/crypto's mnemonicToPrivateKey (the PBKDF2 seed, then the ed25519 key pair of its
 * first 32 bytes), the key pair computed with Node's ed25519 instead of tweetnacl (about 0.1 s each).
 */
export async function tvmAccount(seed: string): Promise<TvmAccount> {
    const fixed = (LOCALNET_MNEMONICS as Record<string, string>)[seed];
    const mnemonic = fixed ? fixed.split(' ') : await deterministicMnemonic(seed);
    const keys: KeyPair = keyPairFromSeedFast((await mnemonicToSeed(mnemonic, 'TON default seed')).subarray(0, 32));
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
