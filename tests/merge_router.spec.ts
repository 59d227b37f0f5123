import { Blockchain, SandboxContract, TreasuryContract } from '@ton/sandbox';
import { Address, beginCell, Cell, contractAddress } from '@ton/core';
import { flattenTransaction } from '@ton/test-utils';
import '@ton/test-utils';
import { loadMergeRouterPool, loadMergeRouterUpdate, MergeRouter } from '../wrappers/MergeRouter';
import { ErrorsMerge, OpMerge } from '../wrappers/constants';
import { beforeEachDeployedOnce } from './snapshot.util';

/**
 * MergeRouter (contracts/bridge/merge_router.tact; merge.tlb). What these tests hold:
 * - the address is derived from (proxy, token) and the code alone (mergeRouterStateInit, pinned);
 * - nothing can be set before the proxy names an owner (merge_router_init, proxy only: 2802);
 * - the owner sets / unsets the pool, the manager only unsets it (132 when it names one: least
 *   privilege), and every change is reported to the proxy (merge_router_update); only the owner
 *   changes the manager and the owner (132); others: 2801;
 * - anyone asks for the pool (merge_router_get_pool) and gets merge_router_pool back.
 */
describe('MergeRouter', () => {
    let blockchain: Blockchain;
    let proxy: SandboxContract<TreasuryContract>;
    let owner: SandboxContract<TreasuryContract>;
    let manager: SandboxContract<TreasuryContract>;
    let stranger: SandboxContract<TreasuryContract>;
    let token: Address;
    let pool: Address;
    let router: SandboxContract<MergeRouter>;

    // deployed once; every test starts from that state (beforeEachDeployedOnce)
    beforeEachDeployedOnce(async () => {
        blockchain = await Blockchain.create();
        proxy = await blockchain.treasury('proxy');
        owner = await blockchain.treasury('owner');
        manager = await blockchain.treasury('manager');
        stranger = await blockchain.treasury('stranger');
        token = (await blockchain.treasury('token')).address;
        pool = (await blockchain.treasury('pool')).address;
        router = blockchain.openContract(await MergeRouter.createFromConfig({ proxy: proxy.address, token }));
        const res = await router.sendDeploy(stranger.getSender());
        expect(res.transactions).toHaveTransaction({ to: router.address, deploy: true, success: true });
        return blockchain;
    });

    const init = async () => {
        const res = await router.sendBody(proxy.getSender(), MergeRouter.initMessage(owner.address, manager.address));
        expect(res.transactions).toHaveTransaction({ from: proxy.address, to: router.address, success: true });
    };

    it('should sit at the address derived from (proxy, token) and the code (mergeRouterStateInit)', async () => {
        const code = await MergeRouter.code();
        // merge_router_storage: proxy token owner:addr_none ^[ manager:addr_none pool:addr_none ]
        const data = beginCell()
            .storeAddress(proxy.address)
            .storeAddress(token)
            .storeUint(0, 2)
            .storeRef(beginCell().storeUint(0, 4).endCell())
            .endCell();
        expect(contractAddress(0, { code, data }).equals(router.address)).toBe(true);
        // the contract's own derivation (mergeRouterStateInit in merge_messages.tact)
        expect((await router.getRouterOf(token)).equals(router.address)).toBe(true);
        const other = (await blockchain.treasury('other token')).address;
        const otherRouter = await MergeRouter.createFromConfig({ proxy: proxy.address, token: other });
        expect((await router.getRouterOf(other)).equals(otherRouter.address)).toBe(true);
        expect((await router.getProxy()).equals(proxy.address)).toBe(true);
        expect((await router.getToken()).equals(token)).toBe(true);
        expect(await router.getOwner()).toBeNull();
        expect(await router.getPool()).toBeNull();
    });

    it('should take merge_router_init only from the proxy', async () => {
        let res = await router.sendBody(stranger.getSender(), MergeRouter.initMessage(stranger.address, null));
        expect(res.transactions).toHaveTransaction({
            to: router.address,
            success: false,
            exitCode: ErrorsMerge.senderNotProxy,
        });
        // nothing can be set (132) or unset (2801) before
        res = await router.sendBody(stranger.getSender(), MergeRouter.setPoolMessage(pool));
        expect(res.transactions).toHaveTransaction({
            to: router.address,
            success: false,
            exitCode: ErrorsMerge.notOwner,
        });
        res = await router.sendBody(stranger.getSender(), MergeRouter.setPoolMessage(null));
        expect(res.transactions).toHaveTransaction({
            to: router.address,
            success: false,
            exitCode: ErrorsMerge.notOwnerOrManager,
        });
        await init();
        expect((await router.getOwner())!.equals(owner.address)).toBe(true);
        expect((await router.getManager())!.equals(manager.address)).toBe(true);
        // the proxy can take it back at any time
        res = await router.sendBody(proxy.getSender(), MergeRouter.initMessage(proxy.address, null));
        expect(res.transactions).toHaveTransaction({ to: router.address, success: true });
        expect((await router.getOwner())!.equals(proxy.address)).toBe(true);
        expect(await router.getManager()).toBeNull();
    });

    it('should let the owner set and unset the pool and the manager unset it, reporting each change to the proxy', async () => {
        await init();
        for (const [who, value] of [
            [owner, pool],
            [manager, null],
            [owner, pool],
            [owner, null],
            [owner, pool],
        ] as const) {
            const res = await router.sendBody(who.getSender(), MergeRouter.setPoolMessage(value, 7n));
            const tx = res.transactions.find(
                (t) =>
                    flattenTransaction(t).to?.equals(proxy.address) &&
                    flattenTransaction(t).op === OpMerge.routerUpdate,
            );
            expect(tx).toBeDefined();
            expect(flattenTransaction(tx!).from!.equals(router.address)).toBe(true);
            const body = loadMergeRouterUpdate(tx!.inMessage!.body.beginParse());
            expect(body.queryId).toBe(7n);
            expect(body.token.equals(token)).toBe(true);
            expect(value === null ? body.pool === null : body.pool!.equals(value)).toBe(true);
            expect(body.remainingGasTo.equals(who.address)).toBe(true);
            const p = await router.getPool();
            expect(value === null ? p === null : p!.equals(value)).toBe(true);
        }
        let res = await router.sendBody(stranger.getSender(), MergeRouter.setPoolMessage(null));
        expect(res.transactions).toHaveTransaction({
            to: router.address,
            success: false,
            exitCode: ErrorsMerge.notOwnerOrManager,
        });
        // least privilege (issue 10 §4): the manager cannot name a pool, its own or any other
        for (const p of [manager.address, stranger.address, pool]) {
            res = await router.sendBody(manager.getSender(), MergeRouter.setPoolMessage(p));
            expect(res.transactions).toHaveTransaction({
                to: router.address,
                success: false,
                exitCode: ErrorsMerge.notOwner,
            });
            expect(res.transactions).not.toHaveTransaction({ from: router.address, to: proxy.address });
        }
        expect((await router.getPool())!.equals(pool)).toBe(true);
    });

    it('should let only the owner change the manager and the owner', async () => {
        await init();
        let res = await router.sendBody(manager.getSender(), MergeRouter.setManagerMessage(stranger.address));
        expect(res.transactions).toHaveTransaction({
            to: router.address,
            success: false,
            exitCode: ErrorsMerge.notOwner,
        });
        res = await router.sendBody(manager.getSender(), MergeRouter.transferOwnershipMessage(manager.address));
        expect(res.transactions).toHaveTransaction({
            to: router.address,
            success: false,
            exitCode: ErrorsMerge.notOwner,
        });
        res = await router.sendBody(owner.getSender(), MergeRouter.setManagerMessage(null));
        expect(res.transactions).toHaveTransaction({ to: router.address, success: true });
        expect(await router.getManager()).toBeNull();
        res = await router.sendBody(manager.getSender(), MergeRouter.setPoolMessage(null));
        expect(res.transactions).toHaveTransaction({
            to: router.address,
            success: false,
            exitCode: ErrorsMerge.notOwnerOrManager,
        });
        res = await router.sendBody(owner.getSender(), MergeRouter.transferOwnershipMessage(stranger.address));
        expect(res.transactions).toHaveTransaction({ to: router.address, success: true });
        expect((await router.getOwner())!.equals(stranger.address)).toBe(true);
        res = await router.sendBody(owner.getSender(), MergeRouter.setPoolMessage(pool));
        expect(res.transactions).toHaveTransaction({
            to: router.address,
            success: false,
            exitCode: ErrorsMerge.notOwner,
        });
    });

    it('should answer merge_router_get_pool to the asker with merge_router_pool', async () => {
        await init();
        const ask = async (): Promise<Address | null> => {
            const res = await router.sendBody(stranger.getSender(), MergeRouter.getPoolMessage(42n), 10_000_000n);
            const tx = res.transactions.find(
                (t) =>
                    flattenTransaction(t).to?.equals(stranger.address) &&
                    flattenTransaction(t).op === OpMerge.routerPool,
            );
            expect(tx).toBeDefined();
            const info = tx!.inMessage!.info;
            expect(info.type === 'internal' && !info.bounce).toBe(true);
            const body = loadMergeRouterPool(tx!.inMessage!.body.beginParse());
            expect(body.queryId).toBe(42n);
            expect(body.token.equals(token)).toBe(true);
            return body.pool;
        };
        expect(await ask()).toBeNull();
        await router.sendBody(owner.getSender(), MergeRouter.setPoolMessage(pool));
        expect((await ask())!.equals(pool)).toBe(true);
    });

    it('should take a top-up', async () => {
        const res = await router.sendBody(stranger.getSender(), Cell.EMPTY);
        expect(res.transactions).toHaveTransaction({ to: router.address, success: true });
    });
});

