/**
 * The build the specs depend on (tools/build.js, run by jest's global setup): in a copy of the
 * project, one spec run sees a contract change made just before it, and the build compiles only
 * the contract whose sources changed. The copy shares node_modules and starts from this checkout's
 * build, so an unchanged copy compiles nothing.
 */
import { spawnSync } from 'child_process';
import fs from 'fs';
import os from 'os';
import path from 'path';

const ROOT = path.resolve(__dirname, '..');
/** Not copied: installed packages (linked instead), git, caches and outputs nothing reads. */
const SKIPPED = new Set(['node_modules', '.git', 'cache', 'typechain-types', 'coverage', 'temp', 'bench/results']);
const SPEC = 'tests/merge_router.spec.ts';
const TEST = 'should take merge_router_init only from the proxy';
const SOURCE = 'contracts/bridge/merge_router.tact';
/** The check under test: merge_router_init from anyone but the proxy fails with 2802. */
const CHECK = 'throwUnless(ERROR_MERGE_SENDER_NOT_PROXY, sender() == self.proxy);';

describe('the build the specs depend on', () => {
    let copy: string;

    /** One spec, one test, in the copy; its exit status and everything it printed. */
    const runSpec = () => {
        const env: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: '0' };
        delete env.JEST_WORKER_ID;
        const r = spawnSync(
            process.execPath,
            [path.join(copy, 'node_modules', 'jest', 'bin', 'jest.js'), SPEC, '-t', TEST, '--ci', '--maxWorkers=1'],
            { cwd: copy, env, encoding: 'utf8' },
        );
        return { status: r.status, output: `${r.stdout}${r.stderr}` };
    };

    beforeAll(() => {
        copy = fs.mkdtempSync(path.join(os.tmpdir(), 'bridge-build-'));
        // the checkout as it is (sources, tests, tools, configuration) with its build/ and artifacts/
        fs.cpSync(ROOT, copy, {
            recursive: true,
            filter: (src) => !SKIPPED.has(path.relative(ROOT, src).split(path.sep).join('/')),
        });
        fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(copy, 'node_modules'), 'dir');
    });

    afterAll(() => {
        if (copy) fs.rmSync(copy, { recursive: true, force: true });
    });

    it('should compile nothing for an unchanged copy, and its spec should pass', () => {
        const { status, output } = runSpec();
        expect(output).toMatch(/build: all \d+ targets up to date/);
        expect(output).toMatch(/Tests:\s+(\d+ skipped, )?1 passed,/);
        expect(status).toBe(0);
    });

    it('should compile only the changed contract, and one spec run should see the change', () => {
        const file = path.join(copy, SOURCE);
        const source = fs.readFileSync(file, 'utf8');
        expect(source).toContain(CHECK);
        // the check now fails with 2899 instead of ERROR_MERGE_SENDER_NOT_PROXY (2802)
        fs.writeFileSync(file, source.replace(CHECK, 'throwUnless(2899, sender() == self.proxy);'));

        const { status, output } = runSpec();
        expect(output).toContain('build: compiled MergeRouter');
        expect(output).toMatch(/build: 1 of \d+ targets compiled/);
        expect(output).toMatch(/Tests:\s+1 failed,/);
        expect(output).toContain(TEST);
        expect(output).toContain('exitCode: 2899');
        expect(status).toBe(1);
    });
});
