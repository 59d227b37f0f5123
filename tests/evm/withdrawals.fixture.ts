/**
 * TVM -> EVM withdrawals on the EVM side alone: the MultiVault (test harness), the Bridge with a
 * round of relays (secp256k1 keys made from seeds), a TVM configuration of each kind listed, and
 * withdrawals built and signed as the relays sign the TVM Events' digests (wrappers/evm/withdrawals.ts).
 * The end-to-end tests (tests/tvm_evm*.spec.ts) take the digest and the signatures from real TVM Events.
 */
import hre from 'hardhat';
import { time } from '@nomicfoundation/hardhat-network-helpers';
import { Contract, SigningKey, ZeroAddress, computeAddress, id } from 'ethers';
import { as, deployEvmContract, depositParams } from '../../wrappers/evm/MultiVault';
import {
    AlienWithdrawal,
    NativeWithdrawal,
    RelaySignature,
    WithdrawalKind,
    packSignatures,
    signDigest,
    withdrawalDigest,
} from '../../wrappers/evm/withdrawals';
import { RECIPIENT, mined, vaultFixture } from './fixtures';

export const ROUND = 7;
export const ROUND_TTL = 7 * 24 * 3600;
export const NATIVE_CONFIGURATION = { wid: 0, addr: BigInt(id('native configuration')) };
export const ALIEN_CONFIGURATION = { wid: 0, addr: BigInt(id('alien configuration')) };
export const TVM_ROOT = { wid: 0, addr: BigInt(id('tvm token root')) };

/** A relay's EVM key, deterministic from a seed. */
export function relayKey(seed: string): SigningKey {
    return new SigningKey(id(`relay key ${seed}`));
}

export function relayKeys(n: number, tag = 'r'): SigningKey[] {
    return Array.from({ length: n }, (_, i) => relayKey(`${tag}-${i}`));
}

let nonce = 1n;
/** A fresh TVM Event address (every withdrawal is another Event). */
export function nextEvent(): { eventWid: number; eventAddr: bigint } {
    nonce += 1n;
    return { eventWid: 0, eventAddr: BigInt(id(`event ${nonce}`)) };
}

export async function withdrawalsFixture(relayCount = 4) {
    const f = await vaultFixture();
    const { deployer, governance, guardian, vault, vaultAddress } = f;
    const keys = relayKeys(relayCount);
    const bridge = await deployEvmContract(hre, 'Bridge', [governance.address, guardian.address, ROUND_TTL], deployer);
    const end = (await time.latest()) + 24 * 3600;
    await mined(
        as(bridge, governance).setRoundRelays(
            ROUND,
            keys.map((k) => computeAddress(k.publicKey)),
            end,
        ),
    );
    const g = as(vault, governance);
    await mined(g.setBridge(await bridge.getAddress()));
    await mined(g.setTvmConfiguration(NATIVE_CONFIGURATION.wid, NATIVE_CONFIGURATION.addr, WithdrawalKind.Native));
    await mined(g.setTvmConfiguration(ALIEN_CONFIGURATION.wid, ALIEN_CONFIGURATION.addr, WithdrawalKind.Alien));
    const chainId = (await hre.ethers.provider.getNetwork()).chainId;
    // the vault holds tokens of the test token, as after deposits
    await mined(as(f.token, f.user).approve(vaultAddress, 10n ** 12n));
    await mined(as(vault, f.user).deposit(depositParams(RECIPIENT, f.tokenAddress, 10n ** 12n)));

    const alien = (o: Partial<AlienWithdrawal> = {}): AlienWithdrawal => ({
        round: ROUND,
        ...nextEvent(),
        configurationWid: ALIEN_CONFIGURATION.wid,
        configurationAddr: ALIEN_CONFIGURATION.addr,
        token: f.tokenAddress,
        amount: 1000n,
        recipient: f.other.address,
        callback: ZeroAddress,
        payload: '0x',
        ...o,
    });
    const native = (o: Partial<NativeWithdrawal> = {}): NativeWithdrawal => ({
        round: ROUND,
        ...nextEvent(),
        configurationWid: NATIVE_CONFIGURATION.wid,
        configurationAddr: NATIVE_CONFIGURATION.addr,
        tokenWid: TVM_ROOT.wid,
        tokenAddr: TVM_ROOT.addr,
        name: 'Tvm Native',
        symbol: 'TNT',
        decimals: 9,
        amount: 1000n,
        recipient: f.other.address,
        callback: ZeroAddress,
        payload: '0x',
        ...o,
    });
    /** Signatures of the withdrawal's digest by `signers` (default: the first requiredSignatures relays), packed. */
    const sign = (w: AlienWithdrawal | NativeWithdrawal, kind: WithdrawalKind, signers?: SigningKey[]) => {
        const digest = withdrawalDigest(chainId, vaultAddress, { kind, ...w } as never);
        const by = signers ?? keys.slice(0, Math.floor((keys.length * 2) / 3) + 1);
        const sigs: RelaySignature[] = by.map((k) => signDigest(k, digest));
        return packSignatures(sigs);
    };
    const saveAlien = (w: AlienWithdrawal, o: { signers?: SigningKey[]; bounty?: bigint; from?: Contract } = {}) =>
        (o.from ?? vault).saveWithdrawAlien(w, sign(w, WithdrawalKind.Alien, o.signers), o.bounty ?? 0n);
    const saveNative = (w: NativeWithdrawal, o: { signers?: SigningKey[]; from?: Contract } = {}) =>
        (o.from ?? vault).saveWithdrawNative(w, sign(w, WithdrawalKind.Native, o.signers));
    return { ...f, bridge, keys, chainId, g, alien, native, sign, saveAlien, saveNative };
}
