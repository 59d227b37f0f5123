/**
 * The code of every contract the deploy installs, from the build (`npm run build` writes
 * build/<Name>.compiled.json): what is deployed and what verifyDeployment compares against.
 */
import { Cell } from '@ton/core';
import { compiledCode } from '../../wrappers/compiled';

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

export function codeOfBuild(name: ContractName): Cell {
    return compiledCode(name);
}

export function loadCodes(): BridgeCodes {
    return Object.fromEntries(CONTRACT_NAMES.map((n) => [n, codeOfBuild(n)])) as BridgeCodes;
}
