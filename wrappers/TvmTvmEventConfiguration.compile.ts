import { CompilerConfig } from '@ton/blueprint';

/** TVM to TVM event configuration (contracts/bridge/tvm_tvm_event_configuration.tact); wrapper: build/TvmTvmEventConfiguration/tact_TvmTvmEventConfiguration.ts. */
export const compile: CompilerConfig = {
    lang: 'tact',
    target: 'contracts/bridge/tvm_tvm_event_configuration.tact',
};