describe('merge.tlb op codes', () => {
    const crc32 = (s: string) => {
        let crc = 0xffffffff;
        for (let n = 0; n < s.length; n++) {
            let c = (crc ^ s.charCodeAt(n)) & 0xff;
            for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
            crc = (crc >>> 8) ^ c;
        }
        return ((crc ^ 0xffffffff) >>> 0) & 0x7fffffff;
    };

    it('should be CRC32 of the scheme lines, as mirrored in OpMerge and merge_messages.tact', () => {
        const fs = require('fs') as typeof import('fs');

        const path = require('path') as typeof import('path');
        const dir = path.resolve(__dirname, '..', 'contracts', 'bridge');
        const tlb = fs.readFileSync(path.join(dir, 'merge.tlb'), 'utf8');
        const tact = fs.readFileSync(path.join(dir, 'merge_messages.tact'), 'utf8');
        // schemes: from a line starting with name#tag to the line ending with "= Type;"
        const schemes = [...tlb.replace(/\/\/.*$/gm, '').matchAll(/^(\w+)#([0-9a-f]{8})\s+([^;]*?);/gms)];
        const tags = new Map<number, string>();
        for (const [, name, tag, rest] of schemes) {
            const line = `${name} ${rest.replace(/\s+/g, ' ').replace(/[()]/g, '').trim()}`;
            expect(`${name} ${crc32(line).toString(16).padStart(8, '0')}`).toBe(`${name} ${tag}`);
            tags.set(parseInt(tag, 16), name);
        }
        expect(tags.size).toBe(Object.keys(OpMerge).length);
        for (const v of Object.values(OpMerge)) expect(tags.has(v)).toBe(true);
        for (const m of tact.matchAll(/^const OP_\w+: Int = 0x([0-9a-f]{8});/gm))
            expect(tags.has(parseInt(m[1], 16))).toBe(true);
    });
});
