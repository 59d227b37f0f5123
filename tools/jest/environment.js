/**
 * testEnvironment: jest's node environment, plus what one worker's spec files share.
 *
 * Jest loads every module afresh for each spec file (each file has its own module registry and
 * global object), so work a module does when it loads is done again per file. This environment is
 * loaded once per worker by Node's own require, so what it keeps lives as long as the worker. It
 * hands each spec file's global one object, under Symbol.for('tvm-bridge.jest-worker'):
 *
 *   wasmModule(file)   the WebAssembly.Module of a JavaScript file that exports the module's bytes
 *                      as one base64 string (@ton/sandbox's emulator: 6.7 MB of JavaScript, 5 MB of
 *                      WebAssembly). Compiled once per worker, outside the specs' realms, so a spec
 *                      instantiates it instead of loading the string, decoding it and compiling it
 *                      (tools/jest/sandbox-wasm.js).
 *
 * Nothing else changes: the tests still run each file in its own realm and module registry.
 */
'use strict';
const fs = require('fs');
const { TestEnvironment } = require('jest-environment-node');

const KEY = Symbol.for('tvm-bridge.jest-worker');

const modules = new Map();
const worker = Object.freeze({
    /** @param {string} file  a module of the form `module.exports = { Name: '<base64>' }` */
    wasmModule(file) {
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
    },
});

class WorkerSharingEnvironment extends TestEnvironment {
    constructor(config, context) {
        super(config, context);
        Object.defineProperty(this.global, KEY, { value: worker });
    }
}

module.exports = WorkerSharingEnvironment;
