/**
 * The local network's operators as their own processes (service/operators/): a sync service and a
 * credit backend each way, and one relay process per relay key of the EVM network (relays 0 and 1
 * also deploy the Events). Each reads the deployment file and the endpoints, exactly as it would
 * against testnet; this runner only funds their wallets (subwallets of the `operator` account),
 * starts them, forwards their JSON log lines and stops them with SIGTERM.
 */
import { ChildProcess, spawn } from 'child_process';
import fs from 'fs';
import path from 'path';
import { toNano } from '@ton/core';
import { OperatorWallet } from '../operators/wallet';
import type { LocalNetwork } from './localnet';
import { Log, Operators } from './operators';

/** The operator account's subwallet each service sends from (and the network it is funded on). */
export const OPERATOR_SUBWALLETS = {
    /** sync X -> Y and credit X -> Y send on Y */
    sync: { A: 1, B: 2 } as Record<string, number>,
    credit: { A: 3, B: 4 } as Record<string, number>,
    /** relays that deploy Events, by relay index (on the EVM network's TVM network) */
    relayDeployers: { 0: 10, 1: 11 } as Record<number, number>,
};

/**
 * ts-node's project for the operator processes: tools/jest/ts-node.tsconfig.json, the project the
 * specs' child processes use (tools/jest/child-processes.js): the repository's tsconfig with
 * ts-node transpiling through swc, no type checks (`npm run typecheck` does those). With
 * TypeScript's own transpiler each process spent seconds of CPU compiling before it started. A
 * TS_NODE_PROJECT set in the environment is kept.
 */
export const OPERATOR_TS_NODE_PROJECT = path.resolve(__dirname, '..', '..', 'tools', 'jest', 'ts-node.tsconfig.json');

/** What each operator wallet is funded with at start. */
export const OPERATOR_FUNDS = toNano('10000');

const ROOT = path.resolve(__dirname, '..', '..');

interface Child {
    name: string;
    child: ChildProcess;
    exited: Promise<number | null>;
    started: Promise<string>;
}

export class ProcessOperators implements Operators {
    readonly children: Child[] = [];
    tvmEvmRelayUrls?: string[];

    constructor(
        readonly net: LocalNetwork,
        /** intervalMs: ms between each service's rounds (default 1000) */
        readonly o: { log?: Log; stateDir?: string; intervalMs?: number } = {},
    ) {}

    private spawnService(name: string, script: string, env: Record<string, string>): Child {
        const child = spawn(
            process.execPath,
            ['-r', 'ts-node/register', path.join(ROOT, 'service', 'operators', script)],
            {
                cwd: ROOT,
                env: {
                    ...process.env,
                    TS_NODE_TRANSPILE_ONLY: 'true',
                    TS_NODE_PROJECT: process.env.TS_NODE_PROJECT || OPERATOR_TS_NODE_PROJECT,
                    DEPLOYMENT_FILE: this.net.deploymentFile,
                    PORT: '0',
                    ...env,
                },
                stdio: ['ignore', 'pipe', 'pipe'],
            },
        );
        let resolveStarted!: (url: string) => void;
        let rejectStarted!: (e: Error) => void;
        const started = new Promise<string>((res, rej) => ((resolveStarted = res), (rejectStarted = rej)));
        let buf = '';
        let err = '';
        child.stdout!.on('data', (c: Buffer) => {
            buf += c.toString('utf8');
            let i: number;
            while ((i = buf.indexOf('\n')) >= 0) {
                const text = buf.slice(0, i);
                buf = buf.slice(i + 1);
                try {
                    const line = JSON.parse(text) as Record<string, unknown>;
                    if (line.event === 'started') resolveStarted(String(line.url));
                    const { event, t: _t, ...fields } = line;
                    this.o.log?.(`${name}.${String(event)}`, fields);
                } catch {
                    this.o.log?.(`${name}.output`, { text });
                }
            }
        });
        child.stderr!.on('data', (c: Buffer) => (err = (err + c.toString('utf8')).slice(-4000)));
        const exited = new Promise<number | null>((res) =>
            child.on('exit', (code) => {
                rejectStarted(new Error(`operator ${name} exited (${code}) before starting: ${err.slice(-1500)}`));
                res(code);
            }),
        );
        const c = { name, child, exited, started };
        this.children.push(c);
        return c;
    }

