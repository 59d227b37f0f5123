/**
 * The shared setup of the end-to-end bridge specs: two simulated networks with the bridge deployed on
 * both (deployBridgePair), a user on each side with tokens, a checkpoint every test starts from, and
 * the source-side actions and transaction checks the scenarios repeat.
 *
 * It lives in harness/ (not tests/) so that anyone writing their own scenario gets the same starting
 * point the project's specs use: `const t = await BridgeTestbed.create(); ...; t.checkpoint();` in
 * beforeAll, `await t.reset()` in beforeEach. The scenario itself (extra actors, limits, fees, what is
 * asserted) stays in the spec. The assertion helpers (expectAllOk) use jest's global `expect`, so this
 * module is for jest runs (as harness/fixtures.ts is).
 *
 * Conventions of the testbed: network A (global id -239) and B (2000); `userA` (treasury "user" on
 * A) holds A's tokens, `userB` (treasury "user" on B) receives on B; lockAtoB / burnBtoA are the
 * transfers between them with the specs' usual values (forward 0.5 TON on a lock, 0.6 TON on a burn,
 * expected gas 0.1 TON, the remaining gas back to the sender).
 */
import { Address, Cell, toNano } from '@ton/core';
import { BlockchainTransaction, SandboxContract, SendMessageResult, TreasuryContract } from '@ton/sandbox';
import { TvmNetwork } from './network';
import {
    BridgePair,
    BridgeSide,
    deployBridgePair,
    DeployBridgePairOptions,
    exitCodeOf,
    gasOf,
    PairSnapshot,
    TokenInfo,
} from './bridge';
import { burnAlien, lockNative } from './actors';
import { findTransferId, FoundTransfer } from './transfer';
import { Op } from '../wrappers/constants';
import { PROVISION_PROBE_AMOUNT } from '../wrappers/MultiVaultTvmTvmEventNative';

/** a sandbox treasury (the testbed's users and a spec's own actors) */
export type Treasury = SandboxContract<TreasuryContract>;

/** the two networks of the testbed */
export const NETWORK_A = { globalId: -239, name: 'A' } as const;
export const NETWORK_B = { globalId: 2000, name: 'B' } as const;

/** forward_ton_amount of a lock (pays the source proxy and the event's emission) */
export const LOCK_FORWARD_TON = toNano('0.5');
/** value a burn attaches to the alien wallet */
export const BURN_VALUE = toNano('0.6');
/** expected_gas of the testbed's transfers */
export const EXPECTED_GAS = toNano('0.1');

export interface BridgeTestbedOptions {
    /** amount of A's test token (pair.A.token) minted to userA; 0 mints nothing */
    token: bigint;
    /** amount of the shared token (pair.A.shared) minted to userA; 0 (default) mints nothing */
    shared?: bigint;
    /** passed to deployBridgePair */
    pair?: DeployBridgePairOptions;
}

export interface LockOptions {
    amount: bigint;
    /** forward_ton_amount (default LOCK_FORWARD_TON) */
    forwardTon?: bigint;
    /** destination chain id (default: the other network's) */
    destinationChainId?: number;
    /** the transfer's payload */
    payload?: Cell;
    /** a forward payload sent as it is, instead of the proxy's layout */
    rawPayload?: Cell;
}

export interface BurnOptions {
    amount: bigint;
    /** value attached to the burn (default BURN_VALUE) */
    value?: bigint;
    /** the transfer's payload */
    payload?: Cell;
}

/** A transfer's source transactions and its event as found in the source proxy's transaction. */
export interface SourceTransfer {
    result: SendMessageResult;
    found: FoundTransfer;
}

/** Two networks, the bridge on both, userA and userB; see the file comment. */
export class BridgeTestbed {
    private base?: PairSnapshot;

    private constructor(
        readonly A: TvmNetwork,
        readonly B: TvmNetwork,
        readonly pair: BridgePair,
        /** treasury "user" on A: holds A's minted tokens, sends A -> B, receives B -> A */
        readonly userA: Treasury,
        /** treasury "user" on B: receives A -> B, sends B -> A */
        readonly userB: Treasury,
    ) {}

