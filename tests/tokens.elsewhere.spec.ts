/**
 * Tokens sent by mistake to a bridge contract that takes none (issue 11: "tokens arriving from an
 * unexpected wallet"): the alien proxy, the MergeRouter, the EVM to TVM Events, the TVM to TVM and
 * EVM to TVM configurations and the Bridge refused every transfer_notification (130), so the tokens
 * stayed in the contract's wallet for good. They now answer as the TVM to TVM Events and the
 * MergePool do (contracts/bridge/takes_no_tokens.tact): the notifying wallet is asked to send the
 * amount back to from_user with the notification's own value, not bounceable.
 *
 * Followed here with the reference TEP-74 wallet and this project's jetton, for each contract: the
 * tokens back at once with 0.1 TON of forward amount; with 0.02 TON (less than either wallet's
 * transfer asks) the wallet keeps them (the documented limit: TESTING.md section 7); a stranger's
 * notification gets only a transfer request to itself; the contract's TON never goes down. (The native
 * proxy, the MergePool and the TVM to TVM Events take tokens and answer unknown wallets themselves:
 * proxy_native.spec.ts, merge_pool.spec.ts, event.stranded.spec.ts.)
 */
import { Address, Cell, toNano } from '@ton/core';
import { Blockchain, BlockchainTransaction, SandboxContract, TreasuryContract } from '@ton/sandbox';
import '@ton/test-utils';
import { ProxyMultiVaultAlien } from '../wrappers/ProxyMultiVaultAlien';
import { MergeRouter } from '../wrappers/MergeRouter';
import { TokenType, TvmTvmEventConfiguration } from '../wrappers/TvmTvmEventConfiguration';
import { EvmEventType, EvmTvmEventConfiguration } from '../wrappers/EvmTvmEventConfiguration';
import { Bridge } from '../wrappers/Bridge';
import { JettonMinter } from '../wrappers/JettonMinter';
import { compiledCode } from '../wrappers/compiled';
import { Op } from '../wrappers/constants';
import { MultiVaultEvmTvmEventNative as EvmNative } from '../build/MultiVaultEvmTvmEventNative/tact_MultiVaultEvmTvmEventNative';
import { MultiVaultEvmTvmEventAlien as EvmAlien } from '../build/MultiVaultEvmTvmEventAlien/tact_MultiVaultEvmTvmEventAlien';
import { ReferenceJetton } from '../harness/referenceJetton';
import { jettonTransferBody } from '../harness/liquidityEvent';
import { transferNotificationBody } from '../harness/strandedEvent';
import { expectAllOk } from '../harness/testing';

const AMOUNT = 1_000_000n;
const MINTED = 10n * AMOUNT;

