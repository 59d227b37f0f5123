/**
 * Model-based test of the EVM paths (EVM -> TVM deposits, TVM -> EVM withdrawals, pending
 * withdrawals): random, seeded sequences of user, relay, governance, guardian and stranger actions
 * over a TVM network (the real proxies in the sandbox) and an EVM network (the real MultiVault and
 * Bridge on Hardhat), one jest process. After every step the model is compared with what the two
 * networks hold:
 *   (a) conservation, per lane:
 *       ERC-20 T (EVM-native, its alien minter M on TVM):
 *         vault balance(T) + taken by governance
 *           = fees(T) + supply(M) + alien proxy fees(M) + in flight to TVM + in flight to EVM + pending(T)
 *       TVM-native token N (its representation R on EVM):
 *         native proxy liquidity(N) - its initial liquidity
 *           = supply(R) + fees(R) + in flight to TVM + in flight to EVM
 *       in flight to TVM: deposits (AlienTransfer / NativeTransfer logs) not yet delivered on TVM;
 *       in flight to EVM: TvmEvm events the proxies emitted (read from the chain, not from the model)
 *       not yet withdrawn; pending(T): the vault's pendingWithdrawalsTotal, which is the sum of the
 *       model's pending withdrawals;
 *   (b) every holder's balance is the model's (TVM wallets of N and M, EVM balances of T and R), and
 *       every pending withdrawal's amount and status;
 *   (c) stranger actions change nothing: a replayed withdrawal, one with too few signatures or
 *       signed by non-relays, a stranger's approval or cancel, are refused.
 * Every sequence ends with a drain (deliver and withdraw everything, the taken liquidity returned,
 * every pending withdrawal approved and forced) after which nothing is in flight or pending.
 *
 * Environment (the random sequences only):
 *   MODEL_EVM_SEED       seed (default "evm-model"; "random" picks one, printed)
 *   MODEL_EVM_SEQUENCES  sequences to run (default 1)
 *   MODEL_EVM_STEPS      random steps per sequence (default 30)
 *   MODEL_PRINT          1 to print every step
 * A failure prints the seed, the sequence and the steps.
 */
import '@ton/test-utils';
import { Address, toNano } from '@ton/core';
import { Contract, TransactionReceipt } from 'ethers';
import { Rng } from '../harness/model';
import { EvmRelayService } from '../harness/evm/relay';
import { tvmRecipient } from '../harness/evm/fixture';
import { sendWithdrawal, SignedWithdrawal } from '../harness/evm/tvmEvmRelay';
import { as, depositParams } from '../wrappers/evm/MultiVault';
import { findDepositEvents } from '../wrappers/evm/depositEvents';
import { ApproveStatus, signDigest, WithdrawalKind } from '../wrappers/evm/withdrawals';
import { JettonMinter } from '../wrappers/JettonMinter';
import { lockToEvmBody, tvmEvmEventsOf, tvmEvmPayloadCell } from '../lib/tvmEvmEvents';
import { mined } from './evm_tvm.util';
import { relayEvmKeys, tvmEvmSetup, TvmEvmSetup } from './tvm_evm.util';

jest.setTimeout(900_000);

