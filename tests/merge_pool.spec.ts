import fs from 'fs';
import path from 'path';
import {
    Blockchain,
    loadConfig,
    SandboxContract,
    SendMessageResult,
    TreasuryContract,
    updateConfig,
} from '@ton/sandbox';
import { Address, beginCell, Cell, Transaction, toNano } from '@ton/core';
import { flattenTransaction } from '@ton/test-utils';
import '@ton/test-utils';
import { JettonMinter } from '../wrappers/JettonMinter';
import { JettonWallet, loadAcceptTokensBurn } from '../wrappers/JettonWallet';
import { loadMergePoolDelivered, MergePool } from '../wrappers/MergePool';
import { loadMergeRouterUpdate, MergeRouter } from '../wrappers/MergeRouter';
import { Errors, ErrorsMerge, Op, OpMerge } from '../wrappers/constants';
import { beforeEachDeployedOnce } from './snapshot.util';

/**
 * MergePool (contracts/bridge/merge_pool.tact; merge.tlb). A treasury plays the alien proxy: it owns
 * the minters, receives accept_tokens_burn with the pool's merge_mint and mints the target as the
 * proxy must (actAsProxy). What these tests hold:
 * - swaps 1:1 with decimal conversion, rounding down, the dust returned to the user as the source
 *   token; supplies: the source's goes down by what was burned, the target's up by the converted amount;
 * - an incoming delivery (the proxy's mint to the pool with merge_pool_deliver) becomes the canonical
 *   token for the recipient, and the Event gets merge_pool_delivered;
 * - nothing lost: a disabled or unknown token, the same token, a conversion to 0, a malformed or
 *   missing payload, or too little value returns the tokens (balances checked); too little even for
 *   that records them for merge_pool_claim_refund; tokens of a token the pool does not hold go back
 *   through their wallet; a refused delivery gives the recipient the delivered token;
 * - roles: the owner manages tokens, the manager and the owner enable / disable and set the canonical;
 * - gas: the constants cover what their tests measure (within 15%), the smallest accepted value completes.
 */

function mergeConstants(): Record<string, number> {
    const src = fs.readFileSync(path.resolve(__dirname, '..', 'contracts', 'bridge', 'merge_messages.tact'), 'utf8');
    const out: Record<string, number> = {};
    for (const m of src.matchAll(/^const (\w+): Int = (\d+);/gm)) out[m[1]] = Number(m[2]);
    return out;
}

function gasUsed(tx: Transaction): number {
    if (tx.description.type !== 'generic' || tx.description.computePhase.type !== 'vm')
        throw new Error('no compute phase');
    return Number(tx.description.computePhase.gasUsed);
}

function txsTo(txs: Transaction[], to: Address, op?: number): Transaction[] {
    return txs.filter((tx) => {
        const f = flattenTransaction(tx);
        return f.to?.equals(to) && (op === undefined || f.op === op);
    });
}

export function expectWithin(measured: number, constant: number) {
    expect(constant).toBeGreaterThanOrEqual(measured);
    expect(constant).toBeLessThanOrEqual(Math.ceil(measured * 1.15));
}

