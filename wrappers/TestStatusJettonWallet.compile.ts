import { CompilerConfig } from '@ton/blueprint';

/** Test-only TEP-74 wallet with USDT-style statuses (contracts/test/status_jetton_wallet.fc), used through harness/statusJetton.ts. */
export const compile: CompilerConfig = {
    lang: 'func',
    targets: ['contracts/test/status_jetton_wallet.fc'],
};
