import { Blockchain, SandboxContract, TreasuryContract } from '@ton/sandbox';
import { Address, beginCell, Transaction, toNano } from '@ton/core';
import { flattenTransaction } from '@ton/test-utils';
import '@ton/test-utils';
import { benchBlockchain, GasSection } from '../../harness/bench';
import { JettonMinter } from '../../wrappers/JettonMinter';
import { JettonWallet } from '../../wrappers/JettonWallet';
import { MergePool } from '../../wrappers/MergePool';
import { MergeRouter } from '../../wrappers/MergeRouter';
import { Op, OpMerge } from '../../wrappers/constants';

/**
 * Gas of MergeRouter's and MergePool's paths (contracts/bridge/merge_*.tact): each row is one
 * transaction's compute gas. A treasury plays the alien proxy (it owns the minters). The pool's
 * constants (GAS_MERGE_POOL_*) are pinned by tests/merge_pool.spec.ts ('gas constants').
 */
const section = new GasSection('MergeRouter and MergePool (Tact)');

function gasUsed(tx: Transaction): number {
    if (tx.description.type !== 'generic' || tx.description.computePhase.type !== 'vm')
        throw new Error('no compute phase');
    return Number(tx.description.computePhase.gasUsed);
}

function txOf(txs: Transaction[], to: Address, op?: number): Transaction {
    const found = txs.filter((tx) => {
        const f = flattenTransaction(tx);
        return f.to?.equals(to) && (op === undefined || f.op === op);
    });
    if (found.length !== 1) throw new Error(`expected one transaction to ${to}, found ${found.length}`);
    return found[0];
}

