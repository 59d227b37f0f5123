import { Address, beginCell, Cell, ContractProvider, Dictionary, Sender, SendMode, Slice, toNano } from '@ton/core';
import {
    dictValueParserPoolToken,
    loadMergeMint,
    loadMergePoolDelivered,
    MergePool as MergePoolBase,
    storeMergeMint,
    storeMergeMintRefused,
    storeMergePoolClaimRefund,
    storeMergePoolDeliver,
    storeMergePoolDelivered,
    storeMergePoolRemoveToken,
    storeMergePoolSetCanonical,
    storeMergePoolSetEnabled,
    storeMergePoolSetManager,
    storeMergePoolSetToken,
    storeMergePoolSwap,
    storeMergePoolTransferOwnership,
    storeTvmEventMerge,
} from '../build/MergePool/tact_MergePool';
import type { PoolToken } from '../build/MergePool/tact_MergePool';
import { OpMerge } from './constants';

export { loadMergeMint, loadMergePoolDelivered };
export type { PoolToken };

/**
 * MergePool (contracts/bridge/merge_pool.tact), wrapping the Tact-generated class
 * (build/MergePool/tact_MergePool.ts). Layouts and the alien proxy's part: contracts/bridge/merge.tlb.
 */
export interface MergePoolConfig {
    /** the alien proxy whose tokens the pool merges */
    proxy: Address;
    owner: Address;
    /** distinguishes pools of one owner */
    id?: bigint;
    manager?: Address | null;
    /** the pool tokens' wallet code (the alien proxy's wallet_code) */
    walletCode: Cell;
}

export class MergePool extends MergePoolBase {
    static readonly OP_VALUE = toNano('0.05');

    static createFromAddress(address: Address): MergePool {
        return new MergePool(address);
    }

    static async createFromConfig(c: MergePoolConfig): Promise<MergePool> {
        const base = await MergePoolBase.fromInit(
            c.proxy,
            c.id ?? 0n,
            c.owner,
            c.manager ?? null,
            null,
            c.walletCode,
            Dictionary.empty(Dictionary.Keys.Address(), dictValueParserPoolToken()),
            Dictionary.empty(Dictionary.Keys.Address(), Dictionary.Values.Address()),
            Dictionary.empty(Dictionary.Keys.BigUint(256), Dictionary.Values.BigVarUint(4)),
        );
        return new MergePool(base.address, base.init);
    }

    // ---------------------------------------------------------------- owner / manager bodies
    static setTokenMessage(token: Address, decimals: number | bigint, enabled = true, queryId = 0n): Cell {
        return beginCell()
            .store(
                storeMergePoolSetToken({
                    $$type: 'MergePoolSetToken',
                    queryId,
                    token,
                    decimals: BigInt(decimals),
                    enabled,
                }),
            )
            .endCell();
    }
    static removeTokenMessage(token: Address, queryId = 0n): Cell {
        return beginCell()
            .store(storeMergePoolRemoveToken({ $$type: 'MergePoolRemoveToken', queryId, token }))
            .endCell();
    }
    static setEnabledMessage(token: Address, enabled: boolean, queryId = 0n): Cell {
        return beginCell()
            .store(storeMergePoolSetEnabled({ $$type: 'MergePoolSetEnabled', queryId, token, enabled }))
            .endCell();
    }
    static setCanonicalMessage(token: Address | null, queryId = 0n): Cell {
        return beginCell()
            .store(storeMergePoolSetCanonical({ $$type: 'MergePoolSetCanonical', queryId, token }))
            .endCell();
    }
    static setManagerMessage(manager: Address | null, queryId = 0n): Cell {
        return beginCell()
            .store(storeMergePoolSetManager({ $$type: 'MergePoolSetManager', queryId, manager }))
            .endCell();
    }
    static transferOwnershipMessage(newOwner: Address, queryId = 0n): Cell {
        return beginCell()
            .store(storeMergePoolTransferOwnership({ $$type: 'MergePoolTransferOwnership', queryId, newOwner }))
            .endCell();
    }
    static claimRefundMessage(token: Address, queryId = 0n): Cell {
        return beginCell()
            .store(storeMergePoolClaimRefund({ $$type: 'MergePoolClaimRefund', queryId, token }))
            .endCell();
    }

