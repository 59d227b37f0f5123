#!/usr/bin/env node
// npm run bench: the bench specs (tests/bench) one at a time, then their rows merged into
// bench/gas-report.md and bench/gas-report.json, and the time it all took. The report depends on
// the contracts only: the sandboxes run on a fixed clock (harness/bench.ts, BENCH_NOW) and each
// Hardhat network starts from a fixed genesis on a clock of its own (benchEvm), so two runs on an
// unchanged tree write the same bytes (TESTING.md shows the check).
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');
const { writeReport } = require('./report');

const started = Date.now();
fs.rmSync(path.join(__dirname, 'results'), { recursive: true, force: true });
const jest = require.resolve('jest/bin/jest', { paths: [path.join(__dirname, '..')] });
const r = spawnSync(process.execPath, [jest, '--runInBand', 'tests/bench', ...process.argv.slice(2)], {
    cwd: path.join(__dirname, '..'),
    env: { ...process.env, BENCH: '1' },
    stdio: 'inherit',
});
if (r.status !== 0) process.exit(r.status ?? 1);
const { sections, rows } = writeReport();
const seconds = ((Date.now() - started) / 1000).toFixed(0);
console.log(`bench: ${rows} rows in ${sections} sections -> bench/gas-report.md, bench/gas-report.json (${seconds} s)`);