describe('Tokens sent to a bridge contract that takes none (issue 11): back to their sender', () => {
    let blockchain: Blockchain;
    let owner: SandboxContract<TreasuryContract>;
    let user: SandboxContract<TreasuryContract>;
    let stranger: SandboxContract<TreasuryContract>;
    let reference: ReferenceJetton;
    let ours: SandboxContract<JettonMinter>;
    const targets: { name: string; address: Address }[] = [];
    let snapshot: ReturnType<Blockchain['snapshot']>;

    /** deploys `init` with an empty body (every one of these takes it: top-up) */
    async function deploy(name: string, init: { address: Address; init?: { code: Cell; data: Cell } | null }) {
        const r = await owner.send({
            to: init.address,
            value: toNano('0.5'),
            init: init.init ?? undefined,
            body: Cell.EMPTY,
        });
        expectAllOk(r.transactions);
        targets.push({ name, address: init.address });
    }

    beforeAll(async () => {
        blockchain = await Blockchain.create();
        owner = await blockchain.treasury('owner');
        user = await blockchain.treasury('user');
        stranger = await blockchain.treasury('stranger');
        reference = await ReferenceJetton.deploy(blockchain, owner);
        expectAllOk((await reference.mint(user.address, MINTED)).transactions);
        ours = blockchain.openContract(
            await JettonMinter.createFromConfig({
                owner: owner.address,
                content: { name: 'Ours', symbol: 'O', decimals: 9 },
            }),
        );
        await ours.sendMint(owner.getSender(), { to: user.address, amount: MINTED });

        await deploy('ProxyMultiVaultAlien', await ProxyMultiVaultAlien.createFromConfig({ owner: owner.address }));
        await deploy('MergeRouter', await MergeRouter.createFromConfig({ proxy: owner.address, token: ours.address }));
        await deploy(
            'TvmTvmEventConfiguration',
            await TvmTvmEventConfiguration.createFromConfig({
                owner: owner.address,
                tokenType: TokenType.Alien,
                ownChainId: -239,
                transactionChecker: owner.address,
                eventInitialBalance: toNano('1'),
                eventCode: compiledCode('MultiVaultTvmTvmEventAlien'),
                network: {
                    chainId: 2000,
                    eventEmitter: owner.address,
                    proxy: owner.address,
                    startTimestamp: 0,
                    endTimestamp: 0,
                },
            }),
        );
        await deploy(
            'EvmTvmEventConfiguration',
            await EvmTvmEventConfiguration.createFromConfig({
                owner: owner.address,
                bridge: owner.address,
                eventType: EvmEventType.Native,
                flags: 0,
                eventABI: '',
                eventInitialBalance: toNano('1'),
                eventCode: compiledCode('MultiVaultEvmTvmEventNative'),
                network: {
                    chainId: 1,
                    eventEmitter: 1n,
                    eventBlocksToConfirm: 1,
                    proxy: owner.address,
                    startBlockNumber: 0,
                    endBlockNumber: 0,
                },
            }),
        );
        await deploy('Bridge', await Bridge.createFromConfig({ owner: owner.address }));
        const voteData = {
            $$type: 'EvmEventVoteData' as const,
            eventTransaction: 1n,
            eventIndex: 0n,
            eventData: Cell.EMPTY,
            eventBlockNumber: 1n,
            eventBlock: 1n,
        };
        await deploy('MultiVaultEvmTvmEventNative', await EvmNative.fromInit(owner.address, voteData, 0n, null));
        await deploy('MultiVaultEvmTvmEventAlien', await EvmAlien.fromInit(owner.address, voteData, 0n, null));
        snapshot = blockchain.snapshot();
    });

    beforeEach(async () => {
        await blockchain.loadFrom(snapshot);
    });

    const walletOf = async (token: 'reference' | 'ours', who: Address) =>
        token === 'reference' ? reference.walletAddress(who) : ours.getWalletAddress(who);
    const balanceOf = async (token: 'reference' | 'ours', who: Address) => {
        const w = await walletOf(token, who);
        const acc = await blockchain.getContract(w);
        if (acc.accountState?.type !== 'active') return 0n;
        return (await blockchain.runGetMethod(w, 'get_wallet_data')).stackReader.readBigNumber();
    };
    const send = async (token: 'reference' | 'ours', to: Address, forward: bigint) =>
        user.send({
            to: await walletOf(token, user.address),
            value: forward + toNano('0.1'),
            body: jettonTransferBody({ amount: AMOUNT, to, response: user.address, forwardTonAmount: forward }),
        });
    /** the contract's TON after `txs`: what it held, less only the storage fee each transaction on it collects */
    async function expectTonKept(at: Address, before: bigint, txs: BlockchainTransaction[]) {
        let floor = before;
        for (const t of txs)
            if (t.inMessage?.info.dest instanceof Address && t.inMessage.info.dest.equals(at)) {
                const d = t.description;
                if (d.type === 'generic' && d.storagePhase) floor -= d.storagePhase.storageFeesCollected;
            }
        expect((await blockchain.getContract(at)).balance).toBeGreaterThanOrEqual(floor);
    }

    for (const token of ['reference', 'ours'] as const) {
        it(`${token === 'reference' ? 'the reference wallet' : "this project's jetton"}: each contract sends the tokens back with 0.1 TON; with 0.02 TON its wallet keeps them (the limit); a stranger gets a transfer request to itself; the contract's TON kept`, async () => {
            const kept: string[] = [];
            for (const c of targets) {
                const ton0 = (await blockchain.getContract(c.address)).balance;
                const wallet = await walletOf(token, c.address);
                const mine = await balanceOf(token, user.address);
                const r = await send(token, c.address, toNano('0.1'));
                expectAllOk(r.transactions);
                expect(r.transactions).toHaveTransaction({
                    from: c.address,
                    to: wallet,
                    op: Op.jetton.transfer,
                    success: true,
                });
                expect({
                    name: c.name,
                    user: await balanceOf(token, user.address),
                    there: await balanceOf(token, c.address),
                }).toEqual({
                    name: c.name,
                    user: mine,
                    there: 0n,
                });
                await expectTonKept(c.address, ton0, r.transactions);
                // less than the wallet's transfer asks: the wallet refuses the request (709 for the
                // reference wallet) and keeps the tokens
                const ton1 = (await blockchain.getContract(c.address)).balance;
                const poor = await send(token, c.address, toNano('0.02'));
                await expectTonKept(c.address, ton1, poor.transactions);
                const there = await balanceOf(token, c.address);
                expect(there + (await balanceOf(token, user.address))).toBe(mine);
                if (there > 0n) kept.push(c.name);
            }
            // both wallets keep them at 0.02 TON for every contract (the reference one asks 0.04 TON +
            // fees, this project's its own model's value)
            expect(kept).toEqual(targets.map((t) => t.name));
            // a stranger's notification: a transfer request to its own address, with its own value
            for (const c of targets) {
                const ton0 = (await blockchain.getContract(c.address)).balance;
                const s = await stranger.send({
                    to: c.address,
                    value: toNano('0.1'),
                    body: transferNotificationBody(AMOUNT, user.address),
                });
                expect(s.transactions).toHaveTransaction({
                    from: c.address,
                    to: stranger.address,
                    op: Op.jetton.transfer,
                });
                await expectTonKept(c.address, ton0, s.transactions);
            }
        });
    }
});
