/**
 * The indexer of one TVM network (the spec's "Bridge API"): follows the bridge's contracts through
 * the network's public toncenter v2 endpoint (getTransactions, runGetMethod) and its Proof API
 * (`/v1/proof_chain`), never through anything else, and writes what it reads to storage:
 *
 * - source proxies (nativeProxy, alienProxy): every transaction emitting TvmTvmNative / TvmTvmAlien
 *   as an external outbound message is a transfer (its hash is the Transfer ID); one emitting
 *   TvmEvmNative / TvmEvmAlien a TVM to EVM transfer (./tvmEvm.ts);
 * - the same proxies as destination: on_tvm_event_confirmed_extended / on_evm_event_confirmed_extended
 *   transactions that mint or unlock are deliveries (the incoming transaction of a transfer);
 * - the configurations (TVM and EVM ones): deploy_tvm_event / deployEvent transactions that deploy an
 *   Event are the destination side of a transfer (linked by message hash, or by EVM tx hash and log
 *   index);
 * - Events whose status can still change: read with getStatus / getLastErrorCode;
 * - transfers from this network without a proof payload: their proof once the block is sealed.
 *
 * Each account is a stream with a cursor (lt:hash of the last transaction handled); the rows of a
 * batch and the cursor after it are committed in one transaction, so an indexer killed at any
 * point resumes where its last commit left it, with nothing lost and nothing twice.
 */
import { Address, Cell, loadTransaction, Transaction } from '@ton/core';
import { TonClient } from '@ton/ton';
import { Op, OpEvm } from '../../wrappers/constants';
import { EvmTvmEventConfiguration, loadVoteData } from '../../wrappers/EvmTvmEventConfiguration';
import { decodeTvmTvmEvent, isTvmTvmEvent } from '../../lib/tvmTvmEvents';
import { readTxMessages, transferFromProxyTransaction } from '../../lib/transferId';
import { buildProofPayload, provenFromProofData } from '../../lib/proofPayload';
import { getTransactionsRaw, runGetMethodV2, v2Provider } from '../../lib/toncenterV2';
import { RawCell } from '../../lib/rawCell';
import { RawMessage, RawTransaction } from '../../lib/rawTransaction';
import { Deployment, DEPLOY_PARAMS, TvmNetworkEntry } from '../../lib/deploy/deployment';
import { Db, Queryable } from '../storage/db';
import {
    DeliveryRow,
    EventRow,
    getCursor,
    insertEvents,
    insertTransfers,
    openEvents,
    relaxedCommit,
    setCursor,
    insertDeliveries,
    setEventStatus,
    setProofPayload,
    transfersWantingProof,
    upsertConfiguration,
    TransferRow,
    DECIMALS_UNKNOWN,
} from '../storage/store';
import { noteWrites } from '../storage/vacuum';
import { Logger } from '../log';
import { PollLoop } from './pollLoop';
import { tvmEvmAlienMeta, tvmEvmTransfersOf } from './tvmEvm';

export type StreamRole = 'proxy' | 'tvmConfiguration' | 'evmConfiguration';

export interface Stream {
    role: StreamRole;
    address: Address;
    /** configurations: the Event variant they deploy */
    tokenType?: 'Native' | 'Alien';
}

export interface TvmIndexerOptions {
    deployment: Deployment;
    /** key of the network in the deployment file */
    key: string;
    db: Db;
    /** toncenter v2 client (default: the deployment's endpoint) */
    client?: TonClient;
    /** explorer base for the Proof API (default: the deployment's `explorer`) */
    explorer?: string;
    /** transactions per committed batch (default 1000: one statement per table, see storage CHUNK) */
    batch?: number;
    /** pause after each committed batch, ms (default 0): spares a rate-limited endpoint */
    pauseMs?: number;
    log?: Logger;
    /**
     * the most transactions of a stream's backlog a pass holds in memory, decoded (default 10,000,
     * plus one page of 100): beyond it the pass reads the newer pages again once the older ones
     * are stored
     */
    maxBacklog?: number;
    /** transactions per getTransactions request (default 100, toncenter's most) */
    page?: number;
    /** test hook: called after each committed batch */
    afterCommit?: (stream: string, rows: number) => void;
}

