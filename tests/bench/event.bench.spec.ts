import { BlockchainTransaction } from '@ton/sandbox';
import '@ton/test-utils';
import { GasSection } from '../../harness/bench';
import { Op } from '../../wrappers/constants';
import { EventStatus } from '../../wrappers/eventStatus';
import { TvmTvmEventConfiguration } from '../../wrappers/TvmTvmEventConfiguration';
import { makeValidatorSet } from '../../harness/validators';
import { tvmTvmEventBody } from '../../wrappers/tvmTvmEvent';
import { addr, computeGas, DEPLOY_VALUE, eventFields, eventFixture, EventFixture, T0 } from '../event.util';

/**
 * Gas of every transaction from deploy_tvm_event to Confirmed (and of the Rejected path), with the
 * source network's set at 100 validators and 67 signatures, as the TransactionChecker bench.
 */
function spreadSigners(n: number): number[] {
    const out: number[] = [];
    for (let i = 0; i < n; i++) if (!(i % 3 === 1 && i < 99)) out.push(i);
    return out;
}

describe('TVM to TVM event gas', () => {
    const section = new GasSection('TvmTvmEvent');
    let f: EventFixture;
    const signers = spreadSigners(100);

    beforeAll(async () => {
        f = await eventFixture({ validators: 100 });
    });

    afterAll(() => section.write());

    function fields() {
        return eventFields({}, { recipient: f.user.address, sender: f.user.address, token: f.deployer.address });
    }

    async function run(
        kind: 'native' | 'alien',
        label: string,
        o?: { shard?: boolean; keepTransactionCell?: boolean },
    ) {
        const cfg = kind === 'native' ? f.alienConfig : f.nativeConfig;
        const proxy = kind === 'native' ? f.alienProxy : f.nativeProxy;
        const body = tvmTvmEventBody(kind, fields());
        const tx = await f.emit(body);
        const msgHash = TvmTvmEventConfiguration.eventMessageHash(tx.raw, 0);
        const proof = f.prove(tx.raw, {
            signers,
            shard: o?.shard ?? true,
            keepTransactionCell: o?.keepTransactionCell ?? true,
        });
        const event = await cfg.getEventAddress(msgHash);
        const r = await cfg.sendDeployTvmEvent(f.user.getSender(), {
            value: DEPLOY_VALUE,
            msgHash,
            outMsgIndex: 0,
            remainingGasTo: f.user.address,
            proof,
        });
        const find = (from: string, to: string) =>
            r.transactions.find((t) => addr(t.inMessage?.info.src) === from && addr(t.inMessage?.info.dest) === to)!;
        const u = f.user.address.toString(),
            c = cfg.address.toString(),
            e = event.toString(),
            tc = f.checker.address.toString(),
            lc = f.liteClient.address.toString(),
            p = proxy.address.toString();
        const steps: [string, BlockchainTransaction][] = [
            ['TvmTvmEventConfiguration.deploy_tvm_event', find(u, c)],
            ['Event.process_proof (deploy)', find(c, e)],
            ['TransactionChecker.check_transaction', find(e, tc)],
            ['LiteClient.check_block (67 of 100)', find(tc, lc)],
            ['TransactionChecker.correct', find(lc, tc)],
            ['Event.transaction_checked', find(tc, e)],
            ['TvmTvmEventConfiguration.tvm_event_confirmed', find(e, c)],
        ];
        let total = 0;
        for (const [name, t] of steps) {
            expect(t).toBeDefined();
            const gas = computeGas(t);
            total += gas;
            expect(gas).toBeLessThan(1_000_000);
            section.record({ path: `${name} [${label}]`, gas });
        }
        expect(find(c, p)).toBeDefined();
        const toProxy = find(c, p).inMessage!.info;
        const carried = toProxy.type === 'internal' ? toProxy.value.coins : 0n;
        section.record({
            path: `deploy_tvm_event -> Confirmed, total [${label}]`,
            gas: total,
            notes: `value ${DEPLOY_VALUE} sent, ${carried} reached the proxy; proof_data ${proof.depth()} deep`,
        });
        return { r, event };
    }

    it('Alien configuration, basechain transaction (shard block)', async () => {
        await run('native', 'Alien, shard');
    });

    it('Native configuration, basechain transaction (shard block)', async () => {
        await run('alien', 'Native, shard');
    });

    it('Alien configuration, masterchain block, pruned Transaction cell', async () => {
        await run('native', 'Alien, masterchain, pruned tx', { shard: false, keepTransactionCell: false });
    });

    it('Rejected path: block signed by another set', async () => {
        const body = tvmTvmEventBody('native', fields());
        const tx = await f.emit(body);
        const msgHash = TvmTvmEventConfiguration.eventMessageHash(tx.raw, 0);
        const forger = makeValidatorSet({
            size: 100,
            main: 100,
            seed: 'bench-forger',
            utimeSince: T0,
            utimeUntil: T0 + 1_000_000,
        });
        const proof = f.prove(tx.raw, { signers, signWith: forger });
        const r = await f.alienConfig.sendDeployTvmEvent(f.user.getSender(), {
            value: DEPLOY_VALUE,
            msgHash,
            outMsgIndex: 0,
            remainingGasTo: f.user.address,
            proof,
        });
        const event = await f.alienConfig.getEventAddress(msgHash);
        const failed = r.transactions.find(
            (t) =>
                addr(t.inMessage?.info.dest) === event.toString() &&
                t.inMessage?.body.beginParse().preloadUint(32) === Op.transactionChecker.transactionCheckFailed,
        )!;
        expect(failed).toBeDefined();
        section.record({ path: 'Event.transaction_check_failed (-> Rejected, refund)', gas: computeGas(failed) });
        const s = f.blockchain.openContract(
            (await import('../../wrappers/MultiVaultTvmTvmEventAlien')).MultiVaultTvmTvmEventAlien.createFromAddress(
                event,
            ),
        );
        expect(await s.getStatus()).toBe(EventStatus.Rejected);
    });
});
