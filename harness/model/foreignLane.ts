/**
 * Issue 11 ("no token left behind"): a lane of the model-based test (tests/model.spec.ts) whose
 * native token follows foreign wallet rules. `useStatusJettonAsNative(pair, 'B')` (tests/model.spec.ts)
 * makes B's own token (the B.token lane: locked and unlocked by B's native proxy, an alien on A) a
 * USDT-style jetton (harness/statusJetton.ts, contracts/test/status_jetton_wallet.fc, its master
 * contracts/test/status_jetton_minter.fc: TEP-89, as the stablecoin's minter) whose wallets refuse
 * a transfer with less than forward TON + forward fees + 0.04 TON (709, the reference wallet's
 * rule, where the project's own wallet asks less) and refuse with 45 while the master has locked
 * them. Every move of the model on that lane (lock, unlock, the refused lock's refund,
 * claim_refund, tvm_event_retry, approve_limit, cancel, the provider step and its repayment,
 * limits, liquidity, the small values of harness/model/hops.ts) then runs against those wallets,
 * with the model's invariants unchanged.
 *
 * Moves (`ForeignLane`, an extension of harness/model.ts):
 *   token-freeze   the master locks A's native proxy's wallet of the token for sending, or frees
 *                  it. While it is locked every transfer the proxy sends from it bounces (45) and
 *                  the proxy puts back what the transfer took (proxy.tlb, "a transfer the wallet
 *                  refuses"): an unlock's Event is told (tvm_event_delivery_failed, 2715: back to
 *                  Verified, delivered again once the wallet is free), a provider's repayment
 *                  waits (not repaid: tvm_event_retry), a refused lock's refund and a claim_refund
 *                  are recorded for claim_refund, the owner's withdrawal goes back to the
 *                  liquidity. The model predicts each (`BridgeModel.refusing`);
 *   user-freeze    the master locks a user's wallet for sending, or frees it: that user's locks
 *                  are refused by its own wallet (45), nothing moves (`BridgeModel.frozen`);
 *   user-blacklist the master locks a user's wallet for receiving (the stablecoin's blacklist), or
 *                  frees it (`BridgeModel.blacklisted`). A transfer to it (an unlock, the provider
 *                  step's transfer, a refused lock's refund, a claim_refund) is refused by that
 *                  wallet (45) and bounces to the sending wallet, which adds the amount back and
 *                  tells nobody (TESTING.md 7.1): the Event still says delivered (Confirmed,
 *                  LiquidityProvided), the proxy's books (liquidity, recorded refunds) say sent,
 *                  and the tokens sit in the sending wallet above those books. The model predicts
 *                  each such transfer (`BridgeModel.receive`) and records it with its amount
 *                  (`BridgeModel.aboveBooks`, the documented exception); the invariants count it
 *                  there and hold it to the chain: the sending wallet holds its books plus those
 *                  amounts, the recipient's balance is short of them, and the recipient's wallet
 *                  refused each of them (strand.ts, `received`).
 * The drain frees every wallet first (the model's own drain then delivers what waits; the tokens a
 * blacklisted wallet refused stay above the books: nothing on chain knows of them).
 */
import { BridgePair } from '../bridge';
import { BridgeModel, ModelExtension, ModelOp, Net, USERS, Violation } from '../model';
import { StatusJetton, WALLET_STATUS } from '../statusJetton';
import { registerForeignJetton } from './laneToken';
import { JettonWallet } from '../../wrappers/JettonWallet';

/** the USDT-style token's metadata, as the owner registers it */
export const STATUS_TOKEN = { name: 'Status Token', symbol: 'USDS', decimals: 6 };

/**
 * Deploys a USDT-style jetton on `n` (its master contract: TEP-89), registers it in `n`'s native
 * proxy (which learns its wallet by TEP-89) and makes it `n`'s own token of the pair (side.token):
 * minting goes through the master, and the pair's wallet(...) answers its wallets. Run once,
 * before the pair's snapshot.
 */
export async function useStatusJettonAsNative(pair: BridgePair, n: Net): Promise<StatusJetton> {
    const side = pair[n];
    const net = side.network;
    const admin = await net.treasury('status token admin');
    const jetton = await StatusJetton.deployWithMinter(net.blockchain, admin);
    side.token = await registerForeignJetton(
        pair,
        n,
        {
            root: jetton.minter,
            meta: STATUS_TOKEN,
            tep89: true,
            walletAddress: (owner) => jetton.walletAddress(owner),
            wallet: (owner) => net.blockchain.openContract(JettonWallet.createFromAddress(jetton.walletAddress(owner))),
            mint: (to, amount, o) => jetton.mint(to, amount, o),
            totalSupply: async () =>
                (await net.blockchain.runGetMethod(jetton.minter, 'get_jetton_data')).stackReader.readBigNumber(),
        },
        'learn its wallet of the status token (TEP-89)',
    );
    return jetton;
}

