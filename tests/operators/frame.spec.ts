/**
 * The operators' common frame: the journal a crash leaves behind, /health and /metrics, a failing
 * loop step that the process survives, a clean stop; and an entry point refusing a bad
 * configuration with the setting named (exit 2, a JSON log line); the TypeScript loader the service
 * processes start with (tools/jest/ts-register.js): its errors' stacks name the TypeScript lines.
 */
import { spawnSync } from 'child_process';
import fs from 'fs';
import os from 'os';
import path from 'path';
import { Journal } from '../../service/operators/journal';
import { jsonLogger, startService } from '../../service/operators/frame';
import { ROOT, ServiceProcess } from './process';

describe('operators: the common frame', () => {
    let dir: string;
    beforeAll(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ops-frame-'))));
    afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

    it('journal: a record torn by a crash is dropped, the whole ones come back in order, appends go on after them', () => {
        const file = path.join(dir, 'j.jsonl');
        const j = Journal.open<{ n: number }>(file);
        j.append({ n: 1 });
        j.append({ n: 2 });
        j.close();
        fs.appendFileSync(file, '{"n": 3'); // the write a kill -9 cut short
        const again = Journal.open<{ n: number }>(file);
        expect(again.records).toEqual([{ n: 1 }, { n: 2 }]);
        again.append({ n: 4 });
        again.close();
        expect(Journal.open<{ n: number }>(file).records).toEqual([{ n: 1 }, { n: 2 }, { n: 4 }]);
        // a damaged record inside the file is not silently skipped
        fs.writeFileSync(file, '{"n":1}\nnot json\n{"n":2}\n');
        expect(() => Journal.open(file)).toThrow(/damaged record inside the journal/);
        // compaction keeps what the caller needs
        fs.writeFileSync(file, '{"n":1}\n{"n":2}\n{"n":3}\n');
        const c = Journal.open<{ n: number }>(file, (rs) => rs.filter((r) => r.n !== 2));
        c.close();
        expect(fs.readFileSync(file, 'utf8')).toBe('{"n":1}\n{"n":3}\n');
    });

    it('serves /health (503 while a check fails) and Prometheus /metrics; a failing step is logged and counted, the loop goes on; stop ends it', async () => {
        const lines: Record<string, unknown>[] = [];
        let healthy = false;
        let steps = 0;
        const svc = await startService({
            name: 'probe',
            port: 0,
            noSignals: true,
            log: jsonLogger('probe', 'debug', (l) => lines.push(JSON.parse(l))),
            health: () => ({ ok: healthy, detail: 'x' }),
        });
        svc.metrics.define('things', 'counter', 'things done');
        svc.loop('work', 20, async () => {
            steps++;
            svc.metrics.inc('things');
            if (steps === 2) throw new Error('boom');
        });
        await new Promise((r) => setTimeout(r, 300));
        let h = await fetch(`${svc.url}/health`);
        expect(h.status).toBe(503);
        healthy = true;
        h = await fetch(`${svc.url}/health`);
        expect(h.status).toBe(200);
        expect(await h.json()).toMatchObject({ service: 'probe', ok: true, detail: 'x', metrics: { errors: 1 } });
        const m = await (await fetch(`${svc.url}/metrics`)).text();
        expect(m).toMatch(/# TYPE bridge_probe_things counter\nbridge_probe_things \d+\n/);
        expect(m).toMatch(/bridge_probe_errors 1\n/);
        expect(steps).toBeGreaterThan(3);
        expect(lines.find((l) => l.event === 'work.failed')).toMatchObject({
            level: 'error',
            service: 'probe',
            error: 'boom',
        });
        await svc.stop('test');
        // every step that ended is a round, the failed one too (what clients wait on: service/operators/frame.ts)
        expect(svc.metrics.get('rounds')).toBe(steps);
        const after = steps;
        await new Promise((r) => setTimeout(r, 100));
        expect(steps).toBe(after);
        expect(lines[lines.length - 1]).toMatchObject({ event: 'stopped', reason: 'test' });
        await expect(fetch(`${svc.url}/health`)).rejects.toThrow();
    });

    it("a service process's TypeScript runs transpiled by swc, its stack traces at the TypeScript lines", () => {
        const file = path.join(dir, 'thrower.ts');
        // types, an enum, a default import (esModuleInterop) and a class field: what swc transpiles
        fs.writeFileSync(
            file,
            [
                "import path from 'path';",
                'enum Kind {',
                '    A = 1,',
                '}',
                'interface Named {',
                '    name: string;',
                '}',
                'class Thing implements Named {',
                "    name = path.basename('/x/thing.ts', '.ts');",
                '    kind: Kind = Kind.A;',
                '    fail(): never {',
                '        throw new Error(`${this.name} ${this.kind}`);',
                '    }',
                '}',
                'new Thing().fail();',
                '',
            ].join('\n'),
        );
        const r = spawnSync(process.execPath, ['-r', path.join(ROOT, 'tools', 'jest', 'ts-register.js'), file], {
            cwd: ROOT,
            encoding: 'utf8',
        });
        expect(r.status).toBe(1);
        expect(r.stderr).toContain('Error: thing 1\n');
        expect(r.stderr).toContain(`at Thing.fail (${file}:12:15)`);
        expect(r.stderr).toContain(`(${file}:15:13)`);
    });

    it('an entry point with a bad configuration exits 2 naming the setting', async () => {
        const deployment = path.join(dir, 'd.json');
        fs.writeFileSync(
            deployment,
            JSON.stringify({
                name: 'd',
                tvm: { A: { globalId: 1, contracts: {} }, B: { globalId: 2, contracts: {} } },
            }),
        );
        const cases: [string, Record<string, string>, RegExp][] = [
            ['service/operators/sync.ts', {}, /DEPLOYMENT_FILE: required/],
            ['service/operators/sync.ts', { DEPLOYMENT_FILE: deployment, SYNC_FROM: 'C' }, /no TVM network "C"/],
            [
                'service/operators/sync.ts',
                { DEPLOYMENT_FILE: deployment, SYNC_FROM: 'A' },
                /tvm.B.contracts.liteClient is not deployed/,
            ],
            [
                'service/operators/credit.ts',
                { DEPLOYMENT_FILE: deployment, CREDIT_FROM: 'A', PORT: 'x' },
                /tvm.A.endpoint is not set|PORT=x/,
            ],
        ];
        await Promise.all(
            cases.map(async ([script, env, re]) => {
                const p = new ServiceProcess(script, { DEPLOYMENT_FILE: '', WALLET_MNEMONIC: '', ...env });
                const r = await p.exited;
                expect(r.code).toBe(2);
                const fatal = p.lines.find((l) => l.event === 'fatal');
                expect(fatal).toMatchObject({ level: 'error' });
                expect(String(fatal!.error)).toMatch(re);
            }),
        );
    });
});
