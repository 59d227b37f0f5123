/**
 * One owner (or limit approver) operation, the way every admin script runs it: show the contract,
 * the current on-chain value and the change; ask for confirmation (skipped with `--yes` after `--`,
 * or BRIDGE_ASSUME_YES=1); send; read the chain until the new value shows; fail loudly otherwise,
 * with the contract's exit code when its transaction failed (e.g. 2718-like owner checks, 132 for a
 * Tact "access denied").
 */
import { Address, Cell } from '@ton/core';
import type { NetworkProvider } from '@ton/blueprint';
import { opsFromBlueprint } from './adapters';
import { Deployment, deploymentPath, otherKey, readDeployment, TvmContracts } from './deployment';
import { ChainOps, sendAndConfirm } from './ops';

export interface AdminAction {
    /** e.g. "native proxy: set_paused" */
    what: string;
    target: Address;
    /** the on-chain value now, as text */
    current: () => Promise<string>;
    /** the value after the change, as text */
    planned: string;
    value: bigint;
    body: Cell;
    /** true once the change is in effect */
    check: () => Promise<boolean>;
    /** shown before the confirmation */
    warning?: string;
}

export interface AdminUi {
    write(line: string): void;
    prompt(question: string): Promise<boolean>;
}

/** Shows, confirms, sends and confirms one action; throws (the script exits non-zero) when it fails. */
export async function runAdminAction(ops: ChainOps, ui: AdminUi, a: AdminAction, o: { yes: boolean }): Promise<void> {
    ui.write(`${a.what}`);
    ui.write(`  contract: ${a.target.toString()}`);
    ui.write(`  signer:   ${ops.sender.address.toString()}`);
    ui.write(`  now:      ${await a.current()}`);
    ui.write(`  change:   ${a.planned}`);
    if (a.warning) ui.write(`  WARNING:  ${a.warning}`);
    if (!o.yes && !(await ui.prompt('Send this change?'))) throw new Error('cancelled: nothing was sent');
    await sendAndConfirm(ops, { what: a.what, to: a.target, value: a.value, body: a.body, check: a.check });
    ui.write(`  done:     ${await a.current()}`);
}

export interface AdminContext {
    provider: NetworkProvider;
    ops: ChainOps;
    ui: AdminUi;
    deployment: Deployment;
    /** the deployment file (deployments/<name>.json) */
    file: string;
    /** the TVM network key the script runs on */
    key: string;
    contracts: TvmContracts;
    /** the operation's own arguments (after <deployment> <network>) */
    args: string[];
    yes: boolean;
    /** a recorded contract's address; throws naming the missing field */
    address(name: keyof TvmContracts): Address;
    otherKey: string;
}

/** Arguments common to admin scripts: `<deployment> <network> ...op args [--yes]`. */
export async function adminContext(provider: NetworkProvider, args: string[], usage: string): Promise<AdminContext> {
    const yes = args.includes('--yes') || process.env.BRIDGE_ASSUME_YES === '1';
    const rest = args.filter((a) => a !== '--yes' && a !== '--');
    if (rest.length < 2)
        throw new Error(
            `usage: npx blueprint run <script> <network options> -- <deployment> <network> ${usage} [--yes]`,
        );
    const [name, key, ...opArgs] = rest;
    const file = deploymentPath(name);
    const deployment = readDeployment(file);
    if (!deployment.tvm[key]) throw new Error(`deployment ${name} has no TVM network ${key}`);
    const contracts = deployment.tvm[key].contracts;
    const ui = provider.ui();
    return {
        provider,
        ops: opsFromBlueprint(provider),
        ui: { write: (l) => ui.write(l), prompt: (q) => ui.prompt(q) },
        deployment,
        file,
        key,
        contracts,
        args: opArgs,
        yes,
        otherKey: otherKey(deployment, key),
        address: (field) => {
            const a = contracts[field];
            if (!a) throw new Error(`deployment ${name}: tvm.${key}.contracts.${field} is not deployed`);
            return Address.parse(a);
        },
    };
}

export function argAt(c: AdminContext, i: number, name: string): string {
    const v = c.args[i];
    if (v === undefined) throw new Error(`missing argument ${i + 1}: ${name}`);
    return v;
}

export function addressArg(c: AdminContext, i: number, name: string): Address {
    const v = argAt(c, i, name);
    try {
        return Address.parse(v);
    } catch {
        throw new Error(`argument ${i + 1} (${name}): not a TVM address: ${v}`);
    }
}

export function bigArg(c: AdminContext, i: number, name: string): bigint {
    const v = argAt(c, i, name);
    if (!/^\d+$/.test(v)) throw new Error(`argument ${i + 1} (${name}): a non-negative integer is expected, got ${v}`);
    return BigInt(v);
}

export function boolArg(c: AdminContext, i: number, name: string): boolean {
    const v = argAt(c, i, name);
    if (v !== 'true' && v !== 'false') throw new Error(`argument ${i + 1} (${name}): true or false, got ${v}`);
    return v === 'true';
}

/** "native" | "alien" -> the recorded proxy. */
export function proxyArg(c: AdminContext, i: number): { kind: 'native' | 'alien'; address: Address } {
    const v = argAt(c, i, 'proxy (native|alien)');
    if (v !== 'native' && v !== 'alien') throw new Error(`argument ${i + 1}: native or alien, got ${v}`);
    return { kind: v, address: c.address(v === 'native' ? 'nativeProxy' : 'alienProxy') };
}
