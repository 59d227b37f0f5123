/**
 * The credit backend of one direction X -> Y: for every transfer out of X's proxies to Y with
 * `expected_gas > 0` (credit mode), it deploys the Event on Y with the proof, paying from its
 * wallet, exactly once across restarts.
 *
 * Exactly once: the Event's address is deterministic (the configuration's deriveEventAddress of the
 * event message hash), and a wallet accepts one message per seqno. For a transfer the backend
 *   1. reads the Event: deployed (and not Rejected / Verified) -> done, whoever deployed it;
 *   2. signs the deployment at the wallet's seqno S, valid until T, and RECORDS it (journal, fsync);
 *   3. sends it; 4. records the delivery once the Event exists.
 * After a crash anywhere, the recorded message decides: the Event exists -> done; the wallet is
 * still at S and T has not passed -> the same message is sent again (it lands at most once); the
 * wallet is past S and the Event never came, or T passed -> a new attempt (at most
 * CREDIT_MAX_ATTEMPTS). A second instance on another wallet can only duplicate a refused
 * deployment (an Event is deployed once), never a delivery.
 *
 * Before paying it checks off chain that Y's LiteClient will take the proof's signatures (else it
 * waits for the sync service). It records the gas spent per transfer (wallet balance before the
 * deployment minus after the Event settled) and alarms (error log, /health 503) below
 * CREDIT_LOW_BALANCE.
 *
 *   DEPLOYMENT_FILE, CREDIT_FROM (X), CREDIT_STATE (the journal file)
 *   CREDIT_MNEMONIC (or WALLET_MNEMONIC), CREDIT_SUBWALLET (0): the wallet on Y
 *   PROOF_API_URL (default: X's explorer, the local network's /v1/proof_chain)
 *   PORT (0), CREDIT_INTERVAL_MS (1000), CREDIT_VALUE (DEPLOY_PARAMS.tvmDeployEventValue),
 *   CREDIT_MAX_ATTEMPTS (3), CREDIT_LOW_BALANCE (10 TON), CREDIT_SETTLE_MS (30000),
 *   CREDIT_FAULT_PAUSE_MS (fault tests only: pause after sending, before recording)
 */
import { Address, toNano } from '@ton/core';
import { TonClient } from '@ton/ton';
import { DEPLOY_PARAMS, otherKey } from '../../lib/deploy/deployment';
import { deployTvmEventBody } from '../../lib/proofPayload';
import { transferFromProxyTransaction } from '../../lib/transferId';
import { decodeTvmTvmEvent, isTvmTvmEvent } from '../../lib/tvmTvmEvents';
import { EventStatus } from '../../wrappers/eventStatus';
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
import { eventOf, fetchProofData, liteClientAccepts, liteClientOn, transactionsAfter, verifierView } from './chain';
import { Journal } from './journal';
import { OperatorWallet, SignedExternal } from './wallet';

export type CreditRecord =
    | { k: 'cursor'; proxy: string; lt: string }
    | {
          k: 'seen';
          id: string;
          proxy: string;
          lt: string;
          messageHash: string;
          outIndex: number;
          configuration: string;
          /** ms since the epoch, when it was found */
          at: number;
      }
    | { k: 'signed'; id: string; attempt: number; seqno: number; validUntil: number; boc: string; balance: string }
    | { k: 'accepted'; id: string; seqno: number; at: number }
    | {
          k: 'delivered';
          id: string;
          event: string;
          status: number;
          spent: string | null;
          by: 'this backend' | 'another party';
      }
    | { k: 'failed'; id: string; reason: string };

interface Transfer {
    seen: Extract<CreditRecord, { k: 'seen' }>;
    signed?: Extract<CreditRecord, { k: 'signed' }>;
    accepted?: Extract<CreditRecord, { k: 'accepted' }>;
    attempts: number;
    done?: Extract<CreditRecord, { k: 'delivered' } | { k: 'failed' }>;
}

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
    journal: Journal<CreditRecord>;
    value: bigint;
    maxAttempts: number;
    lowBalance: bigint;
    settleMs: number;
    faultPauseMs?: number;
}

export class CreditWorker {
    readonly transfers = new Map<string, Transfer>();
    readonly cursors = new Map<string, bigint>();
    balance: bigint | null = null;
    lastError: string | null = null;

    constructor(
        readonly o: CreditOptions,
        readonly svc: Service,
    ) {
        const m = svc.metrics;
        m.define('transfers_seen', 'counter', 'credit-mode transfers found on the source proxies');
        m.define('transfers_delivered', 'counter', 'Events deployed by this backend and found on chain');
        m.define('transfers_by_others', 'counter', 'Events found deployed by someone else');
        m.define('transfers_failed', 'counter', 'transfers given up after the bounded retries');
        m.define('transfers_pending', 'gauge', 'transfers seen and not delivered yet');
        m.define('deployments_sent', 'counter', 'deployment messages sent (resends included)');
        m.define('gas_spent_nanotons', 'counter', 'nanotons spent on delivered transfers');
        m.define('wallet_balance', 'gauge', 'nanotons in the wallet');
        m.define('lag_seconds', 'gauge', 'age of the oldest pending transfer (seconds since it was seen)');
        for (const r of o.journal.records) this.apply(r);
        svc.metrics.set('transfers_pending', this.pending().length);
    }

