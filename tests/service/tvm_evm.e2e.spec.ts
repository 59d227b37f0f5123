/**
 * TVM to EVM end to end through the indexers and the /v2 API: the harness's TVM network (the real
 * proxies) behind its toncenter v2 endpoint and Hardhat's EVM (the MultiVault, the relays' Bridge)
 * behind a JSON-RPC endpoint; the TVM and EVM indexers read them only through those endpoints into
 * PGlite, and the API answers from it. A lock to EVM and a burn of an EVM alien token go from
 * Pending (not saved on EVM: the next action saveWithdraw*, by anyone) to Completed; a withdrawal
 * over the limit is Pending with the withdraw guardian next, then approved: Completed; one short of
 * liquidity is Pending with the bounty, fill, force and cancel actions, then filled by a deposit:
 * Completed, the filler keeping the bounty; one cancelled back to TVM: Failed, naming its return
 * transfer. Every answer is checked against the API's JSON schemas. One fixture for the file.
 */
import '@ton/test-utils';
import hre from 'hardhat';
import Ajv from 'ajv';
import { Address } from '@ton/core';
import { TonClient } from '@ton/ton';
import { FastifyInstance } from 'fastify';
import { as, deployEvmContract, depositParams, evmContractAt } from '../../wrappers/evm/MultiVault';
import { withdrawalId } from '../../wrappers/evm/withdrawals';
import { tvmEvmPayloadCell } from '../../lib/tvmEvmEvents';
import { sendWithdrawal, SignedWithdrawal } from '../../harness/evm/tvmEvmRelay';
import { EvmRelayService } from '../../harness/evm/relay';
import { tvmRecipient } from '../../harness/evm/fixture';
import { Deployment } from '../../lib/deploy/deployment';
import { Db } from '../../service/storage/db';
import { DECIMALS_UNKNOWN, getTransfer } from '../../service/storage/store';
import { openMigratedPglite } from './pglite';
import { TvmIndexer } from '../../service/indexer/tvm';
import { EvmIndexer } from '../../service/indexer/evm';
import { buildApi } from '../../service/api/app';
import { TvmNode } from '../../service/localnet/tvmNode';
import { serveTonCenter, TonCenterServer } from '../../service/localnet/toncenter';
import * as S from '../../service/api/schemas';
import { depositErc20, evmFee, mined, tvmFee } from '../evm_tvm.util';
import { tvmEvmSetup, TvmEvmSetup } from '../tvm_evm.util';
import { serveEvmRpc, RpcServer } from './evmRpc';
import { request } from './http';

jest.setTimeout(300_000);

const WITHDRAW_FEE_BPS = 20n;
const wfee = (amount: bigint) => (amount * WITHDRAW_FEE_BPS + 9999n) / 10000n;

const ajv = new Ajv({ strict: false, allErrors: true });
ajv.addSchema(S.ErrorBody);
const checkStatus = ajv.compile(S.StatusResponse);
const checkSearch = ajv.compile(S.SearchResponse);
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