const envInt = (name: string, dflt: number) => {
    const v = process.env[name];
    if (v === undefined || v === '') return dflt;
    const n = Number(v);
    if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got ${v}`);
    return n;
};
const SEED = !process.env.MODEL_EVM_SEED
    ? 'evm-model'
    : process.env.MODEL_EVM_SEED === 'random'
      ? `r${Date.now().toString(36)}`
      : process.env.MODEL_EVM_SEED;
const SEQUENCES = envInt('MODEL_EVM_SEQUENCES', 1);
const STEPS = envInt('MODEL_EVM_STEPS', 30);

const WITHDRAW_FEE_BPS = 20n;
const ceilBps = (a: bigint, bps: bigint) => (a * bps + 9999n) / 10000n;

interface Pending {
    recipient: string;
    id: bigint;
    amount: bigint;
    bounty: bigint;
    status: ApproveStatus;
}

/** A deposit log not delivered on TVM yet. */
interface ToTvm {
    key: string;
    lane: 'T' | 'N';
    amount: bigint;
    holder: Address;
}

class EvmModel {
    readonly log: string[] = [];
    /** EVM-side balances the model expects: token -> account -> amount */
    readonly evm = new Map<string, Map<string, bigint>>();
    /** TVM holders' balances: lane -> holder -> amount */
    readonly tvm = { N: new Map<string, bigint>(), M: new Map<string, bigint>() };
    readonly toTvm: ToTvm[] = [];
    /** signed TvmEvm events not withdrawn yet, and withdrawn ones (for replays) */
    signed: SignedWithdrawal[] = [];
    readonly withdrawn: SignedWithdrawal[] = [];
    readonly pending: Pending[] = [];
    taken = 0n;
    /** the single-withdrawal limit of T (0: none) */
    limit = 0n;
    minter: Address | null = null;
    rep = '';
    nativeLiquidity0 = 0n;
    services: EvmRelayService[] = [];

    constructor(
        readonly s: TvmEvmSetup,
        readonly rng: Rng,
    ) {}

    get vault(): Contract {
        return this.s.evm.vault;
    }
    get T(): string {
        return this.s.evm.tokenAddress;
    }
    evmBal(token: string, who: string): bigint {
        return this.evm.get(token)?.get(who) ?? 0n;
    }
    addEvm(token: string, who: string, d: bigint) {
        if (!this.evm.has(token)) this.evm.set(token, new Map());
        this.evm.get(token)!.set(who, this.evmBal(token, who) + d);
    }
    tvmBal(lane: 'N' | 'M', who: Address): bigint {
        return this.tvm[lane].get(who.toRawString()) ?? 0n;
    }
    addTvm(lane: 'N' | 'M', who: Address, d: bigint) {
        this.tvm[lane].set(who.toRawString(), this.tvmBal(lane, who) + d);
    }
    holders(): Address[] {
        return [this.s.user.address, this.s.recipient.address];
    }
    /** uniform in [0, 1) */
    r(): number {
        return this.rng.u32() / 2 ** 32;
    }
    rand(lo: bigint, hi: bigint): bigint {
        return hi <= lo ? lo : this.rng.bigint(lo, hi);
    }
    pick<T>(xs: T[]): T {
        return this.rng.pick(xs);
    }

    async init() {
        const s = this.s;
        this.services = [
            new EvmRelayService(s.evm, s.blockchain, s.alienConfiguration, s.relays, s.relayer),
            new EvmRelayService(s.evm, s.blockchain, s.nativeConfiguration, s.relays, s.relayer),
        ];
        this.nativeLiquidity0 = await s.proxies.native.getLiquidity(s.nativeToken.address);
        this.addTvm('N', s.user.address, await s.userNativeWallet.getJettonBalance());
        const { user } = s.evm.signers;
        this.addEvm(this.T, user.address, await s.evm.token.getFunction('balanceOf')(user.address));
        const root = tvmRecipient(s.nativeToken.address);
        this.rep = await this.vault.getFunction('predictNativeTokenAddress')(root.wid, root.addr);
        // the first withdrawal of N deploys R; the first deposit of T deploys M: both made here
        await this.depositT(10_000n, s.recipient.address);
        await this.relayToTvm();
        await this.lockN(s.user.address, 10_000n);
        await this.signTvm();
        await this.withdraw(this.signed[0], s.evm.signers.user);
    }

    // ------------------------------------------------------------ actions

    private recordDeposits(r: TransactionReceipt, lane: 'T' | 'N') {
        for (const e of findDepositEvents(r, this.vault.interface, { vault: this.s.evm.vaultAddress })) {
            const f = e.fields as { amount: bigint; recipient_wid: number; recipient_addr: bigint };
            const holder = new Address(
                f.recipient_wid,
                Buffer.from(f.recipient_addr.toString(16).padStart(64, '0'), 'hex'),
            );
            const l = e.name === 'AlienTransfer' ? 'T' : 'N';
            if (l !== lane && lane === 'N') throw new Error('a representation deposit logged AlienTransfer');
            this.toTvm.push({ key: `${e.transactionHash}:${e.logIndex}`, lane: l, amount: f.amount, holder });
        }
    }

    async depositT(amount: bigint, holder: Address) {
        const { user } = this.s.evm.signers;
        await mined(as(this.s.evm.token, user).getFunction('approve')(this.s.evm.vaultAddress, amount));
        const r = await mined(
            as(this.vault, user).getFunction('deposit')(depositParams(tvmRecipient(holder), this.T, amount)),
        );
        this.addEvm(this.T, user.address, -amount);
        this.recordDeposits(r, 'T');
    }

    async depositR(amount: bigint, holder: Address) {
        const { other } = this.s.evm.signers;
        const r = await mined(
            as(this.vault, other).getFunction('deposit')(depositParams(tvmRecipient(holder), this.rep, amount)),
        );
        this.addEvm(this.rep, other.address, -amount);
        this.recordDeposits(r, 'N');
    }

    async relayToTvm() {
        await this.s.evm.mine(2);
        for (const svc of this.services) {
            for (const p of await svc.poll()) {
                const key = `${p.event.transactionHash}:${p.event.logIndex}`;
                const i = this.toTvm.findIndex((x) => x.key === key);
                if (i < 0) throw new Error(`the relays delivered a deposit the model does not know: ${key}`);
                const d = this.toTvm.splice(i, 1)[0];
                // the TVM proxy's fee (1/1000, rounded down)
                this.addTvm(d.lane === 'T' ? 'M' : 'N', d.holder, d.amount - d.amount / 1000n);
            }
        }
    }

    async lockN(holder: Address, amount: bigint) {
        const wallet = await this.s.walletOf(this.s.nativeToken.address, holder);
        const payload = tvmEvmPayloadCell(this.s.toEvm({ remainingGasTo: holder }));
        const sender = holder.equals(this.s.user.address) ? this.s.user : this.s.recipient;
        await sender.send({
            to: wallet.address,
            value: toNano('0.2'),
            body: lockToEvmBody({
                amount,
                nativeProxy: this.s.proxies.native.address,
                responseDestination: holder,
                forwardTonAmount: toNano('0.1'),
                payload,
            }),
        });
        this.addTvm('N', holder, -amount);
    }

    async burnM(holder: Address, amount: bigint) {
        const h = holder.equals(this.s.user.address) ? this.s.user : this.s.recipient;
        await this.s.burn(this.minter!, amount, tvmEvmPayloadCell(this.s.toEvm({ remainingGasTo: holder })), h);
        this.addTvm('M', holder, -amount);
    }

    async signTvm() {
        this.signed.push(...(await this.s.signNow()));
    }

    /** Sends a signed withdrawal (anyone; the recipient may set a bounty) and records what it became. */
    async withdraw(w: SignedWithdrawal, from: { address: string }, bounty = 0n) {
        const amount = w.withdrawal.amount;
        const recipient = w.withdrawal.recipient;
        const alien = w.withdrawal.kind === WithdrawalKind.Alien;
        const token = alien ? this.T : this.rep;
        const net = amount - ceilBps(amount, WITHDRAW_FEE_BPS);
        const liquidity: bigint = alien ? await this.liquidityT() : 0n;
        const overLimit = alien && this.limit !== 0n && amount > this.limit;
        const r = await mined(sendWithdrawal(as(this.vault, from as never), w, { bounty }));
        this.signed = this.signed.filter((x) => x !== w);
        this.withdrawn.push(w);
        const created = this.logs(r).find((l) => l.name === 'PendingWithdrawalCreated');
        const expectPending = alien && (overLimit || net > liquidity);
        if (!!created !== expectPending)
            throw new Error(`withdrawal of ${amount}: pending ${!!created}, the model expected ${expectPending}`);
        if (created) {
            this.pending.push({
                recipient,
                id: created.args.id as bigint,
                amount: net,
                // the bounty counts when the recipient sends it (Required ones too: it stays for later)
                bounty: from.address === recipient ? bounty : 0n,
                status: overLimit ? ApproveStatus.Required : ApproveStatus.NotRequired,
            });
        } else this.addEvm(token, recipient, net);
    }

    logs(r: TransactionReceipt) {
        return r.logs
            .map((l) => {
                try {
                    return this.vault.interface.parseLog(l as never);
                } catch {
                    return null;
                }
            })
            .filter((x): x is NonNullable<typeof x> => x !== null);
    }

    async take(amount: bigint) {
        await mined(this.s.g.getFunction('testTakeLiquidity')(this.T, this.s.evm.signers.governance.address, amount));
        this.taken += amount;
    }

    async giveBack(amount: bigint) {
        await mined(
            as(this.s.evm.token, this.s.evm.signers.governance).getFunction('transfer')(
                this.s.evm.vaultAddress,
                amount,
            ),
        );
        this.taken -= amount;
    }

    /** The vault's liquidity of T: its balance less the accrued fees (MultiVaultStorage._liquidity). */
    async liquidityT(): Promise<bigint> {
        const balance = BigInt(await this.s.evm.token.getFunction('balanceOf')(this.s.evm.vaultAddress));
        const fees = BigInt(await this.vault.getFunction('fees')(this.T));
        return balance > fees ? balance - fees : 0n;
    }

    payable(p: Pending) {
        return p.amount > 0n && (p.status === ApproveStatus.NotRequired || p.status === ApproveStatus.Approved);
    }

    async force(p: Pending) {
        const liquidity: bigint = await this.liquidityT();
        const tx = as(this.vault, this.s.evm.signers.user).getFunction('forceWithdraw')([
            { recipient: p.recipient, id: p.id },
        ]);
        if (p.amount > liquidity) {
            await expect(tx).rejects.toThrow('Pending: not enough liquidity');
            return;
        }
        await mined(tx);
        this.addEvm(this.T, p.recipient, p.amount);
        p.amount = 0n;
    }

    async approve(p: Pending) {
        // a stranger's approval is refused first
        await expect(
            as(this.vault, this.s.evm.signers.user).getFunction('setPendingWithdrawalApprove')(
                { recipient: p.recipient, id: p.id },
                true,
            ),
        ).rejects.toThrow('Pending: caller is not withdraw guardian');
        const liquidity: bigint = await this.liquidityT();
        await mined(
            as(this.vault, this.s.evm.signers.guardian).getFunction('setPendingWithdrawalApprove')(
                { recipient: p.recipient, id: p.id },
                true,
            ),
        );
        p.status = ApproveStatus.Approved;
        if (p.amount <= liquidity) {
            this.addEvm(this.T, p.recipient, p.amount);
            p.amount = 0n;
        }
    }

    async cancel(p: Pending, amount: bigint, holder: Address) {
        const t = tvmRecipient(holder);
        const r = await mined(
            as(this.vault, this.s.evm.signers.other).getFunction('cancelPendingWithdrawal')(
                p.id,
                amount,
                t.wid,
                t.addr,
                0n,
                '0x',
            ),
        );
        p.amount -= amount;
        if (p.bounty > p.amount) p.bounty = p.amount;
        this.recordDeposits(r, 'T');
    }

    async fill(p: Pending, extra: bigint, holder: Address) {
        const { user } = this.s.evm.signers;
        const d = p.amount + extra;
        await mined(as(this.s.evm.token, user).getFunction('approve')(this.s.evm.vaultAddress, d));
        const r = await mined(
            as(this.vault, user).getFunction(
                'deposit((int8,uint256,address,uint256,uint256,bytes),uint256,(address,uint256)[])',
            )(depositParams(tvmRecipient(holder), this.T, d), p.bounty, [{ recipient: p.recipient, id: p.id }]),
        );
        this.addEvm(this.T, user.address, -d);
        this.addEvm(this.T, p.recipient, p.amount - p.bounty);
        p.amount = 0n;
        this.recordDeposits(r, 'T');
    }

    /** Strangers' attempts, each refused (the invariants then show nothing changed). */
    async strangers() {
        const v = as(this.vault, this.s.evm.signers.user);
        if (this.withdrawn.length) {
            await expect(sendWithdrawal(v, this.pick(this.withdrawn))).rejects.toThrow('Withdraw: already withdrawn');
        }
        if (this.signed.length) {
            const w = this.pick(this.signed);
            await expect(sendWithdrawal(v, w, { count: 2 })).rejects.toThrow('Bridge: not enough signatures');
            const forged = { ...w, signatures: relayEvmKeys(4, 'strangers').map((k) => signDigest(k, w.digest)) };
            await expect(sendWithdrawal(v, forged)).rejects.toThrow('Bridge: not enough relay signatures');
        }
        const p = this.pending.find((x) => x.amount > 0n);
        if (p) {
            // the id under the stranger's own address is another (empty) entry
            await expect(v.getFunction('cancelPendingWithdrawal')(p.id, 1n, 0, 1n, 0n, '0x')).rejects.toThrow(
                /Pending: wrong amount|Pending: native token/,
            );
        }
    }

    // ------------------------------------------------------------ the random step

    async step(i: number) {
        const s = this.s;
        // weights: the actions that can do something now are likelier (a pending withdrawal, once
        // there, is acted on; liquidity is taken while withdrawals are waiting to be sent)
        const hasPending = this.pending.some((x) => this.payable(x));
        const hasRequired = this.pending.some((x) => x.amount > 0n && x.status === ApproveStatus.Required);
        const anyM = this.holders().some((h) => this.tvmBal('M', h) >= 100n);
        const choice = this.rng.weighted<number>([
            [3, 0],
            [this.evmBal(this.rep, s.evm.signers.other.address) >= 100n ? 2 : 0.2, 1],
            [this.toTvm.length ? 3 : 0.5, 2],
            [2, 3],
            [anyM ? 3 : 0.3, 4],
            [2, 5],
            [this.signed.length ? 4 : 0.3, 6],
            [this.signed.length ? 2 : 0.1, 7],
            [this.signed.length ? 2 : 0.5, 8],
            [this.taken ? 1 : 0.1, 9],
            [hasPending ? 2 : 0.1, 10],
            [hasPending ? 4 : 0.1, 11],
            [hasRequired ? 3 : 1, 12],
            [1, 13],
        ]);
        const note = (m: string) => {
            this.log.push(`${i}: ${m}`);
            if (process.env.MODEL_PRINT) console.log(`[model.evm] ${i}: ${m}`);
        };
        const holder = this.pick(this.holders());
        switch (choice) {
            case 0: {
                const a = this.rand(1_000n, 300_000n);
                note(`depositT ${a} -> ${holder === s.user.address ? 'user' : 'recipient'}`);
                return this.depositT(a, holder);
            }
            case 1: {
                const bal = this.evmBal(this.rep, s.evm.signers.other.address);
                if (bal < 100n) return note('depositR: nothing to deposit');
                const a = this.rand(100n, bal);
                note(`depositR ${a}`);
                return this.depositR(a, holder);
            }
            case 2:
                note('relays: EVM -> TVM');
                return this.relayToTvm();
            case 3: {
                const bal = this.tvmBal('N', holder);
                if (bal < 100n) return note('lockN: nothing');
                const a = this.rand(100n, bal < 200_000n ? bal : 200_000n);
                note(`lockN ${a}`);
                return this.lockN(holder, a);
            }
            case 4: {
                const bal = this.tvmBal('M', holder);
                if (bal < 100n) return note('burnM: nothing');
                const a = this.rand(100n, bal);
                note(`burnM ${a}`);
                return this.burnM(holder, a);
            }
            case 5:
                note('relays: sign TVM -> EVM');
                return this.signTvm();
            case 6:
            case 7: {
                if (!this.signed.length) return note('withdraw: nothing signed');
                const w = this.pick(this.signed);
                const byRecipient = this.r() < 0.5;
                const from = byRecipient ? s.evm.signers.other : s.evm.signers.user;
                const bounty = byRecipient ? this.rand(0n, w.withdrawal.amount / 10n) : 0n;
                note(
                    `withdraw ${w.withdrawal.kind === WithdrawalKind.Alien ? 'T' : 'R'} ${w.withdrawal.amount} bounty ${bounty}`,
                );
                return this.withdraw(w, from, bounty);
            }
            case 8: {
                const liquidity: bigint = await this.liquidityT();
                if (liquidity === 0n) return note('take: nothing');
                const a = this.rand(1n, liquidity);
                note(`governance takes ${a} of T`);
                return this.take(a);
            }
            case 9: {
                if (this.taken === 0n) return note('give back: nothing');
                const a = this.rand(1n, this.taken);
                note(`governance gives back ${a} of T`);
                return this.giveBack(a);
            }
            case 10: {
                const p = this.pending.filter((x) => this.payable(x));
                if (!p.length) return note('force: nothing');
                note('force withdraw');
                return this.force(this.pick(p));
            }
            case 11: {
                const p = this.pending.filter((x) => this.payable(x));
                if (!p.length) return note('cancel/fill: nothing');
                const x = this.pick(p);
                if (this.r() < 0.5) {
                    const a = this.rand(1n, x.amount);
                    note(`cancel ${a} of ${x.amount}`);
                    return this.cancel(x, a, holder);
                }
                note(`fill ${x.amount} (bounty ${x.bounty})`);
                return this.fill(x, this.rand(0n, 10_000n), holder);
            }
            case 12: {
                const r = this.pending.filter((x) => x.amount > 0n && x.status === ApproveStatus.Required);
                if (r.length && this.r() < 0.6) {
                    note('guardian approves');
                    return this.approve(this.pick(r));
                }
                this.limit = this.r() < 0.5 ? 0n : this.rand(1_000n, 100_000n);
                note(`limit of T: ${this.limit}`);
                await mined(s.g.getFunction('setWithdrawalLimits')(this.T, this.limit, 0n));
                return;
            }
            default:
                note('strangers');
                return this.strangers();
        }
    }

    async drain() {
        for (let round = 0; round < 4; round++) {
            await this.relayToTvm();
            await this.signTvm();
            for (const w of [...this.signed]) await this.withdraw(w, this.s.evm.signers.user);
            if (this.taken) await this.giveBack(this.taken);
            for (const p of this.pending.filter((x) => x.amount > 0n && x.status === ApproveStatus.Required))
                await this.approve(p);
            for (const p of this.pending.filter((x) => this.payable(x))) await this.force(p);
        }
        await this.check();
        expect(this.toTvm).toEqual([]);
        expect(this.signed).toEqual([]);
        expect(this.pending.filter((p) => p.amount > 0n)).toEqual([]);
        expect(await this.vault.getFunction('pendingWithdrawalsTotal')(this.T)).toBe(0n);
    }

    // ------------------------------------------------------------ invariants

    async check() {
        const s = this.s;
        const emitted = this.signed.reduce(
            (a, w) => {
                a[w.withdrawal.kind === WithdrawalKind.Alien ? 'T' : 'N'] += w.withdrawal.amount;
                return a;
            },
            { T: 0n, N: 0n },
        );
        // events the proxies emitted that the relays have not signed yet (read from the chain)
        const unsigned = await this.unsignedEvents();
        const toTvm = { T: 0n, N: 0n };
        for (const d of this.toTvm) toTvm[d.lane] += d.amount;

        // (a) T lane
        const vaultT: bigint = await s.evm.token.getFunction('balanceOf')(s.evm.vaultAddress);
        const feesT: bigint = await this.vault.getFunction('fees')(this.T);
        const minter = s.blockchain.openContract(JettonMinter.createFromAddress(this.minter!));
        const supplyM = await minter.getTotalSupply();
        const proxyFeesM = await s.proxies.alien.getAccumulatedFees(this.minter!);
        const pendingT: bigint = await this.vault.getFunction('pendingWithdrawalsTotal')(this.T);
        expect({ lane: 'T', lhs: vaultT + this.taken }).toEqual({
            lane: 'T',
            lhs: feesT + supplyM + proxyFeesM + toTvm.T + emitted.T + unsigned.T + pendingT,
        });
        expect(pendingT).toBe(this.pending.reduce((a, p) => a + p.amount, 0n));
        // (a) N lane
        const liquidityN = await s.proxies.native.getLiquidity(s.nativeToken.address);
        const repC = new Contract(
            this.rep,
            ['function totalSupply() view returns (uint256)', 'function balanceOf(address) view returns (uint256)'],
            s.evm.provider,
        );
        const supplyR: bigint = await repC.totalSupply();
        const feesR: bigint = await this.vault.getFunction('fees')(this.rep);
        expect({ lane: 'N', lhs: liquidityN - this.nativeLiquidity0 }).toEqual({
            lane: 'N',
            lhs: supplyR + feesR + toTvm.N + emitted.N + unsigned.N,
        });
        // (b) balances
        for (const h of this.holders()) {
            const n = await (await s.walletOf(s.nativeToken.address, h)).getJettonBalance().catch(() => 0n);
            const m = await (await s.walletOf(this.minter!, h)).getJettonBalance().catch(() => 0n);
            expect({ holder: h.toRawString(), n, m }).toEqual({
                holder: h.toRawString(),
                n: this.tvmBal('N', h),
                m: this.tvmBal('M', h),
            });
        }
        for (const who of [s.evm.signers.user.address, s.evm.signers.other.address]) {
            const t: bigint = await s.evm.token.getFunction('balanceOf')(who);
            const r: bigint = await repC.balanceOf(who);
            expect({ who, t, r }).toEqual({ who, t: this.evmBal(this.T, who), r: this.evmBal(this.rep, who) });
        }
        for (const p of this.pending) {
            const q = await this.vault.getFunction('pendingWithdrawal')(p.recipient, p.id);
            expect({ id: p.id, amount: q.amount, status: Number(q.approveStatus) }).toEqual({
                id: p.id,
                amount: p.amount,
                status: p.status,
            });
        }
    }

    /** TvmEvm events emitted since the relays' last poll (the relays see sealed blocks only). */
    private async unsignedEvents() {
        const out = { T: 0n, N: 0n };
        const seen = new Set([...this.signed, ...this.withdrawn].map((w) => w.found.transactionHash));
        for (const tx of this.s.net.transactions) {
            for (const proxy of [this.s.proxies.native.address, this.s.proxies.alien.address]) {
                for (const f of tvmEvmEventsOf(tx, proxy)) {
                    if (seen.has(f.transactionHash)) continue;
                    out[f.event.kind === WithdrawalKind.Alien ? 'T' : 'N'] += f.event.amount;
                }
            }
        }
        return out;
    }
}

describe('Model: the EVM paths (EVM <-> TVM, pending withdrawals), random sequences', () => {
    it('scripted: pending withdrawals short of liquidity (bounty, cancel back to TVM, fill), over the limit (approved), forced; invariants after each step', async () => {
        const s = await tvmEvmSetup({ withdrawFeeBps: WITHDRAW_FEE_BPS });
        const model = new EvmModel(s, new Rng('scripted'));
        await model.init();
        model.minter = (await s.proxies.alien.getEvmMinter(BigInt(s.evm.chainId), BigInt(s.evm.tokenAddress)))!;
        const { other } = s.evm.signers;
        const steps: [string, () => Promise<unknown>][] = [
            ['depositT 300000', () => model.depositT(300_000n, s.user.address)],
            ['relay to TVM', () => model.relayToTvm()],
            [
                'burn 50000 x3',
                async () => {
                    for (let i = 0; i < 3; i++) await model.burnM(s.user.address, 50_000n);
                },
            ],
            ['sign', () => model.signTvm()],
            ['take all liquidity', async () => model.take(await model.liquidityT())],
            ['withdraw 1 by the recipient, bounty 500: pending', () => model.withdraw(model.signed[0], other, 500n)],
            ['withdraw 2 by a stranger: pending', () => model.withdraw(model.signed[0], s.evm.signers.user)],
            [
                'cancel 10000 of pending 1 back to TVM',
                () => model.cancel(model.pending[0], 10_000n, s.recipient.address),
            ],
            ['fill pending 1 by a deposit', () => model.fill(model.pending[0], 1_000n, s.recipient.address)],
            ['relay to TVM (the cancel and the fill)', () => model.relayToTvm()],
            ['strangers', () => model.strangers()],
            ['force pending 2: refused, short', () => model.force(model.pending[1])],
            ['give back', () => model.giveBack(model.taken)],
            ['force pending 2', () => model.force(model.pending[1])],
            [
                'limit 1000',
                async () => {
                    model.limit = 1_000n;
                    await mined(s.g.getFunction('setWithdrawalLimits')(s.evm.tokenAddress, 1_000n, 0n));
                },
            ],
            ['withdraw 3 over the limit: Required', () => model.withdraw(model.signed[0], s.evm.signers.user)],
            ['approve (paid)', () => model.approve(model.pending[2])],
        ];
        for (const [name, f] of steps) {
            model.log.push(name);
            await f();
            await model.check();
        }
        expect(model.pending.map((p) => [p.amount, p.status])).toEqual([
            [0n, ApproveStatus.NotRequired],
            [0n, ApproveStatus.NotRequired],
            [0n, ApproveStatus.Approved],
        ]);
        await model.drain();
    });

    for (let q = 0; q < SEQUENCES; q++) {
        it(`sequence ${q} of seed ${SEED}: ${STEPS} steps, invariants after each, then drained`, async () => {
            const s = await tvmEvmSetup({ withdrawFeeBps: WITHDRAW_FEE_BPS });
            const model = new EvmModel(s, new Rng(`${SEED}/${q}`));
            try {
                model.minter = null;
                await model.init();
                model.minter = (await s.proxies.alien.getEvmMinter(BigInt(s.evm.chainId), BigInt(s.evm.tokenAddress)))!;
                // init's deliveries: the model learns the minter after the first one
                await model.check();
                for (let i = 0; i < STEPS; i++) {
                    await model.step(i);
                    await model.check();
                }
                await model.drain();
            } catch (e) {
                console.log(
                    `[model.evm] seed ${SEED} sequence ${q} failed after:\n${model.log.join('\n')}\n` +
                        `replay: MODEL_EVM_SEED=${SEED} MODEL_EVM_SEQUENCES=${q + 1} MODEL_EVM_STEPS=${STEPS} MODEL_PRINT=1 npx jest tests/model.evm.spec.ts`,
                );
                throw e;
            }
        });
    }
});