const raw = (a: Address) => a.toRawString();
const hex = (b: Buffer) => b.toString('hex');

function opOf(body: RawCell | undefined): number | undefined {
    if (!body) return undefined;
    const s = body.beginParse();
    return s.remainingBits >= 32 ? s.preloadUint(32) : undefined;
}

/** The streams of network `key`: its proxies and its configurations. */
export function streamsOf(entry: TvmNetworkEntry): Stream[] {
    const c = entry.contracts;
    const out: Stream[] = [];
    const add = (role: StreamRole, a?: string, tokenType?: 'Native' | 'Alien') => {
        if (a) out.push({ role, address: Address.parse(a), tokenType });
    };
    add('proxy', c.nativeProxy);
    add('proxy', c.alienProxy);
    // alienConfiguration takes TvmTvmNative events and deploys MultiVaultTvmTvmEventAlien
    add('tvmConfiguration', c.alienConfiguration, 'Alien');
    add('tvmConfiguration', c.nativeConfiguration, 'Native');
    add('evmConfiguration', c.evmAlienConfiguration, 'Alien');
    add('evmConfiguration', c.evmNativeConfiguration, 'Native');
    return out;
}

export interface TxEffects {
    transfers: TransferRow[];
    events: EventRow[];
    /** `at`: the delivering transaction's time */
    deliveries: { eventAddress: string; delivery: DeliveryRow; at: number }[];
}

/**
 * What one transaction of a stream means for storage (pure: the unit the tests check). Reads the
 * transaction lazily (lib/rawTransaction.ts): a proxy's transaction is hashed (its Transfer ID) only
 * when it emits an event or delivers, and only the messages looked at are parsed.
 */
