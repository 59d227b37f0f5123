/**
 * What readBridge prints and verifyDeployment checks, for a deployment file: every contract of both
 * TVM networks (read through their toncenter v2 endpoints) and the EVM MultiVault (JSON-RPC). The
 * checks: each contract's on-chain code is this build's; both networks agree (each configuration's
 * emitter is the other network's proxy, chain ids, the checker's LiteClient follows the other
 * network, the proxies know each other and list their configurations, the Bridge lists the EVM
 * configurations, which name the deployment's MultiVault).
 */
import fs from 'fs';
import path from 'path';
import { Address, Cell, ContractProvider, OpenedContract, openContract, Contract } from '@ton/core';
import { TonClient } from '@ton/ton';
import { Interface, JsonRpcProvider } from 'ethers';
import { LiteClient } from '../../wrappers/LiteClient';
import { TransactionChecker } from '../../wrappers/TransactionChecker';
import { ProxyMultiVaultNative } from '../../wrappers/ProxyMultiVaultNative';
import { ProxyMultiVaultAlien } from '../../wrappers/ProxyMultiVaultAlien';
import { TvmTvmEventConfiguration } from '../../wrappers/TvmTvmEventConfiguration';
import { Bridge } from '../../wrappers/Bridge';
import { EvmTvmEventConfiguration } from '../../wrappers/EvmTvmEventConfiguration';
import { v2Provider } from '../toncenterV2';
import { BridgeCodes, ContractName } from './codes';
import { Deployment, otherKey, ownerOf, TvmContracts } from './deployment';

export interface Finding {
    network: string;
    contract: string;
    ok: boolean;
    what: string;
}

const CODE_OF: Record<keyof TvmContracts, ContractName> = {
    liteClient: 'LiteClient',
    transactionChecker: 'TransactionChecker',
    nativeProxy: 'ProxyMultiVaultNative',
    alienProxy: 'ProxyMultiVaultAlien',
    alienConfiguration: 'TvmTvmEventConfiguration',
    nativeConfiguration: 'TvmTvmEventConfiguration',
    bridge: 'Bridge',
    evmAlienConfiguration: 'EvmTvmEventConfiguration',
    evmNativeConfiguration: 'EvmTvmEventConfiguration',
};

type Reader = { open<T extends Contract>(c: T): OpenedContract<T>; provider(a: Address): ContractProvider };

function reader(endpoint: string): Reader {
    const client = new TonClient({ endpoint });
    return {
        open: (c) => openContract(c, (p) => v2Provider(client, p.address, p.init ?? null)),
        provider: (a) => v2Provider(client, a),
    };
}

/** The MultiVault's deployed bytecode with its immutables zeroed, from Hardhat's build info. */
function multiVaultRuntime(): { code: string; immutables: { start: number; length: number }[] } {
    const dir = path.resolve(__dirname, '..', '..', 'artifacts', 'evm', 'MultiVault.sol');
    const artifact = JSON.parse(fs.readFileSync(path.join(dir, 'MultiVault.json'), 'utf8'));
    const dbg = JSON.parse(fs.readFileSync(path.join(dir, 'MultiVault.dbg.json'), 'utf8'));
    const info = JSON.parse(fs.readFileSync(path.resolve(dir, dbg.buildInfo), 'utf8'));
    const refs = info.output.contracts['evm/MultiVault.sol'].MultiVault.evm.deployedBytecode.immutableReferences ?? {};
    return {
        code: artifact.deployedBytecode,
        immutables: Object.values(refs).flat() as { start: number; length: number }[],
    };
}

function maskImmutables(hex: string, refs: { start: number; length: number }[]): string {
    const b = Buffer.from(hex.replace(/^0x/, ''), 'hex');
    for (const r of refs) b.fill(0, r.start, r.start + r.length);
    return b.toString('hex');
}

