import { CompilerConfig } from '@ton/blueprint';

/** Native Event (contracts/bridge/tvm_tvm_event_native.tact); wrapper: build/MultiVaultTvmTvmEventNative/tact_MultiVaultTvmTvmEventNative.ts. */
export const compile: CompilerConfig = {
    lang: 'tact',
    target: 'contracts/bridge/tvm_tvm_event_native.tact',
};
