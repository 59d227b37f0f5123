/**
 * setupFiles: @ton/sandbox's emulator compiled once per jest worker instead of once per spec file.
 *
 * Executor.create() (each Blockchain.create()) loads emulator-emscripten.wasm.js, a 6.7 MB
 * JavaScript file holding the emulator as base64, decodes it with a JavaScript base64 decoder and
 * has WebAssembly compile the 5 MB result; jest's module registry is per spec file, so every spec
 * file paid this again (about 0.25 s of CPU per file, two thirds of the fixed cost of a spec that
 * deploys one contract). Here the executor is made the same way from the WebAssembly.Module the
 * worker compiled once (tools/jest/environment.js): the same emulator code, a new instance (its own
 * memory) per executor, as before. The debugger's executor (create({ debug: true })) is made by the
 * library as before. tests/jest-setup.spec.ts checks that the executor is made from the worker's
 * module and emulates as the library's own does.
 */
'use strict';
const { Executor } = require('@ton/sandbox/dist/executor/Executor');

const worker = globalThis[Symbol.for('tvm-bridge.jest-worker')];

if (worker !== undefined && !Executor.create.shared) {
    const EmulatorModule = require('@ton/sandbox/dist/executor/emulator-emscripten.js');
    const wasmFile = require.resolve('@ton/sandbox/dist/executor/emulator-emscripten.wasm.js');
    const create = Executor.create;
    const stats = { shared: 0 };

    async function sharedCreate(opts) {
        if (opts?.debug) return create.call(this, opts);
        const wasmModule = worker.wasmModule(wasmFile);
        let failed;
        const failure = new Promise((_resolve, reject) => (failed = reject));
        const emulator = await Promise.race([
            EmulatorModule({
                // emscripten's hook: instantiate with its imports, then hand it the instance
                instantiateWasm(imports, receive) {
                    WebAssembly.instantiate(wasmModule, imports).then(
                        (instance) => receive(instance, wasmModule),
                        (error) => failed(error),
                    );
                    return {};
                },
            }),
            failure,
        ]);
        stats.shared++;
        return new Executor(emulator);
    }
    sharedCreate.shared = true;
    sharedCreate.stats = stats;
    sharedCreate.original = create;
    Executor.create = sharedCreate;
}