    private apply(r: CreditRecord): void {
        if (r.k === 'cursor') {
            this.cursors.set(r.proxy, BigInt(r.lt));
            return;
        }
        if (r.k === 'seen') {
            if (!this.transfers.has(r.id)) this.transfers.set(r.id, { seen: r, attempts: 0 });
            return;
        }
        const t = this.transfers.get(r.id);
        if (!t) return;
        if (r.k === 'signed') {
            t.signed = r;
            t.accepted = undefined;
            t.attempts = Math.max(t.attempts, r.attempt);
        } else if (r.k === 'accepted') t.accepted = r;
        else t.done = r;
    }

    private record(r: CreditRecord): void {
        this.o.journal.append(r);
        this.apply(r);
    }

    pending(): Transfer[] {
        return [...this.transfers.values()].filter((t) => !t.done);
    }

    /** Journal records still needed after a restart (used to compact the file on open). */
    static compact(records: CreditRecord[]): CreditRecord[] {
        const lastCursor = new Map<string, number>();
        records.forEach((r, i) => r.k === 'cursor' && lastCursor.set(r.proxy, i));
        return records.filter((r, i) => r.k !== 'cursor' || lastCursor.get(r.proxy) === i);
    }

    async round(): Promise<void> {
        try {
            this.balance = await this.o.wallet.balance();
            this.svc.metrics.set('wallet_balance', this.balance);
            if (this.balance < this.o.lowBalance)
                this.svc.log.error('credit.low_balance', { balance: this.balance, alarmBelow: this.o.lowBalance });
            await this.scan();
            for (const t of this.pending()) {
                if (this.svc.stopping) break;
                await this.process(t);
            }
            const p = this.pending();
            this.svc.metrics.set('transfers_pending', p.length);
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
            const txs = await transactionsAfter(this.o.source, proxy, this.cursors.get(key) ?? 0n);
            for (const tx of txs) {
                const found = transferFromProxyTransaction(tx);
                if (found && isTvmTvmEvent(found.eventBody)) {
                    const e = decodeTvmTvmEvent(found.eventBody);
                    if (
                        e.destinationChainId === this.o.destinationGlobalId &&
                        e.expectedGas > 0n &&
                        !this.transfers.has(found.transferIdHex)
                    ) {
                        this.record({
                            k: 'seen',
                            id: found.transferIdHex,
                            proxy: key,
                            lt: tx.lt.toString(),
                            messageHash: found.messageHash.toString('hex'),
                            outIndex: found.outMessageIndex,
                            configuration: this.o.configurationFor(e.tokenType).toRawString(),
                            at: Date.now(),
                        });
                        this.svc.metrics.inc('transfers_seen');
                        this.svc.log.info('credit.seen', {
                            transferId: found.transferIdHex,
                            lt: tx.lt,
                            amount: e.amount,
                        });
                    }
                }
                this.record({ k: 'cursor', proxy: key, lt: tx.lt.toString() });
            }
        }
    }