    // ---------------------------------------------------------------- payloads
    /** merge_pool_swap: forward payload of a transfer to the pool (recipient null: the sender). */
    static swapPayload(target: Address, recipient: Address | null = null): Cell {
        return beginCell()
            .storeUint(OpMerge.poolSwap, 32)
            .store(storeMergePoolSwap({ $$type: 'MergePoolSwap', target, recipient }))
            .endCell();
    }
    /** merge_pool_deliver: forward payload of the alien proxy's mint to the pool. */
    static deliverPayload(eventAddress: Address, recipient: Address, remainingGasTo: Address): Cell {
        return beginCell()
            .storeUint(OpMerge.poolDeliver, 32)
            .store(storeMergePoolDeliver({ $$type: 'MergePoolDeliver', eventAddress, recipient, remainingGasTo }))
            .endCell();
    }
    /** merge_mint: the custom payload of the pool's burn, as the alien proxy reads it. */
    static mergeMintCell(
        token: Address,
        amount: bigint,
        recipient: Address,
        refundTo: Address,
        event: Address | null = null,
    ): Cell {
        return beginCell()
            .store(storeMergeMint({ $$type: 'MergeMint', token, amount, recipient, refundTo, event }))
            .endCell();
    }
    /** Reads merge_mint (op included); null when it is not one. */
    static parseMergeMint(
        c: Cell,
    ): { token: Address; amount: bigint; recipient: Address; refundTo: Address; event: Address | null } | null {
        const s = c.beginParse();
        if (s.remainingBits < 32 || s.preloadUint(32) !== OpMerge.mergeMint) return null;
        const m = loadMergeMint(s);
        return { token: m.token, amount: m.amount, recipient: m.recipient, refundTo: m.refundTo, event: m.event };
    }
    /** merge_mint_refused (alien proxy -> Alien Event), for tests that play the proxy. */
    static mintRefusedMessage(pool: Address, token: Address, amount: bigint, errorCode: number, queryId = 0n): Cell {
        return beginCell()
            .store(
                storeMergeMintRefused({
                    $$type: 'MergeMintRefused',
                    queryId,
                    pool,
                    token,
                    amount,
                    errorCode: BigInt(errorCode),
                }),
            )
            .endCell();
    }
    /** Reads merge_pool_refund from a forward payload (Either Cell ^Cell); null when it is not one. */
    static parseRefundPayload(p: Slice | Cell): { queryId: bigint; errorCode: number } | null {
        let s = p instanceof Cell ? p.beginParse() : p.clone();
        if (s.remainingBits < 1) return null;
        if (s.loadBit()) s = s.loadRef().beginParse();
        if (s.remainingBits < 32 + 64 + 16 || s.loadUint(32) !== OpMerge.poolRefund) return null;
        return { queryId: s.loadUintBig(64), errorCode: s.loadUint(16) };
    }
    /** tvm_event_merge (alien proxy -> Alien Event), for the Event's tests. */
    static tvmEventMergeMessage(router: Address, pool: Address, remainingGasTo: Address, queryId = 0n): Cell {
        return beginCell()
            .store(storeTvmEventMerge({ $$type: 'TvmEventMerge', queryId, router, pool, remainingGasTo }))
            .endCell();
    }

    /** merge_pool_delivered (pool -> Event), for tests that play a pool. */
    static deliveredMessage(token: Address, amount: bigint, errorCode: number, queryId = 0n): Cell {
        return beginCell()
            .store(
                storeMergePoolDelivered({
                    $$type: 'MergePoolDelivered',
                    queryId,
                    token,
                    amount,
                    errorCode: BigInt(errorCode),
                }),
            )
            .endCell();
    }

    async sendDeploy(provider: ContractProvider, via: Sender, value = toNano('0.05')) {
        await provider.internal(via, { value, sendMode: SendMode.PAY_GAS_SEPARATELY, body: Cell.EMPTY });
    }

    async sendBody(provider: ContractProvider, via: Sender, body: Cell, value = MergePool.OP_VALUE) {
        await provider.internal(via, { value, sendMode: SendMode.PAY_GAS_SEPARATELY, body });
    }
}
