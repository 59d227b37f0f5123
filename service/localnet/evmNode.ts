/**
 * The local network's EVM node: Hardhat's JSON-RPC node (`hardhat node`) as a child process on a
 * loopback port, with Hardhat's well-known funded accounts; and Ignition run against it.
 */
import { ChildProcess, spawn } from 'child_process';
import fs from 'fs';
import path from 'path';
import { JsonRpcProvider } from 'ethers';

export const ROOT = path.resolve(__dirname, '..', '..');
const HARDHAT_CLI = () => require.resolve('hardhat/internal/cli/cli.js', { paths: [ROOT] });

/** Hardhat node's default accounts (mnemonic "test test ... junk"): public test keys, never use them elsewhere. */
export const HARDHAT_ACCOUNTS = [
    {
        role: 'deployer',
        address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
        key: '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
    },
    {
        role: 'governance',
        address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
        key: '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
    },
    {
        role: 'guardian',
        address: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
        key: '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
    },
    {
        role: 'user',
        address: '0x90F79bf6EB2c4f870365E785982E1f101E93b906',
        key: '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6',
    },
];

export interface EvmNode {
    url: string;
    port: number;
    chainId: number;
    provider: JsonRpcProvider;
    stop(): Promise<void>;
}

/** Runs `hardhat <args>` in the project, resolves with its output; rejects with it on a non-zero exit. */
export function hardhat(args: string[], env: Record<string, string> = {}): Promise<string> {
    return new Promise((resolve, reject) => {
        const p = spawn(process.execPath, [HARDHAT_CLI(), ...args], {
            cwd: ROOT,
            env: { ...process.env, ...env },
            stdio: ['ignore', 'pipe', 'pipe'],
        });
        let out = '';
        p.stdout.on('data', (c) => (out += c));
        p.stderr.on('data', (c) => (out += c));
        p.on('error', reject);
        p.on('close', (code) =>
            code === 0 ? resolve(out) : reject(new Error(`hardhat ${args.join(' ')} exited ${code}:\n${out}`)),
        );
    });
}

/** Starts `hardhat node` on 127.0.0.1:`port` and waits until it answers. */
export async function startEvmNode(port: number, o: { timeoutMs?: number } = {}): Promise<EvmNode> {
    const child: ChildProcess = spawn(
        process.execPath,
        [HARDHAT_CLI(), 'node', '--hostname', '127.0.0.1', '--port', String(port)],
        {
            cwd: ROOT,
            env: process.env,
            stdio: ['ignore', 'pipe', 'pipe'],
        },
    );
    let log = '';
    child.stdout!.on('data', (c) => (log = (log + c).slice(-20000)));
    child.stderr!.on('data', (c) => (log = (log + c).slice(-20000)));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    const url = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + (o.timeoutMs ?? 120_000);
    let chainId: number | undefined;
    while (Date.now() < deadline) {
        if (child.exitCode !== null) throw new Error(`hardhat node exited ${child.exitCode}:\n${log}`);
        try {
            const r = await fetch(url, {
                method: 'POST',
                headers: { 'content-type': 'application/json' },
                body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
            });
            chainId = Number(((await r.json()) as { result: string }).result);
            break;
        } catch {
            await new Promise((r) => setTimeout(r, 300));
        }
    }
    if (chainId === undefined) {
        child.kill('SIGKILL');
        throw new Error(`hardhat node did not answer on ${url}:\n${log}`);
    }
    const provider = new JsonRpcProvider(url, chainId, { staticNetwork: true, polling: true, pollingInterval: 500 });
    return {
        url,
        port,
        chainId,
        provider,
        stop: async () => {
            provider.destroy();
            if (child.exitCode === null) {
                child.kill('SIGTERM');
                const t = setTimeout(() => child.kill('SIGKILL'), 5000);
                await exited;
                clearTimeout(t);
            }
        },
    };
}

/**
 * Where Ignition keeps the journal of a deployment: `ignition/deployments/<id>` of the project (it
 * has no other place). A local network removes its own when it stops (its node's chain is gone).
 */
export function ignitionDeploymentDir(deploymentId: string): string {
    return path.join(ROOT, 'ignition', 'deployments', deploymentId);
}

/** Deploys an Ignition module against the node; returns its deployed addresses ("Module#Contract" -> address). */
export async function ignitionDeploy(
    node: { url: string },
    module: string,
    parameters: string,
    deploymentId: string,
): Promise<Record<string, string>> {
    await hardhat(
        [
            'ignition',
            'deploy',
            module,
            '--network',
            'devnet',
            '--parameters',
            parameters,
            '--deployment-id',
            deploymentId,
            '--reset',
        ],
        {
            DEVNET_RPC_URL: node.url,
            HARDHAT_IGNITION_CONFIRM_DEPLOYMENT: 'false',
            HARDHAT_IGNITION_CONFIRM_RESET: 'false',
        },
    );
    const file = path.join(ignitionDeploymentDir(deploymentId), 'deployed_addresses.json');
    return JSON.parse(fs.readFileSync(file, 'utf8'));
}
