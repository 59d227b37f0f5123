/**
 * One EVM to TVM relay, as its own process with its own key. Each round, for each EVM Event
 * configuration on the TVM network the MultiVault serves (deployment file `evm.tvm`), it reads the
 * MultiVault's deposit logs up to the newest block with `eventBlocksToConfirm` confirmations, and
 * for each deposit:
 *   - the Event not deployed yet: a relay with RELAY_DEPLOY=1 deploys it (deployEvent, paid by its
 *     wallet; a second deployment of the same Event is refused on chain), the others wait for it;
 *   - the Event deployed and this relay's key not among its voters yet: it checks the vote data
 *     against the EVM network itself (lib/evmRelay.ts) and votes with a signed external message.
 * Its state is on chain (the Event's voters), so a relay restarted mid-vote neither votes twice (its
 * key is recorded, or the Event refuses a second vote) nor misses the event (it rescans from the
 * configuration's start block). Consensus needs keys * 2 / 3 + 1 votes: up to a third may be down.
 *
 *   DEPLOYMENT_FILE, RELAY_SEED (the ed25519 seed, 64 hex characters)
 *   RELAY_DEPLOY (0 / 1), RELAY_MNEMONIC (or WALLET_MNEMONIC) and RELAY_SUBWALLET (0): its wallet on
 *   the TVM network (needed with RELAY_DEPLOY=1), RELAY_DEPLOY_BUFFER (0.5 TON above eventInitialBalance)
 *   PORT (0), RELAY_INTERVAL_MS (1000), LOG_LEVEL
 */
import { Address, beginCell, external, storeMessage, toNano } from '@ton/core';
import { keyPairFromSeed, KeyPair } from '@ton/crypto';
import { TonClient } from '@ton/ton';
import { JsonRpcProvider } from 'ethers';
import { multiVaultInterface } from '../../lib/deploy/tvm';
import {
    ConfigurationView,
    configurationView,
    EvmReader,
    verifyVoteData,
    voteDataOf,
    VOTE_TTL,
} from '../../lib/evmRelay';
import { v2Provider } from '../../lib/toncenterV2';
import {
    evmEventAddress,
    evmEventVoteBody,
    EvmEventStatus,
    EvmTvmEventConfiguration,
    VoteKind,
} from '../../wrappers/EvmTvmEventConfiguration';
import { MultiVaultEvmTvmEventAlien } from '../../wrappers/MultiVaultEvmTvmEventAlien';
import { findDepositEvents } from '../../wrappers/evm/depositEvents';
import {
    envInt,
    envNano,
    envString,
    mnemonicFromEnv,
    errorText,
    evmDeploymentFromEnv,
    runMain,
    Service,
    startService,
} from './frame';
import { isActive } from './chain';
import { OperatorWallet } from './wallet';

/** The configuration as a relay reads it through toncenter. */
export async function readConfigurationV2(
    client: TonClient,
    address: Address,
    globalId: number,
): Promise<ConfigurationView> {
    const c = EvmTvmEventConfiguration.createFromAddress(address);
    const p = v2Provider(client, address);
    const d = await c.getGetDetails(p);
    const f = await c.getGetFlags(p);
    return configurationView(address, globalId, d, f);
}

export interface RelayOptions {
    evm: EvmReader & { provider: JsonRpcProvider };
    tvm: TonClient;
    globalId: number;
    configurations: Address[];
    keys: KeyPair;
    wallet?: OperatorWallet;
    deployBuffer: bigint;
    startBlock: number;
}

export class RelayWorker {
    private configs = new Map<string, ConfigurationView>();
    /** deposits whose Event this relay has voted on, or found final */
    private done = new Set<string>();
    /** votes sent and not yet seen on chain: key -> sent at (ms) */
    private sent = new Map<string, number>();
    lastError: string | null = null;
    lagBlocks = 0;

    constructor(
        readonly o: RelayOptions,
        readonly svc: Service,
    ) {
        const m = svc.metrics;
        m.define('deposits_seen', 'counter', 'confirmed deposit logs read');
        m.define('votes_sent', 'counter', 'votes sent (confirm or reject)');
        m.define('events_deployed', 'counter', 'Events this relay deployed');
        m.define('lag_blocks', 'gauge', 'EVM blocks between the chain head and the newest block scanned');
        m.define('wallet_balance', 'gauge', 'nanotons in the deploying wallet');
    }

