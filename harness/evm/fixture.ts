/**
 * One EVM to TVM setup for specs and benches: Hardhat's EVM network with a MultiVault (./network.ts)
 * beside a @ton/sandbox TVM network with the Bridge (relay keys of round 1), an Alien and a Native
 * EvmTvmEventConfiguration registered and active, and treasuries standing in for the proxies.
 */
import type { HardhatRuntimeEnvironment } from 'hardhat/types';
import { Address, Cell, toNano } from '@ton/core';
import { Blockchain, EmulationError, SandboxContract, TreasuryContract } from '@ton/sandbox';
import { Bridge } from '../../wrappers/Bridge';
import { EvmEventType, EvmTvmEventConfiguration } from '../../wrappers/EvmTvmEventConfiguration';
import { MultiVaultEvmTvmEventAlien } from '../../wrappers/MultiVaultEvmTvmEventAlien';
import { MultiVaultEvmTvmEventNative } from '../../wrappers/MultiVaultEvmTvmEventNative';
import { DEFAULT_EVM_FLAGS, eventAbiOf } from './eventData';
import { EvmNetwork } from './network';
import { RelaySet } from './relay';
import { readGlobalId } from '../network';

export const EVENT_INITIAL_BALANCE = toNano('1');
export const BLOCKS_TO_CONFIRM = 2;

let codes: { alien: Cell; native: Cell } | undefined;

export async function eventCodes(): Promise<{ alien: Cell; native: Cell }> {
    codes ??= { alien: await MultiVaultEvmTvmEventAlien.code(), native: await MultiVaultEvmTvmEventNative.code() };
    return codes;
}

export interface EvmTvmSetupOptions {
    relays?: number;
    flags?: number;
    startBlockNumber?: number;
    /** skip the Bridge's registration of the configurations */
    unregistered?: boolean;
    /** the TVM side's sandbox (default: a new one) */
    blockchain?: Blockchain;
    /** the configurations' proxies (default: treasuries standing in for them) */
    proxies?: { alien: Address; native: Address };
    /** the EVM network (default: a new one, its vault serving the TVM side's network) */
    evm?: EvmNetwork;
}

export async function evmTvmSetup(hre: HardhatRuntimeEnvironment, o: EvmTvmSetupOptions = {}) {
    const blockchain = o.blockchain ?? (await Blockchain.create());
    const evm = o.evm ?? (await EvmNetwork.create(hre, undefined, { tvmGlobalId: readGlobalId(blockchain.config) }));
    const owner = await blockchain.treasury('owner');
    const alienProxy = await blockchain.treasury('alien-proxy');
    const nativeProxy = await blockchain.treasury('native-proxy');
    const relayer = await blockchain.treasury('relayer');
    const user = await blockchain.treasury('user');
    const recipient = await blockchain.treasury('recipient');
    const relays = RelaySet.generate(o.relays ?? 4);
    const flags = o.flags ?? DEFAULT_EVM_FLAGS;

    const bridge = blockchain.openContract(await Bridge.createFromConfig({ owner: owner.address }));
    await bridge.send(owner.getSender(), { value: toNano('1') }, null);

    const { alien, native } = await eventCodes();
    const make = async (eventType: EvmEventType) =>
        blockchain.openContract(
            await EvmTvmEventConfiguration.createFromConfig({
                owner: owner.address,
                bridge: bridge.address,
                eventType,
                flags,
                eventABI: eventAbiOf(evm.iface, eventType === EvmEventType.Alien ? 'AlienTransfer' : 'NativeTransfer'),
                eventInitialBalance: EVENT_INITIAL_BALANCE,
                eventCode: eventType === EvmEventType.Alien ? alien : native,
                network: {
                    chainId: evm.chainId,
                    eventEmitter: evm.vaultAddress,
                    eventBlocksToConfirm: BLOCKS_TO_CONFIRM,
                    proxy:
                        eventType === EvmEventType.Alien
                            ? (o.proxies?.alien ?? alienProxy.address)
                            : (o.proxies?.native ?? nativeProxy.address),
                    startBlockNumber: o.startBlockNumber ?? 0,
                    endBlockNumber: 0,
                },
            }),
        );
    const alienConfiguration = await make(EvmEventType.Alien);
    const nativeConfiguration = await make(EvmEventType.Native);
    for (const c of [alienConfiguration, nativeConfiguration]) {
        await c.send(owner.getSender(), { value: toNano('0.1') }, null);
    }

    const ownerSend = (body: Cell, value = toNano('0.5')) => owner.send({ to: bridge.address, value, body });
    await ownerSend(Bridge.setRelaysMessage(1, relays.publicKeys));
    if (!o.unregistered) {
        await ownerSend(Bridge.setConfigurationMessage(alienConfiguration.address, true));
        await ownerSend(Bridge.setConfigurationMessage(nativeConfiguration.address, true));
    }

    return {
        blockchain,
        evm,
        owner,
        alienProxy,
        nativeProxy,
        relayer,
        user,
        recipient,
        relays,
        flags,
        bridge,
        alienConfiguration,
        nativeConfiguration,
        ownerSend,
    };
}

export type EvmTvmSetup = Awaited<ReturnType<typeof evmTvmSetup>>;

/** The exit code of a refused external message (the sandbox throws before any transaction). */
export async function refusedExternal(p: Promise<unknown>): Promise<number> {
    try {
        await p;
    } catch (e) {
        if (e instanceof EmulationError && e.exitCode !== undefined) return e.exitCode;
        throw e;
    }
    throw new Error('expected the external message to be refused, it was accepted');
}

/** A TVM address as the vault's (wid, account id) recipient pair. */
export function tvmRecipient(address: Address): { wid: number; addr: bigint } {
    return { wid: address.workChain, addr: BigInt('0x' + address.hash.toString('hex')) };
}

export type Treasury = SandboxContract<TreasuryContract>;
