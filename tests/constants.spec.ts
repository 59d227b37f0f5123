/**
 * wrappers/constants.ts mirrors the op and error codes the contracts define; this holds it to the
 * sources. Every mirrored code must be defined in contracts/ with the same value under a matching
 * name: a Tact `message(0x...) Name`, a Tact `const NAME: Int = ...;` or a FunC
 * `const int op::name = ...;` / `const int error::name = ...;`. Names match when, letters and
 * digits only and case aside, one ends with the other (`Op.merge.routerInit` is
 * `message(0x09483608) MergeRouterInit`, `Errors.proxy.proxyPaused` is `ERROR_PROXY_PAUSED`).
 */
import fs from 'fs';
import path from 'path';
import * as constants from '../wrappers/constants';

interface Definition {
    name: string;
    value: number;
    file: string;
}

const CONTRACTS = path.resolve(__dirname, '..', 'contracts');

function sourceFiles(dir: string): string[] {
    return fs
        .readdirSync(dir, { withFileTypes: true })
        .flatMap((e) =>
            e.isDirectory()
                ? sourceFiles(path.join(dir, e.name))
                : /\.(tact|fc)$/.test(e.name)
                  ? [path.join(dir, e.name)]
                  : [],
        );
}

/** Every op and error code the contract sources define. */
function definitions(): Definition[] {
    const found: Definition[] = [];
    const patterns = [
        /message\s*\(\s*(?<value>0x[0-9a-fA-F]+|\d+)\s*\)\s*(?<name>\w+)/g, // Tact message
        /const\s+(?<name>\w+)\s*:\s*Int\s*=\s*(?<value>0x[0-9a-fA-F]+|\d+)\s*;/g, // Tact constant
        /const\s+int\s+(?<name>[\w:]+)\s*=\s*(?<value>0x[0-9a-fA-F]+|\d+)\s*;/g, // FunC constant
    ];
    for (const file of sourceFiles(CONTRACTS)) {
        const text = fs.readFileSync(file, 'utf8');
        for (const pattern of patterns) {
            for (const m of text.matchAll(pattern)) {
                found.push({
                    name: m.groups!.name,
                    value: Number(m.groups!.value),
                    file: path.relative(CONTRACTS, file),
                });
            }
        }
    }
    return found;
}

const normal = (name: string) =>
    name
        .replace(/^(ERROR_|ERR_|error::|op::)/, '')
        .toLowerCase()
        .replace(/[^a-z0-9]/g, '');

/** [path, value] of every code in a group of constants (nested objects flattened). */
function codes(group: object, prefix: string): [string, number][] {
    return Object.entries(group).flatMap(([key, value]) =>
        typeof value === 'object' ? codes(value, `${prefix}.${key}`) : [[`${prefix}.${key}`, value as number]],
    );
}

describe('wrappers/constants.ts mirrors the contract sources', () => {
    const defs = definitions();

    it('should find the codes in the sources', () => {
        expect(defs.length).toBeGreaterThan(100);
    });

    for (const [groupName, group] of Object.entries(constants)) {
        it(`${groupName}: every code is defined in contracts/ with that value and a matching name`, () => {
            const wrong = codes(group, groupName).flatMap(([name, value]) => {
                const key = normal(name.split('.').pop()!);
                const sameValue = defs.filter((d) => d.value === value);
                const match = sameValue.some((d) => {
                    const n = normal(d.name);
                    return n.endsWith(key) || key.endsWith(n);
                });
                if (match) return [];
                const seen = sameValue.map((d) => `${d.name} (${d.file})`).join(', ') || 'nothing';
                return [`${name} = ${value}: the sources define ${seen} with that value`];
            });
            expect(wrong).toEqual([]);
        });
    }
});

/**
 * Gas figures in contract comments rot: the code changes and the number stays. So the comments do
 * not quote measurements; they name the test that measures the case and pins the constant (and
 * bench/gas-report.md has the bench's rows). This holds both: no measured figure in a comment, and
 * every test and spec file a contract comment names exists.
 */
describe('gas comments of the contracts', () => {
    const files = sourceFiles(CONTRACTS).concat(
        fs
            .readdirSync(CONTRACTS, { recursive: true, encoding: 'utf8' })
            .filter((f) => f.endsWith('.tlb'))
            .map((f) => path.join(CONTRACTS, f)),
    );
    /** Each run of comment lines of each file, as one text (markers removed). */
    const comments = files.flatMap((file) => {
        const blocks: { file: string; text: string }[] = [];
        let current: string[] = [];
        for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
            const m = /^\s*(?:\/\/\/?|;;)(.*)$/.exec(line);
            if (m) current.push(m[1].trim());
            else if (current.length) {
                blocks.push({ file: path.relative(CONTRACTS, file), text: current.join(' ') });
                current = [];
            }
        }
        return blocks;
    });
    const specs = (name: string) => fs.existsSync(path.resolve(__dirname, '..', name));
    const allSpecText = fs
        .readdirSync(__dirname, { recursive: true, encoding: 'utf8' })
        .filter((f) => f.endsWith('.spec.ts'))
        .map((f) => fs.readFileSync(path.join(__dirname, f), 'utf8'))
        .join('\n');

    it('should quote no measured gas figure (they name the measuring test instead)', () => {
        const quoted = comments.flatMap(({ file, text }) =>
            [...text.matchAll(/\bmeasur\w*[^.;]*?\b\d{1,3}(?:,\d{3})+\b/gi)].map((m) => `${file}: ${m[0]}`),
        );
        expect(quoted).toEqual([]);
    });

    it('should name spec files and tests that exist', () => {
        const missing = comments.flatMap(({ file, text }) => [
            ...[...text.matchAll(/tests\/[\w./-]+\.spec\.ts/g)]
                .filter((m) => !specs(m[0]))
                .map((m) => `${file}: ${m[0]}`),
            ...[...text.matchAll(/'(gas constants[^']*)'/g)]
                .filter((m) => !allSpecText.includes(m[1].replace(/\s*\.\.\.$/, '')))
                .map((m) => `${file}: '${m[1]}'`),
        ]);
        expect(missing).toEqual([]);
    });
});
