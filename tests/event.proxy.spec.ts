/**
 * The Alien configuration calling the real ProxyMultiVaultAlien (contracts/bridge/proxy_alien.tact):
 * a source TvmTvmNative (test emitter standing in for the source native proxy), verified through the
 * real LiteClient and TransactionChecker, ends in alien tokens minted to the recipient; the Event's
 * token_ (derived off-chain from the proxy) is the minter that minted them.
 */
import { toNano } from '@ton/core';
import '@ton/test-utils';
import { Op } from '../wrappers/constants';
import { EventStatus } from '../wrappers/eventStatus';
import { TvmTvmEventConfiguration } from '../wrappers/TvmTvmEventConfiguration';
import { ProxyMultiVaultAlien } from '../wrappers/ProxyMultiVaultAlien';
import { ProxyMessages } from '../wrappers/ProxyMultiVaultNative';
import { JettonMinter } from '../wrappers/JettonMinter';
import { JettonWallet } from '../wrappers/JettonWallet';
import { tvmTvmEventBody } from '../wrappers/tvmTvmEvent';
import { computeGas, DEPLOY_VALUE, eventFields, eventFixture, EventFixture, SRC_CHAIN } from './event.util';

describe('TVM to TVM events with the real alien proxy', () => {
    let f: EventFixture;

    beforeEach(async () => {
        f = await eventFixture();
    });

    it('mints the alien token to the recipient; token_ is the minter', async () => {
        const proxy = f.blockchain.openContract(
            await ProxyMultiVaultAlien.createFromConfig({ owner: f.owner.address }),
        );
        await proxy.sendDeploy(f.deployer.getSender());
        const cfg = await f.makeConfig({ network: { proxy: proxy.address } });
        const allow = await f.owner.send({
            to: proxy.address,
            value: toNano('0.05'),
            body: ProxyMessages.setTvmConfiguration(cfg.address, true),
        });
        expect(allow.transactions).toHaveTransaction({ to: proxy.address, success: true });

        const recipient = await f.blockchain.treasury('recipient');
        const fields = eventFields(
            {
                recipient: recipient.address,
                transfer: { sender: f.user.address, remainingGasTo: f.user.address, payload: null },
            },
            { recipient: recipient.address, sender: f.user.address, token: f.deployer.address },
        );
        const tx = await f.emit(tvmTvmEventBody('native', fields));
        const msgHash = TvmTvmEventConfiguration.eventMessageHash(tx.raw, 0);
        const event = f.alienEvent(msgHash, cfg.address);
        const r = await cfg.sendDeployTvmEvent(f.user.getSender(), {
            value: DEPLOY_VALUE,
            msgHash,
            outMsgIndex: 0,
            remainingGasTo: f.user.address,
            proof: f.prove(tx.raw),
        });
        expect(r.transactions).toHaveTransaction({
            from: cfg.address,
            to: proxy.address,
            op: Op.bridge.onTvmEventConfirmedExtended,
            success: true,
        });
        for (const t of r.transactions) expect(computeGas(t)).toBeLessThan(1_000_000);
        expect(await event.getStatus()).toBe(EventStatus.Confirmed);

        const d = await event.getDecodedDataWithToken(proxy);
        expect(d.baseChainId).toBe(BigInt(SRC_CHAIN));
        const minter = await proxy.getAlienTokenByBase(BigInt(SRC_CHAIN), fields.token.token);
        expect(minter).not.toBeNull();
        expect(d.token!.equals(minter!)).toBe(true);
        expect(r.transactions).toHaveTransaction({ from: proxy.address, to: minter!, deploy: true, success: true });
        const jetton = f.blockchain.openContract(JettonMinter.createFromAddress(minter!));
        const wallet = f.blockchain.openContract(
            JettonWallet.createFromAddress(await jetton.getWalletAddress(recipient.address)),
        );
        expect(await wallet.getJettonBalance()).toBe(fields.amount);
    });
});
