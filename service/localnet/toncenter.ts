/**
 * The HTTP endpoint of one local TVM network: the toncenter v2 API (JSON-RPC at `/jsonRPC` and
 * `/api/v2/jsonRPC`, and the same methods as `GET /api/v2/<method>?params`), enough of it for
 * unmodified `@ton/ton` TonClient and blueprint's `--custom` provider; the explorer's
 * `GET /traces/<hash>` (lib/transferId.ts TraceJson, what the spec's Transfer ID procedure reads);
 * the proof of a sealed transaction at `GET /v1/proof_chain/<address>/<lt>` (the Proof API); the
 * network's key blocks with their signatures at `GET /v1/key_blocks?after_seqno=&limit=` (what a sync
 * service feeds a LiteClient); and `GET /health`.
 *
 * Answers follow toncenter: `{ ok: true, result, id, jsonrpc }`, or `{ ok: false, error, code, id,
 * jsonrpc }` with the HTTP status `code` and a message naming the parameter and the rule. Nothing a
 * client sends can stop the process: every handler's failure becomes such an answer.
 */
import http from 'http';
import { AddressInfo } from 'net';
import { Address, beginCell, Cell, external, loadMessage, storeMessage, Transaction, TupleItem } from '@ton/core';
import { readTxMessages } from '../../lib/transferId';
import { NodeError, TvmNode } from './tvmNode';
import type { SignedKeyBlock } from '../../harness/chain';

/** Largest request body accepted (a BOC of a big deploy fits many times). */
export const MAX_BODY_BYTES = 2 * 1024 * 1024;
const ZERO_HASH = Buffer.alloc(32).toString('base64');
const MC_SHARD = '-9223372036854775808';

type Params = Record<string, unknown>;
type Handler = (node: TvmNode, p: Params) => Promise<unknown>;

// ---------------------------------------------------------------- parameters

function need(p: Params, name: string): unknown {
    const v = p[name];
    if (v === undefined || v === null || v === '') throw new NodeError(422, `${name}: required`);
    return v;
}

function addressParam(p: Params, name = 'address'): Address {
    const v = need(p, name);
    if (typeof v !== 'string') throw new NodeError(422, `${name}: a string address is expected`);
    try {
        return Address.parse(v);
    } catch {
        throw new NodeError(422, `${name}: invalid address "${v.slice(0, 100)}" (raw 0:<hex> or user-friendly)`);
    }
}

function intParam(p: Params, name: string, o: { min?: number; max?: number; def?: number } = {}): number | undefined {
    const v = p[name];
    if (v === undefined || v === null || v === '') return o.def;
    const n = typeof v === 'number' ? v : typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : NaN;
    if (!Number.isSafeInteger(n)) throw new NodeError(422, `${name}: an integer is expected`);
    if (o.min !== undefined && n < o.min) throw new NodeError(422, `${name}: at least ${o.min}`);
    if (o.max !== undefined && n > o.max) throw new NodeError(422, `${name}: at most ${o.max}`);
    return n;
}

function bigParam(p: Params, name: string): bigint | undefined {
    const v = p[name];
    if (v === undefined || v === null || v === '') return undefined;
    if ((typeof v === 'string' && /^\d+$/.test(v)) || (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0))
        return BigInt(v);
    throw new NodeError(422, `${name}: a non-negative integer is expected`);
}

function bocParam(p: Params, name: string, optional = false): Cell | undefined {
    const v = p[name];
    if (optional && (v === undefined || v === null || v === '')) return undefined;
    const s = need(p, name);
    if (typeof s !== 'string') throw new NodeError(422, `${name}: a base64 BOC string is expected`);
    try {
        return Cell.fromBoc(Buffer.from(s, 'base64'))[0];
    } catch (e) {
        throw new NodeError(422, `${name}: not a base64 BOC (${(e as Error).message})`);
    }
}

