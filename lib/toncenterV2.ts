/**
 * Get methods over the toncenter v2 API with nested tuples intact. TonClient (and blueprint's
 * provider on top of it) flattens a tuple's elements into raw values (bigint, Cell, arrays) instead
 * of TupleItems, so a getter returning a struct cannot be read with TupleReader; `v2Provider` wraps
 * TonClient's provider and reads get methods itself, every other call unchanged.
 */
import { Address, Cell, ContractProvider, StateInit, TupleItem, TupleReader } from '@ton/core';
import { TonClient } from '@ton/ton';
import { parseBoc } from './rawCell';
import { RawTransaction } from './rawTransaction';

type Entry = Record<string, unknown>;

function cellOf(x: unknown): Cell {
    const bytes = (x as { bytes?: string })?.bytes;
    if (typeof bytes !== 'string') throw new Error('toncenter stack: a cell without bytes');
    return Cell.fromBase64(bytes);
}

/** A nested entry ({"@type": "tvm.stackEntryNumber", ...}) as a TupleItem. */
export function stackEntryItem(e: Entry): TupleItem {
    switch (e['@type']) {
        case 'tvm.stackEntryNumber':
            return { type: 'int', value: BigInt((e.number as Entry).number as string) };
        case 'tvm.stackEntryCell':
            return { type: 'cell', cell: cellOf(e.cell) };
        case 'tvm.stackEntrySlice':
            return { type: 'slice', cell: cellOf(e.slice) };
        case 'tvm.stackEntryTuple':
            return { type: 'tuple', items: ((e.tuple as Entry).elements as Entry[]).map(stackEntryItem) };
        case 'tvm.stackEntryList': {
            const items = ((e.list as Entry).elements as Entry[]).map(stackEntryItem);
            return items.length === 0 ? { type: 'null' } : { type: 'tuple', items };
        }
        default:
            throw new Error(`toncenter stack: unsupported entry ${String(e['@type'])}`);
    }
}

/** A top-level stack item (["num", "0x.."], ["cell", {bytes}], ["tuple", {elements}], ...) as a TupleItem. */
export function stackItem(s: [string, unknown]): TupleItem {
    const [type, v] = s;
    switch (type) {
        case 'num': {
            const t = String(v);
            return { type: 'int', value: t.startsWith('-') ? -BigInt(t.slice(1)) : BigInt(t) };
        }
        case 'null':
            return { type: 'null' };
        case 'cell':
            return { type: 'cell', cell: cellOf(v) };
        case 'slice':
            return { type: 'slice', cell: cellOf(v) };
        case 'builder':
            return { type: 'builder', cell: cellOf(v) };
        case 'tuple':
        case 'list': {
            const items = ((v as Entry).elements as Entry[]).map(stackEntryItem);
            return items.length === 0 ? { type: 'null' } : { type: 'tuple', items };
        }
        default:
            throw new Error(`toncenter stack: unsupported item ${type}`);
    }
}

function serialize(args: TupleItem[]): [string, string][] {
    return args.map((a) => {
        switch (a.type) {
            case 'int':
                return ['num', a.value.toString()];
            case 'cell':
                return ['tvm.Cell', a.cell.toBoc().toString('base64')];
            case 'slice':
                return ['tvm.Slice', a.cell.toBoc().toString('base64')];
            case 'builder':
                return ['tvm.Builder', a.cell.toBoc().toString('base64')];
            default:
                throw new Error(`get method argument of type ${a.type} is not supported by the v2 API`);
        }
    });
}

/**
 * One JSON-RPC call to the client's v2 endpoint (its API key sent): the HTTP status and the answer.
 * An answer that is not JSON throws, named by `what` (default: the method), with its HTTP status.
 */
export async function callV2<R>(
    client: TonClient,
    method: string,
    params: Record<string, unknown>,
    what: string = method,
): Promise<{ status: number; body: { ok: boolean; error?: string; code?: number; result?: R } }> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (client.parameters.apiKey) headers['X-API-Key'] = client.parameters.apiKey;
    const r = await fetch(client.parameters.endpoint, {
        method: 'POST',
        headers,
        body: JSON.stringify({ id: '1', jsonrpc: '2.0', method, params }),
    });
    const text = await r.text();
    try {
        return {
            status: r.status,
            body: JSON.parse(text) as { ok: boolean; error?: string; code?: number; result?: R },
        };
    } catch {
        throw new Error(`${what}: HTTP ${r.status}, not JSON: ${text.slice(0, 200)}`);
    }
}

