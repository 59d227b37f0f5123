// setupFiles: @ton/core hashes every cell it builds or parses with @ton/crypto's sha256_sync, a
// pure-JavaScript SHA-256 (jssha, fed a hex string). In the specs that was about a third of all
// CPU time, mostly re-hashing the account states the sandbox hands back after each transaction.
// Node's own SHA-256 gives the same digests many times faster; its one-shot crypto.hash (Node
// 20.12 and later) skips the Hash object createHash makes for every digest, a third less CPU time
// for the short inputs a cell hash takes. tests/jest-setup.spec.ts checks that they agree. Only the
// tests' module registry is changed, not the library.
const crypto = require('crypto');
const primitives = require('@ton/crypto/dist/primitives/sha256');

const oneShot = typeof crypto.hash === 'function';

primitives.sha256_sync = function sha256_sync(source) {
    const data = typeof source === 'string' ? Buffer.from(source, 'utf-8') : source;
    return oneShot ? crypto.hash('sha256', data, 'buffer') : crypto.createHash('sha256').update(data).digest();
};
