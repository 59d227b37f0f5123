/** @type {import('jest').Config} */
module.exports = {
    testEnvironment: '@ton/sandbox/jest-environment',
    testEnvironmentOptions: { globalsCleanup: 'off' },
    reporters: ['default', '@ton/sandbox/jest-reporter'],
    transform: { '^.+\\.(t|j)sx?$': '@swc/jest' },
    testMatch: ['<rootDir>/tests/**/*.spec.ts'],
    testPathIgnorePatterns: process.env.BENCH ? [] : ['<rootDir>/tests/bench/'],
    testTimeout: 120000,
    // two cores: jest's default (cores - 1) would run the specs one at a time
    maxWorkers: 2,
};