describe('TVM to EVM through the indexers and the API', () => {
    let s: TvmEvmSetup;
    let node: TvmNode;
    let ton: TonCenterServer;
    let rpc: RpcServer;
    let db: Db;
    let tvmIndexer: TvmIndexer;
    let evmIndexer: EvmIndexer;
    let api: FastifyInstance;
    let tvmChain: number;
    let deployment: Deployment;
    let evmRelays: EvmRelayService;

    beforeAll(async () => {
        s = await tvmEvmSetup({ withdrawFeeBps: WITHDRAW_FEE_BPS });
        node = TvmNode.over(s.net);
        ton = await serveTonCenter(node);
        rpc = await serveEvmRpc(hre.network.provider);
        tvmChain = s.net.globalId;
        deployment = {
            name: 'tvm-evm-e2e',
            tvm: {
                A: {
                    globalId: tvmChain,
                    endpoint: ton.jsonRpc,
                    contracts: {
                        nativeProxy: s.proxies.native.address.toRawString(),
                        alienProxy: s.proxies.alien.address.toRawString(),
                        evmAlienConfiguration: s.alienConfiguration.address.toRawString(),
                    },
                },
                B: { globalId: 2000, contracts: {} },
            },
            evm: {
                chainId: s.evm.chainId,
                tvm: 'A',
                endpoint: rpc.url,
                multiVault: s.evm.vaultAddress,
                blocksToConfirm: 0,
                startBlockNumber: await s.evm.provider.getBlockNumber(),
            },
        };
        db = await openMigratedPglite();
        tvmIndexer = new TvmIndexer({ deployment, key: 'A', db, client: new TonClient({ endpoint: ton.jsonRpc }) });
        evmIndexer = new EvmIndexer({ deployment, db });
        api = await buildApi({ db, deployment });
        evmRelays = new EvmRelayService(s.evm, s.blockchain, s.alienConfiguration, s.relays, s.relayer);
    });
    afterAll(async () => {
        await api?.close();
        await db?.close();
        await ton?.close();
        await rpc?.close();
    });

    /** Both indexers catch up with their networks (what their poll loops do every second). */
    const index = async () => {
        const r = await tvmIndexer.pollOnce();
        expect(r.errors).toBe(0);
        await evmIndexer.pollOnce();
    };
    const status = async (transferId: string) => {
        const r = await request(api, {
            method: 'POST',
            url: '/v2/transfers/status',
            payload: { tvmTvm: { outgoingTransactionHash: transferId, dappChainId: tvmChain } },
        });
        expect(r.statusCode).toBe(200);
        const body: Json = r.json();
        if (!checkStatus(body)) throw new Error(ajv.errorsText(checkStatus.errors) + '\n' + r.text);
        return body as Json;
    };
    const actions = (b: { details: { nextActions: { action: string; caller: string }[] } }) =>
        b.details.nextActions.map((a) => `${a.action} (${a.caller})`);
    const transferIdOf = (w: SignedWithdrawal) => w.found.transactionHash.toString(16).padStart(64, '0');
    const signed = async () => {
        const [w] = await s.signNow();
        expect(w).toBeDefined();
        return w;
    };
    const erc20OnTvm = async (amount: bigint) => {
        await depositErc20(s, amount);
        await evmRelays.poll();
        const minter = (await s.proxies.alien.getEvmMinter(BigInt(s.evm.chainId), BigInt(s.evm.tokenAddress)))!;
        const bridged = amount - evmFee(amount);
        return { minter, minted: bridged - tvmFee(s, bridged) };
    };
    const toEvm = () => tvmEvmPayloadCell(s.toEvm({ remainingGasTo: s.recipient.address }));
    const recipient = () => s.evm.signers.other.address.toLowerCase();

    it('a lock to EVM: Pending until a stranger saves the withdrawal, then Completed with the representation', async () => {
        const amount = 7_000_000n;
        await s.lock(amount);
        const w = await signed();
        const id = transferIdOf(w);
        await index();
        const before = await status(id);
        const t = before.transfer.tvmEvm;
        expect(t.transferStatus).toBe('Pending');
        expect(t.outgoing).toMatchObject({
            tokenType: 'Native',
            chainId: tvmChain,
            userAddress: s.user.address.toRawString(),
            tokenAddress: s.nativeToken.address.toRawString(),
            proxyAddress: s.proxies.native.address.toRawString(),
            volumeExec: '0.007',
            transactionHash: id,
        });
        expect(t.incoming).toMatchObject({
            tokenType: 'Alien',
            chainId: s.evm.chainId,
            userAddress: recipient(),
            transactionHash: null,
            withdrawalId: withdrawalId(0, w.found.transactionHash),
        });
        expect(actions(before)).toEqual(['saveWithdrawNative (anyone (the recipient, or an executor))']);

        const rc = await mined(sendWithdrawal(as(s.evm.vault, s.evm.signers.user), w));
        await index();
        const after = await status(id);
        const root = tvmRecipient(s.nativeToken.address);
        const token: string = await s.evm.vault.getFunction('predictNativeTokenAddress')(root.wid, root.addr);
        expect(after.transfer.tvmEvm.transferStatus).toBe('Completed');
        expect(after.transfer.tvmEvm.incoming).toMatchObject({
            tokenAddress: token.toLowerCase(),
            proxyAddress: s.evm.vaultAddress.toLowerCase(),
            volumeExec: '0.006986',
            feeVolumeExec: '0.000014',
            transactionHash: rc.hash.toLowerCase(),
        });
        expect(amount - wfee(amount)).toBe(6_986_000n);
        expect(after.details.nextActions).toEqual([]);
        // the tvmEvm form by withdrawal id: the same transfer
        const byWid = await request(api, {
            method: 'POST',
            url: '/v2/transfers/status',
            payload: { tvmEvm: { withdrawalId: withdrawalId(0, w.found.transactionHash), dappChainId: tvmChain } },
        });
        expect(byWid.json().transfer).toEqual(after.transfer);
    });

    it('a burn of an EVM alien token: its decimals from the alien proxy; Pending, then the ERC-20 paid: Completed', async () => {
        const { minter, minted } = await erc20OnTvm(5_000_000n);
        const amount = minted - 1000n;
        await s.burn(minter, amount, toEvm());
        const w = await signed();
        const id = transferIdOf(w);
        await index();
        const before = await status(id);
        expect(before.transfer.tvmEvm.transferStatus).toBe('Pending');
        expect(before.transfer.tvmEvm.outgoing).toMatchObject({
            tokenType: 'Alien',
            tokenAddress: minter.toRawString(),
            proxyAddress: s.proxies.alien.address.toRawString(),
            userAddress: s.recipient.address.toRawString(),
        });
        // the test token has 6 decimals, as the alien proxy records
        expect(before.transfer.tvmEvm.outgoing.volumeExec).toBe(String(Number(amount) / 1e6));
        expect(actions(before)[0]).toMatch(/^saveWithdrawAlien/);
        const rc = await mined(sendWithdrawal(as(s.evm.vault, s.evm.signers.user), w));
        await index();
        const after = await status(id);
        expect(after.transfer.tvmEvm).toMatchObject({
            transferStatus: 'Completed',
            incoming: {
                tokenType: 'Native',
                tokenAddress: s.evm.tokenAddress.toLowerCase(),
                volumeExec: String(Number(amount - wfee(amount)) / 1e6),
                transactionHash: rc.hash.toLowerCase(),
            },
        });
    });

    it('over the withdrawal limit: Pending with the withdraw guardian next; approved: Completed', async () => {
        const root = tvmRecipient(s.nativeToken.address);
        const token: string = await s.evm.vault.getFunction('predictNativeTokenAddress')(root.wid, root.addr);
        await mined(s.g.getFunction('setWithdrawalLimits')(token, 1_000n, 0n));
        await s.lock(5_000n);
        const w = await signed();
        const id = transferIdOf(w);
        await mined(sendWithdrawal(as(s.evm.vault, s.evm.signers.user), w));
        await index();
        const pending = await status(id);
        expect(pending.transfer.tvmEvm.transferStatus).toBe('Pending');
        expect(pending.notInstantTransfer).toMatchObject({
            pendingWithdrawalId: { recipient: recipient() },
            tokenAddress: token.toLowerCase(),
            amount: String(5_000n - wfee(5_000n)),
            approveStatus: 'Required',
        });
        expect(actions(pending)).toEqual(['wait for the withdraw guardian (withdrawGuardian)']);
        const pid = {
            recipient: s.evm.signers.other.address,
            id: BigInt(pending.notInstantTransfer.pendingWithdrawalId.id),
        };
        const rc = await mined(
            as(s.evm.vault, s.evm.signers.guardian).getFunction('setPendingWithdrawalApprove')(pid, true),
        );
        await index();
        const done = await status(id);
        expect(done.transfer.tvmEvm.transferStatus).toBe('Completed');
        expect(done.transfer.tvmEvm.incoming.transactionHash).toBe(rc.hash.toLowerCase());
        expect(done.details.withdrawal).toMatchObject({ state: 'Paid', paidBy: 'Approval', approveStatus: 'Approved' });
        await mined(s.g.getFunction('setWithdrawalLimits')(token, 0n, 0n));
    });

    it('short of liquidity: Pending with bounty, fill, force and cancel; filled by a deposit: Completed; cancelled: Failed', async () => {
        const { minter, minted } = await erc20OnTvm(6_000_000n);
        const all: bigint = await s.evm.token.getFunction('balanceOf')(s.evm.vaultAddress);
        await mined(s.g.getFunction('testTakeLiquidity')(s.evm.tokenAddress, s.evm.signers.governance.address, all));
        const half = minted / 2n;
        await s.burn(minter, half, toEvm());
        await s.burn(minter, minted - half, toEvm());
        const [a, b] = await s.signNow();
        const other = s.evm.signers.other;
        // the recipient saves the first itself with a bounty; a stranger saves the second
        await mined(sendWithdrawal(as(s.evm.vault, other), a, { bounty: 1_000n }));
        await mined(sendWithdrawal(as(s.evm.vault, s.evm.signers.user), b));
        await index();
        const pa = await status(transferIdOf(a));
        expect(pa.transfer.tvmEvm.transferStatus).toBe('Pending');
        expect(pa.notInstantTransfer).toMatchObject({ bounty: '1000', approveStatus: 'NotRequired' });
        expect(actions(pa)).toEqual([
            'setPendingWithdrawalBounty (recipient)',
            'fill (anyone depositing the token)',
            'forceWithdraw (anyone)',
            'cancelPendingWithdrawal (recipient)',
        ]);

        // a depositor fills the first, earning its bounty
        const depositor = s.evm.signers.user;
        const deposit = half * 2n;
        await mined(as(s.evm.token, depositor).getFunction('approve')(s.evm.vaultAddress, deposit));
        const fill = as(s.evm.vault, depositor).getFunction(
            'deposit((int8,uint256,address,uint256,uint256,bytes),uint256,(address,uint256)[])',
        );
        const pidA = { recipient: other.address, id: BigInt(pa.notInstantTransfer.pendingWithdrawalId.id) };
        const rc = await mined(
            fill(depositParams(tvmRecipient(s.user.address), s.evm.tokenAddress, deposit), 1_000n, [pidA]),
        );
        // the recipient cancels the second back to TVM
        const pb = await status(transferIdOf(b));
        const back = tvmRecipient(s.recipient.address);
        const owed = BigInt(pb.notInstantTransfer.amount);
        const cancel = await mined(
            as(s.evm.vault, other).getFunction('cancelPendingWithdrawal')(
                BigInt(pb.notInstantTransfer.pendingWithdrawalId.id),
                owed,
                back.wid,
                back.addr,
                0n,
                '0x',
            ),
        );
        await index();
        const filled = await status(transferIdOf(a));
        expect(filled.transfer.tvmEvm.transferStatus).toBe('Completed');
        expect(filled.transfer.tvmEvm.incoming.transactionHash).toBe(rc.hash.toLowerCase());
        const net = half - wfee(half);
        expect(filled.transfer.tvmEvm.incoming.volumeExec).toBe(String(Number(net - 1_000n) / 1e6));
        expect(filled.details.withdrawal).toMatchObject({
            paidBy: 'Fill',
            filler: depositor.address.toLowerCase(),
            bounty: '1000',
        });
        const cancelled = await status(transferIdOf(b));
        expect(cancelled.transfer.tvmEvm.transferStatus).toBe('Failed');
        expect(cancelled.details.withdrawal).toMatchObject({
            state: 'Cancelled',
            cancelledAmount: String(owed),
            returnTransfer: cancel.hash.toLowerCase(),
        });
        // the tokens travel back: an EVM to TVM transfer whose Transfer ID is the cancel transaction
        await s.evm.mine(2);
        await evmRelays.poll();
        await index();
        const back2 = await request(api, {
            method: 'POST',
            url: '/v2/transfers/status',
            payload: { evmTvm: { transactionHashEvm: cancel.hash, dappChainId: tvmChain } },
        });
        expect(back2.json().transfer.evmTvm.outgoing.volumeExec).toBe(String(Number(owed) / 1e6));
    });

    it('/transfers/search finds them by kind, status, destination EVM chain and the EVM recipient', async () => {
        const search = async (q: Record<string, unknown>) => {
            const r = await request(api, {
                method: 'POST',
                url: '/v2/transfers/search',
                payload: { limit: 100, offset: 0, isNeedTotalCount: true, ...q },
            });
            const body: Json = r.json();
            if (!checkSearch(body)) throw new Error(ajv.errorsText(checkSearch.errors) + '\n' + r.text);
            return body as Json;
        };
        const kinds = await search({ transferKinds: ['TvmToEvm'] });
        expect(kinds.totalCount).toBe(5);
        expect((await search({ transferKinds: ['TvmToEvm'], statuses: ['Completed'] })).totalCount).toBe(4);
        expect((await search({ statuses: ['Failed'], toEvmChainId: s.evm.chainId })).totalCount).toBe(1);
        // the EVM recipient: its five TVM to EVM transfers and the EVM to TVM one it cancelled back
        const mine = await search({ userAddresses: [s.evm.signers.other.address], ordering: 'CreatedAtAscending' });
        expect(mine.totalCount).toBe(6);
        expect(mine.transfers.map((x: object) => Object.keys(x)[0])).toEqual([...Array(5).fill('tvmEvm'), 'evmTvm']);
        // oldest first (ties in the same second ordered by Transfer ID): the lock of the native token
        // is among the oldest
        const at = (x: Json) => (Object.values(x)[0] as Json).timestampCreatedAt as number;
        const times = mine.transfers.map(at);
        expect(times).toEqual([...times].sort((a, b) => a - b));
        const oldest = mine.transfers.filter((x: Json) => at(x) === times[0]);
        expect(
            oldest.some((x: Json) => Address.parse(x.tvmEvm.outgoing.tokenAddress).equals(s.nativeToken.address)),
        ).toBe(true);
    });

    it('the EVM indexer reading every block again (a cursor lost, a second indexer): nothing changes, nothing twice', async () => {
        const snapshot = async () => ({
            withdrawals: await db.query('SELECT * FROM withdrawals ORDER BY link_key'),
            transfers: await db.query('SELECT transfer_id, kind, amount FROM transfers ORDER BY transfer_id'),
        });
        const before = await snapshot();
        expect(before.withdrawals).toHaveLength(5);
        await db.query('DELETE FROM cursors WHERE name = $1', [evmIndexer.cursorName]);
        const again = new EvmIndexer({ deployment, db, blocksPerBatch: 3 });
        expect(await again.pollOnce()).toBeGreaterThan(0);
        expect(await snapshot()).toEqual(before);
    });

    it('a burn whose token the endpoint does not know (evm_alien_token answers null): decimals unknown, no volume, never 0 decimals', async () => {
        const { minter, minted } = await erc20OnTvm(3_000_000n);
        await s.burn(minter, minted, toEvm());
        const id = transferIdOf(await signed());
        // a fresh indexer (nothing cached) on an endpoint whose alien proxy answers without the record
        const runGetMethod = node.runGetMethod.bind(node);
        const asked: string[] = [];
        const spy = jest.spyOn(node, 'runGetMethod').mockImplementation(async (address, method, stack) => {
            if (method !== 'evm_alien_token') return runGetMethod(address, method, stack);
            asked.push(address.toRawString());
            return { exitCode: 0, gasUsed: 0n, stack: [{ type: 'null' }] };
        });
        try {
            const fresh = new TvmIndexer({
                deployment,
                key: 'A',
                db,
                client: new TonClient({ endpoint: ton.jsonRpc }),
            });
            expect((await fresh.pollOnce()).errors).toBe(0);
        } finally {
            spy.mockRestore();
        }
        expect(asked).toContain(s.proxies.alien.address.toRawString());
        expect((await getTransfer(db, 'TvmToEvm', id))!).toMatchObject({ decimals: DECIMALS_UNKNOWN, symbol: '' });
        const t = (await status(id)).transfer.tvmEvm;
        expect(t.outgoing).toMatchObject({ tokenAddress: minter.toRawString(), volumeExec: '0', volumeUsdtExec: '0' });
        expect(t.incoming).toMatchObject({ volumeExec: '0', feeVolumeExec: null });
    });

    it('a router moving another ERC-20 before depositing a representation (one transaction): the row names the representation and its decimals', async () => {
        const { governance, user } = s.evm.signers;
        const root = tvmRecipient(s.nativeToken.address);
        const token = String(await s.evm.vault.getFunction('predictNativeTokenAddress')(root.wid, root.addr));
        if ((await s.evm.provider.getCode(token)) === '0x')
            await mined(
                s.evm.vaultAs(governance).getFunction('deployNativeToken')(root.wid, root.addr, 'Tvm Native', 'TNT', 9),
            );
        const amount = 4_000_000n;
        await mined(s.evm.vaultAs(governance).getFunction('testMintNative')(token, user.address, amount));
        const router = await deployEvmContract(hre, 'RouterDepositor', [], user);
        const routerAddress = await router.getAddress();
        await mined(
            (await evmContractAt(hre, 'MultiVaultToken', token, user)).getFunction('approve')(routerAddress, amount),
        );
        await mined((s.evm.token.connect(user) as typeof s.evm.token).getFunction('approve')(routerAddress, 1n));
        const rc = await mined(
            router.getFunction('moveThenDeposit')(
                s.evm.tokenAddress,
                1n,
                s.evm.vaultAddress,
                depositParams(tvmRecipient(s.recipient.address), token, amount),
            ),
        );
        // the receipt's first ERC-20 Transfer log is the other token's
        expect(rc.logs[0].address).toBe(s.evm.tokenAddress);
        await evmIndexer.pollOnce();
        expect((await getTransfer(db, 'EvmToTvm', rc.hash.toLowerCase()))!).toMatchObject({
            tokenType: 'Native',
            token: token.toLowerCase(),
            decimals: 9,
        });
    });
});
