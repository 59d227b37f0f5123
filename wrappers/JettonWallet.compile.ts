import { CompilerConfig } from '@ton/blueprint';

/** TEP-74 wallet (contracts/jetton/jetton_wallet.tact); wrapper: build/JettonWallet/tact_JettonWallet.ts. */
export const compile: CompilerConfig = {
    lang: 'tact',
    target: 'contracts/jetton/jetton_wallet.tact',
};
