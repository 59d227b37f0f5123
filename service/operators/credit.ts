/**
 * The credit backend of one direction X -> Y: for every transfer out of X's proxies to Y with
 * `expected_gas > 0` (credit mode), it deploys the Event on Y with the proof, paying from its
 * wallet, exactly once across restarts and across concurrent instances.
 *
 * State (creditStore.ts): a row per transfer keyed by its Event's address (deterministic: the
 * configuration's deriveEventAddress of the event message hash), in the service's storage
 * (DATABASE_URL: PostgreSQL, shared by several instances; DATA_DIR: PGlite, one instance) or in a
 * journal file (CREDIT_STATE, one instance). An instance works on a transfer only while it holds its
 * lease (SQL store), one transfer deployment of its wallet in flight at a time. For a transfer it
 *   1. reads the Event on chain: Confirmed (or later: LimitReached, LiquidityRequested / Provided,
 *      Cancelled) -> delivered, whoever deployed it; Pending -> a check in flight, wait;
 *      not deployed, Initializing (a proof refused, e.g. a stranger's padded one, 2317), Rejected or
 *      Verified -> a proof is needed;
 *   2. a recorded deployment (any instance's wallet) decides first: its wallet still at seqno S and
 *      T not passed -> the same message again (a wallet takes one message per seqno); the wallet
 *      past S -> wait up to CREDIT_SETTLE_MS for the Event; T passed (with a margin for the
 *      network's clock) or no Event in time -> a new attempt, at most CREDIT_MAX_ATTEMPTS;
 *   3. fetches the proof, checks off chain that Y's LiteClient takes its signatures (else it waits
 *      for the sync service), signs the deployment at its wallet's seqno S valid until T, RECORDS it
 *      (fenced by its lease: a lost lease sends nothing), sends it; 4. records the delivery.
 * An instance keeps the lease of the one transfer its wallet pays for; a transfer it waits on goes back.
 * After a kill -9 the lease expires (CREDIT_LEASE_MS) and another instance (or the restarted one)
 * takes the transfer with its record. Gas spent per transfer: the paying wallet's balance before the
 * deployment minus after the Event confirmed (one deployment in flight per wallet); low-balance
 * alarm (error log, /health 503) below CREDIT_LOW_BALANCE.
 *
 *   DEPLOYMENT_FILE, CREDIT_FROM (X)
 *   DATABASE_URL (PostgreSQL) | DATA_DIR (PGlite data directory) | CREDIT_STATE (journal file): one
 *   CREDIT_MNEMONIC (or WALLET_MNEMONIC), CREDIT_SUBWALLET (0): the wallet on Y (one per instance)
 *   PROOF_API_URL (default: X's explorer, the local network's /v1/proof_chain)
 *   PORT (0), CREDIT_INTERVAL_MS (1000), CREDIT_VALUE (DEPLOY_PARAMS.tvmDeployEventValue),
 *   CREDIT_MAX_ATTEMPTS (3), CREDIT_LOW_BALANCE (10 TON), CREDIT_SETTLE_MS (30000),
 *   CREDIT_LEASE_MS (60000), CREDIT_INSTANCE (lease owner id; default host/pid/random)
 *   CREDIT_FAULT_PAUSE_MS, CREDIT_FAULT_POINT (fault tests only: pause after sending, or with
 *   `before-send` after recording and before sending)
 */
import crypto from 'crypto';
import fs from 'fs';
import os from 'os';
import path from 'path';
import { Address, toNano } from '@ton/core';
import { TonClient } from '@ton/ton';
import { DEPLOY_PARAMS, otherKey } from '../../lib/deploy/deployment';
import { deployTvmEventBody } from '../../lib/proofPayload';
import { transferFromProxyTransaction } from '../../lib/transferId';
import { decodeTvmTvmEvent, isTvmTvmEvent } from '../../lib/tvmTvmEvents';
import { EventStatus } from '../../wrappers/eventStatus';
import { openDb } from '../storage/db';
import {
    deploymentFromEnv,
    envInt,
    envNano,
    envString,
    mnemonicFromEnv,
    runMain,
    Service,
    startService,
} from './frame';
import {
    eventAddressOf,
    eventStatusAt,
    fetchProofData,
    liteClientAccepts,
    liteClientOn,
    transactionsAfter,
    verifierView,
    walletSeqnoOf,
} from './chain';
import { CreditStore, CreditTransfer, JournalCreditStore, NewTransfer, SqlCreditStore } from './creditStore';
import { OperatorWallet } from './wallet';