    private async process(t: Transfer): Promise<void> {
        const { wallet, destination } = this.o;
        const log = this.svc.log;
        const id = t.seen.id;
        const configuration = Address.parse(t.seen.configuration);
        const ev = await eventOf(destination, configuration, Buffer.from(t.seen.messageHash, 'hex'));
        // Initializing: deployed by someone whose proof the Event refused (2317: e.g. a stranger's
        // padded proof at the configuration's flat eventInitialBalance), no proof processed: deliver
        const deployed =
            ev.status !== null &&
            ev.status !== EventStatus.Initializing &&
            ev.status !== EventStatus.Rejected &&
            ev.status !== EventStatus.Verified;
        const now = Math.floor(Date.now() / 1000);
        if (deployed) {
            const ours = t.signed !== undefined && (await wallet.seqno()) > t.signed.seqno;
            const spent = ours && t.signed ? BigInt(t.signed.balance) - (await wallet.balance()) : null;
            this.record({
                k: 'delivered',
                id,
                event: ev.address.toRawString(),
                status: ev.status!,
                spent: spent === null ? null : spent.toString(),
                by: ours ? 'this backend' : 'another party',
            });
            if (ours) {
                this.svc.metrics.inc('transfers_delivered');
                if (spent !== null && spent > 0n) this.svc.metrics.inc('gas_spent_nanotons', Number(spent));
            } else this.svc.metrics.inc('transfers_by_others');
            log.info('credit.delivered', {
                transferId: id,
                eventAddress: ev.address.toRawString(),
                status: ev.status,
                spent,
                by: ours ? 'this backend' : 'another party',
            });
            return;
        }
        if (t.signed) {
            const seqno = await wallet.seqno();
            if (seqno <= t.signed.seqno) {
                if (now < t.signed.validUntil) {
                    // not landed yet, still valid: the same message again (a wallet takes it once)
                    await wallet.submit(signedOf(t.signed));
                    this.svc.metrics.inc('deployments_sent');
                    log.info('credit.resent', { transferId: id, seqno: t.signed.seqno });
                    return;
                }
                log.warn('credit.expired', { transferId: id, seqno: t.signed.seqno });
            } else {
                // the wallet took it: wait for the Event (it travels through a few messages)
                const at = t.accepted?.at ?? Date.now();
                if (!t.accepted) this.record({ k: 'accepted', id, seqno: t.signed.seqno, at });
                if (Date.now() - at < this.o.settleMs && ev.status === null) return;
                log.warn('credit.not_deployed', { transferId: id, seqno: t.signed.seqno, status: ev.status });
            }
        }
        if (t.attempts >= this.o.maxAttempts) {
            this.record({ k: 'failed', id, reason: `no Event after ${t.attempts} attempts (status ${ev.status})` });
            this.svc.metrics.inc('transfers_failed');
            log.error('credit.failed', { transferId: id, attempts: t.attempts, status: ev.status });
            return;
        }
        const proofData = await fetchProofData(this.o.proofApi, Address.parse(t.seen.proxy), BigInt(t.seen.lt));
        if (!proofData) return; // its block is not sealed yet
        const view = await verifierView(liteClientOn(destination, this.o.liteClient));
        if (!liteClientAccepts(proofData, view)) {
            log.info('credit.waiting_for_sync', { transferId: id, epochSince: view.epochSince });
            return;
        }
        const body = deployTvmEventBody({
            queryId: BigInt(t.seen.lt),
            msgHash: Buffer.from(t.seen.messageHash, 'hex'),
            outMsgIndex: t.seen.outIndex,
            remainingGasTo: wallet.address,
            proofData,
        });
        const balance = await wallet.balance();
        const s = wallet.sign(await wallet.seqno(), [{ to: configuration, value: this.o.value, body }]);
        this.record({
            k: 'signed',
            id,
            attempt: t.attempts + 1,
            seqno: s.seqno,
            validUntil: s.validUntil,
            boc: s.boc.toString('base64'),
            balance: balance.toString(),
        });
        await wallet.submit(s);
        this.svc.metrics.inc('deployments_sent');
        log.info('credit.submitted', {
            transferId: id,
            seqno: s.seqno,
            attempt: t.attempts,
            eventAddress: ev.address.toRawString(),
        });
        if (this.o.faultPauseMs) await new Promise((r) => setTimeout(r, this.o.faultPauseMs));
    }

    health() {
        const pending = this.pending();
        const oldest = pending.length ? Math.min(...pending.map((t) => t.seen.at)) : null;
        this.svc.metrics.set('lag_seconds', oldest === null ? 0 : Math.round((Date.now() - oldest) / 1000));
        return {
            ok: this.lastError === null && (this.balance === null || this.balance >= this.o.lowBalance),
            pending: pending.length,
            oldestPendingSince: oldest === null ? null : new Date(oldest).toISOString(),
            balance: this.balance?.toString() ?? null,
            lowBalance: this.balance !== null && this.balance < this.o.lowBalance,
            lastError: this.lastError,
        };
    }

    /** What was spent per delivered transfer (the journal's record). */
    spent(): { transferId: string; spent: string | null; by: string }[] {
        return [...this.transfers.values()]
            .filter((t) => t.done?.k === 'delivered')
            .map((t) => {
                const d = t.done as Extract<CreditRecord, { k: 'delivered' }>;
                return { transferId: t.seen.id, spent: d.spent, by: d.by };
            });
    }
}

function signedOf(r: Extract<CreditRecord, { k: 'signed' }>): SignedExternal {
    return { seqno: r.seqno, validUntil: r.validUntil, boc: Buffer.from(r.boc, 'base64') };
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
    const journal = Journal.open<CreditRecord>(envString('CREDIT_STATE'), CreditWorker.compact);
    const ref: { worker?: CreditWorker } = {};
    const svc = await startService({
        name: `credit-${from}-${to}`,
        port: envInt('PORT', 0, 0, 65535),
        health: () => ref.worker?.health() ?? { ok: false, starting: true },
        routes: (app) => {
            app.get('/v1/spent', async () => ({ ok: true, result: ref.worker?.spent() ?? [] }));
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
            journal,
            value: envNano('CREDIT_VALUE', DEPLOY_PARAMS.tvmDeployEventValue),
            maxAttempts: envInt('CREDIT_MAX_ATTEMPTS', 3, 1, 100),
            lowBalance: envNano('CREDIT_LOW_BALANCE', toNano('10')),
            settleMs: envInt('CREDIT_SETTLE_MS', 30_000, 1000),
            faultPauseMs: envInt('CREDIT_FAULT_PAUSE_MS', 0),
        },
        svc,
    ));
    svc.onStop(() => journal.close());
    svc.log.info('credit.config', {
        from,
        to,
        wallet: wallet.address.toRawString(),
        journal: journal.file,
        pending: worker.pending().length,
    });
    svc.loop('credit', envInt('CREDIT_INTERVAL_MS', 1000, 50), () => worker.round());
}

if (require.main === module) runMain('credit', main);
