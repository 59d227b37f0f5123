import { createPrivateKey, createPublicKey, KeyObject } from 'crypto';
import { ValidatorDescr, ValidatorSetData, sha256 } from '../lib/validatorSet';

// the TL-B of validator sets and the cutoff rule live in lib/ (the operators and wrappers use them too)
export * from '../lib/validatorSet';

/** A synthetic validator: we hold its secret key and can sign. */
export interface Validator extends ValidatorDescr {
    secretKey: Buffer;
}

export type ValidatorSet = ValidatorSetData<Validator>;

export interface MakeValidatorSetOptions {
    size: number;
    /** number of main validators (default: size for equal weights, about 27% of size for 'mainnet') */
    main?: number;
    weights?: bigint[] | 'equal' | 'mainnet';
    seed?: string | Buffer;
    utimeSince: number;
    utimeUntil: number;
}

function u32(n: number): Buffer {
    const b = Buffer.alloc(4);
    b.writeUInt32BE(n >>> 0);
    return b;
}

/** tools/jest/environment.js's maps, shared by the spec files of one jest worker (absent elsewhere) */
type WorkerMaps =
    | {
          strings(name: string): Map<string, string>;
          keyObjects?(name: string): Map<string, KeyObject>;
      }
    | undefined;
const worker = (globalThis as { [k: symbol]: WorkerMaps })[Symbol.for('tvm-bridge.jest-worker')];

/**
 * The public keys derived so far: seed (hex) -> public key (hex). A network makes the same validator
 * sets again and again (each network, each rotation, each spec); under jest the spec files of one
 * worker share this map (tools/jest/environment.js), elsewhere it is this module's.
 */
const publicKeys: Map<string, string> = worker?.strings('ed25519 public key of seed') ?? new Map();
/** seed (hex) -> Node's private key object of it, shared the same way */
const privateKeys: Map<string, KeyObject> = worker?.keyObjects?.('ed25519 private key of seed') ?? new Map();

const MAX_KEPT_KEYS = 200_000;

/** Node's ed25519 private key of a 32-byte seed, parsed once per seed (signing and key derivation share it). */
export function ed25519PrivateKey(seed32: Buffer): KeyObject {
    const id = seed32.toString('hex');
    let key = privateKeys.get(id);
    if (key === undefined) {
        key = createPrivateKey({
            key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), seed32]),
            format: 'der',
            type: 'pkcs8',
        });
        if (privateKeys.size >= MAX_KEPT_KEYS) privateKeys.clear();
        privateKeys.set(id, key);
    }
    return key;
}

/**
 * The same key pair as @ton/crypto `keyPairFromSeed(seed32)` (secretKey = seed || publicKey), computed
 * with Node's native ed25519 (tweetnacl takes ~70 ms per key under jest), once per seed.
 */
export function keyPairFromSeedFast(seed32: Buffer): { publicKey: Buffer; secretKey: Buffer } {
    if (seed32.length !== 32) throw new Error('seed must be 32 bytes');
    const id = seed32.toString('hex');
    let hex = publicKeys.get(id);
    if (hex === undefined) {
        const spki = createPublicKey(ed25519PrivateKey(seed32)).export({ format: 'der', type: 'spki' }) as Buffer;
        hex = spki.subarray(spki.length - 32).toString('hex');
        if (publicKeys.size >= MAX_KEPT_KEYS) publicKeys.clear();
        publicKeys.set(id, hex);
    }
    const publicKey = Buffer.from(hex, 'hex');
    return { publicKey, secretKey: Buffer.concat([seed32, publicKey]) };
}

/** Deterministic ed25519 key pair number `index` of the family `seed`: keyPairFromSeed(sha256(seed || uint32be(index))). */
export function deriveValidatorKey(seed: string | Buffer, index: number): { publicKey: Buffer; secretKey: Buffer } {
    const s = typeof seed === 'string' ? Buffer.from(seed, 'utf8') : seed;
    return keyPairFromSeedFast(sha256(s, u32(index)));
}

/** 2^60, the order of mainnet's total weight */
const MAINNET_TOTAL = 1n << 60n;

function mainnetWeights(size: number, seed: Buffer): bigint[] {
    // Stakes spread over about one order of magnitude, sorted descending like real sets,
    // normalised so the sum is close to 2^60 (as on mainnet).
    const stakes: bigint[] = [];
    for (let i = 0; i < size; i++) {
        const r = sha256(seed, Buffer.from('weight'), u32(i)).readUInt32BE(0);
        stakes.push(100_000n + BigInt(r % 900_000));
    }
    stakes.sort((a, b) => (a > b ? -1 : a < b ? 1 : 0));
    const sum = stakes.reduce((a, b) => a + b, 0n);
    return stakes.map((s) => {
        const w = (s * MAINNET_TOTAL) / sum;
        return w > 0n ? w : 1n;
    });
}

/** Builds a validator set deterministically from a seed. */
export function makeValidatorSet(opts: MakeValidatorSetOptions): ValidatorSet {
    const { size } = opts;
    if (size < 1 || size > 65535) throw new Error(`bad validator set size ${size}`);
    const seed =
        opts.seed === undefined
            ? Buffer.from('validators')
            : typeof opts.seed === 'string'
              ? Buffer.from(opts.seed, 'utf8')
              : opts.seed;
    const kind = opts.weights ?? 'equal';
    let weights: bigint[];
    if (Array.isArray(kind)) {
        if (kind.length !== size) throw new Error(`weights has ${kind.length} entries, size is ${size}`);
        weights = kind;
    } else if (kind === 'mainnet') {
        weights = mainnetWeights(size, seed);
    } else {
        weights = new Array(size).fill(1n << 40n);
    }
    let main = opts.main;
    if (main === undefined) {
        main = kind === 'mainnet' ? Math.max(1, Math.min(size - 1, Math.ceil((size * 100) / 370))) : size;
        if (main < 1) main = 1;
    }
    if (main < 1 || main > size) throw new Error(`main ${main} outside 1..${size}`);
    const validators: Validator[] = [];
    for (let i = 0; i < size; i++) {
        const kp = deriveValidatorKey(seed, i);
        validators.push({ publicKey: kp.publicKey, secretKey: kp.secretKey, weight: weights[i] });
    }
    return {
        utimeSince: opts.utimeSince,
        utimeUntil: opts.utimeUntil,
        main,
        validators,
        totalWeight: weights.reduce((a, b) => a + b, 0n),
        tag: 0x12,
    };
}
