// `node -r tools/jest/ts-register.js service/operators/<name>.ts`: how the specs start the operator
// services as processes (tests/operators/process.ts). Each TypeScript file is transpiled with swc,
// as `ts-node --swc` does (service/operators/README.md), with the options ts-node derives from
// tsconfig.json (target, CommonJS modules, esModuleInterop, strict mode, no define semantics for
// class fields below ES2022); stack traces name the TypeScript lines (swc's source maps, read through
// Node's module.SourceMap when a stack is formatted, as ts-node's source-map-support does).
// What is left out is ts-node itself: it loads the TypeScript compiler to read tsconfig.json even
// when swc transpiles, about 0.2 s of CPU in every process (a relay started in 0.68 s of CPU with
// ts-node, 0.50 s with this). The code that runs is the same; swc's output is kept between
// processes by tools/jest/compile-cache.js, preloaded before this file.
'use strict';
const fs = require('fs');
const path = require('path');
const { SourceMap } = require('module');
const swc = require('@swc/core');

const ROOT = path.resolve(__dirname, '..', '..');

function swcOptions() {
    const { compilerOptions: c = {} } = JSON.parse(fs.readFileSync(path.join(ROOT, 'tsconfig.json'), 'utf8'));
    const target = String(c.target ?? 'es2020').toLowerCase();
    if (String(c.module ?? 'commonjs').toLowerCase() !== 'commonjs')
        throw new Error(`tools/jest/ts-register.js: tsconfig.json module ${c.module}: only commonjs is handled`);
    return {
        swcrc: false,
        sourceMaps: true,
        module: { type: 'commonjs', noInterop: !c.esModuleInterop, strictMode: true, ignoreDynamic: false },
        jsc: {
            parser: { syntax: 'typescript', tsx: false, decorators: !!c.experimentalDecorators, dynamicImport: true },
            target,
            keepClassNames: true,
            transform: {
                legacyDecorator: true,
                decoratorMetadata: !!c.emitDecoratorMetadata,
                useDefineForClassFields: c.useDefineForClassFields ?? ['es2022', 'esnext'].includes(target),
            },
        },
    };
}

const options = swcOptions();
/** file -> swc's source map of it (text; parsed the first time a stack goes through the file) */
const maps = new Map();

require.extensions['.ts'] = function (module, filename) {
    const { code, map } = swc.transformSync(fs.readFileSync(filename, 'utf8'), { ...options, filename });
    if (map) maps.set(filename, map);
    module._compile(code, filename);
};

/** `file:line:col` of a stack frame in a transpiled file, at its TypeScript line and column */
function original(frame) {
    const file = frame.getFileName();
    let map = file && maps.get(file);
    const line = frame.getLineNumber();
    const column = frame.getColumnNumber();
    if (!map || !line || !column) return undefined;
    if (typeof map === 'string') maps.set(file, (map = new SourceMap(JSON.parse(map))));
    const e = map.findEntry(line - 1, column - 1);
    if (e?.originalLine === undefined) return undefined;
    return [`${file}:${line}:${column}`, `${file}:${e.originalLine + 1}:${e.originalColumn + 1}`];
}

Error.prepareStackTrace = (error, frames) => {
    let head;
    try {
        head = Error.prototype.toString.call(error);
    } catch {
        head = '<error>';
    }
    const lines = frames.map((frame) => {
        const text = String(frame);
        const at = original(frame);
        return `    at ${at ? text.replace(at[0], at[1]) : text}`;
    });
    return [head, ...lines].join('\n');
};
