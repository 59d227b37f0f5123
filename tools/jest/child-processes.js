// setupFiles: the processes the specs start with ts-node (the API service, the local network's
// operators, blueprint scripts) inherit TS_NODE_PROJECT=tools/jest/ts-node.tsconfig.json, which
// has ts-node transpile with swc (see that file). A TS_NODE_PROJECT already set is kept. The
// operator services tests/operators starts load tools/jest/ts-register.js instead: the same swc
// transpilation without ts-node's start (see that file).
// Every Node process the specs start (those, Hardhat, the blueprint CLI) preloads
// tools/jest/compile-cache.js: V8's code cache and swc's output kept between processes (see that file).
'use strict';
const path = require('path');

process.env.TS_NODE_PROJECT ??= path.join(__dirname, 'ts-node.tsconfig.json');
{
    const preload = `--require ${JSON.stringify(path.join(__dirname, 'compile-cache.js'))}`;
    const options = process.env.NODE_OPTIONS ?? '';
    if (!options.includes(preload)) process.env.NODE_OPTIONS = `${options} ${preload}`.trim();
}
