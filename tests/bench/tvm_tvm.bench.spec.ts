/**
 * Gas of the TVM to TVM flows end to end (harness/bridge.ts: two networks of 100 validators with
 * mainnet-like weights; blocks signed by all main validators). Per flow and mode:
 * - source: every transaction from the user's wallet on (wallet, proxy's wallet, proxy, excesses);
 * - destination: every transaction from deploy_tvm_event to the tokens in the recipient's wallet
 *   (configuration, Event, TransactionChecker, LiteClient, proxy, minter or wallets, excesses).
 * gas = sum of compute gas; notes: sum of total_fees (nanoton), transaction count, the proxy's own
 * transaction, and what the payer was charged in the end.
 */
import { Address } from '@ton/core';
import { BlockchainTransaction, SandboxContract, SendMessageResult, TreasuryContract } from '@ton/sandbox';
import '@ton/test-utils';
import { GasSection } from '../../harness/bench';
import { TvmNetwork } from '../../harness/network';
import { BridgePair, BridgeSide, costOf, gasOf, TokenInfo } from '../../harness/bridge';
import { completeWithAbiTx } from '../../harness/actors';
import { buildProofPayload, decodeTvmTvmEvent, FoundTransfer } from '../../harness/transfer';
import { BridgeTestbed } from '../../harness/testing';

const section = new GasSection('TVM to TVM flows (end to end)');
type Mode = 'credit' | 'non-credit';