    /** Creates the networks, deploys the bridge pair, creates the users and mints userA's tokens. */
    static async create(o: BridgeTestbedOptions): Promise<BridgeTestbed> {
        const A = await TvmNetwork.create(NETWORK_A);
        const B = await TvmNetwork.create(NETWORK_B);
        const pair = await deployBridgePair(A, B, o.pair);
        const userA = await A.treasury('user');
        const userB = await B.treasury('user');
        if (o.token > 0n)
            await pair.A.token.minter.sendMint(pair.A.owner.getSender(), { to: userA.address, amount: o.token });
        if ((o.shared ?? 0n) > 0n)
            await pair.A.shared.minter.sendMint(pair.A.owner.getSender(), { to: userA.address, amount: o.shared! });
        return new BridgeTestbed(A, B, pair, userA, userB);
    }

    /** Marks the current state (both networks and the off-chain actors) as the one reset() returns to. */
    checkpoint(): void {
        this.base = this.pair.snapshot();
    }

    /** Back to the last checkpoint (call it in beforeEach). */
    async reset(): Promise<void> {
        if (!this.base) throw new Error('BridgeTestbed.reset before checkpoint');
        await this.pair.loadFrom(this.base);
    }

    /** the side the other network's bridge is on */
    other(s: BridgeSide): BridgeSide {
        return s === this.pair.A ? this.pair.B : this.pair.A;
    }

    /** jetton balance of `owner` under `minter` on `net` */
    async balanceOf(net: TvmNetwork, minter: Address, owner: Address): Promise<bigint> {
        return (await this.pair.wallet(net, minter, owner)).getJettonBalance();
    }

    /** total supply of the jetton `minter` on `net` (its get_jetton_data) */
    async supplyOf(net: TvmNetwork, minter: Address): Promise<bigint> {
        return (await net.blockchain.runGetMethod(minter, 'get_jetton_data')).stackReader.readBigNumber();
    }

    /** TON balance of `a` on `net` */
    async tonOf(net: TvmNetwork, a: Address): Promise<bigint> {
        return (await net.blockchain.getContract(a)).balance;
    }

    /** Source side of the native flow: `user` locks `token` in `side`'s native proxy for `recipient`. */
    async lock(side: BridgeSide, user: Treasury, token: TokenInfo, recipient: Address, o: LockOptions) {
        const wallet = await this.pair.wallet(side.network, token.minter.address, user.address);
        const result = await lockNative(user, {
            wallet: wallet.address,
            nativeProxy: side.nativeProxy.address,
            amount: o.amount,
            forwardTonAmount: o.forwardTon ?? LOCK_FORWARD_TON,
            destinationChainId: o.destinationChainId ?? this.other(side).network.globalId,
            recipient,
            expectedGas: EXPECTED_GAS,
            remainingGasTo: user.address,
            payload: o.payload,
            rawForwardPayload: o.rawPayload,
        });
        return { result, wallet };
    }

    /** Source side of the alien flow: `user` burns its alien tokens of `minter` on `side` for `recipient`. */
    async burn(side: BridgeSide, user: Treasury, minter: Address, recipient: Address, o: BurnOptions) {
        const wallet = await this.pair.wallet(side.network, minter, user.address);
        const result = await burnAlien(user, {
            wallet: wallet.address,
            amount: o.amount,
            value: o.value ?? BURN_VALUE,
            destinationChainId: this.other(side).network.globalId,
            recipient,
            expectedGas: EXPECTED_GAS,
            remainingGasTo: user.address,
            payload: o.payload,
        });
        return { result, wallet };
    }

    /** userA locks `amount` of `token` on A for userB on B; the event found in A's native proxy. */
    async lockAtoB(token: TokenInfo, amount: bigint, o: Omit<LockOptions, 'amount'> = {}): Promise<SourceTransfer> {
        const { result } = await this.lock(this.pair.A, this.userA, token, this.userB.address, { ...o, amount });
        return {
            result,
            found: findTransferId(this.A, result.transactions[0].hash(), this.pair.A.nativeProxy.address),
        };
    }

