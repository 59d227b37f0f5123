/**
 * tools/jest/compile-cache.js, preloaded into the Node processes the specs start: a second process
 * loading the same files compiles none of them (V8's code cache and swc's output are found) and
 * behaves the same (output, errors with their file and line, a hashbang line, require.resolve and
 * require.main, dynamic import left to Node); a changed file is compiled again, never answered from
 * the old text's entry; BRIDGE_COMPILE_CACHE=off writes nothing.
 */
import { execFileSync } from 'child_process';
import fs from 'fs';
import os from 'os';
import path from 'path';

const ROOT = path.resolve(__dirname, '..', '..');
const PRELOAD = path.join(ROOT, 'tools', 'jest', 'compile-cache.js');

interface Stats {
    hit: number;
    miss: number;
    rejected: number;
    node: number;
    swcHit: number;
    swcMiss: number;
}

describe('the compile cache of the specs’ child processes', () => {
    let dir: string;
    let cache: string;

    /** `node -r compile-cache.js <args>` in `dir`: its stdout, and the cache's counts printed at its exit. */
    function run(args: string[], env: Record<string, string> = {}): { out: string; stats?: Stats } {
        const errFile = path.join(dir, 'stderr.txt');
        const fd = fs.openSync(errFile, 'w');
        try {
            const out = execFileSync(process.execPath, ['-r', PRELOAD, ...args], {
                cwd: dir,
                env: {
                    ...process.env,
                    NODE_OPTIONS: '',
                    BRIDGE_COMPILE_CACHE: cache,
                    BRIDGE_COMPILE_CACHE_DEBUG: '1',
                    ...env,
                },
                stdio: ['ignore', 'pipe', fd],
                encoding: 'utf8',
            });
            const line = fs
                .readFileSync(errFile, 'utf8')
                .split('\n')
                .find((l) => l.startsWith('compile cache '));
            return { out, stats: line ? (JSON.parse(line.slice('compile cache '.length)) as Stats) : undefined };
        } finally {
            fs.closeSync(fd);
        }
    }

    beforeAll(() => {
        dir = fs.mkdtempSync(path.join(os.tmpdir(), 'compile-cache-spec-'));
        cache = path.join(dir, 'cache');
        fs.mkdirSync(path.join(dir, 'lib'));
        fs.writeFileSync(
            path.join(dir, 'main.js'),
            [
                '#!/usr/bin/env node',
                "'use strict';",
                "const lib = require('./lib/value');",
                "const later = require('./lib/later');",
                'console.log(`value ${lib.value(20)}`);',
                "console.log(`resolve ${path(require.resolve('./lib/value'))} main ${require.main === module}`);",
                'try {',
                '    lib.fail();',
                '} catch (e) {',
                "    const frame = e.stack.split('\\n').find((l) => l.includes('value.js'));",
                "    console.log(`thrown ${e.message} at ${frame.replace(/^.*[\\\\/]lib[\\\\/]/, '').replace(/\\)$/, '')}`);",
                '}',
                'later().then((v) => console.log(`imported ${v}`));',
                'function path(p) {',
                "    return p.slice(__dirname.length + 1).replace(/\\\\/g, '/');",
                '}',
            ].join('\n'),
        );
        fs.writeFileSync(
            path.join(dir, 'lib', 'value.js'),
            [
                'exports.value = (x) => x + 22;',
                'exports.fail = () => {',
                "    throw new Error('on purpose');",
                '};',
            ].join('\n'),
        );
        // a dynamic import: Node compiles this module itself
        fs.writeFileSync(
            path.join(dir, 'lib', 'later.js'),
            "module.exports = () => import('./esm.mjs').then((m) => m.v);",
        );
        fs.writeFileSync(path.join(dir, 'lib', 'esm.mjs'), 'export const v = 7;');
    });

    afterAll(() => {
        if (dir) fs.rmSync(dir, { recursive: true, force: true });
    });

    const expected = [
        'value 42',
        'resolve lib/value.js main true',
        'thrown on purpose at value.js:3:11',
        'imported 7',
        '',
    ].join('\n');

    it('a second process finds every module it compiled, and behaves the same', () => {
        expect(run(['main.js'], { BRIDGE_COMPILE_CACHE: 'off' })).toEqual({ out: expected, stats: undefined });
        expect(fs.existsSync(cache)).toBe(false);

        const first = run(['main.js']);
        expect(first.out).toBe(expected);
        expect(first.stats).toMatchObject({ hit: 0, miss: 2, rejected: 0, node: 1 });
        const second = run(['main.js']);
        expect(second.out).toBe(expected);
        expect(second.stats).toMatchObject({ hit: 2, miss: 0, rejected: 0, node: 1 });
    });

    it('a changed file is compiled again and runs its new text', () => {
        const file = path.join(dir, 'lib', 'value.js');
        const before = fs.readFileSync(file, 'utf8');
        // the same length, another text
        fs.writeFileSync(file, before.replace('x + 22', 'x + 23'));
        try {
            const r = run(['main.js']);
            expect(r.out).toBe(expected.replace('value 42', 'value 43'));
            expect(r.stats).toMatchObject({ hit: 1, miss: 1, rejected: 0 });
        } finally {
            fs.writeFileSync(file, before);
        }
    });

    it("keeps swc's output of the TypeScript ts-node loads, and a second process transpiles nothing", () => {
        fs.writeFileSync(
            path.join(dir, 'typed.ts'),
            'const n: number = 6;\nexport const square = (x: number): number => x * x;\nconsole.log(`square ${square(n)}`);\n',
        );
        const env = {
            TS_NODE_PROJECT: path.join(ROOT, 'tools', 'jest', 'ts-node.tsconfig.json'),
            TS_NODE_TRANSPILE_ONLY: 'true',
        };
        const args = ['-r', require.resolve('ts-node/register', { paths: [ROOT] }), 'typed.ts'];
        const first = run(args, env);
        expect(first.out).toBe('square 36\n');
        expect(first.stats!.swcMiss).toBeGreaterThanOrEqual(1);
        const second = run(args, env);
        expect(second.out).toBe('square 36\n');
        expect(second.stats).toMatchObject({ swcMiss: 0, miss: 0 });
        expect(second.stats!.swcHit).toBe(first.stats!.swcHit + first.stats!.swcMiss);
    });
});
