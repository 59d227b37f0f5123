// setupFiles: @ton/crypto signs, verifies and derives ed25519 keys with tweetnacl, pure JavaScript:
// about 70 ms per key pair, signature or verification in a jest worker. The EVM relays' keys
// (RelaySet.generate) and their signed votes were a quarter of tests/evm_tvm.spec.ts's CPU time.
// Node's own ed25519 gives the same keys and the same signatures (ed25519 signing is
// deterministic) many times faster, and accepts the signatures tweetnacl accepts (what Node
// refuses goes to tweetnacl); tests/jest-setup.spec.ts checks that they agree. A secret key whose
// second half is not its seed's public key (tweetnacl signs with it as it is) and input of a wrong
// size (tweetnacl throws) go to tweetnacl as before. Only the tests' module registry is changed,
// not the library.
'use strict';
const crypto = require('crypto');
const nacl = require('@ton/crypto/dist/primitives/nacl');

if (!nacl.sign.native) {
    const PKCS8_ED25519 = Buffer.from('302e020100300506032b657004220420', 'hex');
    const MAX_KEYS = 100_000;
    // the worker's (tools/jest/environment.js): the spec files of one worker parse a seed's keys once
    const worker = globalThis[Symbol.for('tvm-bridge.jest-worker')];
    /** seed (hex) -> the private KeyObject; seed (hex) -> the public key (hex) */
    const privateKeys = worker?.keyObjects('ed25519 private key of seed') ?? new Map();
    const publicKeyHex = worker?.strings('ed25519 public key of seed') ?? new Map();
    /** seed (hex) -> { key, publicKey }: this file's */
    const keys = new Map();

    function keyOf(seed) {
        const id = Buffer.from(seed).toString('hex');
        let k = keys.get(id);
        if (!k) {
            let key = privateKeys.get(id);
            if (key === undefined) {
                key = crypto.createPrivateKey({
                    key: Buffer.concat([PKCS8_ED25519, seed]),
                    format: 'der',
                    type: 'pkcs8',
                });
                if (privateKeys.size >= MAX_KEYS) privateKeys.clear();
                privateKeys.set(id, key);
            }
            let hex = publicKeyHex.get(id);
            if (hex === undefined) {
                const spki = crypto.createPublicKey(key).export({ format: 'der', type: 'spki' });
                hex = spki.subarray(spki.length - 32).toString('hex');
                if (publicKeyHex.size >= MAX_KEYS) publicKeyHex.clear();
                publicKeyHex.set(id, hex);
            }
            k = { key, publicKey: Buffer.from(hex, 'hex') };
            if (keys.size >= MAX_KEYS) keys.clear();
            keys.set(id, k);
        }
        return k;
    }

    const bytes = (x) => ArrayBuffer.isView(x);

    const originalFromSeed = nacl.keyPairFromSeed;
    nacl.keyPairFromSeed = function keyPairFromSeed(seed) {
        if (!bytes(seed) || seed.length !== 32) return originalFromSeed(seed);
        const s = Buffer.from(seed.buffer, seed.byteOffset, 32);
        const { publicKey } = keyOf(s);
        return { publicKey: Buffer.from(publicKey), secretKey: Buffer.concat([s, publicKey]) };
    };

    const originalSign = nacl.sign;
    nacl.sign = function sign(data, secretKey) {
        if (!bytes(data) || !bytes(secretKey) || secretKey.length !== 64) return originalSign(data, secretKey);
        const sk = Buffer.from(secretKey.buffer, secretKey.byteOffset, 64);
        const k = keyOf(sk.subarray(0, 32));
        if (!k.publicKey.equals(sk.subarray(32))) return originalSign(data, secretKey);
        return crypto.sign(null, data, k.key);
    };
    nacl.sign.native = true;

    // verify: Node's ed25519 first. Both check the same equation ([S]B = R + [k]A, R compared as
    // encoded), so what Node accepts tweetnacl accepts; Node also refuses what RFC 8032 refuses and
    // tweetnacl takes (S >= L), so anything Node refuses is left to tweetnacl to decide.
    const SPKI_ED25519 = Buffer.from('302a300506032b6570032100', 'hex');
    const publicKeys = worker?.keyObjects('ed25519 public key') ?? new Map();
    const originalVerify = nacl.signVerify;
    nacl.signVerify = function signVerify(data, signature, publicKey) {
        if (
            !bytes(data) ||
            !bytes(signature) ||
            !bytes(publicKey) ||
            signature.length !== 64 ||
            publicKey.length !== 32
        )
            return originalVerify(data, signature, publicKey);
        const id = Buffer.from(publicKey.buffer, publicKey.byteOffset, 32).toString('hex');
        let key = publicKeys.get(id);
        if (key === undefined) {
            try {
                key = crypto.createPublicKey({
                    key: Buffer.concat([SPKI_ED25519, Buffer.from(id, 'hex')]),
                    format: 'der',
                    type: 'spki',
                });
            } catch {
                key = null; // not a point Node takes: tweetnacl decides
            }
            if (publicKeys.size >= MAX_KEYS) publicKeys.clear();
            publicKeys.set(id, key);
        }
        let valid = false;
        if (key !== null) {
            try {
                valid = crypto.verify(null, data, key, signature);
            } catch {
                valid = false;
            }
        }
        return valid || originalVerify(data, signature, publicKey);
    };
    nacl.signVerify.native = true;
}
