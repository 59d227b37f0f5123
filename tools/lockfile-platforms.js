#!/usr/bin/env node
/**
 * Completes package-lock.json with the foreign-platform builds of native packages.
 *
 * Packages such as @swc/core and unrs-resolver (jest) list one optional dependency per platform
 * (`@swc/core-darwin-arm64`, `...-win32-x64-msvc`, ...). The npm registry this project is installed
 * from does not serve every one of them; `npm install` then silently leaves the missing ones out of
 * the lockfile, and `npm ci` refuses that lockfile ("Missing: @swc/core-darwin-arm64@ from lock
 * file"). This script adds each missing platform build as the entry npm writes for a package it will
 * never install on this machine (version, os, cpu, libc, optional); `npm install` keeps such entries
 * as they are, so the lockfile becomes a fixed point of `npm install` and `npm ci` accepts it.
 *
 * Run it in the project folder after regenerating the lockfile from scratch, then `npm install` once more:
 *   node tools/lockfile-platforms.js && npm install
 * It exits 1 if an optional dependency is missing that is not a platform build (that needs a human).
 */
'use strict';
const fs = require('fs');
const path = require('path');

const OS = ['android', 'darwin', 'freebsd', 'linux', 'netbsd', 'openbsd', 'openharmony', 'sunos', 'win32', 'aix'];
const CPU = ['arm64', 'arm', 'ia32', 'loong64', 'mips64el', 'ppc64', 'riscv64', 's390x', 'x64', 'wasm32'];

/** os / cpu / libc of a platform build, from its name (`<family>-<os>-<cpu>[-<abi>]`); undefined if none. */
function platformOf(name) {
    const parts = name.split('/').pop().split('-');
    const i = parts.findIndex((p) => OS.includes(p));
    if (i < 0 || !CPU.includes(parts[i + 1])) return undefined;
    const abi = parts[i + 2] ?? '';
    const libc = /^(gnu|glibc)/.test(abi) ? ['glibc'] : /^musl/.test(abi) ? ['musl'] : undefined;
    return { os: [parts[i]], cpu: [parts[i + 1]], libc };
}

/** Where node's resolution finds `name` from the package at `from` (a lockfile key), or undefined. */
function resolve(packages, from, name) {
    for (let base = from; ;) {
        const key = `${base ? `${base}/` : ''}node_modules/${name}`;
        if (packages[key]) return key;
        if (!base) return undefined;
        const i = base.lastIndexOf('/node_modules/');
        base = i < 0 ? '' : base.slice(0, i);
    }
}

function main() {
    const file = path.resolve('package-lock.json');
    const lock = JSON.parse(fs.readFileSync(file, 'utf8'));
    const packages = lock.packages;
    const added = [];
    const unknown = [];
    for (const [key, entry] of Object.entries(packages)) {
        for (const [name, spec] of Object.entries(entry.optionalDependencies ?? {})) {
            if (resolve(packages, key, name)) continue;
            const platform = platformOf(name);
            if (!platform || !/^\d+\.\d+\.\d+(-[\w.]+)?$/.test(spec)) {
                unknown.push(`${name}@${spec} (optional dependency of ${key || 'the project'})`);
                continue;
            }
            const at = packages[`node_modules/${name}`] ? `${key}/node_modules/${name}` : `node_modules/${name}`;
            packages[at] = {
                version: spec,
                cpu: platform.cpu,
                ...(entry.dev ? { dev: true } : {}),
                ...(platform.libc ? { libc: platform.libc } : {}),
                optional: true,
                os: platform.os,
            };
            added.push(`${name}@${spec}`);
        }
    }
    if (added.length) {
        fs.writeFileSync(file, JSON.stringify(lock, null, 2) + '\n');
    }
    console.log(added.length ? `added ${added.length} platform builds:\n  ${added.join('\n  ')}` : 'nothing missing');
    if (unknown.length) {
        console.error(`missing optional dependencies that are not platform builds:\n  ${unknown.join('\n  ')}`);
        process.exit(1);
    }
}

main();
