import { CompilerConfig } from '@ton/blueprint';

/** contracts/bridge/bridge_relays.tact; wrapper: build/Bridge/tact_Bridge.ts. */
export const compile: CompilerConfig = {
    lang: 'tact',
    target: 'contracts/bridge/bridge_relays.tact',
};
