import fs from 'fs';
import path from 'path';

/**
 * Real TON data (key blocks, signatures, transaction proofs) used by the tests lives outside this
 * repository. Its folder is found from TON_FIXTURES or, by default, at ../shared/fixtures/ton
 * beside the checkout.
 */
export const FIXTURES_DIR = process.env.TON_FIXTURES
    ? path.resolve(process.env.TON_FIXTURES)
    : path.resolve(__dirname, '..', '..', 'shared', 'fixtures', 'ton');

export function fixturesAvailable(): boolean {
    return fs.existsSync(FIXTURES_DIR);
}

/**
 * `describe` for specs that need the real fixtures. Where the folder is missing the specs are
 * skipped with a message, except under CI (CI=true), where a missing folder fails the run.
 */
export function describeWithFixtures(name: string, fn: () => void): void {
    if (fixturesAvailable()) {
        describe(name, fn);
        return;
    }
    if (process.env.CI === 'true' || process.env.CI === '1') {
        describe(name, () => {
            it('needs the real TON fixtures', () => {
                throw new Error(`real TON fixtures not found at ${FIXTURES_DIR} (set TON_FIXTURES)`);
            });
        });
        return;
    }

    console.warn(`skipping "${name}": real TON fixtures not found at ${FIXTURES_DIR} (set TON_FIXTURES)`);
    describe.skip(name, fn);
}

export function fixturePath(...parts: string[]): string {
    return path.join(FIXTURES_DIR, ...parts);
}

export function readFixture(...parts: string[]): Buffer {
    return fs.readFileSync(fixturePath(...parts));
}

export function readFixtureJson<T = unknown>(...parts: string[]): T {
    return JSON.parse(fs.readFileSync(fixturePath(...parts), 'utf8')) as T;
}
