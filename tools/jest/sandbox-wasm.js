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
 * library as before. The emulator's clock import answers without BigInts (fastClock below), and
 * the strings each call hands it are copied in natively when they are ASCII (asciiStrings below).
 * tests/jest-setup.spec.ts checks that the executor is made from the worker's module and emulates
 * as the library's own does, and that the clock stores what emscripten's import stores.
 */
'use strict';
const { Executor } = require('@ton/sandbox/dist/executor/Executor');

const worker = globalThis[Symbol.for('tvm-bridge.jest-worker')];

if (worker !== undefined && !Executor.create.shared) {
    const EmulatorModule = require('@ton/sandbox/dist/executor/emulator-emscripten.js');
    const wasmFile = require.resolve('@ton/sandbox/dist/executor/emulator-emscripten.wasm.js');
    const create = Executor.create;
    const stats = { shared: 0, clock: 0, strings: 0 };

    async function sharedCreate(opts) {
        if (opts?.debug) return create.call(this, opts);
        const wasmModule = worker.wasmModule(wasmFile);
        let failed;
        const failure = new Promise((_resolve, reject) => (failed = reject));
        let memory;
        const emulator = await Promise.race([
            EmulatorModule({
                // emscripten's hook: instantiate with its imports, then hand it the instance
                instantiateWasm(imports, receive) {
                    const clock = fastClock(imports);
                    WebAssembly.instantiate(wasmModule, imports).then(
                        (instance) => {
                            memory = memoryOf(instance);
                            clock?.attach(memory);
                            receive(instance, wasmModule);
                        },
                        (error) => failed(error),
                    );
                    return {};
                },
            }),
            failure,
        ]);
        if (memory !== undefined) asciiStrings(emulator, memory);
        stats.shared++;
        return new Executor(emulator);
    }
    /** value (a non-negative integer double) as the little-endian u64 at byte `ptime` & ~7, as HEAP64[ptime >> 3] = BigInt(value) */
    function storeU64(u32, ptime, value) {
        const i = (ptime >> 3) * 2;
        const high = Math.floor(value / 4294967296);
        u32[i] = value - high * 4294967296;
        u32[i + 1] = high;
    }

    /**
     * The emulator asks the time (WASI clock_time_get) many times per transaction (about 2% of the
     * contract specs' CPU time): emscripten's import converts the ignored precision from a BigInt
     * and writes the time as a new BigInt. This one answers the same (the same clocks, the same
     * nanoseconds, error 28 for an unknown clock) with two 32-bit stores. Found by its name among
     * the imports; when it is not there the emulator keeps its own.
     */
    function fastClock(imports) {
        const env = imports?.a;
        const key =
            env && Object.keys(env).find((k) => typeof env[k] === 'function' && env[k].name === '_clock_time_get');
        if (key === undefined) return undefined;
        const original = env[key];
        let memory;
        let u32 = new Uint32Array(0);
        env[key] = function clock_time_get(clockId, precision, ptime) {
            if (memory === undefined) return original(clockId, precision, ptime); // not instantiated yet
            if (!(clockId >= 0 && clockId <= 3)) return 28;
            const now = clockId === 0 ? Date.now() : performance.now();
            stats.clock++;
            if (u32.length === 0) u32 = new Uint32Array(memory.buffer); // the first call, or the memory grew
            storeU64(u32, ptime, Math.round(now * 1e3 * 1e3));
            return 0;
        };
        return {
            attach(m) {
                memory = m;
            },
        };
    }

    function memoryOf(instance) {
        return Object.values(instance.exports).find(
            (v) => Object.prototype.toString.call(v) === '[object WebAssembly.Memory]',
        );
    }

    /**
     * Every call hands the emulator its strings (the account's and the message's BOCs in base64,
     * the configuration, the parameters' JSON): the sandbox measures each with the module's
     * lengthBytesUTF8 and copies it with stringToUTF8, JavaScript loops over every character (about
     * 1% of the contract specs' CPU time). An ASCII string (what base64 and this JSON are) is one
     * byte per character, so it is measured by its length and copied by Node's latin1 write, with
     * the same terminating zero and the same limit; any other string goes to emscripten's own.
     */
    function asciiStrings(emulator, memory) {
        const { lengthBytesUTF8, stringToUTF8 } = emulator;
        if (typeof lengthBytesUTF8 !== 'function' || typeof stringToUTF8 !== 'function') return;
        const ascii = (str) => typeof str === 'string' && Buffer.byteLength(str, 'utf8') === str.length;
        let heap = Buffer.alloc(0);
        emulator.lengthBytesUTF8 = function (str) {
            return ascii(str) ? str.length : lengthBytesUTF8(str);
        };
        emulator.stringToUTF8 = function (str, ptr, maxBytesToWrite) {
            if (!ascii(str) || !(str.length < maxBytesToWrite) || !(ptr >= 0))
                return stringToUTF8(str, ptr, maxBytesToWrite);
            if (heap.buffer !== memory.buffer) heap = Buffer.from(memory.buffer); // the first call, or the memory grew
            heap.write(str, ptr, 'latin1');
            heap[ptr + str.length] = 0;
            stats.strings++;
            return str.length;
        };
        emulator.lengthBytesUTF8.original = lengthBytesUTF8;
        emulator.stringToUTF8.original = stringToUTF8;
        emulator.stringToUTF8.memory = memory;
    }

    sharedCreate.storeU64 = storeU64;
    sharedCreate.shared = true;
    sharedCreate.stats = stats;
    sharedCreate.original = create;
    Executor.create = sharedCreate;
}