export type { CreditRecord } from './creditStore';

/** seconds past a message's valid_until before it counts as expired (the network's clock may lag) */
export const EXPIRY_MARGIN_SECONDS = 10;

/**
 * A recorded message this instance sent that has not landed is sent again only after this long (a
 * few blocks), not at every round: a public toncenter endpoint limits requests. One it did not send
 * (a restart, a takeover) is sent at once.
 */
export const RESEND_AFTER_MS = 10_000;

/** Event statuses after which the transfer needs nothing more from a credit backend */
const SETTLED = new Set<number>([
    EventStatus.Confirmed,
    EventStatus.Cancelled,
    EventStatus.LimitReached,
    EventStatus.LiquidityRequested,
    EventStatus.LiquidityProvided,
]);

export interface CreditOptions {
    source: TonClient;
    destination: TonClient;
    destinationGlobalId: number;
    proxies: Address[];
    /** the configuration on Y for an event's token type */
    configurationFor: (tokenType: 'Native' | 'Alien') => Address;
    liteClient: Address;
    proofApi: string;
    wallet: OperatorWallet;
    store: CreditStore;
    value: bigint;
    maxAttempts: number;
    lowBalance: bigint;
    settleMs: number;
    faultPauseMs?: number;
    faultPoint?: 'before-send' | 'after-send';
}

/**
 * What a transfer's step left: nothing more to do; waiting for something else (the proof's block, the
 * sync service, someone's check: the lease goes back); this wallet's deployment in flight (the lease
 * kept, no other transfer this round); or this wallet busy with another transfer's deployment (the
 * lease goes back, no other transfer this round). So an instance holds only the transfer it pays for.
 */
type Outcome = 'done' | 'wait' | 'inflight' | 'blocked';

export class CreditWorker {
    /** when this instance last sent each recorded message (base64 BOC), to resend one only after RESEND_AFTER_MS */
    private sentAt = new Map<string, number>();
    balance: bigint | null = null;
    lastError: string | null = null;

    constructor(
        readonly o: CreditOptions,
        readonly svc: Service,
    ) {
        const m = svc.metrics;
        m.define('transfers_seen', 'counter', 'credit-mode transfers found on the source proxies (new to the store)');
        m.define(
            'transfers_delivered',
            'counter',
            'Events a recorded deployment of a backend deployed, found by this instance',
        );
        m.define('transfers_by_others', 'counter', 'Events found deployed by someone else');
        m.define('transfers_failed', 'counter', 'transfers given up after the bounded retries');
        m.define('transfers_pending', 'gauge', 'transfers seen and not delivered yet');
        m.define('transfers_taken_over', 'counter', "transfers claimed from another instance's expired lease");
        m.define('deployments_sent', 'counter', 'deployment messages sent (resends included)');
        m.define('gas_spent_nanotons', 'counter', 'nanotons spent on delivered transfers');
        m.define('wallet_balance', 'gauge', 'nanotons in the wallet');
        m.define('lag_seconds', 'gauge', 'age of the oldest pending transfer (seconds since it was seen)');
    }

    async round(): Promise<void> {
        try {
            const { wallet, store } = this.o;
            // a message is valid for a minute: what was sent before that has landed or expired
            for (const [boc, at] of this.sentAt) if (Date.now() - at > 120_000) this.sentAt.delete(boc);
            this.balance = await wallet.balance();
            this.svc.metrics.set('wallet_balance', this.balance);
            if (this.balance < this.o.lowBalance)
                this.svc.log.error('credit.low_balance', { balance: this.balance, alarmBelow: this.o.lowBalance });
            await this.scan();
            const skip: string[] = [];
            for (let i = 0; i < 1000 && !this.svc.stopping; i++) {
                const t = await store.claim(Date.now(), skip);
                if (!t) break;
                const outcome = await this.process(t);
                if (outcome === 'inflight') break; // one deployment of this wallet at a time
                if (outcome === 'wait' || outcome === 'blocked') await store.release(t);
                if (outcome === 'blocked') break;
                skip.push(t.eventAddress);
            }
            const p = await store.pending();
            this.svc.metrics.set('transfers_pending', p.count);
            this.lastError = null;
        } catch (e) {
            this.lastError = (e as Error).message;
            throw e;
        }
    }