    get publicKeyHex(): string {
        return this.o.keys.publicKey.toString('hex');
    }

    async round(): Promise<void> {
        try {
            await this.step();
            this.lastError = null;
        } catch (e) {
            this.lastError = (e as Error).message;
            throw e;
        }
    }

    private async step(): Promise<void> {
        const { evm } = this.o;
        const latest = await evm.provider.getBlockNumber();
        if (this.o.wallet) this.svc.metrics.set('wallet_balance', await this.o.wallet.balance());
        for (const address of this.o.configurations) {
            if (this.svc.stopping) return;
            const key = address.toRawString();
            let config = this.configs.get(key);
            if (!config) {
                config = await readConfigurationV2(this.o.tvm, address, this.o.globalId);
                this.configs.set(key, config);
            }
            const toBlock = latest - config.eventBlocksToConfirm;
            this.lagBlocks = config.eventBlocksToConfirm;
            this.svc.metrics.set('lag_blocks', this.lagBlocks);
            if (toBlock < this.o.startBlock) continue;
            const logs = await evm.provider.getLogs({
                address: config.eventEmitter,
                topics: [config.eventAbi.topicHash],
                fromBlock: this.o.startBlock,
                toBlock,
            });
            for (const log of logs) {
                const id = `${log.transactionHash}:${log.index}`;
                if (this.done.has(id)) continue;
                try {
                    await this.deposit(config, id, log.transactionHash, log.index);
                } catch (e) {
                    // one deposit's trouble does not hold up the others
                    this.svc.metrics.inc('errors');
                    this.svc.log.error('relay.deposit_failed', { deposit: id, error: errorText(e) });
                }
            }
        }
    }

    private async deposit(config: ConfigurationView, id: string, txHash: string, index: number): Promise<void> {
        const { evm, tvm } = this.o;
        const log = this.svc.log;
        const receipt = await evm.provider.getTransactionReceipt(txHash);
        if (!receipt) return;
        const event = findDepositEvents(receipt, [config.eventAbi], {
            vault: config.eventEmitter,
            name: config.eventAbi.name as 'AlienTransfer' | 'NativeTransfer',
        }).find((e) => e.logIndex === index);
        if (!event) return;
        const voteData = voteDataOf(event, config.eventAbi, config.flags);
        const eventAddress = evmEventAddress(config.eventCode, config.address, voteData);
        if (!(await isActive(tvm, eventAddress))) {
            if (!this.sent.has(`deploy:${id}`)) this.svc.metrics.inc('deposits_seen');
            if (!this.o.wallet) return; // another relay (or the user) deploys it
            const at = this.sent.get(`deploy:${id}`);
            if (at && Date.now() - at < 30_000) return;
            await this.o.wallet.send([
                {
                    to: config.address,
                    value: config.eventInitialBalance + this.o.deployBuffer,
                    body: EvmTvmEventConfiguration.deployEventMessage(voteData),
                },
            ]);
            this.sent.set(`deploy:${id}`, Date.now());
            this.svc.metrics.inc('events_deployed');
            log.info('relay.deployed', { deposit: id, eventAddress: eventAddress.toRawString() });
            return;
        }
        // votes are taken while the Event is Initializing or Pending; after that it has decided
        const ev = MultiVaultEvmTvmEventAlien.createFromAddress(eventAddress);
        const status = Number(await ev.getGetStatus(v2Provider(tvm, eventAddress)));
        if (status !== EvmEventStatus.Initializing && status !== EvmEventStatus.Pending) {
            this.done.add(id);
            log.info('relay.decided', { deposit: id, eventAddress: eventAddress.toRawString(), status });
            return;
        }
        // the Event's voters: public key -> 0 (not voted), 1 confirm, 2 reject
        const voters = await ev.getGetVoters(v2Provider(tvm, eventAddress));
        const mine = voters.get(BigInt('0x' + this.publicKeyHex));
        if (mine === undefined) {
            log.warn('relay.not_a_voter', { deposit: id, eventAddress: eventAddress.toRawString() });
            this.done.add(id);
            return;
        }
        if (mine !== 0) {
            this.done.add(id);
            this.sent.delete(`vote:${id}`);
            log.debug('relay.already_voted', { deposit: id, vote: mine });
            return;
        }
        const at = this.sent.get(`vote:${id}`);
        if (at && Date.now() - at < 20_000) return; // sent, not on chain yet
        const verdict = await verifyVoteData(evm, config, voteData);
        if (verdict.kind === 'wait') return;
        const body = evmEventVoteBody({
            kind: verdict.kind,
            voteReceiver: eventAddress,
            validUntil: Math.floor(Date.now() / 1000) + VOTE_TTL,
            globalId: this.o.globalId,
            publicKey: this.o.keys.publicKey,
            secretKey: this.o.keys.secretKey,
        });
        const boc = beginCell()
            .store(storeMessage(external({ to: eventAddress, body })))
            .endCell()
            .toBoc();
        this.sent.set(`vote:${id}`, Date.now());
        try {
            await tvm.sendFile(boc);
        } catch (e) {
            // refused (e.g. the Event decided meanwhile): read again at the next round
            log.warn('relay.vote_refused', {
                deposit: id,
                eventAddress: eventAddress.toRawString(),
                error: errorText(e),
            });
            return;
        }
        this.svc.metrics.inc('votes_sent');
        log.info('relay.voted', {
            deposit: id,
            eventAddress: eventAddress.toRawString(),
            vote: verdict.kind === VoteKind.Confirm ? 'confirm' : 'reject',
            reason: verdict.kind === VoteKind.Reject ? verdict.reason : undefined,
        });
    }