export function effectsOf(t: Transaction | RawTransaction, stream: Stream, chainId: number): TxEffects {
    const tx = t instanceof RawTransaction ? t : new RawTransaction(RawCell.fromCell(t.raw));
    const out: TxEffects = { transfers: [], events: [], deliveries: [] };
    const inBody = tx.inMessage?.body;
    const op = opOf(inBody);
    if (stream.role === 'proxy') {
        // an outgoing transfer: the event as an external outbound message (the first one, by index)
        let event: { index: number; message: RawMessage } | undefined;
        for (const [index, message] of tx.outMessages)
            if (message.type === 'external-out' && isTvmTvmEvent(message.body)) {
                event = { index, message };
                break;
            }
        if (event) {
            const e = decodeTvmTvmEvent(event.message.body);
            const messageHash = hex(event.message.cell.hash());
            out.transfers.push({
                transferId: hex(tx.hash()),
                kind: 'TvmToTvm',
                createdAt: tx.now,
                fromChainId: chainId,
                toChainId: e.destinationChainId,
                tokenType: e.tokenType,
                sender: raw(e.sender),
                recipient: raw(e.recipient),
                token: raw(e.token),
                proxy: raw(stream.address),
                amount: e.amount.toString(),
                decimals: e.decimals,
                symbol: e.symbol,
                messageHash,
                linkKey: `tvm:${messageHash}`,
                expectedGas: e.expectedGas.toString(),
                sourceLt: tx.lt.toString(),
                outMsgIndex: event.index,
                proofPayload: null,
            });
        }
        // a TVM to EVM transfer (TvmEvmNative / TvmEvmAlien): read by @ton/core (./tvmEvm.ts) once an
        // external out message carries one (the common TVM to TVM transactions never pay for it)
        for (const m of tx.outMessages.values()) {
            const mop = m.type === 'external-out' ? opOf(m.body) : undefined;
            if (mop !== Op.tvmEvm.tvmEvmNative && mop !== Op.tvmEvm.tvmEvmAlien) continue;
            const core = t instanceof RawTransaction ? loadTransaction(tx.cell.toCell().beginParse()) : t;
            out.transfers.push(...tvmEvmTransfersOf(core, stream.address, chainId));
            break;
        }
        // a delivery: the confirmation from a configuration (or the alien proxy) that mints or unlocks
        if (
            inBody &&
            (op === Op.bridge.onTvmEventConfirmedExtended || op === OpEvm.onEvmEventConfirmedExtended) &&
            tx.successful
        ) {
            const s = inBody.beginParse();
            s.loadUint(32);
            const eventAddress = s.loadAddress();
            let token = '';
            if (op === Op.bridge.onTvmEventConfirmedExtended) {
                s.loadUintBig(256);
                s.loadInt(32);
                s.loadAddress();
                const ev = s.loadRef().beginParse();
                ev.loadAddress();
                token = raw(decodeTvmTvmEvent(ev.loadRef()).token);
            }
            for (const m of tx.outMessages.values()) {
                if (m.type !== 'internal') continue;
                const mop = opOf(m.body);
                if (mop !== Op.jetton.mint && mop !== Op.jetton.transfer) continue;
                const b = m.body.beginParse();
                b.loadUint(32);
                b.loadUintBig(64);
                let amount: bigint;
                if (mop === Op.jetton.mint) {
                    b.loadAddress();
                    amount = b.loadCoins();
                    token = raw(m.dest as Address);
                } else amount = b.loadCoins();
                out.deliveries.push({
                    eventAddress: raw(eventAddress),
                    at: tx.now,
                    delivery: {
                        deliveryTx: hex(tx.hash()),
                        deliveryMsgHash: hex(inBody.hash()),
                        deliveredAmount: amount.toString(),
                        deliveredToken: token,
                        deliveredProxy: raw(stream.address),
                    },
                });
                break;
            }
        }
        return out;
    }
    // configurations: an Event deployed (a successful deploy sends the Event's state init)
    if (!inBody || !tx.successful) return out;
    const deploy = [...tx.outMessages.values()].find((m) => m.init && m.type === 'internal');
    if (!deploy) return out;
    const s = inBody.beginParse();
    let linkKey: string;
    if (stream.role === 'tvmConfiguration') {
        if (op !== Op.bridge.deployTvmEvent) return out;
        s.loadUint(32);
        s.loadUintBig(64);
        linkKey = `tvm:${s.loadHex256()}`;
    } else {
        if (op !== OpEvm.deployEvmEvent) return out;
        s.loadUint(32);
        const eventTransaction = s.loadHex256();
        const eventIndex = s.loadUint(32);
        linkKey = `evm:${eventTransaction}:${eventIndex}`;
    }
    out.events.push({
        linkKey,
        chainId,
        address: raw(deploy.dest as Address),
        eventKind: stream.role === 'tvmConfiguration' ? 'TvmTvm' : 'EvmTvm',
        tokenType: stream.tokenType!,
        configuration: raw(stream.address),
        status: 0,
        lastErrorCode: 0,
        deployedAt: tx.now,
        deployTx: hex(tx.hash()),
    });
    return out;
}

// kept for symmetry with the EVM side (EventVoteData layout), used by tests
export { loadVoteData };

export class TvmIndexer {
    readonly chainId: number;
    readonly streams: Stream[];
    private client: TonClient;
    private explorer?: string;
    private readonly poller = new PollLoop(
        () => this.pollOnce(),
        (e) => this.log('indexer.error', { network: this.chainId, error: e.message }),
    );
    private log: Logger;

    constructor(private o: TvmIndexerOptions) {
        const entry = o.deployment.tvm[o.key];
        if (!entry) throw new Error(`deployment ${o.deployment.name}: no TVM network "${o.key}"`);
        this.chainId = entry.globalId;
        this.streams = streamsOf(entry);
        if (!o.client && !entry.endpoint) throw new Error(`deployment: tvm.${o.key}.endpoint is not set`);
        this.client = o.client ?? new TonClient({ endpoint: entry.endpoint! });
        this.explorer = o.explorer ?? entry.explorer;
        this.log = o.log ?? (() => undefined);
    }

    cursorName(s: Stream) {
        return `tvm:${this.chainId}:${raw(s.address)}`;
    }

