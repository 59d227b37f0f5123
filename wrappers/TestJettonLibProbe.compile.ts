import { CompilerConfig } from '@ton/blueprint';

/** Test-only probe of contracts/jetton/lib.tact (contracts/test/jetton_lib_probe.tact), used by tests/jetton_lib.spec.ts. */
export const compile: CompilerConfig = {
    lang: 'tact',
    target: 'contracts/test/jetton_lib_probe.tact',
};
