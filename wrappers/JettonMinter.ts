import { createHash } from 'crypto';
import { Address, beginCell, Cell, ContractProvider, Dictionary, Sender, SendMode, toNano } from '@ton/core';
import {
    JettonMinter as JettonMinterBase,
    loadTakeWalletAddress,
    storeChangeContent,
    storeChangeOwner,
    storeMint,
    storeProvideWalletAddress,
} from '../build/JettonMinter/tact_JettonMinter';
import { JettonWallet } from './JettonWallet';

export { loadTakeWalletAddress };

/**
 * TEP-74 jetton minter (contracts/jetton/jetton_minter.tact), wrapping the Tact-generated class
 * (build/JettonMinter/tact_JettonMinter.ts) with documented senders, getters and message builders.
 * Layouts: contracts/jetton/jetton.tlb. Content: TEP-64 on-chain metadata (buildOnchainMetadata).
 */
export interface JettonMinterConfig {
    owner: Address;
    /** TEP-64 content cell, or the metadata to encode on-chain */
    content: Cell | JettonMetadata;
    totalSupply?: bigint;
    /** defaults to the compiled JettonWallet's code */
    walletCode?: Cell;
}

export interface MintArgs {
    /** receiver's owner address (its wallet is deployed if needed) */
    to: Address;
    amount: bigint;
    /** leftover TON (excesses) goes there */
    responseDestination?: Address | null;
    /** TON passed to the receiver with transfer_notification; 0: no notification */
    forwardTonAmount?: bigint;
    /** forward payload; stored as a reference unless forwardPayloadInline */
    forwardPayload?: Cell | null;
    forwardPayloadInline?: boolean;
    queryId?: bigint;
}

export class JettonMinter extends JettonMinterBase {
    /** TON attached to a mint by default, on top of forwardTonAmount. */
    static readonly MINT_VALUE = toNano('0.05');

    static createFromAddress(address: Address): JettonMinter {
        return new JettonMinter(address);
    }

    /** The minter for `config`, with its state init. */
    static async createFromConfig(config: JettonMinterConfig): Promise<JettonMinter> {
        const content = config.content instanceof Cell ? config.content : buildOnchainMetadata(config.content);
        const walletCode = config.walletCode ?? (await JettonWallet.code());
        const base = await JettonMinterBase.fromInit(config.totalSupply ?? 0n, config.owner, content, walletCode);
        return new JettonMinter(base.address, base.init);
    }

    /** mint body (owner only). */
    static mintMessage(args: MintArgs): Cell {
        return beginCell()
            .store(
                storeMint({
                    $$type: 'Mint',
                    queryId: args.queryId ?? 0n,
                    receiver: args.to,
                    amount: args.amount,
                    responseDestination: args.responseDestination ?? null,
                    forwardTonAmount: args.forwardTonAmount ?? 0n,
                    forwardPayload: JettonWallet.forwardPayload(args.forwardPayload, args.forwardPayloadInline),
                }),
            )
            .endCell();
    }

    /** provide_wallet_address body (TEP-89). */
    static provideWalletAddressMessage(owner: Address, includeAddress: boolean, queryId = 0n): Cell {
        return beginCell()
            .store(
                storeProvideWalletAddress({
                    $$type: 'ProvideWalletAddress',
                    queryId,
                    ownerAddress: owner,
                    includeAddress,
                }),
            )
            .endCell();
    }

    static changeOwnerMessage(newOwner: Address, queryId = 0n): Cell {
        return beginCell()
            .store(storeChangeOwner({ $$type: 'ChangeOwner', queryId, newOwner }))
            .endCell();
    }

    static changeContentMessage(content: Cell, queryId = 0n): Cell {
        return beginCell()
            .store(storeChangeContent({ $$type: 'ChangeContent', queryId, content }))
            .endCell();
    }

    /** Deploy (empty body; the first mint deploys it too). */
    async sendDeploy(provider: ContractProvider, via: Sender, value: bigint = toNano('0.05')) {
        await provider.internal(via, { value, sendMode: SendMode.PAY_GAS_SEPARATELY, body: Cell.EMPTY });
    }

    /** Mint (owner only); value defaults to MINT_VALUE + forwardTonAmount. */
    async sendMint(provider: ContractProvider, via: Sender, args: MintArgs & { value?: bigint }) {
        await provider.internal(via, {
            value: args.value ?? JettonMinter.MINT_VALUE + (args.forwardTonAmount ?? 0n),
            sendMode: SendMode.PAY_GAS_SEPARATELY,
            body: JettonMinter.mintMessage(args),
        });
    }