/** runGetMethod over the v2 JSON-RPC endpoint; throws with the exit code when it is not 0 or 1. */
export async function runGetMethodV2(
    client: TonClient,
    address: Address,
    method: string,
    args: TupleItem[],
): Promise<TupleReader> {
    const { status, body } = await callV2<{ exit_code: number; stack: [string, unknown][] }>(client, 'runGetMethod', {
        address: address.toString(),
        method,
        stack: serialize(args),
    });
    if (!body.ok || !body.result)
        throw new Error(`runGetMethod ${method} on ${address.toString()}: ${body.error ?? status}`);
    if (body.result.exit_code !== 0 && body.result.exit_code !== 1)
        throw new Error(`get method ${method} of ${address.toString()} failed with exit code ${body.result.exit_code}`);
    return new TupleReader(body.result.stack.map(stackItem));
}

/** One transaction of a getTransactions answer: its id as the endpoint gives it, its cell read lazily. */
export interface ListedTransaction {
    lt: bigint;
    /** the endpoint's transaction_id.hash (base64): where the next page starts */
    hash: string;
    /** the transaction, from the BoC in `data` (lib/rawTransaction.ts; its hash computed when asked) */
    tx: RawTransaction;
}

/**
 * getTransactions over the v2 JSON-RPC endpoint, newest first, `lt`/`hash` inclusive and `to_lt`
 * exclusive as toncenter serves them. Unlike TonClient's, nothing is validated field by field or
 * decoded ahead: each transaction's BoC is read by lib/rawCell.ts when its fields are asked for, and
 * the transaction_id is checked against the BoC's lt.
 */
export async function getTransactionsRaw(
    client: TonClient,
    address: Address,
    o: { limit: number; lt?: string; hash?: string; toLt?: string },
): Promise<ListedTransaction[]> {
    const what = `getTransactions of ${address.toString()}`;
    const { status, body } = await callV2(
        client,
        'getTransactions',
        {
            address: address.toString(),
            limit: o.limit,
            lt: o.lt,
            hash: o.hash === undefined ? undefined : Buffer.from(o.hash, 'base64').toString('hex'),
            to_lt: o.toLt,
            archival: true,
        },
        what,
    );
    if (!body.ok || !Array.isArray(body.result)) throw new Error(`${what}: ${body.error ?? `HTTP ${status}`}`);
    return (body.result as { data?: unknown; transaction_id?: { lt?: unknown; hash?: unknown } }[]).map((t) => {
        if (
            typeof t.data !== 'string' ||
            typeof t.transaction_id?.lt !== 'string' ||
            typeof t.transaction_id.hash !== 'string'
        )
            throw new Error(`${what}: a transaction without data or transaction_id`);
        const tx = new RawTransaction(parseBoc(Buffer.from(t.data, 'base64'))[0]);
        const lt = BigInt(t.transaction_id.lt);
        if (tx.lt !== lt) throw new Error(`${what}: transaction_id.lt ${lt} but the BoC says ${tx.lt}`);
        return { lt, hash: t.transaction_id.hash, tx };
    });
}

/** The shard `lookupBlock` by lt takes for `account`: its id's top 64 bits, signed, as a lite server takes an account prefix. */
export function accountShardPrefix(account: Address): bigint {
    return BigInt.asIntN(64, BigInt('0x' + account.hash.subarray(0, 8).toString('hex')));
}

/**
 * Whether the transaction of `account` at `lt` is in a sealed (final) block: `lookupBlock` by lt in
 * the account's shard (its id's top 64 bits as the shard, as a lite server takes an account prefix)
 * answers a block; a 404 means not yet.
 */
export async function inSealedBlock(client: TonClient, account: Address, lt: bigint): Promise<boolean> {
    const prefix = accountShardPrefix(account);
    const { status, body } = await callV2(client, 'lookupBlock', {
        workchain: account.workChain,
        shard: prefix.toString(),
        lt: lt.toString(),
    });
    if (body.ok) return true;
    if (status === 404 || body.code === 404) return false;
    throw new Error(`lookupBlock lt ${lt}: ${body.error ?? `HTTP ${status}`}`);
}

/** TonClient's provider for `address`, with get methods read by runGetMethodV2. */
export function v2Provider(client: TonClient, address: Address, init?: StateInit | null): ContractProvider {
    const base = client.provider(address, init ?? null);
    return {
        ...base,
        getState: () => base.getState(),
        external: (m) => base.external(m),
        internal: (via, m) => base.internal(via, m),
        open: (c) => base.open(c),
        getTransactions: (a, lt, h, l) => base.getTransactions(a, lt, h, l),
        get: async (name, args) => {
            if (typeof name !== 'string') throw new Error('get method by id is not supported by the v2 API');
            return { stack: await runGetMethodV2(client, address, name, args) };
        },
    };
}
