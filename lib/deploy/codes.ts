/**
 * The code of every contract the deploy installs, from the build (`npm run build` writes
 * build/<Name>.compiled.json): what is deployed and what verifyDeployment compares against.
 */
import fs from 'fs';
import path from 'path';
import { Cell } from '@ton/core';

export const CONTRACT_NAMES = [
    'LiteClient',
    'TransactionChecker',
    'ProxyMultiVaultNative',
    'ProxyMultiVaultAlien',
    'TvmTvmEventConfiguration',
    'MultiVaultTvmTvmEventAlien',
    'MultiVaultTvmTvmEventNative',
    'MergeRouter',
    'Bridge',
    'EvmTvmEventConfiguration',
    'MultiVaultEvmTvmEventAlien',
    'MultiVaultEvmTvmEventNative',
    'JettonMinter',
] as const;
export type ContractName = (typeof CONTRACT_NAMES)[number];
export type BridgeCodes = Record<ContractName, Cell>;

export function buildDir(): string {
    return path.resolve(__dirname, '..', '..', 'build');
}

export function codeOfBuild(name: ContractName): Cell {
    const file = path.join(buildDir(), `${name}.compiled.json`);
    if (!fs.existsSync(file)) throw new Error(`${file} is missing: run npm run build first`);
    return Cell.fromHex(JSON.parse(fs.readFileSync(file, 'utf8')).hex);
}

export function loadCodes(): BridgeCodes {
    return Object.fromEntries(CONTRACT_NAMES.map((n) => [n, codeOfBuild(n)])) as BridgeCodes;
}