    /** New transactions of the watched proxies, oldest first, after the recorded cursor. */
    private async scan(): Promise<void> {
        for (const proxy of this.o.proxies) {
            const key = proxy.toRawString();
            const txs = await transactionsAfter(this.o.source, proxy, await this.o.store.cursor(key));
            if (!txs.length) continue;
            const found: NewTransfer[] = [];
            for (const tx of txs) {
                const f = transferFromProxyTransaction(tx);
                if (!f || !isTvmTvmEvent(f.eventBody)) continue;
                const e = decodeTvmTvmEvent(f.eventBody);
                if (e.destinationChainId !== this.o.destinationGlobalId || e.expectedGas <= 0n) continue;
                const configuration = this.o.configurationFor(e.tokenType);
                const event = await eventAddressOf(this.o.destination, configuration, f.messageHash);
                found.push({
                    eventAddress: event.toRawString(),
                    transferId: f.transferIdHex,
                    configuration: configuration.toRawString(),
                    proxy: key,
                    lt: tx.lt.toString(),
                    messageHash: f.messageHash.toString('hex'),
                    outIndex: f.outMessageIndex,
                    seenAt: Date.now(),
                });
            }
            const added = await this.o.store.addSeen(key, txs[txs.length - 1].lt, found);
            for (const t of added) {
                this.svc.metrics.inc('transfers_seen');
                this.svc.log.info('credit.seen', { transferId: t.transferId, lt: t.lt, eventAddress: t.eventAddress });
            }
        }
    }

    private async process(t: CreditTransfer): Promise<Outcome> {
        const { wallet, destination, store } = this.o;
        const log = this.svc.log;
        const id = t.transferId;
        if (t.tookOverFrom) {
            this.svc.metrics.inc('transfers_taken_over');
            log.warn('credit.takeover', {
                transferId: id,
                eventAddress: t.eventAddress,
                from: t.tookOverFrom,
                signedBy: t.signed?.wallet ?? null,
                seqno: t.signed?.seqno ?? null,
            });
        }
        const eventAddress = Address.parse(t.eventAddress);
        const status = await eventStatusAt(destination, eventAddress);
        // whether the recorded deployment's wallet took it (its seqno moved past the message's)
        const signer = t.signed ? Address.parse(t.signed.wallet) : null;
        const signerSeqno = signer ? await walletSeqnoOf(destination, signer) : null;
        const landed = t.signed !== null && signerSeqno !== null && signerSeqno > t.signed.seqno;
        if (status !== null && SETTLED.has(status)) {
            const spent =
                landed && t.signed ? BigInt(t.signed.balance) - (await destination.getBalance(signer!)) : null;
            const paidBy = landed ? t.signed!.wallet : null;
            if (!(await store.recordDelivered(t, { eventStatus: status, spent: spent?.toString() ?? null, paidBy })))
                return this.leaseLost(t);
            if (paidBy) {
                this.svc.metrics.inc('transfers_delivered');
                if (spent !== null && spent > 0n) this.svc.metrics.inc('gas_spent_nanotons', Number(spent));
            } else this.svc.metrics.inc('transfers_by_others');
            log.info('credit.delivered', {
                transferId: id,
                eventAddress: t.eventAddress,
                status,
                spent,
                paidBy,
                by: paidBy ? 'this backend' : 'another party',
            });
            return 'done';
        }
        const now = Math.floor(Date.now() / 1000);
        if (t.signed) {
            if (!landed) {
                if (now <= t.signed.validUntil) {
                    // sent by this instance a moment ago: give it a few blocks before sending it again
                    const sentAt = this.sentAt.get(t.signed.boc);
                    if (sentAt !== undefined && Date.now() - sentAt < RESEND_AFTER_MS) return 'inflight';
                    // not landed yet, still valid: the same message again (its wallet takes it once)
                    this.sentAt.set(t.signed.boc, Date.now());
                    await destination.sendFile(Buffer.from(t.signed.boc, 'base64'));
                    this.svc.metrics.inc('deployments_sent');
                    log.info('credit.resent', { transferId: id, wallet: t.signed.wallet, seqno: t.signed.seqno });
                    return 'inflight';
                }
                if (now <= t.signed.validUntil + EXPIRY_MARGIN_SECONDS) return 'inflight';
                log.warn('credit.expired', { transferId: id, wallet: t.signed.wallet, seqno: t.signed.seqno });
            } else {
                // its wallet took it: the Event comes a few messages later
                const at = t.acceptedAt ?? Date.now();
                if (t.acceptedAt === null && !(await store.recordAccepted(t, at))) return this.leaseLost(t);
                if (status === EventStatus.Pending) return 'inflight';
                if (Date.now() - at < this.o.settleMs) return 'inflight';
                log.warn('credit.not_deployed', { transferId: id, seqno: t.signed.seqno, status });
            }
        } else if (status === EventStatus.Pending) {
            // someone else's proof is being checked: wait for its outcome
            return 'wait';
        }
        if (t.attempts >= this.o.maxAttempts) {
            const reason = `no Event delivered after ${t.attempts} attempts (status ${status})`;
            if (!(await store.recordFailed(t, reason))) return this.leaseLost(t);
            this.svc.metrics.inc('transfers_failed');
            log.error('credit.failed', { transferId: id, attempts: t.attempts, status });
            return 'done';
        }
        const proofData = await fetchProofData(this.o.proofApi, Address.parse(t.proxy), BigInt(t.lt));
        if (!proofData) return 'wait'; // its block is not sealed yet
        const view = await verifierView(liteClientOn(destination, this.o.liteClient));
        if (!liteClientAccepts(proofData, view)) {
            log.info('credit.waiting_for_sync', { transferId: id, epochSince: view.epochSince });
            return 'wait';
        }
        // another deployment of this wallet is not through yet (e.g. one a killed instance recorded)
        if (await store.busy(wallet.address.toRawString(), t.eventAddress)) return 'blocked';
        const seqno = await wallet.seqno();
        const body = deployTvmEventBody({
            queryId: BigInt(t.lt),
            msgHash: Buffer.from(t.messageHash, 'hex'),
            outMsgIndex: t.outIndex,
            remainingGasTo: wallet.address,
            proofData,
        });
        const balance = await wallet.balance();
        const s = wallet.sign(seqno, [{ to: Address.parse(t.configuration), value: this.o.value, body }]);
        const recorded = await store.recordSigned(
            t,
            {
                wallet: wallet.address.toRawString(),
                seqno: s.seqno,
                validUntil: s.validUntil,
                boc: s.boc.toString('base64'),
                balance: balance.toString(),
                at: Date.now(),
            },
            t.attempts + 1,
        );
        if (!recorded) return this.leaseLost(t);
        if (this.o.faultPoint === 'before-send') await this.faultPause(t);
        this.sentAt.set(s.boc.toString('base64'), Date.now());
        await wallet.submit(s);
        this.svc.metrics.inc('deployments_sent');
        log.info('credit.submitted', {
            transferId: id,
            seqno: s.seqno,
            attempt: t.attempts + 1,
            eventAddress: t.eventAddress,
        });
        if (this.o.faultPoint !== 'before-send') await this.faultPause(t);
        return 'inflight';
    }

