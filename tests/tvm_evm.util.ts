/**
 * TVM -> EVM end to end (one jest process: @ton/sandbox beside Hardhat): the EVM <-> TVM fixture
 * with the real proxies (harness/evm/proxyFixture.ts) plus the EVM Bridge with a round of relays'
 * EVM keys, the MultiVault listing the two proxies as its TVM configurations (native proxy: kind
 * Native, alien proxy: kind Alien), the native proxy listing the EVM chain, the TVM to EVM relay
 * service (harness/evm/tvmEvmRelay.ts) and a user holding the TVM-native token.
 */
import hre from 'hardhat';
import { time } from '@nomicfoundation/hardhat-network-helpers';
import { Address, Cell, toNano } from '@ton/core';
import { Blockchain, SendMessageResult } from '@ton/sandbox';
import { Contract, SigningKey, computeAddress, id } from 'ethers';
import { as, deployEvmContract } from '../wrappers/evm/MultiVault';
import { WithdrawalKind } from '../wrappers/evm/withdrawals';
import { ProxyMessages } from '../wrappers/ProxyMultiVaultNative';
import { burnToEvmBody, lockToEvmBody, TvmEvmPayloadArgs, tvmEvmPayloadCell } from '../lib/tvmEvmEvents';
import { TvmEvmRelayService } from '../harness/evm/tvmEvmRelay';
import { NativeTokenOption } from '../harness/evm/proxyFixture';
import { freshSetup, mined, setup } from './evm_tvm.util';

export const ROUND = 1;
export const ROUND_TTL = 7 * 24 * 3600;
/** Native tokens the TVM user holds at the start. */
export const USER_NATIVE = 10n ** 12n;
/** forward_ton_amount of a lock / value of a burn bound for EVM. */
export const LOCK_FORWARD_TON = toNano('0.1');
export const BURN_VALUE = toNano('0.2');

export function relayEvmKeys(n: number, tag = 'tvm-evm'): SigningKey[] {
    return Array.from({ length: n }, (_, i) => new SigningKey(id(`${tag} relay ${i}`)));
}

export async function tvmEvmSetup(
    o: {
        relays?: number;
        withdrawFeeBps?: bigint;
        /** a TVM-native token other than the project's jetton (proxyFixture's option): a setup of its own */
        nativeToken?: (blockchain: Blockchain) => Promise<NativeTokenOption>;
    } = {},
) {
    let given: NativeTokenOption | undefined;
    const make = o.nativeToken;
    const s = make ? await setup({ nativeToken: async (b) => (given = await make(b)) }) : await freshSetup();
    const { deployer, governance, guardian } = s.evm.signers;
    const keys = relayEvmKeys(o.relays ?? 4);
    const bridge = await deployEvmContract(hre, 'Bridge', [governance.address, guardian.address, ROUND_TTL], deployer);
    // a round after any other spec's (one Hardhat network per jest process): above the last, ends in a day
    const end = (await time.latest()) + 24 * 3600;
    await mined(
        as(bridge, governance).getFunction('setRoundRelays')(
            ROUND,
            keys.map((k) => computeAddress(k.publicKey)),
            end,
        ),
    );
    const g = s.evm.vaultAs(governance);
    await mined(g.getFunction('setBridge')(await bridge.getAddress()));
    const listed = (a: Address) => [a.workChain, BigInt('0x' + a.hash.toString('hex'))] as const;
    await mined(g.getFunction('setTvmConfiguration')(...listed(s.proxies.native.address), WithdrawalKind.Native));
    await mined(g.getFunction('setTvmConfiguration')(...listed(s.proxies.alien.address), WithdrawalKind.Alien));
    if (o.withdrawFeeBps) await mined(g.getFunction('setDefaultWithdrawFee')(o.withdrawFeeBps));
    await s.proxies.native.sendBody(s.proxyOwner.getSender(), ProxyMessages.setTvmEvmChain(s.evm.chainId, true));

    // the TVM user's native tokens
    if (given) await given.mint(s.user.address, USER_NATIVE);
    else await s.nativeToken.sendMint(s.proxyOwner.getSender(), { to: s.user.address, amount: USER_NATIVE });
    const userNativeWallet = await s.walletOf(s.nativeToken.address, s.user.address);

    const relays = new TvmEvmRelayService({
        net: s.net,
        proxies: [s.proxies.native.address, s.proxies.alien.address],
        chainId: s.evm.chainId,
        vaultAddress: s.evm.vaultAddress,
        bridge,
        keys,
    });

    /** the payload args to the EVM recipient (the `other` signer) */
    const toEvm = (a: Partial<TvmEvmPayloadArgs> = {}): TvmEvmPayloadArgs => ({
        evmChainId: s.evm.chainId,
        recipient: s.evm.signers.other.address,
        remainingGasTo: s.user.address,
        ...a,
    });

    /** The user locks `amount` of the TVM-native token bound for EVM. */
    const lock = (amount: bigint, payload: Cell = tvmEvmPayloadCell(toEvm()), forwardTonAmount = LOCK_FORWARD_TON) =>
        s.user.send({
            to: userNativeWallet.address,
            value: forwardTonAmount + toNano('0.1'),
            body: lockToEvmBody({
                amount,
                nativeProxy: s.proxies.native.address,
                responseDestination: s.user.address,
                forwardTonAmount,
                payload,
            }),
        });

    /** `holder` burns `amount` of an EVM alien token (its minter) bound for EVM. */
    const burn = async (
        minter: Address,
        amount: bigint,
        payload: Cell,
        holder = s.recipient,
        value = BURN_VALUE,
    ): Promise<SendMessageResult> => {
        const wallet = await s.walletOf(minter, holder.address);
        return holder.send({
            to: wallet.address,
            value,
            body: burnToEvmBody({ amount, responseDestination: holder.address, payload }),
        });
    };

    /** Seals the TVM network's block and has the relays sign what it holds. */
    const signNow = async () => {
        s.net.seal();
        return relays.poll();
    };

    return {
        ...s,
        keys,
        evmBridge: bridge as Contract,
        g,
        tvmRelays: relays,
        toEvm,
        lock,
        burn,
        signNow,
        userNativeWallet,
    };
}

export type TvmEvmSetup = Awaited<ReturnType<typeof tvmEvmSetup>>;
