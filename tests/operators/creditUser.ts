/**
 * The user's side of a credit-mode transfer on the local network, for the credit backend specs: a
 * lock of the test token for the other network (expected gas paid), the alien balance it mints, and
 * the deploy_tvm_event messages a wallet sent (what a credit backend paid for).
 */
import { Address, Cell, internal, SendMode, toNano } from '@ton/core';
import { TonClient } from '@ton/ton';
import { LocalNetwork } from '../../service/localnet/localnet';
import { readDeployment } from '../../lib/deploy/deployment';
import { lockTransferBody } from '../../lib/userTransfers';
import { v2Provider } from '../../lib/toncenterV2';
import { JettonWallet } from '../../wrappers/JettonWallet';
import { ProxyMultiVaultAlien } from '../../wrappers/ProxyMultiVaultAlien';
import { Op } from '../../wrappers/constants';
import { until } from './until';

export type Key = 'A' | 'B';
export const other = (k: Key): Key => (k === 'A' ? 'B' : 'A');

export function tokenOf(net: LocalNetwork, k: Key) {
    const t = (
        readDeployment(net.deploymentFile).extra!.tokens as Record<
            string,
            { minter: string; name: string; symbol: string; decimals: number }
        >
    )[k];
    return { ...t, minter: Address.parse(t.minter) };
}

/** The user's lock of `amount` of `from`'s test token for the other network (credit mode: expected gas paid). */
export async function lock(net: LocalNetwork, from: Key, amount: bigint, expectedGas = toNano('0.1')): Promise<void> {
    const d = readDeployment(net.deploymentFile);
    const user = net.accounts.user;
    const wallet = net.tvm[from].client.open(user.v4);
    const jettonWallet = (await JettonWallet.createFromOwner(user.v4.address, tokenOf(net, from).minter)).address;
    const seqno = await wallet.getSeqno();
    await wallet.sendTransfer({
        seqno,
        secretKey: user.keys.secretKey,
        sendMode: SendMode.PAY_GAS_SEPARATELY,
        messages: [
            internal({
                to: jettonWallet,
                value: toNano('0.7'),
                body: lockTransferBody({
                    wallet: jettonWallet,
                    nativeProxy: Address.parse(d.tvm[from].contracts.nativeProxy!),
                    amount,
                    forwardTonAmount: toNano('0.5'),
                    destinationChainId: d.tvm[other(from)].globalId,
                    recipient: user.v4.address,
                    expectedGas,
                    remainingGasTo: user.v4.address,
                }),
            }),
        ],
    });
    await until('the lock accepted', async () => (await wallet.getSeqno()) > seqno);
}

/** The user's balance on `on` of the alien token minted for the other network's test token. */
export async function alienBalance(net: LocalNetwork, on: Key): Promise<bigint> {
    const d = readDeployment(net.deploymentFile);
    const t = tokenOf(net, other(on));
    const client = net.tvm[on].client;
    const proxy = client.open(ProxyMultiVaultAlien.createFromAddress(Address.parse(d.tvm[on].contracts.alienProxy!)));
    const minter = await proxy.getAlienTokenAddress(
        BigInt(d.tvm[other(on)].globalId),
        t.minter,
        t.name,
        t.symbol,
        BigInt(t.decimals),
    );
    const w = await JettonWallet.createFromOwner(net.accounts.user.v4.address, minter);
    const p = v2Provider(client, w.address);
    if ((await p.getState()).state.type !== 'active') return 0n;
    return (await p.get('get_wallet_data', [])).stack.readBigNumber();
}

/**
 * The event message hashes (hex) of every deploy_tvm_event `wallet` sent, one entry per message
 * (its outgoing internal messages, read from its transactions).
 */
export async function deploymentsSentBy(client: TonClient, wallet: Address): Promise<string[]> {
    const out: string[] = [];
    const txs = await client.getTransactions(wallet, { limit: 100, archival: true });
    for (const tx of txs)
        for (const m of tx.outMessages.values()) {
            if (m.info.type !== 'internal') continue;
            const s = (m.body as Cell).beginParse();
            if (s.remainingBits < 32 + 64 + 256 || s.loadUint(32) !== Op.bridge.deployTvmEvent) continue;
            s.skip(64);
            out.push(s.loadUintBig(256).toString(16).padStart(64, '0'));
        }
    return out;
}
