import { CompilerConfig } from '@ton/blueprint';

/** ProxyMultiVaultNative (contracts/bridge/proxy_native.tact); wrapper: build/ProxyMultiVaultNative/tact_ProxyMultiVaultNative.ts. */
export const compile: CompilerConfig = {
    lang: 'tact',
    target: 'contracts/bridge/proxy_native.tact',
};
