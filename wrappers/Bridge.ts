import { Address, beginCell, Cell, Dictionary } from '@ton/core';
import { compiledCode } from './compiled';
import {
    Bridge as Base,
    storeBridgeRemoveConfiguration,
    storeBridgeSetActive,
    storeBridgeSetConfiguration,
    storeBridgeSetPaused,
    storeBridgeSetRelays,
    storeBridgeSyncConfiguration,
    storeBridgeTransferOwnership,
} from '../build/Bridge/tact_Bridge';

/**
 * Bridge (contracts/bridge/bridge_relays.tact): relay keys of the current round, active / paused
 * flags, and the registry of EvmTvmEventConfigurations, whose state it pushes to them
 * (contracts/bridge/evm.tlb, bridge_push_state). requiredVotes = keys * 2 / 3 + 1.
 */
export interface BridgeConfig {
    owner: Address;
    active?: boolean;
    paused?: boolean;
}

/** The relay map of a round: public key (32 bytes) -> 0. */
export function relayMap(publicKeys: ReadonlyArray<Buffer | bigint>): Dictionary<bigint, number> {
    const d = Dictionary.empty(Dictionary.Keys.BigUint(256), Dictionary.Values.Uint(8));
    for (const k of publicKeys) d.set(typeof k === 'bigint' ? k : BigInt('0x' + k.toString('hex')), 0);
    return d;
}

/** Value of each push (BRIDGE_PUSH_VALUE); an owner message must bring this per configuration plus gas. */
export const BRIDGE_PUSH_VALUE = 20_000_000n;

export class Bridge extends Base {
    static createFromAddress(address: Address): Bridge {
        return new Bridge(address);
    }

    static async code(): Promise<Cell> {
        return compiledCode('Bridge');
    }

    static async createFromConfig(c: BridgeConfig): Promise<Bridge> {
        const base = await Base.fromInit(
            c.owner,
            c.active ?? true,
            c.paused ?? false,
            0n,
            0n,
            Dictionary.empty(Dictionary.Keys.BigUint(256), Dictionary.Values.Uint(8)),
            Dictionary.empty(Dictionary.Keys.Address(), Dictionary.Values.Bool()),
        );
        return new Bridge(base.address, base.init);
    }

    static setRelaysMessage(
        round: number,
        publicKeys: ReadonlyArray<Buffer | bigint> | Dictionary<bigint, number>,
        queryId = 0n,
    ): Cell {
        const relays = publicKeys instanceof Dictionary ? publicKeys : relayMap(publicKeys);
        return beginCell()
            .store(storeBridgeSetRelays({ $$type: 'BridgeSetRelays', queryId, round: BigInt(round), relays }))
            .endCell();
    }

    static setActiveMessage(active: boolean, queryId = 0n): Cell {
        return beginCell()
            .store(storeBridgeSetActive({ $$type: 'BridgeSetActive', queryId, active }))
            .endCell();
    }

    static setPausedMessage(paused: boolean, queryId = 0n): Cell {
        return beginCell()
            .store(storeBridgeSetPaused({ $$type: 'BridgeSetPaused', queryId, paused }))
            .endCell();
    }

    static setConfigurationMessage(configuration: Address, active: boolean, queryId = 0n): Cell {
        return beginCell()
            .store(storeBridgeSetConfiguration({ $$type: 'BridgeSetConfiguration', queryId, configuration, active }))
            .endCell();
    }

    static removeConfigurationMessage(configuration: Address, queryId = 0n): Cell {
        return beginCell()
            .store(storeBridgeRemoveConfiguration({ $$type: 'BridgeRemoveConfiguration', queryId, configuration }))
            .endCell();
    }

    static transferOwnershipMessage(newOwner: Address, queryId = 0n): Cell {
        return beginCell()
            .store(storeBridgeTransferOwnership({ $$type: 'BridgeTransferOwnership', queryId, newOwner }))
            .endCell();
    }

    static syncConfigurationMessage(configuration: Address, queryId = 0n): Cell {
        return beginCell()
            .store(storeBridgeSyncConfiguration({ $$type: 'BridgeSyncConfiguration', queryId, configuration }))
            .endCell();
    }
}
