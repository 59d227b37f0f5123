/**
 * The sync service of one direction X -> Y: keeps the LiteClient on Y (which holds X's validator
 * set) current. Each round it reads the LiteClient (epoch, set, last key block seqno), asks X's key
 * block feed for every key block after that seqno, and sends, in order, each one that installs a
 * newer set (`new_key_block` from its wallet on Y, with the signatures of the set the LiteClient
 * holds), checking on chain that the LiteClient moved to it before sending the next. After downtime
 * the same round catches up through every missed key block. It keeps no state of its own: the
 * LiteClient is the state, so two instances only duplicate a refused message.
 *
 * Alerts: /health answers 503 while the LiteClient is more than one epoch behind the feed, or the
 * last round failed; each failure is logged at error level.
 *
 *   DEPLOYMENT_FILE   the deployment file (networks, endpoints, the LiteClient on Y)
 *   SYNC_FROM         X, the network whose key blocks are sent (a key of the file's `tvm`)
 *   SYNC_MNEMONIC     the wallet on Y (24 words; or WALLET_MNEMONIC), SYNC_SUBWALLET (0)
 *   KEY_BLOCKS_URL    X's key block feed (default: X's `explorer`, the local network's /v1/key_blocks)
 *   PORT (0), SYNC_INTERVAL_MS (2000), SYNC_VALUE (nanotons attached, 1 TON), LOG_LEVEL
 */
import { Address, toNano } from '@ton/core';
import { TonClient } from '@ton/ton';
import { otherKey } from '../../lib/deploy/deployment';
import { LiteClient } from '../../wrappers/LiteClient';
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
import { httpKeyBlockFeed, KeyBlockFeed, liteClientOn, verifierView } from './chain';
import { OperatorWallet } from './wallet';

export interface SyncOptions {
    feed: KeyBlockFeed;
    liteClient: ReturnType<typeof liteClientOn> & { address: Address };
    wallet: OperatorWallet;
    value: bigint;
    /** how long to wait for the LiteClient to take a key block */
    acceptMs?: number;
}

export class SyncWorker {
    /** key blocks the feed has that install a newer set than the LiteClient's */
    lagEpochs = 0;
    lastError: string | null = null;
    lastRound = 0;

    constructor(
        readonly o: SyncOptions,
        readonly svc: Service,
    ) {
        svc.metrics.define('key_blocks_sent', 'counter', 'key blocks the LiteClient accepted from this service');
        svc.metrics.define('lag_epochs', 'gauge', 'sets the LiteClient is behind the source network');
        svc.metrics.define('epoch_since', 'gauge', "the LiteClient's current_epoch_since");
        svc.metrics.define('wallet_balance', 'gauge', 'nanotons in the wallet');
    }

    async round(): Promise<void> {
        try {
            await this.step();
            this.lastError = null;
        } catch (e) {
            this.lastError = (e as Error).message;
            throw e;
        } finally {
            this.lastRound = Date.now();
        }
    }

    private async step(): Promise<void> {
        const { feed, liteClient: lc, wallet } = this.o;
        const log = this.svc.log;
        this.svc.metrics.set('wallet_balance', await wallet.balance());
        const since = await lc.getCurrentEpochSince();
        const seqno = await lc.getCurrentSeqNo();
        const pending = (await feed.keyBlocksAfter(seqno)).filter((k) => k.installsEpoch > since);
        this.lagEpochs = pending.length;
        this.svc.metrics.set('lag_epochs', pending.length);
        this.svc.metrics.set('epoch_since', since);
        if (pending.length > 1) log.error('sync.behind', { epochs: pending.length, epochSince: since });
        for (const k of pending) {
            if (this.svc.stopping) return;
            const now = await lc.getCurrentEpochSince();
            if (k.installsEpoch <= now) continue; // another instance sent it
            const view = await verifierView(lc);
            log.info('sync.sending', { seqno: k.seqno, installsEpoch: k.installsEpoch, epochSince: now });
            await wallet.send([
                {
                    to: lc.address,
                    value: this.o.value,
                    body: LiteClient.newKeyBlockMessage(k.seqno, k.proof, k.signatures(view)),
                },
            ]);
            const until = Date.now() + (this.o.acceptMs ?? 30_000);
            let got = await lc.getCurrentEpochSince();
            while (got < k.installsEpoch && Date.now() < until) {
                await new Promise((r) => setTimeout(r, 300));
                got = await lc.getCurrentEpochSince();
            }
            if (got < k.installsEpoch)
                throw new Error(
                    `the LiteClient did not take key block ${k.seqno} (epoch since still ${got}, the block installs ${k.installsEpoch})`,
                );
            this.svc.metrics.inc('key_blocks_sent');
            this.lagEpochs--;
            this.svc.metrics.set('lag_epochs', this.lagEpochs);
            this.svc.metrics.set('epoch_since', got);
            log.info('sync.key_block', { seqno: k.seqno, epochSince: got });
        }
    }

    health() {
        return {
            ok: this.lastError === null && this.lagEpochs <= 1,
            lagEpochs: this.lagEpochs,
            lastError: this.lastError,
            lastRound: this.lastRound ? new Date(this.lastRound).toISOString() : null,
        };
    }
}

async function main() {
    const d = deploymentFromEnv();
    const from = envString('SYNC_FROM');
    const to = otherKey(d, from);
    const lcAddress = d.tvm[to].contracts.liteClient;
    if (!lcAddress) throw new Error(`deployment ${d.name}: tvm.${to}.contracts.liteClient is not deployed`);
    const endpoint = d.tvm[to].endpoint;
    if (!endpoint) throw new Error(`deployment ${d.name}: tvm.${to}.endpoint is not set`);
    const feedUrl = envString('KEY_BLOCKS_URL', d.tvm[from].explorer ?? '');
    if (!feedUrl) throw new Error(`KEY_BLOCKS_URL: required (tvm.${from}.explorer is not set)`);
    const client = new TonClient({ endpoint });
    const wallet = await OperatorWallet.fromMnemonic(client, mnemonicFromEnv('SYNC'), envInt('SYNC_SUBWALLET', 0));
    const ref: { worker?: SyncWorker } = {};
    const svc = await startService({
        name: `sync-${from}-${to}`,
        port: envInt('PORT', 0, 0, 65535),
        health: () => ref.worker?.health() ?? { ok: false, starting: true },
    });
    const worker = (ref.worker = new SyncWorker(
        {
            feed: httpKeyBlockFeed(feedUrl),
            liteClient: { ...liteClientOn(client, Address.parse(lcAddress)), address: Address.parse(lcAddress) },
            wallet,
            value: envNano('SYNC_VALUE', toNano('1')),
        },
        svc,
    ));
    svc.log.info('sync.config', {
        from,
        to,
        liteClient: lcAddress,
        wallet: wallet.address.toRawString(),
        feed: feedUrl,
    });
    svc.loop('sync', envInt('SYNC_INTERVAL_MS', 2000, 50), () => worker.round());
}

if (require.main === module) runMain('sync', main);
