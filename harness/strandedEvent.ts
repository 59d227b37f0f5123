/**
 * For tests of tokens a TVM to TVM Event does not take (contracts/bridge/event_stranded.tact): an
 * Alien Event placed straight in Confirmed with its state (the Alien Event takes no tokens), and the
 * transfer_notification any contract can send an Event. The Native Event in LiquidityRequested comes
 * from harness/liquidityEvent.ts.
 */
import { Address, Cell, Dictionary, toNano } from '@ton/core';
import { Blockchain, internal } from '@ton/sandbox';
import { MultiVaultTvmTvmEventAlien as Generated } from '../build/MultiVaultTvmTvmEventAlien/tact_MultiVaultTvmTvmEventAlien';
import { MultiVaultTvmTvmEventAlien } from '../wrappers/MultiVaultTvmTvmEventAlien';
import { tvmTvmEventBody } from '../wrappers/tvmTvmEvent';
import { EventStatus } from '../wrappers/eventStatus';
import { JettonWallet } from '../wrappers/JettonWallet';
import { placedEventState } from './liquidityEvent';

export interface ConfirmedAlienEventArgs {
    /** distinguishes Events of the same configuration (part of the address) */
    msgHash: bigint;
    configuration: Address;
    proxy: Address;
    /** the transfer's sender and recipient */
    user: Address;
    amount: bigint;
}

/** The state init and address of an Alien Event in Confirmed (its transfer delivered). */
export function confirmedAlienEventInit(a: ConfirmedAlienEventArgs) {
    const body = tvmTvmEventBody('native', {
        destinationChainId: 2000,
        amount: a.amount,
        recipient: a.user,
        value: toNano('0.1'),
        expectedGas: 0n,
        token: { token: a.proxy, nativeProxyWallet: a.proxy, name: 'T', symbol: 'T', decimals: 9 },
        transfer: { sender: a.user, remainingGasTo: a.user, payload: null },
    });
    const state = placedEventState({
        user: a.user,
        configuration: a.configuration,
        proxy: a.proxy,
        msgHash: a.msgHash,
        event: body,
        liquidity: null,
    });
    return Generated.fromInit(
        a.msgHash,
        a.configuration,
        -239n,
        BigInt(EventStatus.Confirmed),
        state,
        Dictionary.empty(Dictionary.Keys.BigUint(64), Dictionary.Values.Address()),
    );
}

/**
 * Deploys that Alien Event: the configuration sends it a notification of 1 token with enough TON,
 * which the Event answers with a transfer request back to the configuration (a treasury here).
 */
export async function confirmedAlienEvent(blockchain: Blockchain, a: ConfirmedAlienEventArgs) {
    const gen = await confirmedAlienEventInit(a);
    const r = await blockchain.sendMessage(
        internal({
            from: a.configuration,
            to: gen.address,
            value: toNano('0.1'),
            body: transferNotificationBody(1n, a.configuration),
            stateInit: gen.init,
        }),
    );
    const tx = r.transactions.find((t) => t.inMessage?.info.dest?.toString() === gen.address.toString());
    if (!tx || tx.description.type !== 'generic' || tx.description.aborted)
        throw new Error('confirmedAlienEvent: deploy failed');
    return blockchain.openContract(MultiVaultTvmTvmEventAlien.createFromAddress(gen.address));
}

/** transfer_notification of `amount` from `from`, no forward payload: what a wallet sends (anyone can). */
export function transferNotificationBody(amount: bigint, from: Address, queryId = 7n): Cell {
    return JettonWallet.notificationMessage({ queryId, amount, from });
}