    async start(): Promise<void> {
        const net = this.net;
        const d = net.deployment();
        const words = net.accounts.operator.mnemonic;
        const mnemonic = words.join(' ');
        const interval = String(this.o.intervalMs ?? 1000);
        const stateDir = this.o.stateDir ?? path.join(path.dirname(net.deploymentFile), `${net.name}.operators`);
        fs.mkdirSync(stateDir, { recursive: true });
        const fund = async (on: string, subwallet: number) => {
            const a = await OperatorWallet.addressOf(words, subwallet);
            await net.tvm[on].node.exclusive(() => net.tvm[on].node.fund(a, OPERATOR_FUNDS));
        };
        const keys = Object.keys(d.tvm);
        for (const from of keys) {
            const to = keys.find((k) => k !== from)!;
            await fund(to, OPERATOR_SUBWALLETS.sync[from]);
            await fund(to, OPERATOR_SUBWALLETS.credit[from]);
            this.spawnService(`sync-${from}-${to}`, 'sync.ts', {
                SYNC_FROM: from,
                SYNC_MNEMONIC: mnemonic,
                SYNC_SUBWALLET: String(OPERATOR_SUBWALLETS.sync[from]),
                SYNC_INTERVAL_MS: interval,
            });
            // its journal (cursors by proxy and lt, transfers by Event) belongs to this network: a new
            // network's transactions start at low lts again, under a previous run's cursors
            const creditState = path.join(stateDir, `credit-${from}.jsonl`);
            fs.rmSync(creditState, { force: true });
            this.spawnService(`credit-${from}-${to}`, 'credit.ts', {
                CREDIT_FROM: from,
                CREDIT_MNEMONIC: mnemonic,
                CREDIT_SUBWALLET: String(OPERATOR_SUBWALLETS.credit[from]),
                CREDIT_STATE: creditState,
                // the journal, whatever storage the shell names for the API service
                DATABASE_URL: '',
                DATA_DIR: '',
                CREDIT_INTERVAL_MS: interval,
            });
        }
        if (d.evm && net.evm) {
            for (const [i, relay] of net.relays.relays.entries()) {
                const deployer = OPERATOR_SUBWALLETS.relayDeployers[i];
                if (deployer !== undefined) await fund(d.evm.tvm, deployer);
                this.spawnService(`relay-${i}`, 'relay.ts', {
                    RELAY_SEED: relay.keys.secretKey.subarray(0, 32).toString('hex'),
                    RELAY_INTERVAL_MS: interval,
                    ...(deployer !== undefined
                        ? { RELAY_DEPLOY: '1', RELAY_MNEMONIC: mnemonic, RELAY_SUBWALLET: String(deployer) }
                        : {}),
                });
            }
        }
        const tvmEvm: Child[] = [];
        if (d.evm?.bridge && net.evm)
            for (const [i, key] of net.tvmEvmRelayKeys.entries()) {
                // its journal belongs to this network: a new network starts it empty
                const state = path.join(stateDir, `tvmevm-relay-${i}.jsonl`);
                fs.rmSync(state, { force: true });
                tvmEvm.push(
                    this.spawnService(`tvmevm-relay-${i}`, 'tvmEvmRelay.ts', {
                        TVMEVM_RELAY_KEY: key.privateKey,
                        TVMEVM_RELAY_STATE: state,
                        TVMEVM_RELAY_INTERVAL_MS: interval,
                    }),
                );
            }
        try {
            await Promise.all(this.children.map((c) => c.started));
            this.tvmEvmRelayUrls = await Promise.all(tvmEvm.map((c) => c.started));
        } catch (e) {
            await this.stop();
            throw e;
        }
    }

    /** SIGTERM to every operator; SIGKILL to one still running after `ms`. */
    async stop(ms = 15_000): Promise<void> {
        await Promise.all(
            this.children.map(async (c) => {
                if (c.child.exitCode !== null || c.child.signalCode !== null) return;
                c.child.kill('SIGTERM');
                const t = setTimeout(() => c.child.kill('SIGKILL'), ms);
                await c.exited;
                clearTimeout(t);
            }),
        );
    }
}
