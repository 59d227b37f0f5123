/**
 * A jetton whose wallets have USDT-style statuses (contracts/test/status_jetton_wallet.fc, test
 * only): its master can lock a wallet for sending (status bit 1), for receiving (bit 2), or both,
 * and a locked wallet refuses with 45, as the stablecoin's wallets do when their admin freezes
 * them. The master is either a plain account (the admin, `create`): it mints by sending
 * internal_transfer to a wallet and sets statuses with set_status; like the reference jetton's, it
 * is a plain minter (no TEP-89 discovery), so the native proxy is registered with its wallet given;
 * or a master contract the admin drives (`deployWithMinter`, contracts/test/status_jetton_minter.fc),
 * which answers TEP-89 as the stablecoin's minter does.
 *
 *   wallet storage: status:uint4 balance:Coins owner:MsgAddressInt master:MsgAddressInt
 *   set_status#eed236d3 query_id:uint64 status:uint4 (master only)
 */
import { Address, beginCell, Cell, contractAddress, StateInit, toNano } from '@ton/core';
import { Blockchain, SandboxContract, TreasuryContract } from '@ton/sandbox';
import { storeJettonTransferInternal } from '../build/JettonWallet/tact_JettonWallet';
import { JettonWallet } from '../wrappers/JettonWallet';
import { compiledCode } from '../wrappers/compiled';

export const WALLET_STATUS = {
    /** no outgoing transfer */
    sendLocked: 1,
    /** no incoming transfer (except a mint) */
    receiveLocked: 2,
} as const;

export class StatusJetton {
    /** what the master minted (it keeps no supply of its own) */
    minted = 0n;

    private constructor(
        readonly blockchain: Blockchain,
        readonly admin: SandboxContract<TreasuryContract>,
        readonly walletCode: Cell,
        /** the master contract (contracts/test/status_jetton_minter.fc: TEP-89), or none: the admin is the master */
        readonly root?: Address,
    ) {}

    /** The wallets under a plain account as master (the admin itself: no TEP-89 discovery). */
    static create(blockchain: Blockchain, admin: SandboxContract<TreasuryContract>): StatusJetton {
        return new StatusJetton(blockchain, admin, compiledCode('TestStatusJettonWallet'));
    }

    /**
     * The wallets under a master contract the admin drives (contracts/test/status_jetton_minter.fc:
     * mint, set_status through it; TEP-89 provide_wallet_address answered), as the stablecoin's.
     */
    static async deployWithMinter(
        blockchain: Blockchain,
        admin: SandboxContract<TreasuryContract>,
    ): Promise<StatusJetton> {
        const walletCode = compiledCode('TestStatusJettonWallet');
        const code = compiledCode('TestStatusJettonMinter');
        const data = beginCell().storeCoins(0).storeAddress(admin.address).storeRef(walletCode).endCell();
        const root = contractAddress(0, { code, data });
        await admin.send({ to: root, value: toNano('0.1'), init: { code, data } });
        return new StatusJetton(blockchain, admin, walletCode, root);
    }

    /** the token's root as the bridge knows it: the master */
    get minter(): Address {
        return this.root ?? this.admin.address;
    }

    private init(owner: Address): StateInit {
        const data = beginCell().storeUint(0, 4).storeCoins(0).storeAddress(owner).storeAddress(this.minter).endCell();
        return { code: this.walletCode, data };
    }

    walletAddress(owner: Address): Address {
        return contractAddress(0, this.init(owner));
    }

    /** The wallet of `owner`, opened with the project's wrapper (TEP-74 messages and getters). */
    wallet(owner: Address): SandboxContract<JettonWallet> {
        return this.blockchain.openContract(JettonWallet.createFromAddress(this.walletAddress(owner)));
    }

    async balanceOf(owner: Address): Promise<bigint> {
        const acc = await this.blockchain.getContract(this.walletAddress(owner));
        if (acc.accountState?.type !== 'active') return 0n;
        return this.wallet(owner).getJettonBalance();
    }

    /** The status of `owner`'s wallet (0 while it is not deployed). */
    async statusOf(owner: Address): Promise<number> {
        const acc = await this.blockchain.getContract(this.walletAddress(owner));
        if (acc.accountState?.type !== 'active') return 0;
        return Number(
            (await this.blockchain.runGetMethod(this.walletAddress(owner), 'get_status')).stackReader.readBigNumber(),
        );
    }

    /**
     * The master mints `amount` to `to` (internal_transfer with the wallet's state init); with
     * forward TON the wallet notifies its owner (transfer_notification with `forwardPayload`, by
     * reference), the rest of the value to `response`.
     */
    async mint(
        to: Address,
        amount: bigint,
        o: { forwardTonAmount?: bigint; forwardPayload?: Cell | null; response?: Address | null } = {},
    ) {
        const forwardTonAmount = o.forwardTonAmount ?? 0n;
        const body = beginCell()
            .store(
                storeJettonTransferInternal({
                    $$type: 'JettonTransferInternal',
                    queryId: 0n,
                    amount,
                    from: this.minter,
                    responseDestination: o.response ?? null,
                    forwardTonAmount,
                    forwardPayload: JettonWallet.forwardPayload(o.forwardPayload ?? null),
                }),
            )
            .endCell();
        const r = this.root
            ? await this.admin.send({
                  to: this.root,
                  value: toNano('0.1') + forwardTonAmount,
                  body: beginCell()
                      .storeUint(0x642b7d07, 32)
                      .storeUint(0, 64)
                      .storeAddress(to)
                      .storeCoins(toNano('0.05') + forwardTonAmount)
                      .storeRef(body)
                      .endCell(),
              })
            : await this.admin.send({
                  to: this.walletAddress(to),
                  value: toNano('0.05') + forwardTonAmount,
                  init: this.init(to),
                  body,
              });
        this.minted += amount;
        return r;
    }

    /** The master sets the status of `owner`'s wallet (0: free; WALLET_STATUS bits). */
    setStatus(owner: Address, status: number) {
        if (this.root)
            return this.admin.send({
                to: this.root,
                value: toNano('0.05'),
                body: beginCell()
                    .storeUint(0xeed236d3, 32)
                    .storeUint(0, 64)
                    .storeAddress(owner)
                    .storeUint(status, 4)
                    .endCell(),
            });
        return this.admin.send({
            to: this.walletAddress(owner),
            value: toNano('0.05'),
            init: this.init(owner),
            body: beginCell().storeUint(0xeed236d3, 32).storeUint(0, 64).storeUint(status, 4).endCell(),
        });
    }
}
