/**
 * The local bridge network: two TVM networks (global ids -239 and 2000) behind toncenter v2
 * endpoints, sealing blocks and rotating validators on timers; Hardhat's EVM node; the bridge
 * deployed on all of them through the same code the blueprint scripts and Ignition modules run
 * (lib/deploy, ignition/modules); the off-chain actors; funded accounts; a deployment file.
 *
 * With `deploy: false` it writes only the plan (networks, endpoints, owners, trusted key blocks,
 * relay keys) and waits: a deployer (the end-to-end test, or a developer trying the scripts) deploys
 * with `npx blueprint run deployBridge ...` and Ignition, then `startOperators()` starts the
 * operators: by default the operator services as child processes (processOperators.ts).
 */
import { freePort } from '../freePort';
import fs from 'fs';
import path from 'path';
import { Address, toNano } from '@ton/core';
import { TonClient } from '@ton/ton';
import { SigningKey } from 'ethers';
import { RelaySet } from '../../harness/evm/relay';
import { loadCodes } from '../../lib/deploy/codes';
import { Deployment, deploymentPath, readDeployment, writeDeployment } from '../../lib/deploy/deployment';
import { deployTvmSide } from '../../lib/deploy/tvm';
import { deployJetton, mintJetton, registerNativeToken } from '../../lib/deploy/tokens';
import { ChainOps } from '../../lib/deploy/ops';
import { TvmNode } from './tvmNode';
import { opsFromNode } from './nodeOps';
import { serveTonCenter, TonCenterServer } from './toncenter';
import { EvmNode, HARDHAT_ACCOUNTS, ignitionDeploy, ignitionDeploymentDir, ROOT, startEvmNode } from './evmNode';
import { TvmAccount, tvmAccount, walletAddresses } from './accounts';
import { InProcessOperators, Log, Operators } from './operators';
import { localTvmEvmRelayKeys, openTvmToEvm } from './tvmEvm';
import { ProcessOperators } from './processOperators';

export const TVM_NETWORKS = [
    { key: 'A', globalId: -239 },
    { key: 'B', globalId: 2000 },
] as const;

export interface LocalNetworkOptions {
    /** deployment name: deployments/<name>.json (default "local") */
    name?: string;
    /** folder of the deployment file (default <project>/deployments) */
    dir?: string;
    /** ports; 0 (default) takes a free one */
    ports?: { A?: number; B?: number; evm?: number };
    blockSeconds?: number;
    epochSeconds?: number;
    /** validators per TVM network (default 16) */
    validators?: number;
    /** relays of the EVM network (default 4), each way: EVM to TVM (ed25519 keys) and TVM to EVM (secp256k1 keys) */
    relays?: number;
    /** deploy the bridge and start the actors (default true) */
    deploy?: boolean;
    /**
     * start the operators after deploying (default true); false leaves the network to operators
     * started elsewhere (service/localnet/README.md, "The operator seam")
     */
    startOperators?: boolean;
    /** start the EVM node (default true) */
    evm?: boolean;
    /**
     * the operators: `processes` (default) runs the operator services of service/operators/ as
     * child processes (`ProcessOperators`), as an operator runs them; `in-process` the harness's
     * actors on a timer in this process (quicker to start); or any `Operators` of the network
     */
    operators?: 'processes' | 'in-process' | ((n: LocalNetwork) => Operators);
    /** ms between the operators' rounds, in process or as processes (default 1000) */
    operatorIntervalMs?: number;
    log?: Log;
}

export interface LocalTvm {
    key: string;
    node: TvmNode;
    server: TonCenterServer;
    client: TonClient;
}

export interface LocalNetwork {
    name: string;
    deploymentFile: string;
    tvm: Record<string, LocalTvm>;
    evm?: EvmNode;
    /**
     * the deployer (owner of every contract), a user, and an operator (the wallet operators running
     * as their own processes send from); each v4 and v5r1 wallet is funded on both networks
     */
    accounts: { deployer: TvmAccount; user: TvmAccount; operator: TvmAccount };
    relays: RelaySet;
    /** the TVM to EVM relays' EVM keys: the Bridge's first round (localTvmEvmRelayKeys) */
    tvmEvmRelayKeys: SigningKey[];
    deployment(): Deployment;
    /** deploys everything (what `deploy: true` does) */
    deploy(): Promise<void>;
    startOperators(): Promise<Operators>;
    operators?: Operators;
    stop(): Promise<void>;
}

