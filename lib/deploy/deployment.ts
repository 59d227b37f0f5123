/**
 * The deployment file (`deployments/<name>.json`): the single source of truth the deploy, admin,
 * read and verify scripts read and write. One file per set of networks bridged together: two TVM
 * networks that follow each other and, optionally, one EVM network.
 *
 * Parameters that shape the contracts (values attached to deploys, initial balances, the EVM event
 * settings) live in DEPLOY_PARAMS below and in the file's `params`, never scattered in scripts.
 */
import fs from 'fs';
import path from 'path';
import { toNano } from '@ton/core';

/** Addresses of the bridge's contracts on one TVM network (raw form 0:<hex>). */
export interface TvmContracts {
    /** the OTHER network's LiteClient, on this network */
    liteClient?: string;
    transactionChecker?: string;
    nativeProxy?: string;
    alienProxy?: string;
    /** TvmTvmEventConfiguration Alien: TvmTvmNative of the other network's native proxy -> alien proxy */
    alienConfiguration?: string;
    /** TvmTvmEventConfiguration Native: TvmTvmAlien of the other network's alien proxy -> native proxy */
    nativeConfiguration?: string;
    /** relays' Bridge (EVM to TVM) */
    bridge?: string;
    evmAlienConfiguration?: string;
    evmNativeConfiguration?: string;
}

/** contracts with an owner that transferOwnership can hand over */
export type OwnedContract = 'nativeProxy' | 'alienProxy' | 'bridge';

/** The current owner of a contract: its recorded handover, else the deploying owner. */
export function ownerOf(entry: TvmNetworkEntry, contract: OwnedContract): string | undefined {
    return entry.owners?.[contract] ?? entry.owner;
}

export interface TvmNetworkEntry {
    globalId: number;
    /** toncenter v2 JSON-RPC endpoint */
    endpoint?: string;
    /** explorer base (GET /traces/<hash>) */
    explorer?: string;
    /** owner of every contract of this network (the deployer's wallet unless set before deploying) */
    owner?: string;
    /**
     * owners after a handover (transferOwnership records them): `owner` stays the deploying owner, as
     * the contracts' addresses derive from it; verifyDeployment checks each contract against these
     */
    owners?: Partial<Record<OwnedContract, string>>;
    /** a key block of THIS network (BOC base64): the other network's LiteClient starts from it */
    trustedKeyBlock?: string;
    /** relay public keys (hex, 64 characters) of the Bridge's first round */
    relays?: string[];
    /** the configurations accept events from this time on (unix seconds; default: deploy time) */
    startTimestamp?: number;
    contracts: TvmContracts;
}

export interface EvmNetworkEntry {
    chainId: number;
    /** the TVM network (key) its deposits go to: a deposit names no TVM chain, so one MultiVault serves one TVM network */
    tvm: string;
    endpoint?: string;
    multiVault?: string;
    /** TVM to EVM: the relays' Bridge (evm/Bridge.sol) the MultiVault checks withdrawals with */
    bridge?: string;
    /** TVM to EVM: the relays' HTTP endpoints serving their signatures (`GET <url>/v1/withdrawals/<id>`) */
    relayEndpoints?: string[];
    weth?: string;
    governance?: string;
    guardian?: string;
    /** blocks a deposit needs on top before relays vote */
    blocksToConfirm: number;
    /** configurations accept deposits from this block on */
    startBlockNumber: number;
}

export interface Deployment {
    name: string;
    /** exactly two TVM networks, by key (e.g. "A", "B") */
    tvm: Record<string, TvmNetworkEntry>;
    evm?: EvmNetworkEntry;
    /** test tokens and other extras the local network records */
    extra?: Record<string, unknown>;
}

/** Values the deploy attaches and the configurations start with: change them here. */
export const DEPLOY_PARAMS = {
    liteClient: toNano('1'),
    transactionChecker: toNano('1'),
    proxy: toNano('1'),
    configuration: toNano('0.2'),
    bridge: toNano('1'),
    ownerOp: toNano('0.05'),
    /** Bridge owner calls push state to every configuration (BRIDGE_PUSH_VALUE each); the rest comes back */
    bridgeOp: toNano('0.5'),
    /** least value of deploy_tvm_event (TvmTvmEventConfiguration eventInitialBalance) */
    tvmEventInitialBalance: toNano('0.6'),
    /** least value of deployEvent (EvmTvmEventConfiguration eventInitialBalance) */
    evmEventInitialBalance: toNano('1'),
    /** what a credit backend / abiTx attaches to deploy_tvm_event */
    tvmDeployEventValue: toNano('1.2'),
};

export function deploymentPath(name: string, dir = path.resolve(process.cwd(), 'deployments')): string {
    if (!/^[\w.-]+$/.test(name)) throw new Error(`deployment name "${name}": letters, digits, . _ - only`);
    return path.join(dir, `${name}.json`);
}

export function readDeployment(file: string): Deployment {
    if (!fs.existsSync(file)) throw new Error(`no deployment file ${file}`);
    const d = JSON.parse(fs.readFileSync(file, 'utf8')) as Deployment;
    const keys = Object.keys(d.tvm ?? {});
    if (keys.length !== 2) throw new Error(`${file}: tvm must name exactly two networks, it names ${keys.length}`);
    for (const k of keys) d.tvm[k].contracts ??= {};
    return d;
}

export function writeDeployment(file: string, d: Deployment): void {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const tmp = `${file}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(d, null, 2) + '\n');
    fs.renameSync(tmp, file);
}

/** The key of the other TVM network. */
export function otherKey(d: Deployment, key: string): string {
    if (!d.tvm[key])
        throw new Error(`deployment ${d.name}: no TVM network "${key}" (it has ${Object.keys(d.tvm).join(', ')})`);
    return Object.keys(d.tvm).find((k) => k !== key)!;
}
