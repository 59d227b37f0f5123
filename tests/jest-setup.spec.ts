/**
 * What tools/jest (jest.config.js) changes in every spec's world, checked: @ton/crypto's
 * sha256_sync runs on Node's SHA-256 (tools/jest/fast-sha256.js) and gives the pure-JavaScript
 * implementation's digests, so cell hashes are the ones the library computes without the setup.
 */
import { randomBytes } from 'crypto';
import { sha256_sync } from '@ton/crypto';
import { beginCell, Cell } from '@ton/core';
import { compiledCode } from '../wrappers/compiled';

/** The library's own sha256_sync, from a module registry the setup has not touched. */
function librarySha256(): (data: Buffer | string) => Buffer {
    let original: ((data: Buffer | string) => Buffer) | undefined;
    jest.isolateModules(() => {
        original = require('@ton/crypto/dist/primitives/sha256').sha256_sync;
    });
    return original!;
}

describe('the test setup (tools/jest)', () => {
    it("sha256_sync should give the library's pure-JavaScript digests, for buffers and strings", () => {
        const original = librarySha256();
        expect(original).not.toBe(sha256_sync);
        for (const size of [0, 1, 55, 56, 64, 127, 128, 1000, 70_000]) {
            const data = randomBytes(size);
            expect(sha256_sync(data).toString('hex')).toBe(original(data).toString('hex'));
        }
        expect(sha256_sync('TON ✓').toString('hex')).toBe(original('TON ✓').toString('hex'));
    });

    it('cell hashes should be the standard representation hashes', () => {
        // the representation hash of an empty ordinary cell (TVM: HASHCU of an empty cell)
        expect(new Cell().hash().toString('hex')).toBe(
            '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
        );
        const cell = beginCell().storeUint(0xdeadbeef, 32).storeRef(beginCell().storeUint(1, 8)).endCell();
        const repr = Buffer.concat([Buffer.from([1, 8]), Buffer.from('deadbeef', 'hex'), Buffer.from([0, 0])]);
        const child = beginCell().storeUint(1, 8).endCell();
        const original = librarySha256();
        expect(cell.hash().toString('hex')).toBe(original(Buffer.concat([repr, child.hash()])).toString('hex'));
        // a real contract's code survives a round trip with the same hash
        const code = compiledCode('LiteClient');
        expect(Cell.fromBoc(code.toBoc())[0].hash().equals(code.hash())).toBe(true);
    });
});