export class ForeignLane implements ModelExtension {
    constructor(
        readonly m: BridgeModel,
        readonly jetton: StatusJetton,
        readonly n: Net,
    ) {}

    ops(ops: ModelOp[]): void {
        const m = this.m;
        const r = m.rng;
        ops.push([m.refusing[this.n] ? 1.5 : 0.8, 'token-freeze', () => this.freezeProxy(!m.refusing[this.n])]);
        const frozen = USERS[this.n].filter((u) => m.frozen.has(`${this.n}.${u}`));
        const blacklisted = USERS[this.n].filter((u) => m.blacklisted.has(`${this.n}.${u}`));
        // (a blacklist stays a while, mostly aimed at the recipient of an open unlock: the
        // unlocks, refunds and provider steps to that wallet it stops come from other moves)
        const waiting = m
            .open()
            .filter((t) => t.kind === 'burn' && t.to === this.n && t.lane !== 'shared')
            .map((t) => t.recipient);
        ops.push([
            blacklisted.length ? 0.8 : 0.6,
            'user-blacklist',
            () =>
                blacklisted.length && r.chance(0.4)
                    ? this.blacklistUser(r.pick(blacklisted), false)
                    : this.blacklistUser(r.pick(waiting.length && r.chance(0.7) ? waiting : USERS[this.n]), true),
        ]);
        ops.push([
            frozen.length ? 1.2 : 0.5,
            'user-freeze',
            () =>
                frozen.length && r.chance(0.6)
                    ? this.freezeUser(r.pick(frozen), false)
                    : this.freezeUser(r.pick(USERS[this.n]), true),
        ]);
    }

    /** the master locks (or frees) the native proxy's wallet of the token for sending */
    async freezeProxy(locked: boolean): Promise<void> {
        this.m.log(`token-freeze ${this.n} native proxy's wallet ${locked ? 'send-locked' : 'free'}`);
        await this.jetton.setStatus(this.m.side(this.n).nativeProxy.address, locked ? WALLET_STATUS.sendLocked : 0);
        this.m.refusing[this.n] = locked;
    }

    /** the master locks (or frees) a user's wallet of the token for sending */
    async freezeUser(user: string, locked: boolean): Promise<void> {
        this.m.log(`user-freeze ${this.n}.${user} ${locked ? 'send-locked' : 'free'}`);
        const k = `${this.n}.${user}`;
        if (locked) this.m.frozen.add(k);
        else this.m.frozen.delete(k);
        await this.jetton.setStatus(this.m.user(this.n, user).address, this.statusOf(k));
    }

    /** the master locks (or frees) a user's wallet of the token for receiving (blacklisted) */
    async blacklistUser(user: string, locked: boolean): Promise<void> {
        this.m.log(`user-blacklist ${this.n}.${user} ${locked ? 'receive-locked' : 'free'}`);
        const k = `${this.n}.${user}`;
        if (locked) this.m.blacklisted.add(k);
        else this.m.blacklisted.delete(k);
        await this.jetton.setStatus(this.m.user(this.n, user).address, this.statusOf(k));
    }

    /** the wallet status of `net.user` the model expects */
    private statusOf(k: string): number {
        return (
            (this.m.frozen.has(k) ? WALLET_STATUS.sendLocked : 0) |
            (this.m.blacklisted.has(k) ? WALLET_STATUS.receiveLocked : 0)
        );
    }

    /** every wallet the lane locked, free again (before the model's own drain delivers what waits) */
    async beforeDrain(): Promise<void> {
        if (this.m.refusing[this.n]) await this.freezeProxy(false);
        for (const u of USERS[this.n]) if (this.m.frozen.has(`${this.n}.${u}`)) await this.freezeUser(u, false);
        for (const u of USERS[this.n]) if (this.m.blacklisted.has(`${this.n}.${u}`)) await this.blacklistUser(u, false);
    }

    /** the master's statuses are the model's */
    async check(): Promise<Violation[]> {
        const out: Violation[] = [];
        const m = this.m;
        const want = (locked: boolean) => (locked ? WALLET_STATUS.sendLocked : 0);
        const proxy = await this.jetton.statusOf(m.side(this.n).nativeProxy.address);
        if (proxy !== want(m.refusing[this.n]))
            out.push({
                invariant: 'way-forward',
                message: `${this.n}: the native proxy's wallet status ${proxy}, model ${want(m.refusing[this.n])}`,
            });
        for (const u of USERS[this.n]) {
            const s = await this.jetton.statusOf(m.user(this.n, u).address);
            if (s !== this.statusOf(`${this.n}.${u}`))
                out.push({
                    invariant: 'way-forward',
                    message: `${this.n}.${u}: wallet status ${s}, model ${this.statusOf(`${this.n}.${u}`)}`,
                });
        }
        return out;
    }
}
