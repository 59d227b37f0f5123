/**
 * How deploy and admin code reaches a TVM network: a sender (the deployer's or owner's wallet), a
 * provider per address (get methods, state) and an account's recent transactions. Built from a
 * blueprint NetworkProvider (scripts), from a TonClient and a wallet (tests, services), or straight
 * on a local network's node (service/localnet/nodeOps.ts: the network deploying itself): one code
 * path for all.
 *
 * Every send waits until the wallet's seqno moves (so the next send does not reuse it), and every
 * change is confirmed by reading the chain (`sendAndConfirm`): a change that does not show up fails
 * loudly, with the exit code of the target's failed transaction when there is one.
 */
import {
    Address,
    Cell,
    Contract,
    ContractProvider,
    OpenedContract,
    openContract,
    Sender,
    SendMode,
    StateInit,
    Transaction,
} from '@ton/core';

export interface ChainOps {
    /** the wallet that signs (owner or deployer) */
    readonly sender: Sender & { address: Address };
    provider(address: Address, init?: StateInit | null): ContractProvider;
    /** an account's newest transactions, newest first */
    transactions(address: Address, limit: number): Promise<Transaction[]>;
    log(line: string): void;
    /** polls before a change counts as not applied (default 60) and the pause between them (ms, default 1000) */
    attempts?: number;
    pollMs?: number;
}

/** A contract opened on the ops' network (get methods, and sends through ops.sender). */
export function open<T extends Contract>(ops: ChainOps, contract: T): OpenedContract<T> {
    return openContract(contract, (p) => ops.provider(p.address, p.init ?? null));
}

export async function isActive(ops: ChainOps, address: Address): Promise<boolean> {
    return (await ops.provider(address).getState()).state.type === 'active';
}

/** The code of an active account, or null. */
export async function codeOf(ops: ChainOps, address: Address): Promise<Cell | null> {
    const s = (await ops.provider(address).getState()).state;
    return s.type === 'active' && s.code ? Cell.fromBoc(s.code)[0] : null;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Thrown when a change is not applied; `exitCode` is the target's failed transaction's code. */
export class ChangeFailed extends Error {
    constructor(
        readonly what: string,
        readonly target: Address,
        readonly exitCode: number | undefined,
        detail: string,
    ) {
        super(`${what}: ${detail}`);
    }
}

/** The exit code of a failed transaction (compute phase, else action phase), undefined when it succeeded. */
export function failureOf(tx: Transaction): number | undefined {
    const d = tx.description;
    if (d.type !== 'generic') return undefined;
    if (d.computePhase.type === 'vm' && d.computePhase.exitCode !== 0 && d.computePhase.exitCode !== 1)
        return d.computePhase.exitCode;
    if (d.actionPhase && !d.actionPhase.success) return d.actionPhase.resultCode;
    if (d.aborted) return d.computePhase.type === 'vm' ? d.computePhase.exitCode : -1;
    return undefined;
}

/**
 * The wallet's seqno: its get method (one request; twice a send), or 0 while the wallet is not
 * deployed (its first message deploys it), where the get method fails; any other failure is thrown.
 */
async function seqnoOf(ops: ChainOps): Promise<number> {
    const p = ops.provider(ops.sender.address);
    try {
        return Number((await p.get('seqno', [])).stack.readBigNumber());
    } catch (e) {
        if ((await p.getState()).state.type !== 'active') return 0;
        throw e;
    }
}

export interface Send {
    to: Address;
    value: bigint;
    body?: Cell;
    init?: StateInit;
    bounce?: boolean;
}

/** Sends one message from the wallet and waits until the wallet has applied it (its seqno moved). */
export async function send(ops: ChainOps, m: Send): Promise<void> {
    const before = await seqnoOf(ops);
    await ops.sender.send({
        to: m.to,
        value: m.value,
        body: m.body,
        init: m.init,
        ...(m.bounce === undefined ? {} : { bounce: m.bounce }),
        sendMode: SendMode.PAY_GAS_SEPARATELY,
    });
    for (let i = 0; i < (ops.attempts ?? 60); i++) {
        if ((await seqnoOf(ops)) > before) return;
        await sleep(ops.pollMs ?? 1000);
    }
    throw new Error(`the wallet ${ops.sender.address.toString()} did not apply the message to ${m.to.toString()}`);
}

export interface Change extends Send {
    /** what the change is, for messages */
    what: string;
    /** reads the chain: true once the change is in effect */
    check: () => Promise<boolean>;
}

/**
 * Sends the change, then reads the chain until `check` holds. Fails with the exit code of the
 * target's transaction from this wallet that failed (a bounce, a refused owner call), or when the
 * change does not show up in time.
 */
export async function sendAndConfirm(ops: ChainOps, c: Change): Promise<void> {
    const last = (await ops.transactions(c.to, 1).catch(() => []))[0]?.lt ?? -1n;
    await send(ops, c);
    for (let i = 0; i < (ops.attempts ?? 60); i++) {
        if (await c.check()) return;
        const txs = (await ops.transactions(c.to, 16).catch(() => [] as Transaction[])).filter((t) => t.lt > last);
        for (const t of txs) {
            const info = t.inMessage?.info;
            if (info?.type !== 'internal' || !info.src.equals(ops.sender.address)) continue;
            const code = failureOf(t);
            if (code !== undefined)
                throw new ChangeFailed(
                    c.what,
                    c.to,
                    code,
                    `the transaction on ${c.to.toString()} failed with exit code ${code} (contract error ${code})`,
                );
        }
        await sleep(ops.pollMs ?? 1000);
    }
    throw new ChangeFailed(
        c.what,
        c.to,
        undefined,
        `not in effect on ${c.to.toString()} after the message was applied`,
    );
}

/** Deploys (init + body) unless already active; confirms it is active and `check` holds. */
export async function ensureDeployed(
    ops: ChainOps,
    c: Omit<Change, 'check'> & { init: StateInit; check?: () => Promise<boolean> },
): Promise<'deployed' | 'exists'> {
    if (await isActive(ops, c.to)) {
        ops.log(`  ${c.what}: already deployed at ${c.to.toString()}`);
        return 'exists';
    }
    await sendAndConfirm(ops, {
        ...c,
        check: async () => (await isActive(ops, c.to)) && (c.check ? await c.check() : true),
    });
    ops.log(`  ${c.what}: deployed at ${c.to.toString()}`);
    return 'deployed';
}