    /**
     * userA locks `amount` of A's test token for userB and the credit backend delivers it (every
     * transaction exits 0): userB then holds `amount` of its alien token on B, e.g. to burn back.
     * Returns that alien token's minter on B.
     */
    async alienTokensToUserB(amount: bigint): Promise<Address> {
        const { found } = await this.lockAtoB(this.pair.A.token, amount);
        expectAllOk((await this.pair.AB.credit.deliver(found))!.result.transactions);
        return (await this.pair.alienMinter(this.pair.B, this.pair.A, this.pair.A.token)).address;
    }

    /** userB burns `amount` of the alien token `minter` on B for userA on A; the event found in B's alien proxy. */
    async burnBtoA(minter: Address, amount: bigint, o: Omit<BurnOptions, 'amount'> = {}): Promise<SourceTransfer> {
        const { result } = await this.burn(this.pair.B, this.userB, minter, this.userA.address, { ...o, amount });
        return { result, found: findTransferId(this.B, result.transactions[0].hash(), this.pair.B.alienProxy.address) };
    }
}

// ---------------------------------------------------------------- transaction checks

/** the compute exit code of the first transaction on `to` in `r` (0 when the compute phase was skipped), undefined when none */
export function exitOn(r: SendMessageResult, to: Address): number | undefined {
    const t = r.transactions.find(
        (x) => x.inMessage?.info.dest && Address.isAddress(x.inMessage.info.dest) && x.inMessage.info.dest.equals(to),
    );
    return t ? (exitCodeOf(t) ?? 0) : undefined;
}

/**
 * Whether `t` is a wallet refusing the Native Event's probe (a transfer request of
 * PROVISION_PROBE_AMOUNT, which every standard wallet refuses by design: its bounce tells the Event
 * the transfers before it were taken; contracts/bridge/tvm_tvm_event_native.tact).
 */
export function isProvisionProbe(t: BlockchainTransaction): boolean {
    const b = t.inMessage?.body.beginParse();
    if (!b || b.remainingBits < 32 + 64 + 4 || b.loadUint(32) !== Op.jetton.transfer) return false;
    b.skip(64);
    return b.loadCoins() === PROVISION_PROBE_AMOUNT;
}

/**
 * Every transaction exited 0 (and, with `notAborted`, none was aborted), but a wallet refusing the
 * Native Event's probe (isProvisionProbe). The failing one is named by its destination in the
 * assertion's diff.
 */
export function expectAllOk(txs: BlockchainTransaction[], o: { notAborted?: boolean } = {}): void {
    txs = txs.filter((t) => !isProvisionProbe(t));
    if (o.notAborted) {
        for (const t of txs)
            expect({
                to: t.inMessage?.info.dest?.toString(),
                exit: exitCodeOf(t) ?? 0,
                aborted: t.description.type === 'generic' && t.description.aborted,
            }).toEqual({ to: t.inMessage?.info.dest?.toString(), exit: 0, aborted: false });
        return;
    }
    for (const t of txs)
        expect({ to: t.inMessage?.info.dest?.toString(), exit: exitCodeOf(t) ?? 0 }).toEqual({
            to: t.inMessage?.info.dest?.toString(),
            exit: 0,
        });
}

/** the op (first 32 bits) of the transaction's in message, undefined when shorter */
export function opOf(t: BlockchainTransaction): number | undefined {
    const b = t.inMessage?.body.beginParse();
    return b && b.remainingBits >= 32 ? b.preloadUint(32) : undefined;
}

/** the transaction on `to` whose in message has `op` (throws when there is none) */
export function txOn(txs: BlockchainTransaction[], to: Address, op: number): BlockchainTransaction {
    const t = txs.find(
        (x) =>
            x.inMessage?.info.dest &&
            Address.isAddress(x.inMessage.info.dest) &&
            x.inMessage.info.dest.equals(to) &&
            opOf(x) === op,
    );
    if (!t) throw new Error(`no transaction on ${to.toString()} with op 0x${op.toString(16)}`);
    return t;
}

/** compute gas of the transaction on `to` whose in message has `op` (throws when there is none) */
export function gasOn(r: SendMessageResult, to: Address, op: number): number {
    return Number(gasOf(txOn(r.transactions, to, op)));
}
