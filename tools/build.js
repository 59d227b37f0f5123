#!/usr/bin/env node
/**
 * The project's one build: every TVM contract named by a `wrappers/<Name>.compile.ts` (blueprint's
 * compiler, output in `build/`) and the Solidity contracts in `evm/` (Hardhat, output in
 * `artifacts/`). `npm run build` runs it, and so does jest before any test (tools/jest/global-setup.js),
 * so a spec always tests the current sources; no test compiles a contract itself.
 *
 * Content-addressed: a target is compiled again only when one of its inputs changed. A TVM
 * contract's inputs are the files the compiler actually read when it was last compiled (its
 * .compile.ts, the entry source and every file imported or #included from it), recorded with their
 * hashes in `build/<Name>.build.json`; Solidity's are evm/**.sol and hardhat.config.ts
 * (`build/evm.build.json`). The compiler versions and this file are part of every key.
 *
 *   node tools/build.js            compile what changed (quiet: one line per compiled target)
 *   node tools/build.js --force    compile everything
 *   node tools/build.js --list     each target's inputs, and whether it is up to date
 */
'use strict';
const crypto = require('crypto');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawn } = require('child_process');

const ROOT = path.resolve(__dirname, '..');
const BUILD = path.join(ROOT, 'build');
const WRAPPERS = path.join(ROOT, 'wrappers');
const COMPILE_END = '.compile.ts';
/** Folders whose files are never inputs (installed packages, outputs). */
const NOT_INPUTS = ['node_modules', 'build', 'artifacts', 'cache', 'typechain-types', '.git'];
/** Read while loading TypeScript, not by a compiler (the compiler versions are in the toolchain key). */
const ROOT_CONFIGS = ['package.json', 'tsconfig.json'];

const sha256 = (data) => crypto.createHash('sha256').update(data).digest('hex');
const rel = (file) => path.relative(ROOT, file).split(path.sep).join('/');

function packageVersion(name) {
    return JSON.parse(fs.readFileSync(require.resolve(`${name}/package.json`, { paths: [ROOT] }), 'utf8')).version;
}

/** What a target's key holds besides its inputs: the compilers and this build script. */
function toolchain(lang) {
    const versions =
        lang === 'solidity'
            ? { hardhat: packageVersion('hardhat'), solc: packageVersion('solc') }
            : {
                  tact: packageVersion('@tact-lang/compiler'),
                  func: packageVersion('@ton-community/func-js'),
                  blueprint: packageVersion('@ton/blueprint'),
              };
    return { ...versions, build: sha256(fs.readFileSync(__filename)) };
}

/** [file, hash] pairs of project files (relative paths), sorted; a file that is gone hashes as 'missing'. */
function hashFiles(files) {
    return [...new Set(files)]
        .sort()
        .map((f) => [f, fs.existsSync(path.join(ROOT, f)) ? sha256(fs.readFileSync(path.join(ROOT, f))) : 'missing']);
}

function listFiles(dir, test) {
    if (!fs.existsSync(dir)) return [];
    return fs
        .readdirSync(dir, { recursive: true })
        .map((f) => path.join(dir, f))
        .filter((f) => test(f) && fs.statSync(f).isFile())
        .map(rel);
}

/** The build targets: one per wrappers/<Name>.compile.ts, and the Solidity contracts. */
function targets() {
    const tvm = fs
        .readdirSync(WRAPPERS)
        .filter((f) => f.endsWith(COMPILE_END))
        .sort()
        .map((f) => {
            const name = f.slice(0, -COMPILE_END.length);
            const tact = /lang:\s*'tact'/.test(fs.readFileSync(path.join(WRAPPERS, f), 'utf8'));
            const outputs = [path.join(BUILD, `${name}.compiled.json`)];
            if (tact) outputs.push(path.join(BUILD, name, `tact_${name}.ts`));
            return { name, lang: tact ? 'tact' : 'func', outputs, stamp: path.join(BUILD, `${name}.build.json`) };
        });
    const evm = {
        name: 'Solidity',
        lang: 'solidity',
        outputs: [path.join(ROOT, 'artifacts', 'evm')],
        stamp: path.join(BUILD, 'evm.build.json'),
        inputs: () => hashFiles([...listFiles(path.join(ROOT, 'evm'), (f) => f.endsWith('.sol')), 'hardhat.config.ts']),
    };
    return [...tvm, evm];
}

/** Whether a target's outputs exist and its recorded toolchain and inputs are today's. */
function upToDate(target) {
    if (!target.outputs.every((f) => fs.existsSync(f))) return false;
    let stamp;
    try {
        stamp = JSON.parse(fs.readFileSync(target.stamp, 'utf8'));
    } catch {
        return false;
    }
    if (JSON.stringify(stamp.toolchain) !== JSON.stringify(toolchain(target.lang))) return false;
    const now = target.inputs ? target.inputs() : hashFiles(stamp.inputs.map(([f]) => f));
    return JSON.stringify(now) === JSON.stringify(stamp.inputs);
}

