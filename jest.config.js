/** @type {import('jest').Config} */
module.exports = {
    // jest's node environment, plus an object the spec files of one worker share (tools/jest/environment.js)
    testEnvironment: '<rootDir>/tools/jest/environment.js',
    testEnvironmentOptions: { globalsCleanup: 'off' },
    // the one build every spec depends on (content-addressed: only changed contracts are compiled)
    globalSetup: '<rootDir>/tools/jest/global-setup.js',
    // a line per spec file, the failures and a summary; a passing spec's console.log stays quiet
    reporters: ['<rootDir>/tools/jest/reporter.js', 'summary'],
    // fast-sha256: Node's SHA-256 for @ton/core's cell hashes (the same digests, a third of the CPU time less);
    // fast-ed25519: Node's ed25519 for @ton/crypto's key pairs and signatures (the same keys and
    // signatures; tweetnacl took ~70 ms each);
    // fast-cells: @ton/core's bit reads and writes, padded buffers and crc32c a byte at a time instead
    // of a bit at a time (the same results and errors; half the CPU time of the contract specs was there);
    // fast-boc: Cell.fromBoc hands out the cells it has built before for the same content instead of
    // building and hashing them again (the sandbox's accounts and transactions, read again and again);
    // sandbox-fast: @ton/sandbox without repeated work (get methods of unchanged accounts answered
    // from a memo, accounts parsed when read, snapshots restored as kept): the same results, less CPU;
    // sandbox-wasm: the sandbox's emulator compiled once per worker, not once per spec file;
    // edr-context: the specs of one worker share one Hardhat (EDR) context, as EDR requires;
    // child-processes: the processes specs start with ts-node transpile with swc (tools/jest/ts-node.tsconfig.json)
    setupFiles: [
        '<rootDir>/tools/jest/fast-sha256.js',
        '<rootDir>/tools/jest/fast-ed25519.js',
        '<rootDir>/tools/jest/fast-cells.js',
        '<rootDir>/tools/jest/fast-boc.js',
        '<rootDir>/tools/jest/sandbox-fast.js',
        '<rootDir>/tools/jest/sandbox-wasm.js',
        '<rootDir>/tools/jest/edr-context.js',
        '<rootDir>/tools/jest/child-processes.js',
    ],
    // addresses and cells in toEqual / toBe failures printed as EQ... and x{...}
    setupFilesAfterEnv: ['<rootDir>/tools/jest/readable-failures.js'],
    transform: { '^.+\\.(t|j)sx?$': '@swc/jest', '^.+\\.cjs$': '@swc/jest' },
    // PGlite's CommonJS build loads Node built-ins with import(), which jest's CommonJS runtime cannot
    // run: swc turns those into require() (the storage specs, service/storage/db.ts)
    transformIgnorePatterns: ['/node_modules/(?!@electric-sql/pglite/dist/)'],
    testMatch: ['<rootDir>/tests/**/*.spec.ts'],
    testPathIgnorePatterns: process.env.BENCH ? [] : ['<rootDir>/tests/bench/'],
    testTimeout: 120000,
    // the longest spec files first (jest's timings of this machine, else tools/jest/durations.json)
    testSequencer: '<rootDir>/tools/jest/sequencer.js',
    // two cores: jest's default (cores - 1) would run the specs one at a time
    maxWorkers: 2,
};
