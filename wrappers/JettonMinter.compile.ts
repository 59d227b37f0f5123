import { CompilerConfig } from '@ton/blueprint';

/** TEP-74 minter (contracts/jetton/jetton_minter.tact); wrapper: build/JettonMinter/tact_JettonMinter.ts. */
export const compile: CompilerConfig = {
    lang: 'tact',
    target: 'contracts/jetton/jetton_minter.tact',
};
