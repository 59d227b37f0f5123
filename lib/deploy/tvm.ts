/**
 * The TVM side of the bridge on one network N, following the other TVM network O (and the EVM
 * network, when the deployment has a MultiVault):
 *   1. O's LiteClient (from O's trusted key block) and a TransactionChecker over it;
 *   2. the native and the alien proxy, the native proxy knowing the alien one;
 *   3. the TvmTvmEventConfigurations Alien (O's native proxy's TvmTvmNative -> N's alien proxy) and
 *      Native (O's alien proxy's TvmTvmAlien -> N's native proxy), listed in the proxies;
 *   4. the relays' Bridge with its first round of keys, and the EvmTvmEventConfigurations Alien and
 *      Native (MultiVault's AlienTransfer / NativeTransfer), registered in the Bridge and the proxies.
 * Idempotent: every contract's address follows from its init, a deployed one is checked (its code is
 * the build's) and skipped, and every setting is read before it is sent. The deployment file is
 * saved after each contract, so an interrupted run resumes where it stopped.
 */
import fs from 'fs';
import path from 'path';
import { Address, Cell } from '@ton/core';
import { Interface } from 'ethers';
import { LiteClient } from '../../wrappers/LiteClient';
import { TransactionChecker } from '../../wrappers/TransactionChecker';
import { ProxyMessages, ProxyMultiVaultNative } from '../../wrappers/ProxyMultiVaultNative';
import { ProxyMultiVaultAlien } from '../../wrappers/ProxyMultiVaultAlien';
import { TokenType, TvmTvmEventConfiguration } from '../../wrappers/TvmTvmEventConfiguration';
import { Bridge } from '../../wrappers/Bridge';
import { mergeMultiVaultAbi } from '../../wrappers/evm/MultiVault';
import { EvmEventType, EvmTvmEventConfiguration } from '../../wrappers/EvmTvmEventConfiguration';
import { DEFAULT_EVM_FLAGS, eventAbiOf } from '../evmEventData';
import { BridgeCodes } from './codes';
import { DEPLOY_PARAMS, Deployment, otherKey, TvmContracts } from './deployment';
import { ChainOps, codeOf, ensureDeployed, open, sendAndConfirm } from './ops';

const parse = (a: string) => Address.parse(a);

/** The MultiVault's ABI from Hardhat's artifacts (npm run build). */
export function multiVaultInterface(): Interface {
    const abi = (name: string) => {
        const file = path.resolve(__dirname, '..', '..', 'artifacts', 'evm', `${name}.sol`, `${name}.json`);
        if (!fs.existsSync(file)) throw new Error(`${file} is missing: run npm run build first`);
        return JSON.parse(fs.readFileSync(file, 'utf8')).abi;
    };
    // the vault's own ABI and its withdrawals part's (run at the vault's address through its fallback)
    return new Interface(mergeMultiVaultAbi(abi('MultiVault'), abi('MultiVaultWithdrawals')));
}

/** The proxies a network's owner gets (their addresses follow from the owner and the build). */
export async function plannedProxies(owner: Address, codes: BridgeCodes) {
    const native = await ProxyMultiVaultNative.createFromConfig({ owner });
    const alien = await ProxyMultiVaultAlien.createFromConfig({
        owner,
        nativeProxy: native.address,
        routerCode: codes.MergeRouter,
    });
    return { native, alien };
}

/** Both configurations of network `key` (they need the other network's proxies). */
export async function plannedTvmConfigurations(
    d: Deployment,
    key: string,
    codes: BridgeCodes,
    local: { owner: Address; checker: Address; native: Address; alien: Address },
    remote: { native: Address; alien: Address },
) {
    const me = d.tvm[key];
    const other = d.tvm[otherKey(d, key)];
    const make = (tokenType: TokenType) =>
        TvmTvmEventConfiguration.createFromConfig({
            owner: local.owner,
            tokenType,
            ownChainId: me.globalId,
            transactionChecker: local.checker,
            eventInitialBalance: DEPLOY_PARAMS.tvmEventInitialBalance,
            eventCode:
                tokenType === TokenType.Alien ? codes.MultiVaultTvmTvmEventAlien : codes.MultiVaultTvmTvmEventNative,
            network: {
                chainId: other.globalId,
                eventEmitter: tokenType === TokenType.Alien ? remote.native : remote.alien,
                proxy: tokenType === TokenType.Alien ? local.alien : local.native,
                startTimestamp: me.startTimestamp ?? 0,
                endTimestamp: 0,
            },
        });
    return { alien: await make(TokenType.Alien), native: await make(TokenType.Native) };
}

