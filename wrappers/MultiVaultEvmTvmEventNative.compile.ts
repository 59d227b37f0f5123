import { CompilerConfig } from '@ton/blueprint';

/** contracts/bridge/evm_tvm_event_native.tact; wrapper: build/MultiVaultEvmTvmEventNative/tact_MultiVaultEvmTvmEventNative.ts. */
export const compile: CompilerConfig = {
    lang: 'tact',
    target: 'contracts/bridge/evm_tvm_event_native.tact',
};
