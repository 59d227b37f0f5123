import { MultiVaultEvmTvmEventAlien as Base } from '../build/MultiVaultEvmTvmEventAlien/tact_MultiVaultEvmTvmEventAlien';
import { EvmEventWrapper } from './EvmTvmEventConfiguration';

/**
 * MultiVaultEvmTvmEventAlien (contracts/bridge/evm_tvm_event_alien.tact), wrapping the Tact-generated class.
 * Deployed only by its EvmTvmEventConfiguration; relays vote with signed external messages
 * (contracts/bridge/evm.tlb, evm_event_vote). Its methods (createFromAddress, code, stateInit,
 * sendVote, sendConfirm, sendReject) come from EvmEventWrapper (wrappers/EvmTvmEventConfiguration.ts).
 */
export class MultiVaultEvmTvmEventAlien extends EvmEventWrapper(Base, 'MultiVaultEvmTvmEventAlien') {}