export async function plannedEvmConfigurations(
    d: Deployment,
    codes: BridgeCodes,
    local: { owner: Address; bridge: Address; native: Address; alien: Address },
) {
    const evm = d.evm!;
    const iface = multiVaultInterface();
    const make = (eventType: EvmEventType) =>
        EvmTvmEventConfiguration.createFromConfig({
            owner: local.owner,
            bridge: local.bridge,
            eventType,
            flags: DEFAULT_EVM_FLAGS,
            eventABI: eventAbiOf(iface, eventType === EvmEventType.Alien ? 'AlienTransfer' : 'NativeTransfer'),
            eventInitialBalance: DEPLOY_PARAMS.evmEventInitialBalance,
            eventCode:
                eventType === EvmEventType.Alien ? codes.MultiVaultEvmTvmEventAlien : codes.MultiVaultEvmTvmEventNative,
            network: {
                chainId: evm.chainId,
                eventEmitter: evm.multiVault!,
                eventBlocksToConfirm: evm.blocksToConfirm,
                proxy: eventType === EvmEventType.Alien ? local.alien : local.native,
                startBlockNumber: evm.startBlockNumber,
                endBlockNumber: 0,
            },
        });
    return { alien: await make(EvmEventType.Alien), native: await make(EvmEventType.Native) };
}

/** Fails when a deployed contract's code is not the build's (someone else's contract at a recorded address). */
async function expectCode(ops: ChainOps, what: string, address: Address, code: Cell): Promise<void> {
    const onChain = await codeOf(ops, address);
    if (onChain && !onChain.equals(code))
        throw new Error(
            `${what} at ${address.toString()}: its code is not this build's (hash ${onChain.hash().toString('hex')})`,
        );
}

export interface DeploySideResult {
    contracts: TvmContracts;
    /** what is still missing and why (e.g. the other network's owner is not known yet) */
    pending: string[];
}

/**
 * Deploys (or completes) the bridge on TVM network `key` of the deployment, as the ops' wallet.
 * `save` is called with the deployment after every change.
 */