/** Runs a command with its output captured; resolves with { code, output }. */
function run(args) {
    return new Promise((resolve) => {
        const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, FORCE_COLOR: '0' } });
        const chunks = [];
        child.stdout.on('data', (c) => chunks.push(c));
        child.stderr.on('data', (c) => chunks.push(c));
        child.on('close', (code) => resolve({ code, output: Buffer.concat(chunks).toString() }));
    });
}

function writeStamp(file, lang, inputs, seconds) {
    fs.writeFileSync(file, JSON.stringify({ toolchain: toolchain(lang), inputs, seconds }, null, 2) + '\n');
}

/** How long the target's last compile took (to start the longest first), Infinity if unknown. */
function lastSeconds(target) {
    try {
        return JSON.parse(fs.readFileSync(target.stamp, 'utf8')).seconds ?? Infinity;
    } catch {
        return Infinity;
    }
}

/** Hardhat's compile of evm/ in a child process, output captured; writes the stamp on success. */
async function compileSolidity(target) {
    const inputs = target.inputs();
    const result = await run([require.resolve('hardhat/internal/cli/cli', { paths: [ROOT] }), 'compile', '--quiet']);
    if (result.code === 0) writeStamp(target.stamp, target.lang, inputs);
    return { ok: result.code === 0, output: result.output };
}

/**
 * A child process that compiles TVM contracts one after another (the compilers load once per
 * worker): `compile(name)` resolves with { ok, output } (the compiler's console output).
 */
function tvmWorker() {
    const child = spawn(process.execPath, [__filename, '--worker'], {
        cwd: ROOT,
        env: { ...process.env, FORCE_COLOR: '0' },
        stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    const chunks = [];
    child.stdout.on('data', (c) => chunks.push(c));
    child.stderr.on('data', (c) => chunks.push(c));
    let pending;
    child.on('message', (m) => pending?.resolve(m));
    child.on('exit', (code) =>
        pending?.resolve({ ok: false, output: `worker exited (${code}): ${Buffer.concat(chunks)}` }),
    );
    return {
        compile(name) {
            return new Promise((resolve) => {
                pending = { resolve };
                child.send({ name });
            });
        },
        close: () => child.connected && child.disconnect(),
    };
}

/** Writes a file whole or not at all (a spec reading build/ meanwhile sees the old or the new file). */
function writeAtomic(file, data) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, data);
    fs.renameSync(tmp, file);
}

/**
 * The worker's side: blueprint's compiler on each contract it is sent, writing what `blueprint
 * build` writes (build/<Name>.compiled.json; the Tact output in build/<Name>/; FunC's .fif), with
 * the console captured and every project file the compilers read recorded, with the hash of what
 * they read, as the contract's inputs.
 */
function workerMain() {
    let read = new Map();
    const readFileSync = fs.readFileSync;
    fs.readFileSync = function (file, ...rest) {
        const data = readFileSync.call(fs, file, ...rest);
        if (typeof file === 'string') {
            const r = rel(path.resolve(ROOT, file));
            if (!r.startsWith('..') && !NOT_INPUTS.includes(r.split('/')[0])) read.set(r, sha256(data));
        }
        return data;
    };
    // blueprint reads blueprint.config.ts and the .compile.ts files: TypeScript, transpiled only
    require('ts-node').register({ transpileOnly: true, compilerOptions: { module: 'commonjs' } });
    const { doCompile } = require('@ton/blueprint/dist/compile/compile');
    const byName = new Map(targets().map((t) => [t.name, t]));

    async function compileOne(name) {
        const result = await doCompile(name, { buildLibrary: false });
        if (result.lang === 'tact') {
            for (const [file, data] of result.fs) writeAtomic(file, data);
        } else {
            writeAtomic(path.join(BUILD, name, `${name}.fif`), result.fiftCode);
        }
        const hash = result.code.hash();
        const compiled = {
            hash: hash.toString('hex'),
            hashBase64: hash.toString('base64'),
            hex: result.code.toBoc().toString('hex'),
        };
        writeAtomic(path.join(BUILD, `${name}.compiled.json`), JSON.stringify(compiled));
    }

    process.on('message', async ({ name }) => {
        const output = [];
        const capture = (...args) => output.push(args.map(String).join(' '));
        const saved = { log: console.log, warn: console.warn, error: console.error, info: console.info };
        Object.assign(console, { log: capture, warn: capture, error: capture, info: capture });
        read = new Map();
        const t0 = Date.now();
        let ok = true;
        try {
            await compileOne(name);
        } catch (e) {
            ok = false;
            output.push(e instanceof Error ? e.message : String(e));
        }
        Object.assign(console, saved);
        if (ok) {
            // the configuration every contract depends on, read by blueprint once per worker
            const inputs = [...read.keys(), 'blueprint.config.ts'].filter((f) => !ROOT_CONFIGS.includes(f));
            const seconds = Math.round((Date.now() - t0) / 100) / 10;
            writeStamp(byName.get(name).stamp, byName.get(name).lang, hashFiles(inputs), seconds);
        }
        process.send({ ok, output: output.join('\n') });
    });
    process.on('disconnect', () => process.exit(0));
}

