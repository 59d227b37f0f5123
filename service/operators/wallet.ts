/**
 * An operator's wallet on a TVM network, over its toncenter v2 endpoint (TonClient): a v4 wallet
 * from a mnemonic and a subwallet id (several services can share one mnemonic, each with its own
 * subwallet and so its own seqno). Sending is split so that a caller can make it exactly-once:
 * `sign` builds the external message for a given seqno (valid until a given time), the caller
 * records it, `submit` sends it (again after a restart: a wallet accepts one message per seqno, so
 * a resent message lands at most once), `seqno` tells whether it landed.
 */
import { Address, beginCell, Cell, external, internal, SendMode, storeMessage } from '@ton/core';
import { KeyPair, mnemonicToPrivateKey } from '@ton/crypto';
import { TonClient, WalletContractV4 } from '@ton/ton';

export interface OutMessage {
    to: Address;
    value: bigint;
    body?: Cell;
    bounce?: boolean;
}

export interface SignedExternal {
    seqno: number;
    /** unix seconds after which the wallet refuses it */
    validUntil: number;
    /** the external message, BOC */
    boc: Buffer;
}

/** v4's default wallet_id; a subwallet adds to it */
export const V4_WALLET_ID = 698983191;

export class OperatorWallet {
    readonly address: Address;
    private constructor(
        readonly client: TonClient,
        readonly wallet: WalletContractV4,
        private readonly keys: KeyPair,
    ) {
        this.address = wallet.address;
    }

    static async fromMnemonic(client: TonClient, words: string[], subwallet = 0): Promise<OperatorWallet> {
        const keys = await mnemonicToPrivateKey(words);
        const wallet = WalletContractV4.create({
            workchain: 0,
            publicKey: keys.publicKey,
            walletId: V4_WALLET_ID + subwallet,
        });
        return new OperatorWallet(client, wallet, keys);
    }

    /** the wallet's address for a mnemonic and subwallet (to fund it before the service starts) */
    static async addressOf(words: string[], subwallet = 0): Promise<Address> {
        const keys = await mnemonicToPrivateKey(words);
        return WalletContractV4.create({ workchain: 0, publicKey: keys.publicKey, walletId: V4_WALLET_ID + subwallet })
            .address;
    }

    async seqno(): Promise<number> {
        const state = await this.client.getContractState(this.address);
        if (state.state !== 'active') return 0;
        return this.client.open(this.wallet).getSeqno();
    }

    async balance(): Promise<bigint> {
        return this.client.getBalance(this.address);
    }

    /** The external message carrying `messages` at `seqno`, valid for `ttlSeconds`. */
    sign(seqno: number, messages: OutMessage[], ttlSeconds = 60, now = Math.floor(Date.now() / 1000)): SignedExternal {
        const validUntil = now + ttlSeconds;
        const body = this.wallet.createTransfer({
            seqno,
            secretKey: this.keys.secretKey,
            sendMode: SendMode.PAY_GAS_SEPARATELY | SendMode.IGNORE_ERRORS,
            timeout: validUntil,
            messages: messages.map((m) =>
                internal({ to: m.to, value: m.value, body: m.body, bounce: m.bounce ?? true }),
            ),
        });
        const ext = external({ to: this.address, init: seqno === 0 ? this.wallet.init : undefined, body });
        return { seqno, validUntil, boc: beginCell().store(storeMessage(ext)).endCell().toBoc() };
    }

    async submit(s: SignedExternal): Promise<void> {
        await this.client.sendFile(s.boc);
    }

    /** Waits until the wallet's seqno passes `seqno` (the message at it was accepted); false on timeout. */
    async waitPast(seqno: number, timeoutMs = 60_000, pollMs = 500): Promise<boolean> {
        const until = Date.now() + timeoutMs;
        while (Date.now() < until) {
            if ((await this.seqno()) > seqno) return true;
            await new Promise((r) => setTimeout(r, pollMs));
        }
        return false;
    }

    /** sign + submit + waitPast at the current seqno (for services whose sends are idempotent on chain). */
    async send(messages: OutMessage[], timeoutMs = 60_000): Promise<number> {
        const s = this.sign(await this.seqno(), messages);
        await this.submit(s);
        if (!(await this.waitPast(s.seqno, timeoutMs)))
            throw new Error(
                `wallet ${this.address.toRawString()}: seqno ${s.seqno} not accepted within ${timeoutMs} ms`,
            );
        return s.seqno;
    }
}