describe('MergePool', () => {
    let blockchain: Blockchain;
    let proxy: SandboxContract<TreasuryContract>;
    let owner: SandboxContract<TreasuryContract>;
    let manager: SandboxContract<TreasuryContract>;
    let alice: SandboxContract<TreasuryContract>;
    let bob: SandboxContract<TreasuryContract>;
    let event: SandboxContract<TreasuryContract>;
    /** A: 9 decimals, B: 6, C: 18 (canonical), D: not in the pool */
    let A: SandboxContract<JettonMinter>;
    let B: SandboxContract<JettonMinter>;
    let C: SandboxContract<JettonMinter>;
    let D: SandboxContract<JettonMinter>;
    let pool: SandboxContract<MergePool>;

    const walletOf = async (who: Address, minter: Address) =>
        blockchain.openContract(await JettonWallet.createFromOwner(who, minter));
    const balance = async (who: Address, m: SandboxContract<JettonMinter>) =>
        (await walletOf(who, m.address)).getJettonBalance();

    const newMinter = async (symbol: string) => {
        const m = blockchain.openContract(
            await JettonMinter.createFromConfig({
                owner: proxy.address,
                content: { name: symbol, symbol, decimals: 9 },
            }),
        );
        await m.sendDeploy(proxy.getSender());
        return m;
    };

    const mint = async (m: SandboxContract<JettonMinter>, to: Address, amount: bigint) => {
        const res = await m.sendMint(proxy.getSender(), { to, amount, responseDestination: proxy.address });
        expect(res.transactions).toHaveTransaction({ from: m.address, success: true });
    };

    /** The proxy's part (merge.tlb, "alien proxy"): accept_tokens_burn from minter T with sender = a
     * pool whose routers of T and of merge_mint.token point to it -> mint merge_mint.token. */
    const actAsProxy = async (res: SendMessageResult, minters: SandboxContract<JettonMinter>[]) => {
        const txs = txsTo(res.transactions, proxy.address, Op.jetton.acceptTokensBurn);
        expect(txs).toHaveLength(1);
        const from = flattenTransaction(txs[0]).from!;
        expect(minters.some((m) => m.address.equals(from))).toBe(true);
        const burn = loadAcceptTokensBurn(txs[0].inMessage!.body.beginParse());
        expect(burn.sender.equals(pool.address)).toBe(true);
        const mm = MergePool.parseMergeMint(burn.payload!)!;
        expect(mm).not.toBeNull();
        const target = minters.find((m) => m.address.equals(mm.token))!;
        const r = await target.sendMint(proxy.getSender(), {
            to: mm.recipient,
            amount: mm.amount,
            responseDestination: burn.remainingGasTo,
        });
        expect(r.transactions).toHaveTransaction({ from: target.address, success: true });
        return { burned: burn.amount, ...mm };
    };

    const required = async () => {
        const r = await pool.getRequiredValue();
        return {
            swap: r.swap,
            swapWithDust: r.swapWithDust,
            deliver: r.deliver,
            deliverWithDust: r.deliverWithDust,
            refund: r.refund,
        };
    };

    /** alice transfers `amount` of `m` to the pool with `payload` (a cell: by reference; a slice-cell inline). */
    const transferToPool = async (
        who: SandboxContract<TreasuryContract>,
        m: SandboxContract<JettonMinter>,
        amount: bigint,
        payload: Cell | null,
        forwardTonAmount?: bigint,
        inline = false,
    ) => {
        const w = await walletOf(who.address, m.address);
        const fwd = forwardTonAmount ?? (await required()).swapWithDust + toNano('0.01');
        return w.sendTransfer(who.getSender(), {
            to: pool.address,
            amount,
            responseDestination: who.address,
            forwardTonAmount: fwd,
            forwardPayload: payload,
            forwardPayloadInline: inline,
        });
    };

    /** The refund transfer from the pool: the code in merge_pool_refund. */
    const refundCode = (res: SendMessageResult, to: Address): number => {
        const tx = res.transactions.find((t) => {
            const f = flattenTransaction(t);
            return f.op === Op.jetton.internalTransfer && f.success && f.to !== undefined;
        });
        // the transfer to the user's wallet carries merge_pool_refund in its forward payload
        for (const t of res.transactions) {
            const f = flattenTransaction(t);
            if (f.op !== Op.jetton.transfer || !f.from?.equals(pool.address)) continue;
            const s = t.inMessage!.body.beginParse();
            s.skip(32 + 64);
            s.loadCoins();
            const dest = s.loadAddress();
            if (!dest.equals(to)) continue;
            s.loadMaybeAddress();
            s.loadMaybeRef();
            s.loadCoins();
            return MergePool.parseRefundPayload(s)!.errorCode;
        }
        void tx;
        throw new Error('no refund transfer');
    };

    // deployed once; every test starts from that state (beforeEachDeployedOnce)
    beforeEachDeployedOnce(async () => {
        blockchain = await Blockchain.create();
        proxy = await blockchain.treasury('proxy');
        owner = await blockchain.treasury('owner');
        manager = await blockchain.treasury('manager');
        alice = await blockchain.treasury('alice');
        bob = await blockchain.treasury('bob');
        event = await blockchain.treasury('event');
        A = await newMinter('A');
        B = await newMinter('B');
        C = await newMinter('C');
        D = await newMinter('D');
        pool = blockchain.openContract(
            await MergePool.createFromConfig({
                proxy: proxy.address,
                owner: owner.address,
                manager: manager.address,
                walletCode: await JettonWallet.code(),
            }),
        );
        await pool.sendDeploy(owner.getSender());
        for (const [m, d] of [
            [A, 9],
            [B, 6],
            [C, 18],
        ] as const) {
            const r = await pool.sendBody(owner.getSender(), MergePool.setTokenMessage(m.address, d));
            expect(r.transactions).toHaveTransaction({ to: pool.address, success: true });
        }
        await pool.sendBody(manager.getSender(), MergePool.setCanonicalMessage(C.address));
        for (const m of [A, B, C, D]) await mint(m, alice.address, 10n ** 15n);
        return blockchain;
    });

    describe('configuration', () => {
        it('should keep tokens with decimals, flags and the pool wallets', async () => {
            const a = (await pool.getPoolToken(A.address))!;
            expect(a.decimals).toBe(9n);
            expect(a.enabled).toBe(true);
            expect(a.wallet.equals((await walletOf(pool.address, A.address)).address)).toBe(true);
            expect((await pool.getCanonical())!.equals(C.address)).toBe(true);
            expect((await pool.getTokens()).size).toBe(3);
            expect(await pool.getConvert(A.address, B.address, 1_234_567_891n)).toBe(1_234_567n);
            expect(await pool.getConvert(B.address, C.address, 5n)).toBe(5n * 10n ** 12n);
        });

        it('should let only the owner manage tokens and the manager; the manager enables and sets the canonical', async () => {
            let r = await pool.sendBody(manager.getSender(), MergePool.setTokenMessage(D.address, 9));
            expect(r.transactions).toHaveTransaction({
                to: pool.address,
                success: false,
                exitCode: ErrorsMerge.notOwner,
            });
            r = await pool.sendBody(manager.getSender(), MergePool.removeTokenMessage(A.address));
            expect(r.transactions).toHaveTransaction({
                to: pool.address,
                success: false,
                exitCode: ErrorsMerge.notOwner,
            });
            r = await pool.sendBody(manager.getSender(), MergePool.setManagerMessage(bob.address));
            expect(r.transactions).toHaveTransaction({
                to: pool.address,
                success: false,
                exitCode: ErrorsMerge.notOwner,
            });
            r = await pool.sendBody(bob.getSender(), MergePool.setEnabledMessage(A.address, false));
            expect(r.transactions).toHaveTransaction({
                to: pool.address,
                success: false,
                exitCode: ErrorsMerge.notOwnerOrManager,
            });
            r = await pool.sendBody(bob.getSender(), MergePool.setCanonicalMessage(A.address));
            expect(r.transactions).toHaveTransaction({
                to: pool.address,
                success: false,
                exitCode: ErrorsMerge.notOwnerOrManager,
            });
            r = await pool.sendBody(manager.getSender(), MergePool.setEnabledMessage(A.address, false));
            expect(r.transactions).toHaveTransaction({ to: pool.address, success: true });
            expect((await pool.getPoolToken(A.address))!.enabled).toBe(false);
            r = await pool.sendBody(manager.getSender(), MergePool.setEnabledMessage(D.address, false));
            expect(r.transactions).toHaveTransaction({
                to: pool.address,
                success: false,
                exitCode: ErrorsMerge.unknownToken,
            });
            r = await pool.sendBody(owner.getSender(), MergePool.setCanonicalMessage(D.address));
            expect(r.transactions).toHaveTransaction({
                to: pool.address,
                success: false,
                exitCode: ErrorsMerge.unknownToken,
            });
            r = await pool.sendBody(owner.getSender(), MergePool.setTokenMessage(D.address, 31));
            expect(r.transactions).toHaveTransaction({
                to: pool.address,
                success: false,
                exitCode: ErrorsMerge.badArgument,
            });
            // removing the canonical token unsets it
            r = await pool.sendBody(owner.getSender(), MergePool.removeTokenMessage(C.address));
            expect(r.transactions).toHaveTransaction({ to: pool.address, success: true });
            expect(await pool.getCanonical()).toBeNull();
            expect(await pool.getPoolToken(C.address)).toBeNull();
            r = await pool.sendBody(owner.getSender(), MergePool.removeTokenMessage(C.address));
            expect(r.transactions).toHaveTransaction({
                to: pool.address,
                success: false,
                exitCode: ErrorsMerge.unknownToken,
            });
            r = await pool.sendBody(owner.getSender(), MergePool.transferOwnershipMessage(bob.address));
            expect(r.transactions).toHaveTransaction({ to: pool.address, success: true });
            expect((await pool.getOwner()).equals(bob.address)).toBe(true);
        });
    });

    describe('swap', () => {
        it('should swap down in decimals, rounding down and giving the dust back (A 9 -> B 6)', async () => {
            const amount = 1_234_567_891n;
            const supplyA = await A.getTotalSupply();
            const supplyB = await B.getTotalSupply();
            const res = await transferToPool(alice, A, amount, MergePool.swapPayload(B.address));
            expect(res.transactions).toHaveTransaction({ to: pool.address, success: true });
            const m = await actAsProxy(res, [A, B, C]);
            expect(m.burned).toBe(1_234_567_000n);
            expect(m.amount).toBe(1_234_567n);
            expect(m.recipient.equals(alice.address)).toBe(true);
            expect(m.refundTo.equals(alice.address)).toBe(true);
            expect(await balance(alice.address, A)).toBe(10n ** 15n - 1_234_567_000n); // 891 dust came back
            expect(await balance(alice.address, B)).toBe(10n ** 15n + 1_234_567n);
            expect(await balance(pool.address, A)).toBe(0n);
            expect(await A.getTotalSupply()).toBe(supplyA - 1_234_567_000n);
            expect(await B.getTotalSupply()).toBe(supplyB + 1_234_567n);
        });

        it('should swap up in decimals to another recipient (B 6 -> C 18)', async () => {
            const res = await transferToPool(alice, B, 5_000_000n, MergePool.swapPayload(C.address, bob.address));
            const m = await actAsProxy(res, [A, B, C]);
            expect(m.amount).toBe(5_000_000n * 10n ** 12n);
            expect(await balance(bob.address, C)).toBe(5_000_000n * 10n ** 12n);
            expect(await balance(alice.address, B)).toBe(10n ** 15n - 5_000_000n);
        });

        it('should read the payload inline (Either left)', async () => {
            const res = await transferToPool(alice, B, 7n, MergePool.swapPayload(A.address), undefined, true);
            await actAsProxy(res, [A, B, C]);
            expect(await balance(alice.address, A)).toBe(10n ** 15n + 7000n);
        });

        const refused: [
            string,
            () => Promise<[SandboxContract<JettonMinter>, bigint, Cell | null, number, boolean?]>,
        ][] = [
            [
                'a disabled target',
                async () => {
                    await pool.sendBody(manager.getSender(), MergePool.setEnabledMessage(B.address, false));
                    return [A, 10n ** 9n, MergePool.swapPayload(B.address), ErrorsMerge.tokenDisabled];
                },
            ],
            [
                'a disabled source',
                async () => {
                    await pool.sendBody(manager.getSender(), MergePool.setEnabledMessage(A.address, false));
                    return [A, 10n ** 9n, MergePool.swapPayload(B.address), ErrorsMerge.tokenDisabled];
                },
            ],
            [
                'an unknown target',
                async () => [A, 10n ** 9n, MergePool.swapPayload(D.address), ErrorsMerge.unknownToken],
            ],
            ['the same token', async () => [A, 10n ** 9n, MergePool.swapPayload(A.address), ErrorsMerge.sameToken]],
            ['a conversion to 0', async () => [A, 999n, MergePool.swapPayload(B.address), ErrorsMerge.zeroAmount]],
            ['no payload', async () => [A, 10n ** 9n, null, ErrorsMerge.badPayload]],
            [
                'another op',
                async () => [A, 10n ** 9n, beginCell().storeUint(0x12345678, 32).endCell(), ErrorsMerge.badPayload],
            ],
            [
                'a truncated payload',
                async () => [
                    A,
                    10n ** 9n,
                    beginCell().storeUint(OpMerge.poolSwap, 32).storeUint(1, 8).endCell(),
                    ErrorsMerge.badPayload,
                ],
            ],
            [
                'a recipient outside the basechain',
                async () => [
                    A,
                    10n ** 9n,
                    MergePool.swapPayload(B.address, new Address(-1, Buffer.alloc(32, 1))),
                    ErrorsMerge.badPayload,
                ],
            ],
            [
                'merge_pool_deliver that is not a mint',
                async () => [
                    A,
                    10n ** 9n,
                    MergePool.deliverPayload(event.address, alice.address, alice.address),
                    ErrorsMerge.badPayload,
                ],
            ],
        ];
        for (const [name, setup] of refused) {
            it(`should return the tokens for ${name}`, async () => {
                const [m, amount, payload, code] = await setup();
                const before = await balance(alice.address, m);
                const res = await transferToPool(alice, m, amount, payload);
                expect(res.transactions).toHaveTransaction({ to: pool.address, success: true });
                expect(txsTo(res.transactions, proxy.address, Op.jetton.acceptTokensBurn)).toHaveLength(0);
                expect(refundCode(res, alice.address)).toBe(code);
                expect(await balance(alice.address, m)).toBe(before);
                expect(await balance(pool.address, m)).toBe(0n);
            });
        }

        it('should return the tokens of a token it does not hold through their wallet', async () => {
            const res = await transferToPool(alice, D, 10n ** 9n, MergePool.swapPayload(A.address));
            expect(res.transactions).toHaveTransaction({ to: pool.address, success: true });
            expect(refundCode(res, alice.address)).toBe(ErrorsMerge.unknownToken);
            expect(await balance(alice.address, D)).toBe(10n ** 15n);
            expect(await balance(pool.address, D)).toBe(0n);
        });

        it('should return the tokens when the value is too little for the swap', async () => {
            const r = await required();
            const res = await transferToPool(alice, A, 10n ** 9n, MergePool.swapPayload(B.address), r.swap);
            expect(refundCode(res, alice.address)).toBe(ErrorsMerge.lowValue);
            expect(await balance(alice.address, A)).toBe(10n ** 15n);
            // with dust, the dust's transfer counts too
            const res2 = await transferToPool(
                alice,
                A,
                10n ** 9n + 1n,
                MergePool.swapPayload(B.address),
                r.swapWithDust,
            );
            expect(refundCode(res2, alice.address)).toBe(ErrorsMerge.lowValue);
            expect(await balance(alice.address, A)).toBe(10n ** 15n);
        });

        it('should record the tokens when the value cannot pay their return, and give them back on claim', async () => {
            const res = await transferToPool(alice, A, 10n ** 9n, MergePool.swapPayload(B.address), toNano('0.002'));
            expect(res.transactions).toHaveTransaction({ to: pool.address, success: true });
            expect(await balance(pool.address, A)).toBe(10n ** 9n);
            expect(await pool.getRefundOf(A.address, alice.address)).toBe(10n ** 9n);
            let c = await pool.sendBody(bob.getSender(), MergePool.claimRefundMessage(A.address));
            expect(c.transactions).toHaveTransaction({
                to: pool.address,
                success: false,
                exitCode: ErrorsMerge.unknownToken,
            });
            c = await pool.sendBody(alice.getSender(), MergePool.claimRefundMessage(A.address), toNano('0.01'));
            expect(c.transactions).toHaveTransaction({
                to: pool.address,
                success: false,
                exitCode: ErrorsMerge.lowValue,
            });
            c = await pool.sendBody(alice.getSender(), MergePool.claimRefundMessage(A.address));
            expect(c.transactions).toHaveTransaction({ to: pool.address, success: true });
            expect(await balance(alice.address, A)).toBe(10n ** 15n);
            expect(await balance(pool.address, A)).toBe(0n);
            expect(await pool.getRefundOf(A.address, alice.address)).toBe(0n);
        });

        it('should complete with the smallest value it accepts (the wallet burn check passes, the proxy mints)', async () => {
            const r = await required();
            const res = await transferToPool(alice, A, 10n ** 9n, MergePool.swapPayload(B.address), r.swap + 1n);
            expect(res.transactions).not.toHaveTransaction({ success: false });
            await actAsProxy(res, [A, B, C]);
            expect(await balance(alice.address, B)).toBe(10n ** 15n + 10n ** 6n);
            const res2 = await transferToPool(
                alice,
                A,
                10n ** 9n + 7n,
                MergePool.swapPayload(B.address),
                r.swapWithDust + 1n,
            );
            expect(res2.transactions).not.toHaveTransaction({ success: false });
            await actAsProxy(res2, [A, B, C]);
            expect(await balance(alice.address, A)).toBe(10n ** 15n - 2n * 10n ** 9n);
        });
    });

    describe('delivery as the canonical token', () => {
        /** the proxy mints `amount` of A to the pool with merge_pool_deliver for bob */
        const deliver = async (amount: bigint, forwardTonAmount?: bigint) =>
            A.sendMint(proxy.getSender(), {
                to: pool.address,
                amount,
                responseDestination: proxy.address,
                forwardTonAmount: forwardTonAmount ?? (await required()).deliverWithDust + toNano('0.01'),
                forwardPayload: MergePool.deliverPayload(event.address, bob.address, alice.address),
            });

        const delivered = (res: SendMessageResult) => {
            const txs = txsTo(res.transactions, event.address, OpMerge.poolDelivered);
            expect(txs).toHaveLength(1);
            expect(flattenTransaction(txs[0]).from!.equals(pool.address)).toBe(true);
            return loadMergePoolDelivered(txs[0].inMessage!.body.beginParse());
        };

        it('should deliver the canonical token to the recipient and tell the Event', async () => {
            const res = await deliver(3n * 10n ** 9n + 5n);
            const d = delivered(res);
            expect(d.errorCode).toBe(0n);
            expect(d.token.equals(C.address)).toBe(true);
            expect(d.amount).toBe((3n * 10n ** 9n + 5n) * 10n ** 9n);
            const m = await actAsProxy(res, [A, B, C]);
            expect(m.recipient.equals(bob.address)).toBe(true);
            expect(m.refundTo.equals(bob.address)).toBe(true);
            expect(await balance(bob.address, C)).toBe((3n * 10n ** 9n + 5n) * 10n ** 9n);
            expect(await balance(pool.address, A)).toBe(0n);
        });

        it('should give the dust to the recipient (canonical with fewer decimals)', async () => {
            await pool.sendBody(manager.getSender(), MergePool.setCanonicalMessage(B.address));
            const res = await deliver(2_000_000_123n);
            expect(delivered(res).amount).toBe(2_000_000n);
            await actAsProxy(res, [A, B, C]);
            expect(await balance(bob.address, B)).toBe(2_000_000n);
            expect(await balance(bob.address, A)).toBe(123n);
        });

        const refusals: [string, () => Promise<void>, number][] = [
            [
                'no canonical token',
                async () => {
                    await pool.sendBody(manager.getSender(), MergePool.setCanonicalMessage(null));
                },
                ErrorsMerge.noCanonical,
            ],
            [
                'the canonical token is the delivered one',
                async () => {
                    await pool.sendBody(manager.getSender(), MergePool.setCanonicalMessage(A.address));
                },
                ErrorsMerge.sameToken,
            ],
            [
                'a disabled canonical token',
                async () => {
                    await pool.sendBody(manager.getSender(), MergePool.setEnabledMessage(C.address, false));
                },
                ErrorsMerge.tokenDisabled,
            ],
            [
                'a disabled delivered token',
                async () => {
                    await pool.sendBody(manager.getSender(), MergePool.setEnabledMessage(A.address, false));
                },
                ErrorsMerge.tokenDisabled,
            ],
        ];
        for (const [name, setup, code] of refusals) {
            it(`should give the recipient the delivered token for ${name}, and tell the Event why`, async () => {
                await setup();
                const res = await deliver(10n ** 9n);
                const d = delivered(res);
                expect(Number(d.errorCode)).toBe(code);
                expect(d.token.equals(A.address)).toBe(true);
                expect(d.amount).toBe(10n ** 9n);
                expect(refundCode(res, bob.address)).toBe(code);
                expect(txsTo(res.transactions, proxy.address, Op.jetton.acceptTokensBurn)).toHaveLength(0);
                expect(await balance(bob.address, A)).toBe(10n ** 9n);
                expect(await balance(pool.address, A)).toBe(0n);
            });
        }

        it('should give a mint without merge_pool_deliver (it names no owner) to the pool owner', async () => {
            const res = await A.sendMint(proxy.getSender(), {
                to: pool.address,
                amount: 10n ** 9n,
                responseDestination: proxy.address,
                forwardTonAmount: toNano('0.2'),
                forwardPayload: beginCell().storeUint(1, 32).endCell(),
            });
            expect(refundCode(res, owner.address)).toBe(ErrorsMerge.badPayload);
            expect(await balance(owner.address, A)).toBe(10n ** 9n);
            expect(await balance(pool.address, A)).toBe(0n);
        });

        it('should give the recipient the delivered token when the value is too little', async () => {
            const r = await required();
            const res = await deliver(10n ** 9n, r.deliver);
            expect(Number(delivered(res).errorCode)).toBe(ErrorsMerge.lowValue);
            expect(await balance(bob.address, A)).toBe(10n ** 9n);
        });

        it('should take mergeDeliverForwardTon (what the proxy attaches) as the worst case, delivered', async () => {
            const r = await required();
            const f = await pool.getDeliverForwardTon();
            expect(f).toBe(r.deliverWithDust + 1n);
            await pool.sendBody(manager.getSender(), MergePool.setCanonicalMessage(B.address));
            const res = await deliver(10n ** 9n + 9n, f);
            expect(res.transactions).not.toHaveTransaction({ success: false });
            expect(delivered(res).errorCode).toBe(0n);
            await actAsProxy(res, [A, B, C]);
            expect(await balance(bob.address, B)).toBe(10n ** 6n);
            expect(await balance(bob.address, A)).toBe(9n);
        });

        it('should complete with the smallest value it accepts', async () => {
            const r = await required();
            const res = await deliver(10n ** 9n, r.deliver + 1n);
            expect(res.transactions).not.toHaveTransaction({ success: false });
            expect(delivered(res).errorCode).toBe(0n);
            await actAsProxy(res, [A, B, C]);
            expect(await balance(bob.address, C)).toBe(10n ** 18n);
        });
    });

    describe('with routers: the alien proxy mints only for a pool both routers name (merge.tlb, proxy step 3)', () => {
        /** The proxy's merge_pools, fed by merge_router_update from the derived routers only. */
        const pools = new Map<string, Address>();
        const record = async (res: SendMessageResult) => {
            for (const tx of txsTo(res.transactions, proxy.address, OpMerge.routerUpdate)) {
                const u = loadMergeRouterUpdate(tx.inMessage!.body.beginParse());
                const derived = (await MergeRouter.createFromConfig({ proxy: proxy.address, token: u.token })).address;
                if (!flattenTransaction(tx).from!.equals(derived)) continue;
                if (u.pool) pools.set(u.token.toRawString(), u.pool);
                else pools.delete(u.token.toRawString());
            }
        };
        const router = async (m: SandboxContract<JettonMinter>) => {
            const r = blockchain.openContract(
                await MergeRouter.createFromConfig({ proxy: proxy.address, token: m.address }),
            );
            await r.sendDeploy(owner.getSender());
            await r.sendBody(proxy.getSender(), MergeRouter.initMessage(owner.address, manager.address));
            return r;
        };
        /** accept_tokens_burn with merge_mint: mint the target, or mint T back to refund_to (2708). */
        const proxyModel = async (res: SendMessageResult, minters: SandboxContract<JettonMinter>[]) => {
            const [tx] = txsTo(res.transactions, proxy.address, Op.jetton.acceptTokensBurn);
            const T = minters.find((m) => m.address.equals(flattenTransaction(tx).from!))!;
            const burn = loadAcceptTokensBurn(tx.inMessage!.body.beginParse());
            const mm = MergePool.parseMergeMint(burn.payload!)!;
            const ok =
                pools.get(T.address.toRawString())?.equals(burn.sender) === true &&
                pools.get(mm.token.toRawString())?.equals(burn.sender) === true;
            const target = ok ? minters.find((m) => m.address.equals(mm.token))! : T;
            await target.sendMint(proxy.getSender(), {
                to: ok ? mm.recipient : mm.refundTo,
                amount: ok ? mm.amount : burn.amount,
                responseDestination: burn.remainingGasTo,
            });
            return ok;
        };

        beforeEach(() => pools.clear());

        it('should mint the target only once both routers point to the pool; otherwise give the source back', async () => {
            const rA = await router(A);
            const rB = await router(B);
            await record(await rA.sendBody(owner.getSender(), MergeRouter.setPoolMessage(pool.address)));
            // B's router does not name the pool: the proxy mints A back to refund_to
            let res = await transferToPool(alice, A, 10n ** 9n, MergePool.swapPayload(B.address));
            expect(await proxyModel(res, [A, B, C])).toBe(false);
            expect(await balance(alice.address, A)).toBe(10n ** 15n);
            expect(await balance(alice.address, B)).toBe(10n ** 15n);
            // (the manager may not name a pool: issue 10 §4, tests/merge_router.spec.ts)
            expect(
                (await rB.sendBody(manager.getSender(), MergeRouter.setPoolMessage(pool.address))).transactions,
            ).toHaveTransaction({ to: rB.address, success: false, exitCode: ErrorsMerge.notOwner });
            await record(await rB.sendBody(owner.getSender(), MergeRouter.setPoolMessage(pool.address)));
            res = await transferToPool(alice, A, 10n ** 9n, MergePool.swapPayload(B.address));
            expect(await proxyModel(res, [A, B, C])).toBe(true);
            expect(await balance(alice.address, A)).toBe(10n ** 15n - 10n ** 9n);
            expect(await balance(alice.address, B)).toBe(10n ** 15n + 10n ** 6n);
            // unset: refused again
            await record(await rB.sendBody(owner.getSender(), MergeRouter.setPoolMessage(null)));
            res = await transferToPool(alice, A, 10n ** 9n, MergePool.swapPayload(B.address));
            expect(await proxyModel(res, [A, B, C])).toBe(false);
            expect(await balance(alice.address, A)).toBe(10n ** 15n - 10n ** 9n);
        });
    });

    describe('gas constants', () => {
        const K = mergeConstants();
        const poolGas = (res: SendMessageResult) => {
            const txs = txsTo(res.transactions, pool.address, Op.jetton.transferNotification);
            expect(txs).toHaveLength(1);
            return gasUsed(txs[0]);
        };

        it('gas constants: pool swap', async () => {
            const swap = poolGas(
                await transferToPool(alice, A, 10n ** 9n + 1n, MergePool.swapPayload(B.address, bob.address)),
            );
            await pool.sendBody(manager.getSender(), MergePool.setCanonicalMessage(B.address));
            const del = poolGas(
                await A.sendMint(proxy.getSender(), {
                    to: pool.address,
                    amount: 10n ** 9n + 1n,
                    responseDestination: proxy.address,
                    forwardTonAmount: toNano('0.5'),
                    forwardPayload: MergePool.deliverPayload(event.address, bob.address, alice.address),
                }),
            );
            console.log(`GAS_MERGE_POOL_SWAP: swap with dust ${swap}, delivery with dust ${del}`);
            expectWithin(Math.max(swap, del), K.GAS_MERGE_POOL_SWAP);
        });

        it('gas constants: pool refund', async () => {
            const bad = poolGas(
                await transferToPool(
                    alice,
                    A,
                    10n ** 9n,
                    beginCell().storeUint(OpMerge.poolSwap, 32).storeUint(1, 8).endCell(),
                ),
            );
            await pool.sendBody(manager.getSender(), MergePool.setEnabledMessage(C.address, false));
            const del = poolGas(
                await A.sendMint(proxy.getSender(), {
                    to: pool.address,
                    amount: 10n ** 9n,
                    responseDestination: proxy.address,
                    forwardTonAmount: toNano('0.5'),
                    forwardPayload: MergePool.deliverPayload(event.address, bob.address, alice.address),
                }),
            );
            console.log(`GAS_MERGE_POOL_REFUND: malformed ${bad}, refused delivery ${del}`);
            expectWithin(Math.max(bad, del), K.GAS_MERGE_POOL_REFUND);
        });

        it('gas constants: pool claim', async () => {
            await transferToPool(alice, A, 10n ** 9n, MergePool.swapPayload(B.address), toNano('0.002'));
            const c = await pool.sendBody(alice.getSender(), MergePool.claimRefundMessage(A.address));
            const g = gasUsed(txsTo(c.transactions, pool.address)[0]);
            console.log(`GAS_MERGE_POOL_CLAIM: ${g}`);
            expectWithin(g, K.GAS_MERGE_POOL_CLAIM);
        });

        it('should complete with the smallest value it accepts under a 4x gas price (fees from the live config)', async () => {
            const before = await required();
            const p = loadConfig(blockchain.config)[21].anon0;
            if (p.kind !== 'GasLimitsPrices_gas_flat_pfx' || p.other.kind !== 'GasLimitsPrices_gas_prices_ext')
                throw new Error('unexpected config 21');
            const scaled = {
                ...p,
                flat_gas_price: p.flat_gas_price * 4n,
                other: { ...p.other, gas_price: p.other.gas_price * 4n },
            };
            blockchain.setConfig(
                updateConfig(blockchain.config, { kind: 'ConfigParam_config_gas_prices', anon0: scaled }),
            );
            const r = await required();
            expect(r.swap).toBeGreaterThan(before.swap * 2n); // gas parts x4, forward fees unchanged
            let res = await transferToPool(alice, A, 10n ** 9n + 3n, MergePool.swapPayload(B.address), r.swapWithDust);
            expect(refundCode(res, alice.address)).toBe(ErrorsMerge.lowValue);
            res = await transferToPool(
                alice,
                A,
                10n ** 9n + 3n,
                MergePool.swapPayload(B.address),
                r.swapWithDust + 1n,
                false,
            );
            expect(res.transactions).not.toHaveTransaction({ success: false });
            await actAsProxy(res, [A, B, C]);
            expect(await balance(alice.address, B)).toBe(10n ** 15n + 10n ** 6n);
            expect(await balance(alice.address, A)).toBe(10n ** 15n - 10n ** 9n);
            void Errors;
        });
    });
});