describe('bench: TVM to TVM flows', () => {
    /** two networks, the bridge on both, userA and userB with tokens (harness/testing.ts) */
    let testbed: BridgeTestbed;
    let A: TvmNetwork, B: TvmNetwork, pair: BridgePair;

    beforeAll(async () => {
        testbed = await BridgeTestbed.create({ token: 10n ** 13n, shared: 10n ** 13n });
        ({ A, B, pair } = testbed);
        testbed.checkpoint();
    });

    beforeEach(async () => testbed.reset());
    afterAll(() => section.write());

    const on = (txs: BlockchainTransaction[], a: Address) =>
        txs.find(
            (t) =>
                t.inMessage?.info.dest && Address.isAddress(t.inMessage.info.dest) && t.inMessage.info.dest.equals(a),
        );

    function recordSource(name: string, r: SendMessageResult, proxy: Address) {
        const txs = r.transactions.slice(1);
        const c = costOf(txs);
        section.record({
            path: `${name}: source (${c.transactions} transactions)`,
            gas: Number(c.gas),
            notes: `fees ${c.fees}; proxy ${gasOf(on(txs, proxy)!)} gas`,
        });
    }

    async function destination(name: string, mode: Mode, side: BridgeSide, found: FoundTransfer, proxy: Address) {
        const dir = pair.from(side === pair.A ? A : B);
        let r: SendMessageResult;
        let payer: SandboxContract<TreasuryContract>;
        const dest = dir.to.network;
        if (mode === 'credit') {
            payer = dir.backendWallet;
            const t0 = (await dest.blockchain.getContract(payer.address)).balance;
            r = (await dir.credit.deliver(found))!.result;
            return rec(t0);
        }
        payer = await dest.treasury('user');
        const t0 = (await dest.blockchain.getContract(payer.address)).balance;
        const b = buildProofPayload(dir.from.network, found, {
            configuration: pair.route(dir.from, decodeTvmTvmEvent(found.eventBody)).address,
            attachedValue: pair.deployValue,
            remainingGasTo: payer.address,
        });
        r = await completeWithAbiTx(payer, b.payload.abiTx!);
        return rec(t0);

        async function rec(t0: bigint) {
            const txs = r.transactions.slice(1);
            for (const t of txs) {
                const d = t.description;
                if (d.type === 'generic' && d.computePhase.type === 'vm' && d.computePhase.exitCode !== 0)
                    throw new Error(`${name}: a destination transaction failed (${d.computePhase.exitCode})`);
            }
            const c = costOf(txs);
            if (process.env.BENCH_BREAKDOWN)
                console.log(
                    name,
                    txs.map((t) => {
                        const d = t.description as { computePhase?: { gasUsed?: bigint } };
                        const b = t.inMessage?.body.beginParse();
                        const op = b && b.remainingBits >= 32 ? b.preloadUint(32).toString(16) : '-';
                        return `${op}:${d.computePhase?.gasUsed ?? 0}`;
                    }),
                );
            const charged = t0 - (await dest.blockchain.getContract(payer.address)).balance;
            section.record({
                path: `${name}: destination, ${mode} (${c.transactions} transactions)`,
                gas: Number(c.gas),
                notes: `fees ${c.fees}; proxy ${gasOf(on(txs, proxy)!)} gas; payer (${mode === 'credit' ? 'backend' : 'user'}) charged ${charged} of ${pair.deployValue} attached`,
            });
        }
    }

    /** userA locks on A for userB (harness/testing.ts) */
    async function lock(token: TokenInfo, amount: bigint) {
        const { result: r, found } = await testbed.lockAtoB(token, amount);
        return { r, found };
    }

    it('a block already proven (credit): a second transfer of the same block; one proven through a later verified block', async () => {
        // mint once so that the minter exists, then two locks sealed in one block
        await pair.AB.credit.deliver((await lock(pair.A.token, 10n ** 9n)).found);
        const a = await lock(pair.A.token, 10n ** 9n);
        const b = await lock(pair.A.token, 10n ** 9n);
        const block = A.locate(a.found.transaction).mc;
        expect(A.locate(b.found.transaction).mc).toBe(block);
        await destination(
            'lock->mint, minter deployed, its block not yet proven',
            'credit',
            pair.A,
            a.found,
            pair.B.alienProxy.address,
        );
        expect((await pair.B.liteClient.getVerifiedBlocks()).get(block.block.seqno)).toEqual(block.block.rootHash);
        await destination(
            'lock->mint, minter deployed, its block already proven (no signature read)',
            'credit',
            pair.A,
            b.found,
            pair.B.alienProxy.address,
        );
        // the sync service verifies a later block: an earlier transfer is proven through it (backward link)
        const c = await lock(pair.A.token, 10n ** 9n);
        A.seal();
        A.advanceTime(60);
        await pair.AB.sync.verifyLatest();
        await destination(
            'lock->mint, minter deployed, proven through a later verified block (backward link, no signature read)',
            'credit',
            pair.A,
            c.found,
            pair.B.alienProxy.address,
        );
    });

    for (const mode of ['credit', 'non-credit'] as Mode[]) {
        it(`lock native -> mint alien (${mode}); first mint deploys the minter, then an existing one`, async () => {
            const first = await lock(pair.A.token, 10n ** 9n);
            if (mode === 'credit') recordSource('lock native (A)', first.r, pair.A.nativeProxy.address);
            await destination(
                'lock->mint, first (deploys the alien minter)',
                mode,
                pair.A,
                first.found,
                pair.B.alienProxy.address,
            );
            const second = await lock(pair.A.token, 10n ** 9n);
            await destination('lock->mint, minter deployed', mode, pair.A, second.found, pair.B.alienProxy.address);
        });

        it(`burn alien -> unlock native (${mode})`, async () => {
            const m = await lock(pair.A.token, 10n ** 9n);
            await pair.AB.credit.deliver(m.found);
            const minter = await pair.alienMinter(pair.B, pair.A, pair.A.token);
            const { result: r, found } = await testbed.burnBtoA(minter.address, 5n * 10n ** 8n);
            if (mode === 'credit') recordSource('burn alien (B)', r, pair.B.alienProxy.address);
            await destination('burn->unlock', mode, pair.B, found, pair.A.nativeProxy.address);
        });

        it(`native in both networks (${mode})`, async () => {
            const l = await lock(pair.A.shared, 10n ** 6n);
            if (mode === 'credit') recordSource('lock shared native (A)', l.r, pair.A.nativeProxy.address);
            await destination(
                'lock->unlock (predeployed, via alien proxy)',
                mode,
                pair.A,
                l.found,
                pair.B.nativeProxy.address,
            );
        });
    }
});
