import { Address, beginCell, toNano } from '@ton/core';
import { BlockchainTransaction, SandboxContract, TreasuryContract } from '@ton/sandbox';
import '@ton/test-utils';
import { benchBlockchain, GasSection } from '../../harness/bench';
import { jettonTransferBody, liquidityRequestedEvent } from '../../harness/liquidityEvent';
import { ReferenceJetton } from '../../harness/referenceJetton';
import { StatusJetton, WALLET_STATUS } from '../../harness/statusJetton';
import { confirmedAlienEvent, transferNotificationBody } from '../../harness/strandedEvent';
import { returnStrandedMessage } from '../../wrappers/tvmTvmEvent';
import { computeGas } from '../event.util';

/**
 * Gas of the paths of tokens an Event does not take (contracts/bridge/event_stranded.tact): a
 * notification whose tokens go back at once, one recorded (into an empty table, into a full one, into
 * one the scan frees), return_stranded, and the bounce of a return the Event's frozen wallet refuses.
 */
describe('Event: tokens it does not take', () => {
    const section = new GasSection('TvmTvmEvent, tokens it does not take');
    afterAll(() => section.write());

    it('reference and USDT-style wallets, Native and Alien Events', async () => {
        const blockchain = await benchBlockchain();
        const config = await blockchain.treasury('configuration');
        const proxy = await blockchain.treasury('proxy');
        const owner = await blockchain.treasury('owner');
        const stranger = await blockchain.treasury('stranger');
        const admin = await blockchain.treasury('admin');
        const reference = await ReferenceJetton.deploy(blockchain, admin);
        await reference.mint(owner.address, 1_000_000n);
        const status = StatusJetton.create(blockchain, admin);
        await status.mint(owner.address, 1_000_000n);
        const onEvent = (txs: BlockchainTransaction[], at: Address) =>
            txs.find((x) => x.inMessage?.info.dest instanceof Address && x.inMessage.info.dest.equals(at))!;
        const send = (token: ReferenceJetton | StatusJetton, to: Address, forward: bigint) =>
            owner.send({
                to: token.walletAddress(owner.address),
                value: forward + toNano('0.1'),
                body: jettonTransferBody({ amount: 1000n, to, response: owner.address, forwardTonAmount: forward }),
            });
        const rec = (path: string, t: BlockchainTransaction, notes?: string) => {
            expect(t).toBeDefined();
            section.record({ path, gas: computeGas(t), notes });
        };
        const fake = (s: SandboxContract<TreasuryContract>, to: Address, i: number) =>
            s.send({
                to,
                value: toNano('0.02'),
                body: transferNotificationBody(1000n, new Address(0, beginCell().storeUint(i, 8).endCell().hash())),
            });
        const args = (msgHash: bigint, token: ReferenceJetton | StatusJetton, walletKnown: boolean) => ({
            msgHash,
            configuration: config.address,
            proxy: proxy.address,
            tokenRoot: token.minter,
            eventWallet: (e: Address) => token.walletAddress(e),
            walletKnown,
            amount: 1000n,
            bounty: 0n,
            sender: owner.address,
            recipient: owner.address,
        });

        // Native Event of a plain minter (reference): at once, recorded, full, freed, returned
        const { event: ev } = await liquidityRequestedEvent(blockchain, args(1n, reference, false));
        rec(
            'Native Event, transfer_notification: the tokens back at once (reference wallet, 0.1 TON)',
            onEvent((await send(reference, ev.address, toNano('0.1'))).transactions, ev.address),
        );
        rec(
            'Native Event, transfer_notification: recorded into an empty table (reference wallet, 0.02 TON)',
            onEvent((await send(reference, ev.address, toNano('0.02'))).transactions, ev.address),
        );
        for (let i = 2; i < 8; i++) await fake(stranger, ev.address, i);
        rec(
            'Native Event, transfer_notification: recorded, the 8th record',
            onEvent((await fake(stranger, ev.address, 8)).transactions, ev.address),
        );
        rec(
            'Native Event, transfer_notification: a full table (8), not recorded',
            onEvent((await fake(stranger, ev.address, 9)).transactions, ev.address),
        );
        rec(
            'Native Event, return_stranded (-> the reference wallet, to the owner)',
            onEvent(
                (await stranger.send({ to: ev.address, value: toNano('0.1'), body: returnStrandedMessage(1n) }))
                    .transactions,
                ev.address,
            ),
        );
        blockchain.now = blockchain.now! + 3601;
        rec(
            'Native Event, transfer_notification: a full table, the scan drops a returned record, recorded',
            onEvent((await fake(stranger, ev.address, 10)).transactions, ev.address),
        );

        // Native Event, its token wallet known (USDT-style), frozen: the return bounces
        const { event: ev2, wallet } = await liquidityRequestedEvent(blockchain, args(2n, status, true));
        await send(status, ev2.address, toNano('0.02'));
        await status.setStatus(ev2.address, WALLET_STATUS.sendLocked);
        const refused = await stranger.send({ to: ev2.address, value: toNano('0.1'), body: returnStrandedMessage(1n) });
        expect(refused.transactions).toHaveTransaction({ from: ev2.address, to: wallet, exitCode: 45 });
        rec(
            "Native Event, the return's bounce (USDT-style wallet frozen: 45; the record waits again)",
            refused.transactions.find(
                (x) =>
                    x.inMessage?.info.type === 'internal' &&
                    x.inMessage.info.bounced &&
                    x.inMessage.info.dest.equals(ev2.address),
            )!,
        );

        // Alien Event (takes no tokens)
        const alien = await confirmedAlienEvent(blockchain, {
            msgHash: 3n,
            configuration: config.address,
            proxy: proxy.address,
            user: owner.address,
            amount: 1000n,
        });
        rec(
            'Alien Event, transfer_notification: the tokens back at once (reference wallet, 0.1 TON)',
            onEvent((await send(reference, alien.address, toNano('0.1'))).transactions, alien.address),
        );
        rec(
            'Alien Event, transfer_notification: recorded into an empty table (reference wallet, 0.02 TON)',
            onEvent((await send(reference, alien.address, toNano('0.02'))).transactions, alien.address),
        );
        rec(
            'Alien Event, return_stranded (-> the reference wallet, to the owner)',
            onEvent(
                (await owner.send({ to: alien.address, value: toNano('0.1'), body: returnStrandedMessage(1n) }))
                    .transactions,
                alien.address,
            ),
        );
    });
});
