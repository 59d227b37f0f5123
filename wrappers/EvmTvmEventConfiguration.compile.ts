import { CompilerConfig } from '@ton/blueprint';

/** contracts/bridge/evm_tvm_event_configuration.tact; wrapper: build/EvmTvmEventConfiguration/tact_EvmTvmEventConfiguration.ts. */
export const compile: CompilerConfig = {
    lang: 'tact',
    target: 'contracts/bridge/evm_tvm_event_configuration.tact',
};