    health() {
        return { ok: this.lastError === null, publicKey: this.publicKeyHex, lastError: this.lastError };
    }
}

async function main() {
    const { d, evm: evmEntry, tvm: tvmEntry } = evmDeploymentFromEnv();
    const seed = envString('RELAY_SEED');
    if (!/^[0-9a-fA-F]{64}$/.test(seed))
        throw new Error('RELAY_SEED: 64 hex characters (the 32-byte ed25519 seed) expected');
    const keys = keyPairFromSeed(Buffer.from(seed, 'hex'));
    const configurations = [tvmEntry.contracts.evmAlienConfiguration, tvmEntry.contracts.evmNativeConfiguration]
        .filter((c): c is string => !!c)
        .map((c) => Address.parse(c));
    if (!configurations.length)
        throw new Error(`deployment ${d.name}: no EVM Event configuration on tvm.${evmEntry.tvm}`);
    const tvm = new TonClient({ endpoint: tvmEntry.endpoint });
    const deploy = envInt('RELAY_DEPLOY', 0, 0, 1) === 1;
    const wallet = deploy
        ? await OperatorWallet.fromMnemonic(tvm, mnemonicFromEnv('RELAY'), envInt('RELAY_SUBWALLET', 0))
        : undefined;
    const provider = new JsonRpcProvider(evmEntry.endpoint, evmEntry.chainId, { staticNetwork: true });
    const ref: { worker?: RelayWorker } = {};
    const svc = await startService({
        name: `relay-${keys.publicKey.toString('hex').slice(0, 8)}`,
        port: envInt('PORT', 0, 0, 65535),
        health: () => ref.worker?.health() ?? { ok: false, starting: true },
    });
    svc.onStop(() => provider.destroy());
    const worker = (ref.worker = new RelayWorker(
        {
            evm: { provider, iface: multiVaultInterface() },
            tvm,
            globalId: tvmEntry.globalId,
            configurations,
            keys,
            wallet,
            deployBuffer: envNano('RELAY_DEPLOY_BUFFER', toNano('0.5')),
            startBlock: evmEntry.startBlockNumber,
        },
        svc,
    ));
    svc.log.info('relay.config', {
        publicKey: keys.publicKey.toString('hex'),
        tvm: evmEntry.tvm,
        deploys: deploy,
        wallet: wallet?.address.toRawString(),
    });
    svc.loop('relay', envInt('RELAY_INTERVAL_MS', 1000, 50), () => worker.round());
}

if (require.main === module) runMain('relay', main);
