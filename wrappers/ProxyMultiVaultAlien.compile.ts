import { CompilerConfig } from '@ton/blueprint';

/** ProxyMultiVaultAlien (contracts/bridge/proxy_alien.tact); wrapper: build/ProxyMultiVaultAlien/tact_ProxyMultiVaultAlien.ts. */
export const compile: CompilerConfig = {
    lang: 'tact',
    target: 'contracts/bridge/proxy_alien.tact',
};
