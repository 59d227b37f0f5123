import { Address, Cell, ContractProvider } from '@ton/core';
import { compile } from '@ton/blueprint';
import { MultiVaultEvmTvmEventNative as Base } from '../build/MultiVaultEvmTvmEventNative/tact_MultiVaultEvmTvmEventNative';
import { evmEventVoteBody, EventVoteData, VoteArgs, VoteKind, evmEventInitData } from './EvmTvmEventConfiguration';

/**
 * MultiVaultEvmTvmEventNative (contracts/bridge/evm_tvm_event_native.tact), wrapping the Tact-generated class.
 * Deployed only by its EvmTvmEventConfiguration; relays vote with signed external messages
 * (contracts/bridge/evm.tlb, evm_event_vote).
 */
export class MultiVaultEvmTvmEventNative extends Base {
    static createFromAddress(address: Address): MultiVaultEvmTvmEventNative {
        return new MultiVaultEvmTvmEventNative(address);
    }

    static async code(): Promise<Cell> {
        return compile('MultiVaultEvmTvmEventNative');
    }

    /** The state init the configuration builds (code from the configuration, data: evm_event_storage). */
    static stateInit(code: Cell, configuration: Address, v: EventVoteData): { code: Cell; data: Cell } {
        return { code, data: evmEventInitData(configuration, v) };
    }

    /** A relay's vote (confirm or reject) as a signed external message. */
    async sendVote(provider: ContractProvider, a: Omit<VoteArgs, 'voteReceiver'> & { voteReceiver?: Address }) {
        await provider.external(evmEventVoteBody({ ...a, voteReceiver: a.voteReceiver ?? this.address }));
    }

    async sendConfirm(provider: ContractProvider, a: Omit<VoteArgs, 'voteReceiver' | 'kind'>) {
        await this.sendVote(provider, { ...a, kind: VoteKind.Confirm });
    }

    async sendReject(provider: ContractProvider, a: Omit<VoteArgs, 'voteReceiver' | 'kind'>) {
        await this.sendVote(provider, { ...a, kind: VoteKind.Reject });
    }
}