    /**
     * where the last passes spent their time (ms): waiting for the endpoint, reading transactions,
     * storing; and the most transactions of a backlog held decoded at once (`maxHeld`)
     */
    readonly timings = { endpointWaitMs: 0, decodeMs: 0, storeMs: 0, transactions: 0, maxHeld: 0 };

    /** transactions per getTransactions page */
    static readonly PAGE = 100;
    /** the most transactions of a stream's backlog a pass holds decoded (TvmIndexerOptions.maxBacklog) */
    static readonly MAX_BACKLOG = 10_000;

    /**
     * What the transactions of stream `s` after lt `after` mean, oldest first, in runs of at most
     * `maxBacklog` transactions (plus one page): toncenter pages from the newest back, so the pass
     * reads back to the cursor once, each page while the next one is on its way (the next page starts
     * where this one ends, known before any BoC is read). It keeps what the oldest pages mean (the
     * ones it handles first) and, of the newer pages, only where each starts; once the oldest run is
     * handed out, it reads the newer pages again, oldest first. So a backlog of any length (an indexer
     * started long after the chain, or after a long stop) holds a bounded number of transactions in
     * memory, at the cost of reading the pages beyond the first `maxBacklog` transactions twice.
     */
    async *readStream(s: Stream, after: bigint): AsyncGenerator<{ lt: bigint; hash: string; effects: TxEffects }[]> {
        const page = this.o.page ?? TvmIndexer.PAGE;
        const cap = this.o.maxBacklog ?? TvmIndexer.MAX_BACKLOG;
        type Read = { lt: bigint; hash: string; effects: TxEffects }[];
        const fetchPage = (from?: { lt: string; hash: string }) => {
            const p = getTransactionsRaw(this.client, s.address, {
                limit: page,
                lt: from?.lt,
                hash: from?.hash,
                toLt: after.toString(),
            });
            p.catch(() => undefined); // awaited below; a failure while the previous page is read is not unhandled
            return p;
        };
        /** what the transactions of a page mean, those after the cursor and before `upTo` (exclusive) */
        const read = (list: Awaited<ReturnType<typeof fetchPage>>, upTo?: bigint): Read => {
            const fresh = list.filter((x) => x.lt > after && (upTo === undefined || x.lt < upTo));
            const t = performance.now();
            const out = fresh.map((x) => ({ lt: x.lt, hash: x.hash, effects: effectsOf(x.tx, s, this.chainId) }));
            this.timings.decodeMs += performance.now() - t;
            return out.sort((a, b) => (a.lt < b.lt ? -1 : a.lt > b.lt ? 1 : 0));
        };
        // newest first: where each page starts (its first transaction, which the page answers first)
        // and ends, and, while it is among the oldest `cap` transactions, what it means
        const pages: { start?: { lt: string; hash: string }; upTo?: bigint; txs?: Read }[] = [];
        let held = 0;
        let from: { lt: string; hash: string } | undefined;
        let next = fetchPage();
        for (;;) {
            const t = performance.now();
            const list = await next;
            this.timings.endpointWaitMs += performance.now() - t;
            const upTo = from && BigInt(from.lt);
            const more = list.length >= page && list.some((x) => x.lt > after && (upTo === undefined || x.lt < upTo));
            // the newest page is read again from its own first transaction (the chain may have grown)
            const start = from ?? (list[0] && { lt: list[0].lt.toString(), hash: list[0].hash });
            const pageUpTo = upTo ?? (list[0] && list[0].lt + 1n);
            if (more) {
                const last = list[list.length - 1];
                from = { lt: last.lt.toString(), hash: last.hash };
                next = fetchPage(from);
            }
            const txs = read(list, pageUpTo);
            pages.push({ start, upTo: pageUpTo, txs });
            held += txs.length;
            this.timings.maxHeld = Math.max(this.timings.maxHeld, held);
            // past the cap, the newest pages held let go of what they mean (read again later)
            for (let i = 0; held > cap && i < pages.length - 1; i++) {
                if (!pages[i].txs) continue;
                held -= pages[i].txs!.length;
                pages[i].txs = undefined;
            }
            if (!more) break;
        }
        // oldest first: the pages held, in one run, then each page let go, read again
        const kept = pages.filter((p) => p.txs).reverse();
        const first = kept.flatMap((p) => p.txs!);
        if (first.length) yield first;
        for (let i = pages.length - 1; i >= 0; i--) {
            if (pages[i].txs) continue;
            const t = performance.now();
            const list = await fetchPage(pages[i].start);
            this.timings.endpointWaitMs += performance.now() - t;
            const txs = read(list, pages[i].upTo);
            this.timings.maxHeld = Math.max(this.timings.maxHeld, txs.length);
            if (txs.length) yield txs;
        }
    }

