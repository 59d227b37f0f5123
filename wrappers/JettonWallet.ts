import { Address, beginCell, Builder, Cell, ContractProvider, Sender, SendMode, Slice, toNano } from '@ton/core';
import {
    JettonWallet as JettonWalletBase,
    loadAcceptTokensBurn,
    loadJettonBurnNotification,
    loadJettonExcesses,
    loadJettonNotification,
    loadJettonTransferInternal,
    storeJettonBurn,
    storeJettonNotification,
    storeJettonTransfer,
} from '../build/JettonWallet/tact_JettonWallet';

export {
    loadAcceptTokensBurn,
    loadJettonBurnNotification,
    loadJettonExcesses,
    loadJettonNotification,
    loadJettonTransferInternal,
};

/**
 * TEP-74 jetton wallet (contracts/jetton/jetton_wallet.tact), wrapping the Tact-generated class
 * (build/JettonWallet/tact_JettonWallet.ts) with documented senders, getters and message builders.
 * Layouts: contracts/jetton/jetton.tlb.
 */
export interface TransferArgs {
    /** receiver's owner address (not its wallet) */
    to: Address;
    amount: bigint;
    /** where the leftover TON goes (excesses); null: kept by the receiving wallet */
    responseDestination?: Address | null;
    customPayload?: Cell | null;
    /** TON passed to the receiver's owner with transfer_notification; 0: no notification */
    forwardTonAmount?: bigint;
    /** forward payload; stored as a reference unless forwardPayloadInline */
    forwardPayload?: Cell | null;
    /** store forwardPayload inline (Either's left side); it must then fit in the message's root cell */
    forwardPayloadInline?: boolean;
    queryId?: bigint;
}

export interface BurnArgs {
    amount: bigint;
    /** excesses go there (plain burn), or it is passed to the minter's owner as remaining_gas_to */
    responseDestination?: Address | null;
    /** with a custom payload, the minter notifies its owner (accept_tokens_burn) instead of sending excesses */
    customPayload?: Cell | null;
    queryId?: bigint;
}

export class JettonWallet extends JettonWalletBase {
    /** TON attached to a transfer by default, on top of forwardTonAmount (enough for a first transfer that deploys the receiver's wallet). */
    static readonly TRANSFER_VALUE = toNano('0.05');
    /** TON attached to a burn by default. */
    static readonly BURN_VALUE = toNano('0.05');

    static createFromAddress(address: Address): JettonWallet {
        return new JettonWallet(address);
    }

    /** The wallet of `owner` under `minter`, with its state init (balance 0). */
    static async createFromOwner(owner: Address, minter: Address): Promise<JettonWallet> {
        const base = await JettonWalletBase.fromInit(0n, owner, minter);
        return new JettonWallet(base.address, base.init);
    }

    /** The wallet's code, as a minter stores it (wallet_code). */
    static async code(): Promise<Cell> {
        return (await JettonWalletBase.init(0n, new Address(0, Buffer.alloc(32)), new Address(0, Buffer.alloc(32))))
            .code;
    }

    /** forward_payload:(Either Cell ^Cell): a 0 bit and the payload inline, or a 1 bit and a reference. */
    static forwardPayload(payload?: Cell | null, inline = false): Slice {
        if (!payload) return beginCell().storeBit(false).endCell().beginParse();
        if (inline) return beginCell().storeBit(false).storeSlice(payload.beginParse()).endCell().beginParse();
        return beginCell().storeBit(true).storeRef(payload).endCell().beginParse();
    }

    /** transfer#0f8a7ea5 body. */
    static transferMessage(args: TransferArgs): Cell {
        return beginCell()
            .store(
                storeJettonTransfer({
                    $$type: 'JettonTransfer',
                    queryId: args.queryId ?? 0n,
                    amount: args.amount,
                    destination: args.to,
                    responseDestination: args.responseDestination ?? null,
                    customPayload: args.customPayload ?? null,
                    forwardTonAmount: args.forwardTonAmount ?? 0n,
                    forwardPayload: JettonWallet.forwardPayload(args.forwardPayload, args.forwardPayloadInline),
                }),
            )
            .endCell();
    }

    /**
     * transfer_notification#7362d09c body: what a wallet sends its owner on receiving tokens (any
     * contract can send it): query_id amount from_user forward_payload:(Either Cell ^Cell).
     */
    static notificationMessage(args: {
        queryId?: bigint;
        amount: bigint;
        from: Address;
        forwardPayload?: Cell | null;
    }): Cell {
        return beginCell()
            .store(
                storeJettonNotification({
                    $$type: 'JettonNotification',
                    queryId: args.queryId ?? 0n,
                    amount: args.amount,
                    sender: args.from,
                    forwardPayload: JettonWallet.forwardPayload(args.forwardPayload),
                }),
            )
            .endCell();
    }

    /** burn#595f07bc body. */
    static burnMessage(args: BurnArgs): Cell {
        return beginCell()
            .store(
                storeJettonBurn({
                    $$type: 'JettonBurn',
                    queryId: args.queryId ?? 0n,
                    amount: args.amount,
                    responseDestination: args.responseDestination ?? null,
                    customPayload: args.customPayload ?? null,
                }),
            )
            .endCell();
    }

    /** Transfer `amount` to `to`'s wallet; value defaults to TRANSFER_VALUE + forwardTonAmount. */
    async sendTransfer(provider: ContractProvider, via: Sender, args: TransferArgs & { value?: bigint }) {
        await provider.internal(via, {
            value: args.value ?? JettonWallet.TRANSFER_VALUE + (args.forwardTonAmount ?? 0n),
            sendMode: SendMode.PAY_GAS_SEPARATELY,
            body: JettonWallet.transferMessage(args),
        });
    }

    /** Burn `amount`; value defaults to BURN_VALUE. */
    async sendBurn(provider: ContractProvider, via: Sender, args: BurnArgs & { value?: bigint }) {
        await provider.internal(via, {
            value: args.value ?? JettonWallet.BURN_VALUE,
            sendMode: SendMode.PAY_GAS_SEPARATELY,
            body: JettonWallet.burnMessage(args),
        });
    }

    /** get_wallet_data: balance, owner, minter, code. */
    async getWalletData(provider: ContractProvider) {
        const d = await this.getGetWalletData(provider);
        return { balance: d.balance, owner: d.owner, minter: d.minter, code: d.code };
    }

    /** The balance, 0 when the wallet is not deployed. */
    async getJettonBalance(provider: ContractProvider): Promise<bigint> {
        const state = await provider.getState();
        if (state.state.type !== 'active') return 0n;
        return (await this.getGetWalletData(provider)).balance;
    }
}

/** Stores a builder-writer, for callers composing bodies by hand. */
export function storeForwardPayload(payload?: Cell | null, inline = false): (b: Builder) => void {
    return (b) => b.storeSlice(JettonWallet.forwardPayload(payload, inline));
}