export async function deployTvmSide(
    ops: ChainOps,
    d: Deployment,
    key: string,
    codes: BridgeCodes,
    save: (d: Deployment) => void,
): Promise<DeploySideResult> {
    const me = d.tvm[key];
    const oKey = otherKey(d, key);
    const other = d.tvm[oKey];
    const c = me.contracts;
    const pending: string[] = [];
    const owner = ops.sender.address;
    if (me.owner && !parse(me.owner).equals(owner))
        throw new Error(
            `deployment ${d.name}: network ${key}'s owner is ${me.owner}, this wallet is ${owner.toRawString()}: deploy with the owner's wallet`,
        );
    me.owner = owner.toRawString();
    me.startTimestamp ??= Math.floor(Date.now() / 1000) - 60;
    save(d);
    ops.log(
        `Deploying the bridge on ${key} (global id ${me.globalId}), following ${oKey} (${other.globalId}), owner ${owner.toString()}`,
    );

    // 1. LiteClient of the other network, TransactionChecker
    let liteClient: Address;
    if (c.liteClient) {
        liteClient = parse(c.liteClient);
        await expectCode(ops, 'LiteClient', liteClient, codes.LiteClient);
    } else {
        if (!other.trustedKeyBlock)
            throw new Error(
                `deployment ${d.name}: tvm.${oKey}.trustedKeyBlock is missing: the key block of ${oKey} (BOC base64, verified out of band) the LiteClient starts from`,
            );
        const lc = LiteClient.createFromKeyBlock(Cell.fromBase64(other.trustedKeyBlock), codes.LiteClient);
        const cfg = LiteClient.configFromKeyBlock(Cell.fromBase64(other.trustedKeyBlock));
        if (cfg.globalId !== other.globalId)
            throw new Error(
                `tvm.${oKey}.trustedKeyBlock is a key block of global id ${cfg.globalId}, not ${other.globalId}`,
            );
        liteClient = lc.address;
        await ensureDeployed(ops, {
            what: `LiteClient of ${oKey}`,
            to: lc.address,
            value: DEPLOY_PARAMS.liteClient,
            init: lc.init!,
        });
    }
    c.liteClient = liteClient.toRawString();
    save(d);
    const checker = TransactionChecker.createFromConfig({ liteClient }, codes.TransactionChecker);
    if (c.transactionChecker && !parse(c.transactionChecker).equals(checker.address))
        await expectCode(ops, 'TransactionChecker', parse(c.transactionChecker), codes.TransactionChecker);
    else {
        await ensureDeployed(ops, {
            what: 'TransactionChecker',
            to: checker.address,
            value: DEPLOY_PARAMS.transactionChecker,
            init: checker.init!,
        });
        c.transactionChecker = checker.address.toRawString();
    }
    save(d);

    // 2. proxies
    const { native, alien } = await plannedProxies(owner, codes);
    await ensureDeployed(ops, {
        what: 'ProxyMultiVaultNative',
        to: native.address,
        value: DEPLOY_PARAMS.proxy,
        init: native.init!,
    });
    await ensureDeployed(ops, {
        what: 'ProxyMultiVaultAlien',
        to: alien.address,
        value: DEPLOY_PARAMS.proxy,
        init: alien.init!,
    });
    c.nativeProxy = native.address.toRawString();
    c.alienProxy = alien.address.toRawString();
    save(d);
    const nativeProxy = open(ops, ProxyMultiVaultNative.createFromAddress(native.address));
    const alienProxy = open(ops, ProxyMultiVaultAlien.createFromAddress(alien.address));
    if (!(await nativeProxy.getAlienProxy())?.equals(alien.address)) {
        await sendAndConfirm(ops, {
            what: 'native proxy: set_alien_proxy',
            to: native.address,
            value: DEPLOY_PARAMS.ownerOp,
            body: ProxyMultiVaultNative.setAlienProxyMessage(alien.address),
            check: async () => !!(await nativeProxy.getAlienProxy())?.equals(alien.address),
        });
    }

    // TVM to TVM locks of the native proxy may go to the other network (proxy.tlb, set_tvm_tvm_chain)
    if (!(await nativeProxy.getTvmTvmChain(BigInt(other.globalId))))
        await sendAndConfirm(ops, {
            what: `native proxy: set_tvm_tvm_chain ${other.globalId}`,
            to: native.address,
            value: DEPLOY_PARAMS.ownerOp,
            body: ProxyMessages.setTvmTvmChain(other.globalId, true),
            check: () => nativeProxy.getTvmTvmChain(BigInt(other.globalId)),
        });

    // 3. TVM configurations (they need the other network's proxies)
    const remoteOwner = other.owner ? parse(other.owner) : undefined;
    if (!remoteOwner) {
        pending.push(
            `TvmTvmEventConfigurations: tvm.${oKey}.owner is not known yet (deploy on ${oKey}, or set it, then run again)`,
        );
    } else {
        const remote = await plannedProxies(remoteOwner, codes);
        const cfgs = await plannedTvmConfigurations(
            d,
            key,
            codes,
            { owner, checker: checker.address, native: native.address, alien: alien.address },
            { native: remote.native.address, alien: remote.alien.address },
        );
        for (const [kind, cfg, proxy] of [
            ['Alien', cfgs.alien, alienProxy],
            ['Native', cfgs.native, nativeProxy],
        ] as const) {
            await ensureDeployed(ops, {
                what: `TvmTvmEventConfiguration ${kind}`,
                to: cfg.address,
                value: DEPLOY_PARAMS.configuration,
                init: cfg.init!,
            });
            if (kind === 'Alien') c.alienConfiguration = cfg.address.toRawString();
            else c.nativeConfiguration = cfg.address.toRawString();
            save(d);
            if (!(await proxy.getIsTvmConfiguration(cfg.address)))
                await sendAndConfirm(ops, {
                    what: `${kind === 'Alien' ? 'alien' : 'native'} proxy: set_tvm_configuration`,
                    to: proxy.address,
                    value: DEPLOY_PARAMS.ownerOp,
                    body: ProxyMessages.setTvmConfiguration(cfg.address, true),
                    check: () => proxy.getIsTvmConfiguration(cfg.address),
                });
        }
    }

    // 4. EVM to TVM: Bridge, relay keys, EVM configurations
    if (d.evm && d.evm.tvm !== key) {
        // the MultiVault's deposits go to the other TVM network
    } else if (!d.evm?.multiVault) {
        pending.push(
            'EvmTvmEventConfigurations: evm.multiVault is not set (deploy the MultiVault with Ignition first)',
        );
    } else {
        const bridgeInit = await Bridge.createFromConfig({ owner });
        await ensureDeployed(ops, {
            what: 'Bridge',
            to: bridgeInit.address,
            value: DEPLOY_PARAMS.bridge,
            init: bridgeInit.init!,
        });
        c.bridge = bridgeInit.address.toRawString();
        save(d);
        const bridge = open(ops, Bridge.createFromAddress(bridgeInit.address));
        const relays = (me.relays ?? []).map((k) => BigInt('0x' + k.replace(/^0x/, '')));
        if (relays.length === 0) pending.push(`Bridge relay keys: tvm.${key}.relays is empty`);
        else if ((await bridge.getGetRound()) === 0n) {
            await sendAndConfirm(ops, {
                what: 'Bridge: set_relays (round 1)',
                to: bridge.address,
                value: DEPLOY_PARAMS.bridgeOp,
                body: Bridge.setRelaysMessage(1, relays),
                check: async () => (await bridge.getGetRound()) >= 1n,
            });
        }
        const evmCfgs = await plannedEvmConfigurations(d, codes, {
            owner,
            bridge: bridge.address,
            native: native.address,
            alien: alien.address,
        });
        for (const [kind, cfg, proxy] of [
            ['Alien', evmCfgs.alien, alienProxy],
            ['Native', evmCfgs.native, nativeProxy],
        ] as const) {
            await ensureDeployed(ops, {
                what: `EvmTvmEventConfiguration ${kind}`,
                to: cfg.address,
                value: DEPLOY_PARAMS.configuration,
                init: cfg.init!,
            });
            if (kind === 'Alien') c.evmAlienConfiguration = cfg.address.toRawString();
            else c.evmNativeConfiguration = cfg.address.toRawString();
            save(d);
            if ((await bridge.getGetConfiguration(cfg.address)) !== true)
                await sendAndConfirm(ops, {
                    what: `Bridge: set_configuration ${kind}`,
                    to: bridge.address,
                    value: DEPLOY_PARAMS.bridgeOp,
                    body: Bridge.setConfigurationMessage(cfg.address, true),
                    check: async () => (await bridge.getGetConfiguration(cfg.address)) === true,
                });
            if (!(await proxy.getIsEvmConfiguration(cfg.address)))
                await sendAndConfirm(ops, {
                    what: `${kind === 'Alien' ? 'alien' : 'native'} proxy: set_evm_configuration`,
                    to: proxy.address,
                    value: DEPLOY_PARAMS.ownerOp,
                    body: ProxyMessages.setEvmConfiguration(cfg.address, true),
                    check: () => proxy.getIsEvmConfiguration(cfg.address),
                });
        }
        // TVM to EVM: locks of the native proxy may go to this EVM chain (tvm_evm.tlb)
        const evmChainId = BigInt(d.evm!.chainId);
        if (!(await nativeProxy.getTvmEvmChain(evmChainId)))
            await sendAndConfirm(ops, {
                what: `native proxy: set_tvm_evm_chain ${evmChainId}`,
                to: nativeProxy.address,
                value: DEPLOY_PARAMS.ownerOp,
                body: ProxyMessages.setTvmEvmChain(evmChainId, true),
                check: () => nativeProxy.getTvmEvmChain(evmChainId),
            });
    }
    save(d);
    for (const p of pending) ops.log(`  pending: ${p}`);
    return { contracts: c, pending };
}