    private leaseLost(t: CreditTransfer): Outcome {
        this.svc.log.warn('credit.lease_lost', { transferId: t.transferId, eventAddress: t.eventAddress });
        return 'done';
    }

    private async faultPause(t: CreditTransfer): Promise<void> {
        if (!this.o.faultPauseMs) return;
        this.svc.log.info('credit.fault_pause', {
            transferId: t.transferId,
            eventAddress: t.eventAddress,
            point: this.o.faultPoint ?? 'after-send',
        });
        await new Promise((r) => setTimeout(r, this.o.faultPauseMs));
    }

    async health() {
        const p = await this.o.store.pending();
        this.svc.metrics.set(
            'lag_seconds',
            p.oldestSeenAt === null ? 0 : Math.round((Date.now() - p.oldestSeenAt) / 1000),
        );
        return {
            ok: this.lastError === null && (this.balance === null || this.balance >= this.o.lowBalance),
            store: this.o.store.kind,
            instance: this.o.store.owner,
            pending: p.count,
            oldestPendingSince: p.oldestSeenAt === null ? null : new Date(p.oldestSeenAt).toISOString(),
            balance: this.balance?.toString() ?? null,
            lowBalance: this.balance !== null && this.balance < this.o.lowBalance,
            lastError: this.lastError,
        };
    }

    /** What was spent per delivered transfer (the store's record). */
    spent() {
        return this.o.store.spent();
    }
}