    /** TEP-89: ask for the wallet address of `owner`; the answer is take_wallet_address to the sender. */
    async sendProvideWalletAddress(
        provider: ContractProvider,
        via: Sender,
        owner: Address,
        includeAddress: boolean,
        value: bigint = toNano('0.02'),
    ) {
        await provider.internal(via, {
            value,
            sendMode: SendMode.PAY_GAS_SEPARATELY,
            body: JettonMinter.provideWalletAddressMessage(owner, includeAddress),
        });
    }

    async sendChangeOwner(provider: ContractProvider, via: Sender, newOwner: Address, value: bigint = toNano('0.02')) {
        await provider.internal(via, {
            value,
            sendMode: SendMode.PAY_GAS_SEPARATELY,
            body: JettonMinter.changeOwnerMessage(newOwner),
        });
    }

    async sendChangeContent(provider: ContractProvider, via: Sender, content: Cell, value: bigint = toNano('0.02')) {
        await provider.internal(via, {
            value,
            sendMode: SendMode.PAY_GAS_SEPARATELY,
            body: JettonMinter.changeContentMessage(content),
        });
    }

    /** get_wallet_address(owner). */
    async getWalletAddress(provider: ContractProvider, owner: Address): Promise<Address> {
        return this.getGetWalletAddress(provider, owner);
    }

    /** get_jetton_data: total supply, mintable, admin (owner), content, wallet code. */
    async getJettonData(provider: ContractProvider) {
        const d = await this.getGetJettonData(provider);
        return {
            totalSupply: d.totalSupply,
            mintable: d.mintable,
            admin: d.adminAddress,
            content: d.jettonContent,
            walletCode: d.jettonWalletCode,
        };
    }

    async getTotalSupply(provider: ContractProvider): Promise<bigint> {
        return (await this.getGetJettonData(provider)).totalSupply;
    }

    async getOwner(provider: ContractProvider): Promise<Address> {
        return (await this.getGetJettonData(provider)).adminAddress;
    }

    async getMetadata(provider: ContractProvider): Promise<Record<string, string>> {
        return parseOnchainMetadata((await this.getGetJettonData(provider)).jettonContent);
    }
}

/** TEP-64 metadata; on-chain values are strings (decimals too: "9"). */
export interface JettonMetadata {
    name: string;
    symbol: string;
    decimals: number | string;
    description?: string;
    image?: string;
    /** any other key (e.g. the alien token's origin chain and address) */
    [key: string]: string | number | undefined;
}

/** sha256 of a TEP-64 key, the on-chain dictionary's key. */
export function metadataKey(key: string): bigint {
    return BigInt('0x' + createHash('sha256').update(key).digest('hex'));
}

/** TEP-64 on-chain content: onchain#00 data:(HashmapE 256 ^ContentData), each value snake#00 data:SnakeData. */
export function buildOnchainMetadata(meta: JettonMetadata): Cell {
    const dict = Dictionary.empty(Dictionary.Keys.BigUint(256), Dictionary.Values.Cell());
    for (const [key, value] of Object.entries(meta)) {
        if (value === undefined) continue;
        dict.set(metadataKey(key), beginCell().storeUint(0, 8).storeStringTail(String(value)).endCell());
    }
    return beginCell().storeUint(0, 8).storeDict(dict).endCell();
}

/** Reads TEP-64 on-chain content (snake values) for the given keys (default: the common ones). */
export function parseOnchainMetadata(
    content: Cell,
    keys: string[] = ['name', 'symbol', 'decimals', 'description', 'image', 'image_data', 'uri'],
): Record<string, string> {
    const s = content.beginParse();
    const prefix = s.loadUint(8);
    if (prefix !== 0) throw new Error(`not on-chain TEP-64 content (prefix ${prefix})`);
    const dict = s.loadDict(Dictionary.Keys.BigUint(256), Dictionary.Values.Cell());
    const out: Record<string, string> = {};
    for (const key of keys) {
        const value = dict.get(metadataKey(key));
        if (!value) continue;
        const vs = value.beginParse();
        const tag = vs.loadUint(8);
        if (tag !== 0) throw new Error(`metadata ${key}: only snake values are supported (tag ${tag})`);
        out[key] = vs.loadStringTail();
    }
    return out;
}