    /** One pass over every stream; returns the number of transactions handled. */
    async pollStreams(): Promise<number> {
        let handled = 0;
        const batch = this.o.batch ?? 1000;
        for (const s of this.streams) {
            const name = this.cursorName(s);
            const cursor = await getCursor(this.o.db, name);
            const after = cursor ? BigInt(cursor.split(':')[0]) : 0n;
            for await (const txs of this.readStream(s, after))
                for (let i = 0; i < txs.length; i += batch) {
                    const chunk = txs.slice(i, i + batch);
                    await this.completeTvmEvm(chunk.flatMap((c) => c.effects.transfers));
                    const last = chunk[chunk.length - 1];
                    let rows = 0;
                    const t = performance.now();
                    await this.o.db.transaction(async (q) => {
                        await relaxedCommit(q);
                        rows += await insertTransfers(
                            q,
                            chunk.flatMap((c) => c.effects.transfers),
                        );
                        rows += await insertEvents(
                            q,
                            chunk.flatMap((c) => c.effects.events),
                        );
                        await insertDeliveries(
                            q,
                            chunk.flatMap((c) => c.effects.deliveries.map((d) => ({ ...d, chainId: this.chainId }))),
                        );
                        await setCursor(q, name, `${last.lt}:${Buffer.from(last.hash, 'base64').toString('hex')}`);
                    });
                    this.timings.storeMs += performance.now() - t;
                    this.timings.transactions += chunk.length;
                    handled += chunk.length;
                    this.log('indexer.batch', {
                        network: this.chainId,
                        stream: name,
                        transactions: chunk.length,
                        rows,
                        lt: last.lt.toString(),
                    });
                    this.o.afterCommit?.(name, rows);
                    // PGlite has no autovacuum: its VACUUM once enough was written (service/storage/vacuum.ts)
                    await noteWrites(this.o.db, rows);
                    if (this.o.pauseMs) await new Promise((r) => setTimeout(r, this.o.pauseMs));
                }
        }
        return handled;
    }

    private alienMeta = new Map<string, { decimals: number; symbol: string }>();

    /** The decimals and symbol of TVM to EVM burns of EVM alien tokens, from the alien proxy (cached). */
    private async completeTvmEvm(rows: TransferRow[]) {
        for (const r of rows) {
            if (r.kind !== 'TvmToEvm' || r.decimals !== DECIMALS_UNKNOWN) continue;
            let meta = this.alienMeta.get(r.token);
            if (!meta) {
                // a token the proxy burned is one it records; if the endpoint answers without it, the
                // decimals stay DECIMALS_UNKNOWN (no volume in the API, never one in the wrong scale) and
                // it is asked again for the next transfer
                const read = await tvmEvmAlienMeta(this.client, Address.parse(r.proxy), Address.parse(r.token));
                if (read) this.alienMeta.set(r.token, read);
                meta = read ?? { decimals: DECIMALS_UNKNOWN, symbol: '' };
            }
            r.decimals = meta.decimals;
            r.symbol = meta.symbol;
        }
    }

    /** Reads the status of every Event of this network that can still change. */
    async pollEvents(): Promise<number> {
        let changed = 0;
        for (const e of await openEvents(this.o.db, this.chainId)) {
            const address = Address.parse(e.address);
            try {
                const status = Number((await runGetMethodV2(this.client, address, 'getStatus', [])).readBigNumber());
                let lastError = 0;
                if (e.eventKind === 'TvmTvm')
                    lastError = Number(
                        (await runGetMethodV2(this.client, address, 'getLastErrorCode', [])).readBigNumber(),
                    );
                await setEventStatus(this.o.db, e.address, status, lastError);
                changed++;
            } catch (err) {
                // not deployed yet on this endpoint's view, or bounced: read again next pass
                this.log('indexer.event_unreadable', {
                    network: this.chainId,
                    event: e.address,
                    error: (err as Error).message,
                });
            }
        }
        return changed;
    }

