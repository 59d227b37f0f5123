/**
 * TVM to EVM on the local network: the relays' EVM keys, the Bridge's first round and the
 * MultiVault's TVM configurations (after both sides are deployed), and the relays run in this
 * process (the in-process operators; ProcessOperators runs service/operators/tvmEvmRelay.ts as
 * child processes instead).
 */
import fs from 'fs';
import os from 'os';
import path from 'path';
import { Address } from '@ton/core';
import { TonClient } from '@ton/ton';
import { Contract, JsonRpcProvider, SigningKey, Wallet, computeAddress, getAddress, id } from 'ethers';
import { Deployment } from '../../lib/deploy/deployment';
import { multiVaultInterface } from '../../lib/deploy/tvm';
import { WithdrawalKind } from '../../wrappers/evm/withdrawals';
import { jsonLogger, Service, startService } from '../operators/frame';
import { Journal } from '../operators/journal';
import { BRIDGE_ABI, TvmEvmRelayRecord, TvmEvmRelayWorker } from '../operators/tvmEvmRelay';
import { HARDHAT_ACCOUNTS } from './evmNode';
import type { Log } from './operators';

/** The Bridge's first round on the local network. */
export const LOCAL_TVM_EVM_ROUND = 1;

/**
 * The TVM to EVM relays' secp256k1 keys: relay i's private key is keccak256("localnet tvm-evm relay
 * <i>"), the same every start (public test keys: never use them elsewhere).
 */
export function localTvmEvmRelayKeys(n = 4): SigningKey[] {
    return Array.from({ length: n }, (_, i) => new SigningKey(id(`localnet tvm-evm relay ${i}`)));
}

/**
 * Opens TVM to EVM withdrawals once both sides are deployed: the MultiVault's bridge, the Bridge's
 * round 1 of `keys` (ending in 30 days) and the MultiVault listing the TVM network's native proxy (Native) and alien proxy
 * (Alien), sent by the governance (the Bridge's owner); what `npx hardhat bridge:round` and
 * `multivault:withdrawals` do on a real network.
 */
export async function openTvmToEvm(provider: JsonRpcProvider, d: Deployment, keys: SigningKey[]): Promise<void> {
    const e = d.evm;
    if (!e?.bridge || !e.multiVault) throw new Error(`deployment ${d.name}: evm.bridge / evm.multiVault not set`);
    const c = d.tvm[e.tvm].contracts;
    if (!c.nativeProxy || !c.alienProxy) throw new Error(`deployment ${d.name}: tvm.${e.tvm} has no proxies`);
    const governance = new Wallet(HARDHAT_ACCOUNTS[1].key, provider);
    const bridge = new Contract(
        e.bridge,
        [...BRIDGE_ABI, 'function setRoundRelays(uint32 round, address[] relays, uint32 end)'],
        governance,
    );
    const vault = new Contract(e.multiVault, multiVaultInterface(), governance);
    let nonce = await provider.getTransactionCount(governance.address, 'pending');
    const sent = [];
    if (getAddress(await vault.getFunction('bridge')()) !== getAddress(e.bridge))
        sent.push(await vault.getFunction('setBridge')(e.bridge, { nonce: nonce++ }));
    if (Number(await bridge.getFunction('lastRound')()) < LOCAL_TVM_EVM_ROUND) {
        const now = (await provider.getBlock('latest'))!.timestamp;
        sent.push(
            await bridge.getFunction('setRoundRelays')(
                LOCAL_TVM_EVM_ROUND,
                keys.map((k) => computeAddress(k.publicKey)),
                now + 30 * 24 * 3600,
                { nonce: nonce++ },
            ),
        );
    }
    for (const [proxy, kind] of [
        [c.nativeProxy, WithdrawalKind.Native],
        [c.alienProxy, WithdrawalKind.Alien],
    ] as const) {
        const a = Address.parse(proxy);
        sent.push(
            await vault.getFunction('setTvmConfiguration')(a.workChain, BigInt('0x' + a.hash.toString('hex')), kind, {
                nonce: nonce++,
            }),
        );
    }
    for (const tx of sent) await tx.wait();
}

/** The TVM to EVM relays in this process: one worker, journal and HTTP port per key. */
export class InProcessTvmEvmRelays {
    private services: Service[] = [];
    private dir?: string;
    urls: string[] = [];

    constructor(
        readonly d: Deployment,
        readonly keys: SigningKey[],
        readonly o: { provider: JsonRpcProvider; log?: Log; intervalMs?: number },
    ) {}

    async start(): Promise<void> {
        const e = this.d.evm!;
        const t = this.d.tvm[e.tvm];
        this.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tvmevm-relays-'));
        const tvm = new TonClient({ endpoint: t.endpoint! });
        const bridge = new Contract(getAddress(e.bridge!), BRIDGE_ABI, this.o.provider);
        for (const [i, key] of this.keys.entries()) {
            const name = `tvmevm-relay-${i}`;
            const log = this.o.log;
            const svcRef: { worker?: TvmEvmRelayWorker } = {};
            const svc = await startService({
                name,
                port: 0,
                noSignals: true,
                log: jsonLogger(name, 'info', (line) => {
                    if (!log) return;
                    const { event, t: _t, ...fields } = JSON.parse(line) as Record<string, unknown>;
                    log(`${name}.${String(event)}`, fields);
                }),
                health: () => svcRef.worker?.health() ?? { ok: false, starting: true },
                routes: (app) => TvmEvmRelayWorker.routes(app, () => svcRef.worker),
            });
            const journal = Journal.open<TvmEvmRelayRecord>(path.join(this.dir, `${name}.jsonl`));
            svc.onStop(() => journal.close());
            svcRef.worker = new TvmEvmRelayWorker(
                {
                    tvm,
                    proxies: [Address.parse(t.contracts.nativeProxy!), Address.parse(t.contracts.alienProxy!)],
                    chainId: e.chainId,
                    vault: getAddress(e.multiVault!),
                    bridge,
                    key,
                    journal,
                },
                svc,
            );
            const worker = svcRef.worker;
            svc.loop('tvmevm', this.o.intervalMs ?? 1000, () => worker.step());
            this.services.push(svc);
            this.urls.push(svc.url);
        }
    }

    async stop(): Promise<void> {
        await Promise.all(this.services.map((s) => s.stop()));
        this.services = [];
        if (this.dir) fs.rmSync(this.dir, { recursive: true, force: true });
    }
}
