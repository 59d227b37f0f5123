/**
 * One EDR context per jest worker.
 *
 * Hardhat's in-process network keeps its EdrContext in a module variable, and jest loads a fresh
 * copy of every module for each spec file, so each spec that starts a Hardhat network created a
 * new context. EDR allows one per process: every extra one printed "Failed to set global tracing
 * subscriber ... Please only initialize EdrContext once per process". The native addon itself is
 * loaded once per worker (jest hands `.node` files to Node's own require), so replacing its
 * EdrContext export with a constructor that returns the worker's first context makes every spec
 * share it, and the warning goes away.
 */
'use strict';

const candidates = {
    'linux-x64': ['edr-linux-x64-gnu', 'edr-linux-x64-musl'],
    'linux-arm64': ['edr-linux-arm64-gnu', 'edr-linux-arm64-musl'],
    'darwin-x64': ['edr-darwin-x64'],
    'darwin-arm64': ['edr-darwin-arm64'],
    'win32-x64': ['edr-win32-x64-msvc'],
}[`${process.platform}-${process.arch}`];

for (const name of candidates ?? []) {
    let binding;
    try {
        binding = require(`@nomicfoundation/${name}`);
    } catch {
        continue; // not this platform's build (e.g. musl on glibc)
    }
    if (typeof binding.EdrContext !== 'function' || binding.EdrContext.workerShared) break;
    const Native = binding.EdrContext;
    let shared;
    function EdrContext() {
        if (shared === undefined) shared = new Native();
        return shared;
    }
    EdrContext.prototype = Native.prototype;
    EdrContext.workerShared = true;
    binding.EdrContext = EdrContext;
    break;
}
