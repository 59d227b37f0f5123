#!/usr/bin/env node
/**
 * Runs exactly the tests a TESTING.md row names.
 *
 *   npm run test:one -- <spec file> '<describe> › <test>' ['<another test>' ...]
 *
 * A name is taken literally: jest's `-t` is a regular expression, so a pasted name with
 * parentheses, dots or `+` matches nothing or too much; this escapes it. The parts of a name are
 * separated by ` › ` as TESTING.md writes them, outermost describe first; leading describes may be
 * left out, the test's own title may not. A name ending in ` › *` selects every test under it.
 * The spec file may be given as in TESTING.md (`lite_client.spec.ts`, `harness/network.spec.ts`).
 * Further jest options go after the names (`--verbose`).
 */
'use strict';
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');

const ROOT = path.resolve(__dirname, '..');
const SEP = ' › ';

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The -t pattern that matches the full name `describe ... test` of exactly this test (or subtree). */
function pattern(name) {
    const parts = name.split(SEP).map((p) => p.trim());
    const subtree = parts[parts.length - 1] === '*';
    if (subtree) parts.pop();
    // jest's full name: the describe titles and the test title joined by single spaces
    const body = parts.map(escape).join(' ');
    return `(^| )${body}${subtree ? ' ' : '$'}`;
}

function specFile(given) {
    for (const candidate of [given, path.join('tests', given)]) {
        if (fs.existsSync(path.join(ROOT, candidate))) return candidate;
    }
    throw new Error(`no spec file ${given} (nor tests/${given})`);
}

function main(args) {
    const options = args.filter((a) => a.startsWith('-'));
    const [file, ...names] = args.filter((a) => !a.startsWith('-'));
    if (!file || names.length === 0) {
        console.error("usage: npm run test:one -- <spec file> '<describe> › <test>' [...] [jest options]");
        process.exit(2);
    }
    const patterns = names.map(pattern);
    const jest = require.resolve('jest/bin/jest', { paths: [ROOT] });
    const out = path.join(require('os').tmpdir(), `jest-one-${process.pid}.json`);
    const r = spawnSync(
        process.execPath,
        [jest, specFile(file), '-t', patterns.join('|'), '--json', `--outputFile=${out}`, ...options],
        { cwd: ROOT, stdio: 'inherit' },
    );
    // a name that selects nothing is an error (a renamed test, a stale row), not a pass
    const ran = fs.existsSync(out)
        ? JSON.parse(fs.readFileSync(out, 'utf8'))
              .testResults.flatMap((f) => f.assertionResults)
              .filter((a) => a.status !== 'pending' && a.status !== 'skipped')
              .map((a) => a.fullName)
        : [];
    fs.rmSync(out, { force: true });
    const unmatched = names.filter((n, i) => !ran.some((full) => new RegExp(patterns[i]).test(full)));
    if (unmatched.length) {
        console.error(`no test of ${file} is named:\n  ${unmatched.join('\n  ')}`);
        process.exit(1);
    }
    process.exit(r.status ?? 1);
}

module.exports = { pattern };

if (require.main === module) main(process.argv.slice(2));