/** Reads and checks the whole deployment; `print` gets one line per contract state (readBridge). */
export async function verifyDeployment(
    d: Deployment,
    codes: BridgeCodes,
    print: (line: string) => void = () => undefined,
): Promise<Finding[]> {
    const out: Finding[] = [];
    const check = (network: string, contract: string, ok: boolean, what: string) =>
        out.push({ network, contract, ok, what });
    const eq = (a: Address | null | undefined, b: string | undefined) => !!a && !!b && a.equals(Address.parse(b));

    for (const key of Object.keys(d.tvm)) {
        const me = d.tvm[key];
        const oKey = otherKey(d, key);
        const other = d.tvm[oKey];
        const c = me.contracts;
        print(`TVM network ${key} (global id ${me.globalId}) ${me.endpoint ?? ''}`);
        if (!me.endpoint) {
            check(key, '-', false, 'no endpoint in the deployment file');
            continue;
        }
        const r = reader(me.endpoint);
        for (const [field, name] of Object.entries(CODE_OF) as [keyof TvmContracts, ContractName][]) {
            const a = c[field];
            if (!a) {
                if (field.startsWith('evm') || field === 'bridge') {
                    if (d.evm?.tvm === key) check(key, field, false, 'not deployed');
                } else check(key, field, false, 'not deployed');
                continue;
            }
            const st = (await r.provider(Address.parse(a)).getState()).state;
            const code = st.type === 'active' && st.code ? Cell.fromBoc(st.code)[0] : null;
            check(
                key,
                field,
                !!code && code.equals(codes[name]),
                code ? `code ${code.equals(codes[name]) ? 'is' : 'is NOT'} the build's ${name}` : `${a} is not active`,
            );
        }
        const P = (a?: string) => (a ? Address.parse(a) : undefined);
        if (c.liteClient) {
            const lc = r.open(LiteClient.createFromAddress(P(c.liteClient)!));
            const gid = await lc.getGlobalId();
            print(
                `  liteClient ${c.liteClient}: follows global id ${gid}, key block ${await lc.getCurrentSeqNo()}, epoch since ${await lc.getCurrentEpochSince()}`,
            );
            check(
                key,
                'liteClient',
                gid === other.globalId,
                `follows global id ${gid} (the other network is ${other.globalId})`,
            );
        }
        if (c.transactionChecker) {
            const tc = r.open(TransactionChecker.createFromAddress(P(c.transactionChecker)!));
            const lc = await tc.getLiteClient();
            print(`  transactionChecker ${c.transactionChecker}: LiteClient ${lc.toRawString()}`);
            check(key, 'transactionChecker', eq(lc, c.liteClient), 'asks the recorded LiteClient');
        }
        const native = c.nativeProxy ? r.open(ProxyMultiVaultNative.createFromAddress(P(c.nativeProxy)!)) : undefined;
        const alien = c.alienProxy ? r.open(ProxyMultiVaultAlien.createFromAddress(P(c.alienProxy)!)) : undefined;
        for (const [n, p] of [
            ['nativeProxy', native],
            ['alienProxy', alien],
        ] as const) {
            if (!p) continue;
            const fee = await p.getDefaultFee();
            print(
                `  ${n} ${p.address.toRawString()}: owner ${(await p.getOwner()).toRawString()}, paused ${await p.getPaused()}, default fee ${fee.numerator}/${fee.denominator}, limit approver ${(await p.getLimitApprover()).toRawString()}`,
            );
            const owner = ownerOf(me, n);
            check(key, n, eq(await p.getOwner(), owner), `owner is the recorded owner ${owner}`);
        }
        if (native && alien) {
            check(key, 'nativeProxy', eq(await native.getAlienProxy(), c.alienProxy), 'knows the alien proxy');
            check(key, 'alienProxy', eq(await alien.getNativeProxy(), c.nativeProxy), 'knows the native proxy');
        }
        for (const [field, emitter, proxy] of [
            ['alienConfiguration', other.contracts.nativeProxy, alien],
            ['nativeConfiguration', other.contracts.alienProxy, native],
        ] as const) {
            const a = c[field];
            if (!a) continue;
            const cfg = r.open(TvmTvmEventConfiguration.createFromAddress(P(a)!));
            const det = await cfg.getDetails();
            const ex = await cfg.getExtra();
            const n = det.networkConfiguration;
            print(
                `  ${field} ${a}: source chain ${n.chainId}, emitter ${n.eventEmitter.toRawString()}, proxy ${n.proxy.toRawString()}, own chain ${ex.ownChainId}, start ${n.startTimestamp}, end ${n.endTimestamp || 'open'}`,
            );
            check(
                key,
                field,
                n.chainId === other.globalId,
                `source chain id ${n.chainId} is ${oKey}'s ${other.globalId}`,
            );
            check(key, field, ex.ownChainId === me.globalId, `own chain id ${ex.ownChainId} is ${me.globalId}`);
            check(
                key,
                field,
                eq(n.eventEmitter, emitter),
                `emitter is ${oKey}'s ${field === 'alienConfiguration' ? 'native' : 'alien'} proxy ${emitter}`,
            );
            check(key, field, !!proxy && n.proxy.equals(proxy.address), "calls this network's proxy");
            check(key, field, eq(ex.transactionChecker, c.transactionChecker), 'uses the recorded TransactionChecker');
            if (proxy) check(key, field, await proxy.getIsTvmConfiguration(P(a)!), 'is listed in its proxy');
        }
        if (c.bridge) {
            const bridge = r.open(Bridge.createFromAddress(P(c.bridge)!));
            print(
                `  bridge ${c.bridge}: owner ${(await bridge.getGetOwner()).toRawString()}, round ${await bridge.getGetRound()}, ${(await bridge.getGetRelays()).size} relay keys, ${await bridge.getRequiredVotes()} votes required, paused ${await bridge.getIsPaused()}`,
            );
            const bridgeOwner = ownerOf(me, 'bridge');
            check(
                key,
                'bridge',
                eq(await bridge.getGetOwner(), bridgeOwner),
                `owner is the recorded owner ${bridgeOwner}`,
            );
            for (const [field, proxy] of [
                ['evmAlienConfiguration', alien],
                ['evmNativeConfiguration', native],
            ] as const) {
                const a = c[field];
                if (!a) continue;
                const cfg = r.open(EvmTvmEventConfiguration.createFromAddress(P(a)!));
                const n = (await cfg.getGetDetails()).networkConfiguration;
                const emitter = '0x' + n.eventEmitter.toString(16).padStart(40, '0');
                print(
                    `  ${field} ${a}: EVM chain ${n.chainId}, MultiVault ${emitter}, ${n.eventBlocksToConfirm} confirmations, proxy ${n.proxy.toRawString()}`,
                );
                check(
                    key,
                    field,
                    Number(n.chainId) === d.evm?.chainId,
                    `EVM chain id ${n.chainId} is ${d.evm?.chainId}`,
                );
                check(
                    key,
                    field,
                    emitter.toLowerCase() === d.evm?.multiVault?.toLowerCase(),
                    `emitter is the MultiVault ${d.evm?.multiVault}`,
                );
                check(key, field, !!proxy && n.proxy.equals(proxy.address), "calls this network's proxy");
                check(key, field, (await bridge.getGetConfiguration(P(a)!)) === true, 'is active in the Bridge');
                if (proxy) check(key, field, await proxy.getIsEvmConfiguration(P(a)!), 'is listed in its proxy');
            }
            if (native && d.evm?.chainId !== undefined)
                check(
                    key,
                    'nativeProxy',
                    await native.getTvmEvmChain(BigInt(d.evm.chainId)),
                    `lists EVM chain ${d.evm.chainId} for locks to EVM (set_tvm_evm_chain)`,
                );
        }
    }
    if (d.evm?.multiVault && d.evm.endpoint) {
        const p = new JsonRpcProvider(d.evm.endpoint, d.evm.chainId, { staticNetwork: true });
        try {
            const code = await p.getCode(d.evm.multiVault);
            const build = multiVaultRuntime();
            const same =
                code !== '0x' &&
                maskImmutables(code, build.immutables) === maskImmutables(build.code, build.immutables);
            print(`EVM chain ${d.evm.chainId} ${d.evm.endpoint}: MultiVault ${d.evm.multiVault}`);
            check(
                'EVM',
                'multiVault',
                same,
                code === '0x'
                    ? 'no code at the address'
                    : `runtime code ${same ? 'is' : 'is NOT'} the build's MultiVault`,
            );
            check(
                'EVM',
                'chainId',
                Number((await p.getNetwork()).chainId) === d.evm.chainId,
                `the endpoint's chain id is ${d.evm.chainId}`,
            );
            if (same) {
                // the vault's deposits go to one TVM network: the deployment's (relays vote nowhere else)
                const want = d.tvm[d.evm.tvm]?.globalId;
                const iface = new Interface(['function tvmGlobalId() view returns (int32)']);
                const got = Number(
                    iface.decodeFunctionResult(
                        'tvmGlobalId',
                        await p.call({ to: d.evm.multiVault, data: iface.encodeFunctionData('tvmGlobalId', []) }),
                    )[0],
                );
                check('EVM', 'tvmGlobalId', got === want, `deposits go to TVM ${d.evm.tvm} (${want}): ${got}`);
            }
        } finally {
            p.destroy();
        }
    }
    return out;
}
