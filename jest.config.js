/** @type {import('jest').Config} */
module.exports = {
    testEnvironment: 'node',
    testEnvironmentOptions: { globalsCleanup: 'off' },
    // the one build every spec depends on (content-addressed: only changed contracts are compiled)
    globalSetup: '<rootDir>/tools/jest/global-setup.js',
    transform: { '^.+\\.(t|j)sx?$': '@swc/jest' },
    testMatch: ['<rootDir>/tests/**/*.spec.ts'],
    testPathIgnorePatterns: process.env.BENCH ? [] : ['<rootDir>/tests/bench/'],
    testTimeout: 120000,
    // two cores: jest's default (cores - 1) would run the specs one at a time
    maxWorkers: 2,
};
