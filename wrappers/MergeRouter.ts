import { Address, beginCell, Cell, ContractProvider, Sender, SendMode, toNano } from '@ton/core';
import {
    loadMergeRouterPool,
    loadMergeRouterUpdate,
    MergeRouter as MergeRouterBase,
    storeMergeRouterGetPool,
    storeMergeRouterInit,
    storeMergeRouterPool,
    storeMergeRouterSetManager,
    storeMergeRouterSetPool,
    storeMergeRouterTransferOwnership,
    storeMergeRouterUpdate,
} from '../build/MergeRouter/tact_MergeRouter';

export { loadMergeRouterPool, loadMergeRouterUpdate };

/**
 * MergeRouter (contracts/bridge/merge_router.tact), wrapping the Tact-generated class
 * (build/MergeRouter/tact_MergeRouter.ts). One per alien token, at the address derived from
 * (proxy, token). Layouts: contracts/bridge/merge.tlb.
 */
export class MergeRouter extends MergeRouterBase {
    /** TON attached to owner operations by default (the rest comes back). */
    static readonly OP_VALUE = toNano('0.05');

    static createFromAddress(address: Address): MergeRouter {
        return new MergeRouter(address);
    }

    /** The router of `token` under `proxy`, with its state init (owner, manager, pool: addr_none). */
    static async createFromConfig(c: { proxy: Address; token: Address }): Promise<MergeRouter> {
        const base = await MergeRouterBase.fromInit(c.proxy, c.token, null, null, null);
        return new MergeRouter(base.address, base.init);
    }

    /** The router's code, as the alien proxy must store it (merge_router_code). */
    static async code(): Promise<Cell> {
        const zero = new Address(0, Buffer.alloc(32));
        return (await MergeRouterBase.init(zero, zero, null, null, null)).code;
    }

    /** merge_router_init (proxy only). */
    static initMessage(owner: Address, manager: Address | null, queryId = 0n): Cell {
        return beginCell()
            .store(storeMergeRouterInit({ $$type: 'MergeRouterInit', queryId, owner, manager }))
            .endCell();
    }
    /** merge_router_set_pool (owner or manager); null unsets. */
    static setPoolMessage(pool: Address | null, queryId = 0n): Cell {
        return beginCell()
            .store(storeMergeRouterSetPool({ $$type: 'MergeRouterSetPool', queryId, pool }))
            .endCell();
    }
    static setManagerMessage(manager: Address | null, queryId = 0n): Cell {
        return beginCell()
            .store(storeMergeRouterSetManager({ $$type: 'MergeRouterSetManager', queryId, manager }))
            .endCell();
    }
    static transferOwnershipMessage(newOwner: Address, queryId = 0n): Cell {
        return beginCell()
            .store(storeMergeRouterTransferOwnership({ $$type: 'MergeRouterTransferOwnership', queryId, newOwner }))
            .endCell();
    }
    /** merge_router_get_pool (anyone): answered with merge_router_pool. */
    static getPoolMessage(queryId = 0n): Cell {
        return beginCell()
            .store(storeMergeRouterGetPool({ $$type: 'MergeRouterGetPool', queryId }))
            .endCell();
    }

    /** merge_router_update (router -> its proxy), for tests that play a router. */
    static updateMessage(token: Address, pool: Address | null, remainingGasTo: Address, queryId = 0n): Cell {
        return beginCell()
            .store(storeMergeRouterUpdate({ $$type: 'MergeRouterUpdate', queryId, token, pool, remainingGasTo }))
            .endCell();
    }
    /** merge_router_pool (router -> asker), for tests that play a router. */
    static poolMessage(token: Address, pool: Address | null, queryId = 0n): Cell {
        return beginCell()
            .store(storeMergeRouterPool({ $$type: 'MergeRouterPool', queryId, token, pool }))
            .endCell();
    }

    async sendDeploy(provider: ContractProvider, via: Sender, value = toNano('0.02')) {
        await provider.internal(via, { value, sendMode: SendMode.PAY_GAS_SEPARATELY, body: Cell.EMPTY });
    }

    async sendBody(provider: ContractProvider, via: Sender, body: Cell, value = MergeRouter.OP_VALUE) {
        await provider.internal(via, { value, sendMode: SendMode.PAY_GAS_SEPARATELY, body });
    }
}