/**
 * The relays of a local network named `name`: relay i's ed25519 key pair comes from the 32-byte seed
 * "<name>-relay-<i>" (UTF-8, zero-padded), the same every start; their public keys are the Bridge's
 * first round (deployment file `relays`). A relay running as its own process derives its key the
 * same way.
 */
export function localRelays(name: string, n = 4): RelaySet {
    return RelaySet.generate(n, `${name}-relay`);
}

export { freePort };

/** Funding of each wallet of the deployer and the user, on each TVM network. */
export const ACCOUNT_FUNDS = toNano('100000');
/** Test tokens minted to the user on each TVM network (9 decimals). */
export const USER_TOKENS = 1_000_000n * 10n ** 9n;

export async function startLocalNetwork(o: LocalNetworkOptions = {}): Promise<LocalNetwork> {
    const log: Log = o.log ?? (() => undefined);
    const name = o.name ?? 'local';
    const file = deploymentPath(name, o.dir ?? path.join(ROOT, 'deployments'));
    const stops: (() => Promise<void>)[] = [];
    const stop = async () => {
        for (const s of stops.reverse()) await s().catch(() => undefined);
        stops.length = 0;
    };
    let evmStarting: Promise<EvmNode | Error> | undefined;
    try {
        // the EVM node (its own process) starts while the accounts and TVM networks are made here
        evmStarting =
            o.evm === false
                ? undefined
                : (async () => startEvmNode(o.ports?.evm || (await freePort())))().then(
                      (node) => {
                          stops.push(() => node.stop());
                          return node;
                      },
                      (e: unknown) => (e instanceof Error ? e : new Error(String(e))),
                  );
        const accounts = {
            deployer: await tvmAccount('deployer'),
            user: await tvmAccount('user'),
            operator: await tvmAccount('operator'),
        };
        const relays = localRelays(name, o.relays ?? 4);
        const tvmEvmRelayKeys = localTvmEvmRelayKeys(o.relays ?? 4);
        const tvm: Record<string, LocalTvm> = {};
        for (const n of TVM_NETWORKS) {
            const node = await TvmNode.create({
                globalId: n.globalId,
                name: n.key,
                validators: o.validators ?? 16,
                blockSeconds: o.blockSeconds,
                epochSeconds: o.epochSeconds,
            });
            const server = await serveTonCenter(node, o.ports?.[n.key] ?? 0);
            stops.push(() => server.close());
            node.start();
            stops.push(async () => node.stop());
            node.onKeyBlock = (k) =>
                log('tvm.key_block', { network: n.key, seqno: k.block.seqno, since: k.set.utimeSince });
            await node.exclusive(async () => {
                for (const a of [accounts.deployer, accounts.user, accounts.operator])
                    for (const w of walletAddresses(a)) await node.fund(w, ACCOUNT_FUNDS);
            });
            tvm[n.key] = { key: n.key, node, server, client: new TonClient({ endpoint: server.jsonRpc }) };
            log('tvm.started', { network: n.key, globalId: n.globalId, endpoint: server.jsonRpc });
        }
        let evm: EvmNode | undefined;
        if (evmStarting) {
            const started = await evmStarting;
            if (started instanceof Error) throw started;
            evm = started;
            log('evm.started', { endpoint: evm.url, chainId: evm.chainId });
        }

        // the plan: what a deployer fills in before running the scripts
        const plan: Deployment = { name, tvm: {} };
        for (const n of TVM_NETWORKS) {
            const node = tvm[n.key].node;
            const keyBlocks = node.network.chain.keyBlocks;
            const trusted = keyBlocks.length ? keyBlocks[keyBlocks.length - 1] : node.network.chain.genesisKeyBlock();
            plan.tvm[n.key] = {
                globalId: n.globalId,
                endpoint: tvm[n.key].server.jsonRpc,
                explorer: tvm[n.key].server.url,
                owner: accounts.deployer.v4.address.toRawString(),
                trustedKeyBlock: trusted.proof.toBoc().toString('base64'),
                relays: relays.publicKeys.map((k) => k.toString(16).padStart(64, '0')),
                startTimestamp: node.network.now - 60,
                contracts: {},
            };
        }
        if (evm)
            plan.evm = { chainId: evm.chainId, endpoint: evm.url, tvm: 'A', blocksToConfirm: 2, startBlockNumber: 0 };
        writeDeployment(file, plan);

        const opsOf = (key: string): ChainOps =>
            // straight on the node (nodeOps.ts): the endpoint's own operations without its HTTP
            opsFromNode(tvm[key].node, accounts.deployer.v4, accounts.deployer.keys, {
                pollMs: 100,
                attempts: 100,
                log: (line) => log('deploy', { network: key, line: line.trim() }),
            });

        const handle: LocalNetwork = {
            name,
            deploymentFile: file,
            tvm,
            evm,
            accounts,
            relays,
            tvmEvmRelayKeys,
            deployment: () => readDeployment(file),
            deploy: async () => {
                const d = readDeployment(file);
                const save = (x: Deployment) => writeDeployment(file, x);
                // Ignition (a process of its own) deploys the EVM side while the TVM network the
                // MultiVault does not deposit to is deployed here; the other one needs its address.
                // Its journal (ignition/deployments/<name>-devnet) goes with the node when the network stops.
                const ignitionId = `${name}-devnet`;
                if (evm && d.evm)
                    stops.push(async () =>
                        fs.rmSync(ignitionDeploymentDir(ignitionId), { recursive: true, force: true }),
                    );
                const ignition =
                    evm && d.evm
                        ? ignitionDeploy(
                              evm,
                              'ignition/modules/DevnetBridge.ts',
                              'ignition/parameters/devnet.json',
                              ignitionId,
                          ).then(
                              (a) => {
                                  Object.assign(d.evm!, {
                                      multiVault: a['DevnetBridge#MultiVault'],
                                      weth: a['DevnetBridge#TestWETH'],
                                      bridge: a['DevnetBridge#Bridge'],
                                      governance: HARDHAT_ACCOUNTS[1].address,
                                      guardian: HARDHAT_ACCOUNTS[2].address,
                                  });
                                  d.extra = { ...d.extra, evmToken: a['DevnetBridge#TestERC20'] };
                                  save(d);
                                  return undefined;
                              },
                              (e: unknown) => (e instanceof Error ? e : new Error(String(e))),
                          )
                        : Promise.resolve(undefined);
                const codes = loadCodes();
                const needsEvm = (key: string) => !!d.evm && d.evm.tvm === key;
                for (const n of TVM_NETWORKS.filter((x) => !needsEvm(x.key)))
                    await deployTvmSide(opsOf(n.key), d, n.key, codes, save);
                const failed = await ignition;
                if (failed) throw failed;
                for (const n of TVM_NETWORKS.filter((x) => needsEvm(x.key)))
                    await deployTvmSide(opsOf(n.key), d, n.key, codes, save);
                const tokens: Record<string, unknown> = {};
                for (const n of TVM_NETWORKS) {
                    const ops = opsOf(n.key);
                    const meta = { name: `Local ${n.key} Token`, symbol: `TK${n.key}`, decimals: 9 };
                    const minter = await deployJetton(ops, meta);
                    await registerNativeToken(ops, Address.parse(d.tvm[n.key].contracts.nativeProxy!), minter, meta);
                    for (const w of walletAddresses(accounts.user)) await mintJetton(ops, minter, w, USER_TOKENS);
                    tokens[n.key] = { minter: minter.toRawString(), ...meta };
                }
                d.extra = { ...d.extra, tokens };
                save(d);
                // TVM to EVM: the Bridge's first round and the MultiVault's TVM configurations
                if (evm && d.evm?.bridge) await openTvmToEvm(evm.provider, d, tvmEvmRelayKeys);
            },
            startOperators: async () => {
                const ops =
                    typeof o.operators === 'function'
                        ? o.operators(handle)
                        : o.operators === 'in-process'
                          ? new InProcessOperators(
                                Object.fromEntries(Object.entries(tvm).map(([k, v]) => [k, v.node])),
                                readDeployment(file),
                                {
                                    evm: evm ? { provider: evm.provider, chainId: evm.chainId } : undefined,
                                    relays,
                                    tvmEvmRelayKeys,
                                    log,
                                    tickMs: o.operatorIntervalMs,
                                },
                            )
                          : new ProcessOperators(handle, { log, intervalMs: o.operatorIntervalMs });
                await ops.start();
                stops.push(() => ops.stop());
                if (ops.tvmEvmRelayUrls?.length) {
                    const d = readDeployment(file);
                    d.evm!.relayEndpoints = ops.tvmEvmRelayUrls;
                    writeDeployment(file, d);
                }
                handle.operators = ops;
                return ops;
            },
            stop,
        };
        if (o.deploy !== false) {
            await handle.deploy();
            if (o.startOperators !== false) await handle.startOperators();
        }
        return handle;
    } catch (e) {
        // an EVM node still starting is stopped too, once started
        await evmStarting;
        await stop();
        throw e;
    }
}
