import { CompilerConfig } from '@ton/blueprint';

/** MergeRouter (contracts/bridge/merge_router.tact); wrapper: build/MergeRouter/tact_MergeRouter.ts. */
export const compile: CompilerConfig = {
    lang: 'tact',
    target: 'contracts/bridge/merge_router.tact',
};