    /** Proof payloads of this network's transfers whose block is sealed. */
    async pollProofs(q: Queryable = this.o.db): Promise<number> {
        if (!this.explorer) return 0;
        let n = 0;
        for (const t of await transfersWantingProof(q, this.chainId)) {
            const r = await fetch(`${this.explorer}/v1/proof_chain/${t.proxy}/${t.sourceLt}`);
            if (r.status !== 200) continue;
            const body = (await r.json()) as { result?: { boc?: string } };
            if (!body.result?.boc) continue;
            // the source transaction, read again from the network (storage keeps only what it meant)
            const tx = await this.client.getTransaction(
                Address.parse(t.proxy),
                t.sourceLt,
                Buffer.from(t.transferId, 'hex').toString('base64'),
            );
            if (!tx) continue;
            const found = transferFromProxyTransaction(tx);
            if (!found) continue;
            const dest = Object.values(this.o.deployment.tvm).find((n) => n.globalId === t.toChainId);
            // TvmTvmNative (lock) is taken by the destination's Alien configuration, TvmTvmAlien by its Native one
            const configuration =
                dest?.contracts[t.tokenType === 'Native' ? 'alienConfiguration' : 'nativeConfiguration'];
            const built = buildProofPayload(null, found, {
                proven: provenFromProofData(Cell.fromBase64(body.result.boc)),
                configuration: configuration ? Address.parse(configuration) : undefined,
                attachedValue: DEPLOY_PARAMS.tvmDeployEventValue,
            });
            await setProofPayload(q, t.transferId, JSON.stringify(built.payload));
            n++;
        }
        return n;
    }

    private configurationsRead = false;

    /** The EVM to TVM configurations of this network, from their get methods (once a start). */
    async readConfigurations(): Promise<number> {
        let n = 0;
        for (const s of this.streams.filter((x) => x.role === 'evmConfiguration')) {
            const p = v2Provider(this.client, s.address);
            const c = EvmTvmEventConfiguration.createFromAddress(s.address);
            const details = await c.getGetDetails(p);
            const flags = await c.getGetFlags(p);
            await upsertConfiguration(this.o.db, {
                address: raw(s.address),
                tvmChainId: this.chainId,
                chainId: Number(details.networkConfiguration.chainId),
                flags: Number(flags.flags),
                eventInitialBalance: details.basicConfiguration.eventInitialBalance.toString(),
                tokenType: s.tokenType!,
                direction: 'ToTvm',
            });
            n++;
        }
        this.configurationsRead = true;
        return n;
    }

    /**
     * One pass: configurations (once), every stream, the open Events, the wanted proofs. A failing
     * part (an endpoint down, a bad answer) is logged and retried next pass; the others go on.
     */
    async pollOnce(): Promise<{ transactions: number; events: number; proofs: number; errors: number }> {
        let errors = 0;
        const guard = async (part: string, f: () => Promise<number>) => {
            try {
                return await f();
            } catch (e) {
                errors++;
                this.log('indexer.error', { network: this.chainId, part, error: (e as Error).message });
                return 0;
            }
        };
        if (!this.configurationsRead) await guard('configurations', () => this.readConfigurations());
        const transactions = await guard('streams', () => this.pollStreams());
        const events = await guard('events', () => this.pollEvents());
        const proofs = await guard('proofs', () => this.pollProofs());
        await guard('vacuum', async () => Number(await noteWrites(this.o.db, proofs)));
        return { transactions, events, proofs, errors };
    }

    start(intervalMs = 1000) {
        this.poller.start(intervalMs);
    }

    /** Stops after the pass under way (its transaction commits or rolls back whole). */
    stop() {
        return this.poller.stop();
    }
}

/** Reads a transaction's messages (re-exported for tests that build fixtures). */
export { readTxMessages };
