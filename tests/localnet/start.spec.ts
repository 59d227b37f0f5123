/**
 * `npm start` as a developer runs it: service/localnet/main.ts as its own process on free ports. It
 * prints the endpoints, accounts, relay keys and the deployment file; the endpoints answer TonClient
 * and EVM JSON-RPC with the bridge deployed; SIGINT (Ctrl-C) stops every server and the EVM node,
 * and the process exits 0.
 */
import { spawn } from 'child_process';
import fs from 'fs';
import path from 'path';
import { Address } from '@ton/core';
import { TonClient } from '@ton/ton';
import { readDeployment } from '../../lib/deploy/deployment';
import { ignitionDeploymentDir, ROOT } from '../../service/localnet/evmNode';
import { until } from '../until.util';

jest.setTimeout(300_000);

const NAME = `start-${process.pid}`;

describe('npm start: the local bridge network as a process', () => {
    it('should print its endpoints and accounts, serve the deployed bridge, and stop cleanly on SIGINT', async () => {
        const t0 = Date.now();
        const p = spawn(
            process.execPath,
            [require.resolve('ts-node/dist/bin.js', { paths: [ROOT] }), '--transpile-only', 'service/localnet/main.ts'],
            {
                cwd: ROOT,
                env: {
                    ...process.env,
                    LOCALNET_TVM_A_PORT: '0',
                    LOCALNET_TVM_B_PORT: '0',
                    LOCALNET_EVM_PORT: '0',
                    LOCALNET_NAME: NAME,
                    // the operators in process unless asked: their services as processes (the default
                    // of npm start; up in 42 s against 23 s in process, measured on 2 loaded cores) are
                    // started and stopped the same way by tests/operators/
                    LOCALNET_OPERATORS: process.env.LOCALNET_OPERATORS || 'in-process',
                },
                stdio: ['ignore', 'pipe', 'pipe'],
            },
        );
        let out = '';
        p.stdout.on('data', (c) => (out += c));
        p.stderr.on('data', (c) => (out += c));
        const exited = new Promise<number | null>((resolve) => p.on('close', (code) => resolve(code)));
        const file = path.join(ROOT, 'deployments', `${NAME}.json`);
        try {
            await new Promise<void>((resolve, reject) => {
                const timer = setInterval(() => {
                    if (/Local bridge network up in/.test(out) && /Ctrl-C stops/.test(out)) {
                        clearInterval(timer);
                        resolve();
                    }
                    if (p.exitCode !== null) {
                        clearInterval(timer);
                        reject(new Error(`npm start exited ${p.exitCode}:\n${out}`));
                    }
                }, 200);
            });
            const up = Date.now() - t0;

            // what it prints: both TVM endpoints, the EVM node, the deployment file, mnemonics, keys
            const tvm = [...out.matchAll(/^\s+([AB])\s+global id (-?\d+)\s+(http:\/\/127\.0\.0\.1:\d+\/jsonRPC)$/gm)];
            expect(tvm.map((m) => [m[1], Number(m[2])])).toEqual([
                ['A', -239],
                ['B', 2000],
            ]);
            // npm start's own pace: a block every 2 s on each TVM network (nothing here waits for one)
            expect(out).toMatch(/blocks sealed every 2 s, validators rotate every 600 s/);
            const evmUrl = out.match(/EVM network \(Hardhat JSON-RPC\): (http:\/\/127\.0\.0\.1:\d+)/)![1];
            expect(out).toContain(`Deployment file: ${file}`);
            expect((out.match(/WALLET_MNEMONIC="(\w+ ){23}\w+"/g) ?? []).length).toBe(3);
            expect((out.match(/^\s+#\d+ public [0-9a-f]{64}\s+seed [0-9a-f]{64}$/gm) ?? []).length).toBe(4);

            // the bridge is deployed and served: every recorded contract is active on its network
            const d = readDeployment(file);
            for (const [, key, , endpoint] of tvm) {
                expect(d.tvm[key].endpoint).toBe(endpoint);
                const client = new TonClient({ endpoint });
                const contracts = Object.values(d.tvm[key].contracts);
                expect(contracts.length).toBeGreaterThanOrEqual(6);
                for (const a of contracts)
                    expect((await client.getContractState(Address.parse(a))).state).toBe('active');
            }
            // Ignition's journal of the EVM deployment, kept while the node runs
            const journal = ignitionDeploymentDir(`${NAME}-devnet`);
            expect(fs.existsSync(path.join(journal, 'deployed_addresses.json'))).toBe(true);
            const chainId = await fetch(evmUrl, {
                method: 'POST',
                headers: { 'content-type': 'application/json' },
                body: JSON.stringify({
                    jsonrpc: '2.0',
                    id: 1,
                    method: 'eth_getCode',
                    params: [d.evm!.multiVault, 'latest'],
                }),
            }).then((r) => r.json() as Promise<{ result: string }>);
            expect(chainId.result.length).toBeGreaterThan(1000);

            // the TVM to EVM relays (the operators' own: here in process): each healthy, in the Bridge's round 1
            const relays = [
                ...out.matchAll(
                    /^\s+#\d+ (0x[0-9a-fA-F]{40})\s+key 0x[0-9a-f]{64}\s+signatures at (http:\/\/127\.0\.0\.1:\d+)\/v1\/withdrawals\/<id>$/gm,
                ),
            ];
            expect(relays.length).toBe(4);
            expect(d.evm!.relayEndpoints).toEqual(relays.map((m) => m[2]));
            for (const [, signer, url] of relays)
                expect(
                    await until(`relay ${signer} healthy`, async () => {
                        const r = await fetch(`${url}/health`);
                        return (
                            r.status === 200 &&
                            ((await r.json()) as { signer: string; round: number; inRound: boolean })
                        );
                    }),
                ).toMatchObject({ signer, round: 1, inRound: true });

            // Ctrl-C: everything stops, the process exits 0, the ports are closed, Ignition's journal of
            // the stopped node is gone from the checkout
            const t1 = Date.now();
            p.kill('SIGINT');
            expect(await exited).toBe(0);
            expect(out).toMatch(/SIGINT: stopping the local bridge network[\s\S]*stopped\./);
            for (const url of [tvm[0][3], evmUrl, relays[0][2]]) await expect(fetch(url)).rejects.toThrow();
            expect(fs.existsSync(journal)).toBe(false);
            process.stderr.write(
                `[npm start spec] operators ${process.env.LOCALNET_OPERATORS || 'in-process'}: up in ${up} ms, stopped in ${Date.now() - t1} ms\n`,
            );
        } finally {
            if (p.exitCode === null) p.kill('SIGKILL');
            fs.rmSync(file, { force: true });
            fs.rmSync(path.join(ROOT, 'deployments', `${NAME}.operators`), { recursive: true, force: true });
            fs.rmSync(ignitionDeploymentDir(`${NAME}-devnet`), { recursive: true, force: true });
        }
    });
});