/**
 * One build at a time per checkout (two jest runs started together): a lock directory holding the
 * owner's pid; a lock whose owner is gone is taken over.
 */
async function withLock(log, fn) {
    const lock = path.join(BUILD, '.lock');
    fs.mkdirSync(BUILD, { recursive: true });
    for (let waited = false; ;) {
        try {
            fs.mkdirSync(lock);
            fs.writeFileSync(path.join(lock, 'pid'), String(process.pid));
            break;
        } catch (e) {
            if (e.code !== 'EEXIST') throw e;
            let owner = NaN;
            try {
                owner = Number(fs.readFileSync(path.join(lock, 'pid'), 'utf8'));
            } catch {
                // the owner is between mkdir and writing its pid
            }
            let alive = true;
            try {
                if (owner) process.kill(owner, 0);
            } catch {
                alive = false;
            }
            if (!alive) {
                fs.rmSync(lock, { recursive: true, force: true });
                continue;
            }
            if (!waited) log(`build: waiting for the build of process ${owner || '?'}`);
            waited = true;
            await new Promise((r) => setTimeout(r, 250));
        }
    }
    try {
        return await fn();
    } finally {
        fs.rmSync(lock, { recursive: true, force: true });
    }
}

/**
 * Brings build/ and artifacts/ up to date. `log` receives one line per compiled target and a
 * summary; a compile error is thrown with the contract's name and the compiler's output.
 */
async function build({ force = false, log = (line) => console.log(line) } = {}) {
    return withLock(log, () => buildLocked(force, log));
}

async function buildLocked(force, log) {
    const started = Date.now();
    const all = targets();
    const stale = all.filter((t) => force || !upToDate(t));
    const failures = [];
    const tvm = stale
        .filter((t) => t.lang !== 'solidity')
        .map((t) => ({ t, last: lastSeconds(t) }))
        .sort((a, b) => b.last - a.last)
        .map(({ t }) => t);
    const evm = stale.filter((t) => t.lang === 'solidity');
    const report = (t, t0, { ok, output }) => {
        if (!ok) failures.push(`build: ${t.name} failed to compile:\n${output.trim()}`);
        else log(`build: compiled ${t.name} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
    };
    for (const t of stale) fs.rmSync(t.stamp, { force: true });
    // each compile is one busy thread: as many workers as cores (Hardhat runs beside them)
    const cores = os.availableParallelism?.() ?? os.cpus().length;
    const workers = Array.from({ length: Math.min(tvm.length, cores) }, tvmWorker);
    await Promise.all([
        ...workers.map(async (worker) => {
            for (let t = tvm.shift(); t; t = tvm.shift()) {
                const t0 = Date.now();
                report(t, t0, await worker.compile(t.name));
            }
            worker.close();
        }),
        ...evm.map(async (t) => {
            const t0 = Date.now();
            report(t, t0, await compileSolidity(t));
        }),
    ]);
    if (failures.length) throw new Error(failures.join('\n\n'));
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    log(
        stale.length
            ? `build: ${stale.length} of ${all.length} targets compiled, the others up to date (${seconds} s)`
            : `build: all ${all.length} targets up to date (${seconds} s)`,
    );
    return { compiled: stale.map((t) => t.name), total: all.length };
}

module.exports = { build, targets, upToDate };

if (require.main === module) {
    const args = process.argv.slice(2);
    const fail = (e) => {
        console.error(e instanceof Error ? e.message : e);
        process.exit(1);
    };
    if (args[0] === '--worker') {
        workerMain();
    } else if (args[0] === '--list') {
        for (const t of targets()) {
            let inputs = [];
            try {
                inputs = JSON.parse(fs.readFileSync(t.stamp, 'utf8')).inputs.map(([f]) => f);
            } catch {
                // never built
            }
            console.log(`${t.name}: ${upToDate(t) ? 'up to date' : 'stale'}${inputs.map((f) => `\n  ${f}`).join('')}`);
        }
    } else {
        build({ force: args.includes('--force') }).catch(fail);
    }
}
