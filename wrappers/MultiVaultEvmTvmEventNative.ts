import { MultiVaultEvmTvmEventNative as Base } from '../build/MultiVaultEvmTvmEventNative/tact_MultiVaultEvmTvmEventNative';
import { EvmEventWrapper } from './EvmTvmEventConfiguration';

/**
 * MultiVaultEvmTvmEventNative (contracts/bridge/evm_tvm_event_native.tact), wrapping the Tact-generated class.
 * Deployed only by its EvmTvmEventConfiguration; relays vote with signed external messages
 * (contracts/bridge/evm.tlb, evm_event_vote). Its methods (createFromAddress, code, stateInit,
 * sendVote, sendConfirm, sendReject) come from EvmEventWrapper (wrappers/EvmTvmEventConfiguration.ts).
 */
export class MultiVaultEvmTvmEventNative extends EvmEventWrapper(Base, 'MultiVaultEvmTvmEventNative') {}
