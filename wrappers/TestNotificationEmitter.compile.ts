import { CompilerConfig } from '@ton/blueprint';

/** Test-only stand-in for a proxy (contracts/test/notification_emitter.fc), used by tests/harness/network.spec.ts. */
export const compile: CompilerConfig = {
    lang: 'func',
    targets: ['contracts/test/notification_emitter.fc'],
};