describe('bench: merge', () => {
    let blockchain: Blockchain;
    let proxy: SandboxContract<TreasuryContract>;
    let owner: SandboxContract<TreasuryContract>;
    let alice: SandboxContract<TreasuryContract>;
    let event: SandboxContract<TreasuryContract>;
    let A: SandboxContract<JettonMinter>;
    let B: SandboxContract<JettonMinter>;
    let pool: SandboxContract<MergePool>;
    let router: SandboxContract<MergeRouter>;

    beforeAll(async () => {
        blockchain = await benchBlockchain();
        proxy = await blockchain.treasury('proxy');
        owner = await blockchain.treasury('owner');
        alice = await blockchain.treasury('alice');
        event = await blockchain.treasury('event');
        const minter = async (symbol: string) => {
            const m = blockchain.openContract(
                await JettonMinter.createFromConfig({
                    owner: proxy.address,
                    content: { name: symbol, symbol, decimals: 9 },
                }),
            );
            await m.sendDeploy(proxy.getSender());
            await m.sendMint(proxy.getSender(), { to: alice.address, amount: 10n ** 15n });
            return m;
        };
        A = await minter('A');
        B = await minter('B');
        pool = blockchain.openContract(
            await MergePool.createFromConfig({
                proxy: proxy.address,
                owner: owner.address,
                walletCode: await JettonWallet.code(),
            }),
        );
        await pool.sendDeploy(owner.getSender());
        router = blockchain.openContract(
            await MergeRouter.createFromConfig({ proxy: proxy.address, token: A.address }),
        );
    });

    afterAll(() => section.write());

    it('router', async () => {
        let r = await router.sendDeploy(owner.getSender());
        section.record({ path: 'MergeRouter deploy (empty body)', gas: gasUsed(txOf(r.transactions, router.address)) });
        r = await router.sendBody(proxy.getSender(), MergeRouter.initMessage(owner.address, null));
        section.record({
            path: 'MergeRouter.merge_router_init (proxy)',
            gas: gasUsed(txOf(r.transactions, router.address)),
        });
        r = await router.sendBody(owner.getSender(), MergeRouter.setPoolMessage(pool.address));
        expect(r.transactions).toHaveTransaction({ from: router.address, to: proxy.address, op: OpMerge.routerUpdate });
        section.record({
            path: 'MergeRouter.merge_router_set_pool (update to the proxy)',
            gas: gasUsed(txOf(r.transactions, router.address)),
        });
        r = await router.sendBody(alice.getSender(), MergeRouter.getPoolMessage());
        section.record({
            path: 'MergeRouter.merge_router_get_pool',
            gas: gasUsed(txOf(r.transactions, router.address)),
        });
    });

    it('pool owner operations', async () => {
        let r = await pool.sendBody(owner.getSender(), MergePool.setTokenMessage(A.address, 9));
        section.record({
            path: 'MergePool.merge_pool_set_token (first)',
            gas: gasUsed(txOf(r.transactions, pool.address)),
        });
        r = await pool.sendBody(owner.getSender(), MergePool.setTokenMessage(B.address, 6));
        section.record({
            path: 'MergePool.merge_pool_set_token (second)',
            gas: gasUsed(txOf(r.transactions, pool.address)),
        });
        r = await pool.sendBody(owner.getSender(), MergePool.setEnabledMessage(B.address, true));
        section.record({ path: 'MergePool.merge_pool_set_enabled', gas: gasUsed(txOf(r.transactions, pool.address)) });
        r = await pool.sendBody(owner.getSender(), MergePool.setCanonicalMessage(B.address));
        section.record({
            path: 'MergePool.merge_pool_set_canonical',
            gas: gasUsed(txOf(r.transactions, pool.address)),
        });
    });

    it('pool swap, delivery, refusal, refund', async () => {
        const req = await pool.getRequiredValue();
        const aliceA = blockchain.openContract(await JettonWallet.createFromOwner(alice.address, A.address));
        const note = (r: bigint) => `forward_ton_amount needed > ${r}`;
        let r = await aliceA.sendTransfer(alice.getSender(), {
            to: pool.address,
            amount: 10n ** 9n,
            forwardTonAmount: req.swap + toNano('0.01'),
            forwardPayload: MergePool.swapPayload(B.address),
        });
        section.record({
            path: 'MergePool swap (burn with merge_mint)',
            gas: gasUsed(txOf(r.transactions, pool.address, Op.jetton.transferNotification)),
            notes: note(req.swap),
        });
        r = await aliceA.sendTransfer(alice.getSender(), {
            to: pool.address,
            amount: 10n ** 9n + 1n,
            forwardTonAmount: req.swapWithDust + toNano('0.01'),
            forwardPayload: MergePool.swapPayload(B.address),
        });
        section.record({
            path: 'MergePool swap (with dust back)',
            gas: gasUsed(txOf(r.transactions, pool.address, Op.jetton.transferNotification)),
            notes: note(req.swapWithDust),
        });
        r = await A.sendMint(proxy.getSender(), {
            to: pool.address,
            amount: 10n ** 9n,
            forwardTonAmount: req.deliver + toNano('0.01'),
            forwardPayload: MergePool.deliverPayload(event.address, alice.address, alice.address),
        });
        section.record({
            path: 'MergePool deliver as canonical (Event notified)',
            gas: gasUsed(txOf(r.transactions, pool.address, Op.jetton.transferNotification)),
            notes: note(req.deliver),
        });
        r = await A.sendMint(proxy.getSender(), {
            to: pool.address,
            amount: 10n ** 9n + 1n,
            forwardTonAmount: req.deliverWithDust + toNano('0.01'),
            forwardPayload: MergePool.deliverPayload(event.address, alice.address, alice.address),
        });
        section.record({
            path: 'MergePool deliver as canonical (with dust)',
            gas: gasUsed(txOf(r.transactions, pool.address, Op.jetton.transferNotification)),
            notes: note(req.deliverWithDust),
        });
        r = await aliceA.sendTransfer(alice.getSender(), {
            to: pool.address,
            amount: 10n ** 9n,
            forwardTonAmount: req.refund + toNano('0.01'),
            forwardPayload: beginCell().storeUint(1, 32).endCell(),
        });
        section.record({
            path: 'MergePool refused swap (tokens returned)',
            gas: gasUsed(txOf(r.transactions, pool.address, Op.jetton.transferNotification)),
            notes: note(req.refund),
        });
        r = await aliceA.sendTransfer(alice.getSender(), {
            to: pool.address,
            amount: 10n ** 9n,
            forwardTonAmount: toNano('0.002'),
            forwardPayload: MergePool.swapPayload(B.address),
        });
        section.record({
            path: 'MergePool refused swap (value too low: recorded)',
            gas: gasUsed(txOf(r.transactions, pool.address, Op.jetton.transferNotification)),
        });
        r = await pool.sendBody(alice.getSender(), MergePool.claimRefundMessage(A.address));
        section.record({ path: 'MergePool.merge_pool_claim_refund', gas: gasUsed(txOf(r.transactions, pool.address)) });
    });
});
