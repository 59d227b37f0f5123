import { CompilerConfig } from '@ton/blueprint';

/** contracts/bridge/evm_tvm_event_alien.tact; wrapper: build/MultiVaultEvmTvmEventAlien/tact_MultiVaultEvmTvmEventAlien.ts. */
export const compile: CompilerConfig = {
    lang: 'tact',
    target: 'contracts/bridge/evm_tvm_event_alien.tact',
};
