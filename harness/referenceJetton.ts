/**
 * The reference TEP-74 jetton (ton-blockchain/token-contract: ft/jetton-minter.fc, a plain minter
 * without TEP-89 discovery, and ft/jetton-wallet.fc) as compiled code, taken from the npm package
 * `tonweb` (a dependency: its JettonMinter / JettonWallet classes carry the code). Most jettons on
 * TON derive from it; the bridge must move such tokens as well as its own (contracts/jetton).
 *
 * What the reference wallet asks (its source): a transfer is refused (709) unless value >
 * forward_ton_amount + fwd_count * fwd_fee + 0.04 TON (2 * gas_consumption 0.015 + 0.01 storage);
 * an internal_transfer it cannot take bounces to the sending wallet, which adds the amount back.
 *
 * Layouts (the reference code's):
 *   minter storage: total_supply:Coins admin:MsgAddress content:^Cell wallet_code:^Cell
 *   wallet storage: balance:Coins owner:MsgAddress master:MsgAddress wallet_code:^Cell
 *   mint#00000015 query_id:uint64 to:MsgAddress ton_amount:Coins master_msg:^InternalTransfer (admin only)
 */
import { Address, beginCell, Cell, contractAddress, StateInit, toNano } from '@ton/core';
import { Blockchain, SandboxContract, TreasuryContract } from '@ton/sandbox';
import { JettonWallet } from '../wrappers/JettonWallet';

// tonweb is CommonJS without types
const TonWeb = require('tonweb');

interface ReferenceCodes {
    minter: Cell;
    wallet: Cell;
}

let codes: Promise<ReferenceCodes> | undefined;

/** The reference minter's and wallet's code cells, as tonweb ships them. */
export function referenceJettonCodes(): Promise<ReferenceCodes> {
    codes ??= (async () => {
        const provider = new TonWeb.HttpProvider();
        const zero = new TonWeb.utils.Address('0:' + '0'.repeat(64));
        const w = new TonWeb.token.jetton.JettonWallet(provider, {});
        const m = new TonWeb.token.jetton.JettonMinter(provider, {
            adminAddress: zero,
            jettonContentUri: '',
            jettonWalletCodeHex: '',
        });
        const toCell = async (c: { toBoc: (idx: boolean) => Promise<Uint8Array> }) =>
            Cell.fromBoc(Buffer.from(await c.toBoc(false)))[0];
        return { minter: await toCell(m.options.code), wallet: await toCell(w.options.code) };
    })();
    return codes;
}

/** TEP-64 off-chain content (0x01 + URI), as the reference minter stores it. */
function offchainContent(uri: string): Cell {
    return beginCell().storeUint(1, 8).storeStringTail(uri).endCell();
}

/** A reference jetton deployed in a sandbox: its minter, and the reference wallets of its holders. */
export class ReferenceJetton {
    private constructor(
        readonly blockchain: Blockchain,
        readonly minter: Address,
        readonly admin: SandboxContract<TreasuryContract>,
        readonly walletCode: Cell,
    ) {}

    /** Deploys a reference minter with `admin`. */
    static async deploy(
        blockchain: Blockchain,
        admin: SandboxContract<TreasuryContract>,
        uri = 'https://example.org/jetton.json',
    ): Promise<ReferenceJetton> {
        const c = await referenceJettonCodes();
        const data = beginCell()
            .storeCoins(0)
            .storeAddress(admin.address)
            .storeRef(offchainContent(uri))
            .storeRef(c.wallet)
            .endCell();
        const init: StateInit = { code: c.minter, data };
        const minter = contractAddress(0, init);
        const r = await admin.send({ to: minter, value: toNano('0.1'), init, body: Cell.EMPTY });
        const tx = r.transactions.find((t) => t.inMessage?.info.dest?.toString() === minter.toString());
        if (!tx || tx.description.type !== 'generic' || tx.description.aborted)
            throw new Error('reference minter: deploy failed');
        return new ReferenceJetton(blockchain, minter, admin, c.wallet);
    }

    /** The reference wallet address of `owner` (its state init: balance 0, owner, master, code). */
    walletAddress(owner: Address): Address {
        const data = beginCell()
            .storeCoins(0)
            .storeAddress(owner)
            .storeAddress(this.minter)
            .storeRef(this.walletCode)
            .endCell();
        return contractAddress(0, { code: this.walletCode, data });
    }

    /** The wallet of `owner`, opened with the project's wrapper (the TEP-74 messages and getters are the same). */
    wallet(owner: Address): SandboxContract<JettonWallet> {
        return this.blockchain.openContract(JettonWallet.createFromAddress(this.walletAddress(owner)));
    }

    /** Jetton balance of `owner` (0 when its wallet is not deployed). */
    async balanceOf(owner: Address): Promise<bigint> {
        const a = this.walletAddress(owner);
        const acc = await this.blockchain.getContract(a);
        if (acc.accountState?.type !== 'active') return 0n;
        return this.wallet(owner).getJettonBalance();
    }

    /** total_supply of get_jetton_data */
    async totalSupply(): Promise<bigint> {
        return (await this.blockchain.runGetMethod(this.minter, 'get_jetton_data')).stackReader.readBigNumber();
    }

    /** The admin mints `amount` to `to` (op 21, the wallet gets `ton` with the internal_transfer). */
    async mint(to: Address, amount: bigint, ton = toNano('0.05')) {
        const master = beginCell()
            .storeUint(0x178d4519, 32)
            .storeUint(0, 64)
            .storeCoins(amount)
            .storeAddress(null)
            .storeAddress(null)
            .storeCoins(0)
            .storeBit(false)
            .endCell();
        const body = beginCell().storeUint(21, 32).storeUint(0, 64).storeAddress(to).storeCoins(ton).storeRef(master);
        return this.admin.send({ to: this.minter, value: ton + toNano('0.05'), body: body.endCell() });
    }
}