function hashParam(p: Params, name: string): string | undefined {
    const v = p[name];
    if (v === undefined || v === null || v === '') return undefined;
    if (typeof v !== 'string') throw new NodeError(422, `${name}: a hash string is expected`);
    const s = v.replace(/^0x/, '');
    if (/^[0-9a-fA-F]{64}$/.test(s)) return s.toLowerCase();
    const b = Buffer.from(s.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    if (b.length === 32) return b.toString('hex');
    throw new NodeError(422, `${name}: a 32-byte hash is expected (64 hex characters or base64)`);
}

/** toncenter's stack entries: ["num", "0x.."|"123"], ["tvm.Cell", b64], ["tvm.Slice", b64], ... */
function stackParam(p: Params): TupleItem[] {
    const v = p.stack ?? [];
    if (!Array.isArray(v)) throw new NodeError(422, 'stack: an array of [type, value] entries is expected');
    return v.map((e, i) => {
        if (!Array.isArray(e) || e.length !== 2 || typeof e[0] !== 'string')
            throw new NodeError(422, `stack[${i}]: a [type, value] pair is expected`);
        const [type, value] = e as [string, unknown];
        if (type === 'num' || type === 'number' || type === 'int') {
            const s = String(value);
            if (!/^-?(0x[0-9a-fA-F]+|\d+)$/.test(s)) throw new NodeError(422, `stack[${i}]: not an integer`);
            const neg = s.startsWith('-');
            const n = BigInt(neg ? s.slice(1) : s);
            return { type: 'int', value: neg ? -n : n };
        }
        const kinds: Record<string, 'cell' | 'slice' | 'builder'> = {
            'tvm.Cell': 'cell',
            cell: 'cell',
            'tvm.Slice': 'slice',
            slice: 'slice',
            'tvm.Builder': 'builder',
            builder: 'builder',
        };
        const kind = kinds[type];
        if (!kind) throw new NodeError(422, `stack[${i}]: unsupported type "${type.slice(0, 40)}"`);
        if (typeof value !== 'string') throw new NodeError(422, `stack[${i}]: a base64 BOC is expected`);
        try {
            return { type: kind, cell: Cell.fromBoc(Buffer.from(value, 'base64'))[0] } as TupleItem;
        } catch {
            throw new NodeError(422, `stack[${i}]: not a base64 BOC`);
        }
    });
}

// ---------------------------------------------------------------- answers

const b64 = (c: Cell) => c.toBoc().toString('base64');
const friendly = (a: Address) => a.toString({ urlSafe: true, bounceable: true, testOnly: false });

function stackEntry(item: TupleItem): unknown {
    switch (item.type) {
        case 'int':
            return {
                '@type': 'tvm.stackEntryNumber',
                number: { '@type': 'tvm.numberDecimal', number: item.value.toString() },
            };
        case 'cell':
            return { '@type': 'tvm.stackEntryCell', cell: { '@type': 'tvm.cell', bytes: b64(item.cell) } };
        case 'slice':
        case 'builder':
            return { '@type': 'tvm.stackEntrySlice', slice: { '@type': 'tvm.slice', bytes: b64(item.cell) } };
        case 'tuple':
            return {
                '@type': 'tvm.stackEntryTuple',
                tuple: { '@type': 'tvm.tuple', elements: item.items.map(stackEntry) },
            };
        case 'null':
            return { '@type': 'tvm.stackEntryList', list: { '@type': 'tvm.list', elements: [] } };
        default:
            return { '@type': 'tvm.stackEntryUnsupported' };
    }
}

function stackItem(item: TupleItem): unknown {
    switch (item.type) {
        case 'int':
            return ['num', item.value < 0n ? '-0x' + (-item.value).toString(16) : '0x' + item.value.toString(16)];
        case 'cell':
        case 'slice':
        case 'builder':
            return [item.type, { bytes: b64(item.cell) }];
        case 'tuple':
            return ['tuple', { '@type': 'tvm.tuple', elements: item.items.map(stackEntry) }];
        case 'null':
            return ['null', null];
        default:
            return ['unsupported', null];
    }
}

function blockId(node: TvmNode) {
    const chain = node.network.chain;
    const last = chain.lastBlock;
    return {
        '@type': 'ton.blockIdExt',
        workchain: -1,
        shard: MC_SHARD,
        seqno: last?.seqno ?? chain.seqno,
        root_hash: (last?.rootHash ?? Buffer.alloc(32)).toString('base64'),
        file_hash: (last?.fileHash ?? Buffer.alloc(32)).toString('base64'),
    };
}

function messageJson(cell: Cell | null | undefined) {
    if (!cell) return undefined;
    const m = loadMessage(cell.beginParse());
    const internal = m.info.type === 'internal' ? m.info : undefined;
    const src = m.info.src;
    const dest = m.info.dest;
    return {
        '@type': 'raw.message',
        hash: cell.hash().toString('base64'),
        source: src instanceof Address ? friendly(src) : '',
        destination: dest instanceof Address ? friendly(dest) : '',
        value: (internal?.value.coins ?? 0n).toString(),
        fwd_fee: (internal?.forwardFee ?? 0n).toString(),
        ihr_fee: (internal?.ihrFee ?? 0n).toString(),
        created_lt: (m.info.type === 'external-in' ? 0n : m.info.createdLt).toString(),
        body_hash: m.body.hash().toString('base64'),
        msg_data: { '@type': 'msg.dataRaw', body: b64(m.body), init_state: m.init ? b64(beginCell().endCell()) : '' },
        message: b64(m.body),
    };
}

export function transactionJson(tx: Transaction) {
    const msgs = readTxMessages(tx.raw);
    const d = tx.description;
    const storage = d.type === 'generic' ? (d.storagePhase?.storageFeesCollected ?? 0n) : 0n;
    const info = tx.inMessage?.info;
    const account = info && info.type !== 'external-out' ? info.dest : undefined;
    return {
        '@type': 'raw.transaction',
        address: { '@type': 'accountAddress', account_address: account ? friendly(account) : '' },
        utime: tx.now,
        data: b64(tx.raw),
        transaction_id: { '@type': 'internal.transactionId', lt: tx.lt.toString(), hash: tx.hash().toString('base64') },
        fee: tx.totalFees.coins.toString(),
        storage_fee: storage.toString(),
        other_fee: (tx.totalFees.coins - storage).toString(),
        in_msg: messageJson(msgs.inMsg),
        out_msgs: [...msgs.outMsgs.entries()].sort((a, b) => a[0] - b[0]).map(([, c]) => messageJson(c)),
    };
}

async function addressInformation(node: TvmNode, p: Params) {
    const a = await node.account(addressParam(p));
    return {
        '@type': 'raw.fullAccountState',
        balance: a.balance.toString(),
        extra_currencies: [],
        code: a.code ? b64(a.code) : '',
        data: a.data ? b64(a.data) : '',
        last_transaction_id: {
            '@type': 'internal.transactionId',
            lt: a.lastLt.toString(),
            hash: a.lastLt === 0n ? ZERO_HASH : a.lastHash.toString('base64'),
        },
        frozen_hash: '',
        sync_utime: node.network.now,
        block_id: blockId(node),
        state: a.state,
    };
}

function transactionsOf(node: TvmNode, p: Params) {
    const address = addressParam(p);
    const limit = intParam(p, 'limit', { min: 1, max: 1000, def: 10 })!;
    const lt = bigParam(p, 'lt');
    const hash = hashParam(p, 'hash');
    const toLt = bigParam(p, 'to_lt') ?? 0n;
    let list = node.accountTransactions(address);
    if (lt !== undefined) {
        const i = list.findIndex((t) => t.lt === lt && (!hash || t.hash().toString('hex') === hash));
        if (i < 0) throw new NodeError(404, `lt: no transaction of ${address.toRawString()} at lt ${lt}`);
        list = list.slice(i);
    }
    return list.filter((t) => t.lt > toLt).slice(0, limit);
}

// ---------------------------------------------------------------- methods

export const METHODS: Record<string, Handler> = {
    getAddressInformation: async (node, p) => addressInformation(node, p),
    getExtendedAddressInformation: async (node, p) => {
        const a = await addressInformation(node, p);
        return { ...a, '@type': 'fullAccountState', address: { account_address: friendly(addressParam(p)) } };
    },
    getAddressBalance: async (node, p) => (await node.account(addressParam(p))).balance.toString(),
    getAddressState: async (node, p) => (await node.account(addressParam(p))).state,
    getWalletInformation: async (node, p) => {
        const address = addressParam(p);
        const a = await node.account(address);
        let seqno: number | undefined;
        if (a.state === 'active') {
            const r = await node.runGetMethod(address, 'seqno', []);
            if (r.exitCode === 0 && r.stack[0]?.type === 'int') seqno = Number(r.stack[0].value);
        }
        return {
            wallet: seqno !== undefined,
            balance: a.balance.toString(),
            account_state: a.state,
            ...(seqno !== undefined ? { seqno } : {}),
            last_transaction_id: {
                '@type': 'internal.transactionId',
                lt: a.lastLt.toString(),
                hash: a.lastLt === 0n ? ZERO_HASH : a.lastHash.toString('base64'),
            },
        };
    },
    runGetMethod: async (node, p) => {
        const address = addressParam(p);
        const m = need(p, 'method');
        if (typeof m !== 'string' && typeof m !== 'number')
            throw new NodeError(422, 'method: a get method name or id is expected');
        const r = await node.runGetMethod(address, m, stackParam(p));
        return {
            '@type': 'smc.runResult',
            gas_used: Number(r.gasUsed),
            exit_code: r.exitCode,
            stack: r.stack.map(stackItem),
            block_id: blockId(node),
            last_transaction_id: { '@type': 'internal.transactionId', lt: '0', hash: ZERO_HASH },
        };
    },
    sendBoc: async (node, p) => {
        bocParam(p, 'boc');
        await node.sendBoc(Buffer.from(p.boc as string, 'base64'));
        return { '@type': 'ok' };
    },
    sendBocReturnHash: async (node, p) => {
        bocParam(p, 'boc');
        const r = await node.sendBoc(Buffer.from(p.boc as string, 'base64'));
        return {
            '@type': 'raw.extMessageInfo',
            hash: r.hash.toString('base64'),
            hash_norm: r.normalizedHash.toString('base64'),
        };
    },
    estimateFee: async (node, p) => {
        const address = addressParam(p);
        const body = bocParam(p, 'body')!;
        const code = bocParam(p, 'init_code', true);
        const data = bocParam(p, 'init_data', true);
        const msg = beginCell()
            .store(storeMessage(external({ to: address, body, init: code && data ? { code, data } : undefined })))
            .endCell();
        const f = await node.estimateFee(msg);
        const fees = {
            '@type': 'fees',
            in_fwd_fee: Number(f.inFwdFee),
            storage_fee: Number(f.storageFee),
            gas_fee: Number(f.gasFee),
            fwd_fee: Number(f.fwdFee),
        };
        return { '@type': 'query.fees', source_fees: fees, destination_fees: [] };
    },
    getTransactions: async (node, p) => transactionsOf(node, p).map(transactionJson),
    getMasterchainInfo: async (node) => {
        const id = blockId(node);
        return {
            '@type': 'blocks.masterchainInfo',
            last: id,
            state_root_hash: id.root_hash,
            init: { ...id, seqno: 0, root_hash: ZERO_HASH, file_hash: ZERO_HASH },
        };
    },
    lookupBlock: async (node, p) => {
        const workchain = intParam(p, 'workchain', { min: -1, max: 0 });
        if (p.lt !== undefined && p.lt !== null && p.lt !== '') return lookupByLt(node, p, workchain);
        if (workchain !== -1)
            throw new NodeError(
                422,
                'workchain: -1 (the masterchain) is expected (a basechain block is looked up by lt)',
            );
        const shard = p.shard === undefined ? MC_SHARD : String(p.shard);
        if (shard !== MC_SHARD) throw new NodeError(422, `shard: ${MC_SHARD} (the masterchain) is expected`);
        const seqno = intParam(p, 'seqno', { min: 0 });
        if (seqno === undefined)
            throw new NodeError(422, 'seqno: required (lookup by lt or unixtime is not served here)');
        const b = node.masterchainBlock(seqno);
        if (!b)
            throw new NodeError(
                404,
                `seqno: masterchain block ${seqno} is not kept (the local network keeps its key blocks and its last block)`,
            );
        return {
            '@type': 'ton.blockIdExt',
            workchain: -1,
            shard: MC_SHARD,
            seqno: b.seqno,
            root_hash: b.rootHash.toString('base64'),
            file_hash: b.fileHash.toString('base64'),
        };
    },
    tryLocateResultTx: async (node, p) => locate(node, p, 'result'),
    tryLocateTx: async (node, p) => locate(node, p, 'result'),
    tryLocateSourceTx: async (node, p) => locate(node, p, 'source'),
};

/**
 * `lookupBlock` by lt: the sealed block of `workchain` holding the transaction at `lt` of the account
 * whose id starts with `shard` (the id's top 64 bits as a signed or unsigned 64-bit integer, as a
 * lite server takes an account prefix; default any account). 404 while its block is not sealed: a
 * client that sees a transaction through getTransactions asks this to know it is final.
 */
function lookupByLt(node: TvmNode, p: Params, workchain: number | undefined) {
    if (workchain === undefined) throw new NodeError(422, 'workchain: required (-1 or 0)');
    const lt = bigParam(p, 'lt')!;
    let prefix: bigint | undefined;
    if (p.shard !== undefined && p.shard !== null && p.shard !== '') {
        const v = String(p.shard);
        if (!/^-?\d+$/.test(v)) throw new NodeError(422, 'shard: a 64-bit integer is expected');
        const n = BigInt(v);
        if (n < -(1n << 63n) || n >= 1n << 64n) throw new NodeError(422, 'shard: a 64-bit integer is expected');
        prefix = n < 0n ? n + (1n << 64n) : n;
    }
    const b = node.blockHoldingLt(workchain, prefix, lt);
    if (!b)
        throw new NodeError(
            404,
            `lt: no sealed block of workchain ${workchain} holds a transaction at lt ${lt} in that shard (not sealed yet, or none)`,
        );
    const signed = b.shard >= 1n << 63n ? b.shard - (1n << 64n) : b.shard;
    return {
        '@type': 'ton.blockIdExt',
        workchain: b.workchain,
        shard: signed.toString(),
        seqno: b.seqno,
        root_hash: b.rootHash.toString('base64'),
        file_hash: b.fileHash.toString('base64'),
    };
}

/** The transaction that received (result) or sent (source) the internal message source -> destination at created_lt. */
async function locate(node: TvmNode, p: Params, which: 'result' | 'source') {
    const source = addressParam(p, 'source');
    const destination = addressParam(p, 'destination');
    const createdLt = bigParam(p, 'created_lt');
    if (createdLt === undefined) throw new NodeError(422, 'created_lt: required');
    const owner = which === 'result' ? destination : source;
    for (const tx of node.accountTransactions(owner)) {
        const msgs = which === 'result' ? (tx.inMessage ? [tx.inMessage] : []) : [...tx.outMessages.values()];
        for (const m of msgs) {
            if (m.info.type !== 'internal') continue;
            if (m.info.src.equals(source) && m.info.dest.equals(destination) && m.info.createdLt === createdLt)
                return transactionJson(tx);
        }
    }
    throw new NodeError(
        404,
        `no transaction found for ${source.toRawString()} -> ${destination.toRawString()} at ${createdLt}`,
    );
}

/**
 * One key block as a sync service reads it: the block as a lite server serves it (`block`, its file
 * hash is sha256 of these bytes), the proof the LiteClient takes (`proof`: BlockInfo and the
 * ConfigParams 32/34/36), the signatures of the set before it (`signatures`: BlockSignatures,
 * contracts/verifier.tlb), and the set it installs.
 */
function keyBlockJson(k: SignedKeyBlock) {
    return {
        seqno: k.block.seqno,
        gen_utime: k.block.genUtime,
        root_hash: k.block.rootHash.toString('base64'),
        file_hash: k.block.fileHash.toString('base64'),
        utime_since: k.set.utimeSince,
        utime_until: k.set.utimeUntil,
        block: k.block.boc.toString('base64'),
        proof: b64(k.proof),
        signatures: b64(k.signatures),
    };
}

// ---------------------------------------------------------------- server

export interface TonCenterServer {
    url: string;
    /** the JSON-RPC endpoint (what `--custom` and TonClient take) */
    jsonRpc: string;
    port: number;
    close(): Promise<void>;
    /** requests per method since start (what clients used) */
    calls: Map<string, number>;
}

function send(res: http.ServerResponse, status: number, body: unknown): void {
    if (res.headersSent) return;
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json', 'access-control-allow-origin': '*' });
    res.end(text);
}

function errorBody(e: unknown, id: unknown) {
    const code = e instanceof NodeError ? e.code : 500;
    const message = e instanceof NodeError ? e.message : `internal error: ${(e as Error)?.message ?? String(e)}`;
    return { code, body: { ok: false, error: message, code, id: id ?? null, jsonrpc: '2.0' } };
}

function readBody(req: http.IncomingMessage): Promise<string> {
    return new Promise((resolve, reject) => {
        const chunks: Buffer[] = [];
        let size = 0;
        req.on('data', (c: Buffer) => {
            size += c.length;
            if (size > MAX_BODY_BYTES) {
                reject(new NodeError(413, `request body: larger than ${MAX_BODY_BYTES} bytes`));
                req.destroy();
                return;
            }
            chunks.push(c);
        });
        req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        req.on('error', reject);
    });
}

async function call(node: TvmNode, calls: Map<string, number>, method: unknown, params: unknown): Promise<unknown> {
    if (typeof method !== 'string' || !Object.prototype.hasOwnProperty.call(METHODS, method))
        throw new NodeError(
            404,
            `method: unknown method ${JSON.stringify(method)?.slice(0, 80)}; known: ${Object.keys(METHODS).join(', ')}`,
        );
    if (params !== undefined && (typeof params !== 'object' || params === null || Array.isArray(params)))
        throw new NodeError(422, 'params: an object is expected');
    calls.set(method, (calls.get(method) ?? 0) + 1);
    return node.exclusive(() => METHODS[method](node, (params ?? {}) as Params));
}

async function handle(node: TvmNode, calls: Map<string, number>, req: http.IncomingMessage, res: http.ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const path = url.pathname.replace(/\/+$/, '');
    if (req.method === 'OPTIONS') {
        res.writeHead(204, { 'access-control-allow-origin': '*', 'access-control-allow-headers': '*' });
        return res.end();
    }
    if (req.method === 'POST' && (path === '/jsonRPC' || path === '/api/v2/jsonRPC')) {
        let id: unknown = null;
        try {
            const text = await readBody(req);
            let body: unknown;
            try {
                body = JSON.parse(text);
            } catch {
                throw new NodeError(400, 'request body: not valid JSON');
            }
            if (typeof body !== 'object' || body === null || Array.isArray(body))
                throw new NodeError(400, 'request body: a JSON-RPC object {jsonrpc, id, method, params} is expected');
            const b = body as { id?: unknown; method?: unknown; params?: unknown };
            id = b.id ?? null;
            const result = await call(node, calls, b.method, b.params);
            return send(res, 200, { ok: true, result, id, jsonrpc: '2.0' });
        } catch (e) {
            const { code, body } = errorBody(e, id);
            return send(res, code, body);
        }
    }
    if (req.method !== 'GET')
        return send(res, 405, errorBody(new NodeError(405, `${req.method}: only GET and POST`), null).body);
    try {
        if (path === '/health') {
            const chain = node.network.chain;
            return send(res, 200, {
                ok: true,
                globalId: node.globalId,
                seqno: chain.seqno,
                now: node.network.now,
                validatorsSince: chain.current.utimeSince,
            });
        }
        const trace = path.match(/^\/(?:api\/v\d\/)?traces\/([^/]+)$/);
        if (trace) {
            const h = hashParam({ hash: decodeURIComponent(trace[1]) }, 'hash')!;
            return send(res, 200, await node.exclusive(() => node.trace(h)));
        }
        const proof = path.match(/^\/v1\/proof_chain\/([^/]+)\/([^/]+)$/);
        if (proof) {
            const address = addressParam({ address: decodeURIComponent(proof[1]) });
            const lt = bigParam({ lt: proof[2] }, 'lt')!;
            const data = await node.exclusive(() => {
                const tx = node.accountTransactions(address).find((t) => t.lt === lt);
                if (!tx) throw new NodeError(404, `no transaction of ${address.toRawString()} at lt ${lt}`);
                return node.prove(tx).proofData;
            });
            return send(res, 200, { ok: true, result: { boc: b64(data) } });
        }
        if (path === '/v1/key_blocks') {
            const after = intParam(Object.fromEntries(url.searchParams.entries()), 'after_seqno', {
                min: -1,
                def: -1,
            })!;
            const limit = intParam(Object.fromEntries(url.searchParams.entries()), 'limit', {
                min: 1,
                max: 100,
                def: 20,
            })!;
            const blocks = await node.exclusive(() => node.keyBlocks());
            return send(res, 200, {
                ok: true,
                result: blocks
                    .filter((k) => k.block.seqno > after)
                    .slice(0, limit)
                    .map(keyBlockJson),
            });
        }
        const rest = path.match(/^\/api\/v2\/(\w+)$/);
        if (rest) {
            const params: Params = Object.fromEntries(url.searchParams.entries());
            const result = await call(node, calls, rest[1], params);
            return send(res, 200, { ok: true, result });
        }
        throw new NodeError(
            404,
            `path: ${path.slice(0, 100)} not found (POST /jsonRPC, GET /api/v2/<method>, /traces/<hash>, /v1/proof_chain/<address>/<lt>, /v1/key_blocks, /health)`,
        );
    } catch (e) {
        const { code, body } = errorBody(e, null);
        return send(res, code, body);
    }
}

/**
 * How long a kept-alive connection may sit idle before the server closes it. Node's default (5 s)
 * is shorter than what clients keep sockets for (axios and TonClient with a keep-alive agent,
 * undici's 4 s plus a loaded machine's delays): a client then sends on a socket the server is
 * closing and gets ECONNRESET / "socket hang up". The server keeps them longer than any client does,
 * so the client is the one that closes an idle connection.
 */
export const KEEP_ALIVE_MS = 65_000;
/** how long a client may take to send the headers of a request: above KEEP_ALIVE_MS, as Node requires */
export const HEADERS_TIMEOUT_MS = KEEP_ALIVE_MS + 5_000;

/** Serves `node` on 127.0.0.1:`port` (0: a free port). */
export function serveTonCenter(node: TvmNode, port = 0, host = '127.0.0.1'): Promise<TonCenterServer> {
    const calls = new Map<string, number>();
    const server = http.createServer((req, res) => {
        handle(node, calls, req, res).catch((e) => send(res, 500, errorBody(e, null).body));
    });
    server.keepAliveTimeout = KEEP_ALIVE_MS;
    server.headersTimeout = HEADERS_TIMEOUT_MS;
    server.on('clientError', (_e, socket) => socket.destroy());
    return new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
            const p = (server.address() as AddressInfo).port;
            const url = `http://${host}:${p}`;
            resolve({
                url,
                jsonRpc: `${url}/jsonRPC`,
                port: p,
                calls,
                close: () =>
                    new Promise<void>((r) => {
                        server.closeAllConnections?.();
                        server.close(() => r());
                    }),
            });
        });
    });
}
