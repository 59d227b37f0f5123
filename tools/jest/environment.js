/**
 * testEnvironment: jest's node environment, plus what one worker's spec files share.
 *
 * Jest loads every module afresh for each spec file (each file has its own module registry and
 * global object), so work a module does when it loads is done again per file. This environment is
 * loaded once per worker by Node's own require, so what it keeps lives as long as the worker:
 *
 * 1. The sandbox's emulator. Each spec file's global holds one object under
 *    Symbol.for('tvm-bridge.jest-worker') with
 *      wasmModule(file)   the WebAssembly.Module of a JavaScript file that exports the module's
 *                         bytes as one base64 string (@ton/sandbox's emulator: 6.7 MB of JavaScript,
 *                         5 MB of WebAssembly), compiled once per worker, outside the specs' realms,
 *                         so a spec instantiates it instead of loading the string, decoding it and
 *                         compiling it (tools/jest/sandbox-wasm.js);
 *      codeCache          2.'s statistics, and keep() (what the end of a spec file does);
 *      strings(name)      a Map named `name` of strings to strings, the worker's for its lifetime:
 *                         what a pure function computed, for the next spec file (strings carry
 *                         nothing of the realm that made them; harness/validators.ts keeps the
 *                         ed25519 public keys of its validators' seeds there);
 *      keyObjects(name)   a Map named `name` of strings to crypto.KeyObjects, the worker's for its
 *                         lifetime: Node's key objects belong to Node, not to a spec's realm (every
 *                         spec file's `crypto` is Node's own), so the ed25519 keys made from a seed
 *                         (harness/signatures.ts, tools/jest/fast-ed25519.js) are parsed once per
 *                         worker instead of once per spec file.
 * 2. V8's compiled code of the modules. Jest compiles each module's source for each spec file
 *    (vm.compileFunction), and V8 then compiles each function the first time it runs: the same
 *    work in every file for the same sources (@ton/core, the sandbox, the harness, the wrappers).
 *    Here a module is compiled as a vm.Script of the same function (its columns on the first line
 *    kept); when a spec file ends, the code V8 compiled for each module new to the worker (its
 *    functions compiled so far included) is kept as V8's code cache, and a later file compiling
 *    the same source from the same file starts from it. V8 checks the cache against the source
 *    and rejects one that does not fit (the module is then compiled as before); a changed source
 *    is compiled afresh.
 *
 * Nothing else changes: each spec file still runs in its own realm and module registry, and runs
 * every module's code itself.
 */
'use strict';
const fs = require('fs');
const vm = require('vm');
const { TestEnvironment } = require('jest-environment-node');

const KEY = Symbol.for('tvm-bridge.jest-worker');

// ---------------------------------------------------------------- 1. WebAssembly modules
const modules = new Map();

/** @param {string} file  a module of the form `module.exports = { Name: '<base64>' }` */
function wasmModule(file) {
    let kept = modules.get(file);
    if (kept === undefined) {
        const source = fs.readFileSync(file, 'latin1');
        const start = source.indexOf("'");
        const end = source.lastIndexOf("'");
        const base64 = source.slice(start + 1, end);
        if (start < 0 || end <= start || !/^[A-Za-z0-9+/]+=*$/.test(base64))
            throw new Error(`${file}: not one base64 string`);
        kept = new WebAssembly.Module(Buffer.from(base64, 'base64'));
        modules.set(file, kept);
    }
    return kept;
}

// ---------------------------------------------------------------- 2. compiled code
/** file -> { source, data }: V8's code cache of the source last compiled from that file */
const codeCache = new Map();
/** the scripts compiled without a cache in the current spec file (their caches made at its end) */
let fresh = [];
const codeStats = { compiled: 0, fromCache: 0, rejected: 0 };
const compileFunction = vm.compileFunction;

function cachingCompileFunction(code, params, options) {
    const filename = options?.filename;
    // what jest asks for (a module's source, parsed in the spec's context); anything else as before
    if (
        typeof code !== 'string' ||
        !options?.parsingContext ||
        typeof filename !== 'string' ||
        !filename.startsWith('/') ||
        options.cachedData !== undefined ||
        options.produceCachedData ||
        options.contextExtensions !== undefined
    )
        return compileFunction.apply(this, arguments);
    // the same function as compileFunction's; a leading #! line is not JavaScript inside it
    const prefix = `(function (${(params ?? []).join(', ')}) {`;
    const source = `${prefix}${code.startsWith('#!') ? `//${code.slice(2)}` : code}\n})`;
    const kept = codeCache.get(filename);
    const cached = kept !== undefined && kept.source === source ? kept.data : undefined;
    const script = new vm.Script(source, {
        filename,
        columnOffset: -prefix.length,
        cachedData: cached,
        importModuleDynamically: options.importModuleDynamically,
    });
    if (cached !== undefined && !script.cachedDataRejected) codeStats.fromCache++;
    else {
        if (cached !== undefined) codeStats.rejected++;
        codeStats.compiled++;
        fresh.push({ filename, source, script });
    }
    return script.runInContext(options.parsingContext);
}

/** the caches of the modules this spec file compiled first (with the functions it compiled) */
function keepCompiledCode() {
    for (const { filename, source, script } of fresh)
        codeCache.set(filename, { source, data: script.createCachedData() });
    fresh = [];
}

if (!vm.compileFunction.caching) {
    cachingCompileFunction.caching = true;
    vm.compileFunction = cachingCompileFunction;
}

// ---------------------------------------------------------------- 3. strings
const stringMaps = new Map();
/** @param {string} name */
function strings(name) {
    let m = stringMaps.get(name);
    if (m === undefined) {
        m = new Map();
        stringMaps.set(name, m);
    }
    return m;
}

// ---------------------------------------------------------------- 4. key objects
const keyMaps = new Map();
const MAX_KEY_OBJECTS = 200_000;
/** @param {string} name */
function keyObjects(name) {
    let m = keyMaps.get(name);
    if (m === undefined) {
        m = new Map();
        keyMaps.set(name, m);
    }
    if (m.size >= MAX_KEY_OBJECTS) m.clear();
    return m;
}

const worker = Object.freeze({
    wasmModule,
    codeCache: Object.freeze({ stats: codeStats, keep: keepCompiledCode }),
    strings,
    keyObjects,
});

class WorkerSharingEnvironment extends TestEnvironment {
    constructor(config, context) {
        super(config, context);
        Object.defineProperty(this.global, KEY, { value: worker });
    }

    async teardown() {
        keepCompiledCode();
        await super.teardown();
    }
}

module.exports = WorkerSharingEnvironment;
