import { CompilerConfig } from '@ton/blueprint';

/** Alien Event (contracts/bridge/tvm_tvm_event_alien.tact); wrapper: build/MultiVaultTvmTvmEventAlien/tact_MultiVaultTvmTvmEventAlien.ts. */
export const compile: CompilerConfig = {
    lang: 'tact',
    target: 'contracts/bridge/tvm_tvm_event_alien.tact',
};
