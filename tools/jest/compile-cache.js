// Preloaded (NODE_OPTIONS=--require, set by tools/jest/child-processes.js) into the Node processes the
// specs start: the blueprint CLI, Hardhat, the operator and API services, the local network. Most of
// such a process's start is compiling the same JavaScript again (the blueprint CLI loads about
// 1,500 modules for a script that runs half a second): this keeps V8's code cache of every CommonJS
// module in a folder and hands it back to the next process that loads the same file with the same
// text, and keeps swc's TypeScript output (ts-node's transpiler in these processes) the same way.
// The code that runs is the same; only its parsing and compiling are skipped.
//
// Node 22.1+ has this built in (module.enableCompileCache), used when present. On Node 20 the
// module wrapper is compiled with vm.Script and V8's cachedData, as Node itself compiled modules
// before vm.compileFunction; a module with import() and anything that does not compile that way (ES
// module syntax in a .js file, Node's own detection) go to Node's loader unchanged.
//
// Cache entries are named by a hash of the file name and its text (a changed file is a new entry),
// written whole and renamed into place (processes run side by side). The folder:
// BRIDGE_COMPILE_CACHE, default <tmp>/bridge-compile-cache-<node version>-<arch>; BRIDGE_COMPILE_CACHE=off
// turns it off; BRIDGE_COMPILE_CACHE_DEBUG=1 prints what was found at exit (tests/tools/compile-cache.spec.ts).
'use strict';
const Module = require('module');
const crypto = require('crypto');
const fs = require('fs');
const os = require('os');
const path = require('path');
const vm = require('vm');
const zlib = require('zlib');

const setting = process.env.BRIDGE_COMPILE_CACHE;
const dir = setting || path.join(os.tmpdir(), `bridge-compile-cache-${process.version}-${process.arch}`);

function install() {
    if (setting === 'off') return 'off';
    try {
        fs.mkdirSync(dir, { recursive: true });
    } catch {
        return 'off';
    }
    if (typeof Module.enableCompileCache === 'function') {
        Module.enableCompileCache(dir);
        return 'node';
    }
    if (typeof zlib.crc32 !== 'function') return 'off';

    // the file name, and the text's length and CRC-32 (as Node's own compile cache keys it: hashing
    // the text with SHA-256 took a fifth of a cached start)
    const key = (kind, name, text) =>
        crypto
            .createHash('sha1')
            .update(`${kind}\0${name}\0${text.length}\0${zlib.crc32(text)}`)
            .digest('hex');
    const read = (file) => {
        try {
            return fs.readFileSync(file);
        } catch {
            return undefined;
        }
    };
    const write = (file, data) => {
        const tmp = `${file}.${process.pid}.tmp`;
        try {
            fs.writeFileSync(tmp, data);
            fs.renameSync(tmp, file);
        } catch {
            fs.rmSync(tmp, { force: true });
        }
    };

    // scripts compiled without a usable cache: their cache is written once they have run a while
    // (the functions V8 compiled lazily meanwhile are in it), or at exit
    let pending = [];
    let timer;
    const flush = () => {
        clearTimeout(timer);
        timer = undefined;
        for (const [file, script] of pending) {
            try {
                write(file, script.createCachedData());
            } catch {
                // a script V8 cannot serialize: compiled again next time
            }
        }
        pending = [];
    };
    process.once('exit', flush);
    const stats = { hit: 0, miss: 0, rejected: 0, node: 0, swcHit: 0, swcMiss: 0 };
    if (process.env.BRIDGE_COMPILE_CACHE_DEBUG)
        process.once('exit', () => process.stderr.write(`compile cache ${JSON.stringify(stats)}\n`));

    const compile = Module.prototype._compile;
    const nodeCompiles = (mod, content, filename, rest) => {
        stats.node++;
        return compile.call(mod, content, filename, ...rest);
    };
    Module.prototype._compile = function (content, filename, ...rest) {
        // ES module formats, and modules with import() (a vm.Script's dynamic import needs an
        // experimental loader option, lost with cached data), are Node's to compile
        if ((rest[0] !== undefined && rest[0] !== 'commonjs') || /\bimport\s*\(/.test(content))
            return nodeCompiles(this, content, filename, rest);
        // a hashbang line is not JavaScript inside the wrapper function: blanked, the line count kept
        const body = content.startsWith('#!') ? content.replace(/^#![^\n]*/, '') : content;
        const file = path.join(dir, key('v8', filename, body) + '.v8');
        const cachedData = read(file);
        let script;
        try {
            script = new vm.Script(Module.wrap(body), { filename, cachedData });
        } catch {
            return nodeCompiles(this, content, filename, rest);
        }
        stats[!cachedData ? 'miss' : script.cachedDataRejected ? 'rejected' : 'hit']++;
        if (!cachedData || script.cachedDataRejected) {
            pending.push([file, script]);
            clearTimeout(timer);
            timer = setTimeout(flush, 2000);
            timer.unref();
        }
        const fn = script.runInThisContext({ displayErrors: true });
        const result = fn.call(this.exports, this.exports, requireOf(this), this, filename, path.dirname(filename));
        if (/[\\/]@swc[\\/]core[\\/]index\.js$/.test(filename)) keepSwcOutput(this.exports);
        return result;
    };

    // the require function of a module, as Node makes it
    function requireOf(mod) {
        const require = (id) => mod.require(id);
        const resolve = (request, options) => Module._resolveFilename(request, mod, false, options);
        resolve.paths = (request) => Module._resolveLookupPaths(request, mod);
        require.resolve = resolve;
        require.main = process.mainModule;
        require.extensions = Module._extensions;
        require.cache = Module._cache;
        return require;
    }

    // ts-node's swc transpiler calls transformSync(source, options) for each TypeScript file
    function keepSwcOutput(swc) {
        const transformSync = swc.transformSync;
        if (typeof transformSync !== 'function') return;
        const version = String(swc.version ?? '');
        swc.transformSync = function (input, options) {
            if (typeof input !== 'string') return transformSync.apply(this, arguments);
            const file = path.join(
                dir,
                key('swc', `${version} ${JSON.stringify(options ?? null)}`, input) + '.swc.json',
            );
            const kept = read(file);
            if (kept) {
                try {
                    const out = JSON.parse(kept.toString('utf8'));
                    stats.swcHit++;
                    return out;
                } catch {
                    // a damaged entry: transformed again and rewritten
                }
            }
            const out = transformSync.apply(this, arguments);
            stats.swcMiss++;
            write(file, JSON.stringify(out));
            return out;
        };
    }
    return 'v8';
}

module.exports = { mode: install(), dir };
