import { CompilerConfig } from '@ton/blueprint';

/** Test-only source proxy stand-in (contracts/test/event_emitter.tact), used by tests/event*.spec.ts. */
export const compile: CompilerConfig = {
    lang: 'tact',
    target: 'contracts/test/event_emitter.tact',
};
