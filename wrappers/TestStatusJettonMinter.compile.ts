import { CompilerConfig } from '@ton/blueprint';

/** Test-only master of the USDT-style jetton with TEP-89 (contracts/test/status_jetton_minter.fc), used through harness/statusJetton.ts. */
export const compile: CompilerConfig = {
    lang: 'func',
    targets: ['contracts/test/status_jetton_minter.fc'],
};