/** The store the environment names: DATABASE_URL (PostgreSQL), DATA_DIR (PGlite) or CREDIT_STATE (journal). */
export async function creditStoreFromEnv(route: string, wallet: Address): Promise<CreditStore> {
    const url = process.env.DATABASE_URL || undefined;
    const dataDir = process.env.DATA_DIR || undefined;
    const journal = process.env.CREDIT_STATE || undefined;
    const set = [url && 'DATABASE_URL', dataDir && 'DATA_DIR', journal && 'CREDIT_STATE'].filter(Boolean);
    if (set.length !== 1)
        throw new Error(
            `DATABASE_URL, DATA_DIR, CREDIT_STATE: exactly one is expected (${set.length ? set.join(', ') + ' set' : 'none set'}): PostgreSQL (several instances), a PGlite data directory or a journal file (one instance)`,
        );
    if (journal) return JournalCreditStore.open(journal);
    if (url && !/^postgres(ql)?:\/\//.test(url)) throw new Error(`DATABASE_URL=${url}: a postgres:// URL is expected`);
    if (dataDir) fs.mkdirSync(path.resolve(dataDir), { recursive: true });
    const db = await openDb(url ? { url, poolSize: 4 } : { dataDir: path.resolve(dataDir!) });
    const owner =
        process.env.CREDIT_INSTANCE ||
        `${os.hostname()}/${process.pid}/${wallet.toRawString().slice(2, 10)}/${crypto.randomBytes(3).toString('hex')}`;
    return new SqlCreditStore(db, route, owner, envInt('CREDIT_LEASE_MS', 60_000, 1000));
}

async function main() {
    const d = deploymentFromEnv();
    const from = envString('CREDIT_FROM');
    const to = otherKey(d, from);
    const src = d.tvm[from];
    const dst = d.tvm[to];
    const need = (v: string | undefined, what: string) => {
        if (!v) throw new Error(`deployment ${d.name}: ${what} is not set`);
        return v;
    };
    const source = new TonClient({ endpoint: need(src.endpoint, `tvm.${from}.endpoint`) });
    const destination = new TonClient({ endpoint: need(dst.endpoint, `tvm.${to}.endpoint`) });
    const wallet = await OperatorWallet.fromMnemonic(
        destination,
        mnemonicFromEnv('CREDIT'),
        envInt('CREDIT_SUBWALLET', 0),
    );
    const faultPoint = envString('CREDIT_FAULT_POINT', 'after-send');
    if (faultPoint !== 'after-send' && faultPoint !== 'before-send')
        throw new Error(`CREDIT_FAULT_POINT=${faultPoint}: after-send or before-send`);
    const store = await creditStoreFromEnv(`${src.globalId}:${dst.globalId}`, wallet.address);
    const ref: { worker?: CreditWorker } = {};
    const svc = await startService({
        name: `credit-${from}-${to}`,
        port: envInt('PORT', 0, 0, 65535),
        health: () => ref.worker?.health() ?? { ok: false, starting: true },
        routes: (app) => {
            app.get('/v1/spent', async () => ({ ok: true, result: (await ref.worker?.spent()) ?? [] }));
        },
    });
    const alien = Address.parse(need(dst.contracts.alienConfiguration, `tvm.${to}.contracts.alienConfiguration`));
    const native = Address.parse(need(dst.contracts.nativeConfiguration, `tvm.${to}.contracts.nativeConfiguration`));
    const worker = (ref.worker = new CreditWorker(
        {
            source,
            destination,
            destinationGlobalId: dst.globalId,
            proxies: [
                Address.parse(need(src.contracts.nativeProxy, `tvm.${from}.contracts.nativeProxy`)),
                Address.parse(need(src.contracts.alienProxy, `tvm.${from}.contracts.alienProxy`)),
            ],
            // a Native event (lock) is minted by the alien side; an Alien event (burn) unlocked by the native side
            configurationFor: (tokenType) => (tokenType === 'Native' ? alien : native),
            liteClient: Address.parse(need(dst.contracts.liteClient, `tvm.${to}.contracts.liteClient`)),
            proofApi: envString('PROOF_API_URL', src.explorer ?? ''),
            wallet,
            store,
            value: envNano('CREDIT_VALUE', DEPLOY_PARAMS.tvmDeployEventValue),
            maxAttempts: envInt('CREDIT_MAX_ATTEMPTS', 3, 1, 100),
            lowBalance: envNano('CREDIT_LOW_BALANCE', toNano('10')),
            settleMs: envInt('CREDIT_SETTLE_MS', 30_000, 1000),
            faultPauseMs: envInt('CREDIT_FAULT_PAUSE_MS', 0),
            faultPoint,
        },
        svc,
    ));
    svc.onStop(async () => {
        // a clean stop hands this instance's transfers to the others at once (no lease to wait out)
        await store.releaseAll();
        await store.close();
    });
    svc.log.info('credit.config', {
        from,
        to,
        wallet: wallet.address.toRawString(),
        store: store.kind,
        instance: store.owner,
        pending: (await store.pending()).count,
    });
    svc.loop('credit', envInt('CREDIT_INTERVAL_MS', 1000, 50), () => worker.round());
}

if (require.main === module) runMain('credit', main);
