import { CompilerConfig } from '@ton/blueprint';

/** MergePool (contracts/bridge/merge_pool.tact); wrapper: build/MergePool/tact_MergePool.ts. */
export const compile: CompilerConfig = {
    lang: 'tact',
    target: 'contracts/bridge/merge_pool.tact',
};
