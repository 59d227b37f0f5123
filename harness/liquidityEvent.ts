/**
 * A Native Event (contracts/bridge/tvm_tvm_event_native.tact) placed straight in LiquidityRequested,
 * with the state not_enough_liquidity leaves (the event, its proxy, the bounty), for tests of the
 * provider step with tokens whose roots the bridge does not deploy (harness/statusJetton.ts,
 * harness/referenceJetton.ts). Its configuration and native proxy are whatever addresses the
 * caller gives (treasuries: the repayment, tvm_event_confirmed to the configuration, is seen, not
 * executed). Deployed by the token root's TEP-89 answer (take_wallet_address), sent as if from the
 * root: with `walletKnown` it names the Event's wallet, else none (a plain minter, which never
 * answers: the Event does not learn its wallet either way).
 */
import { Address, beginCell, Cell, Dictionary, toNano } from '@ton/core';
import { Blockchain, internal, SandboxContract } from '@ton/sandbox';
import {
    MultiVaultTvmTvmEventNative as Generated,
    storeEventLiquidity,
    storeTvmEventState,
} from '../build/MultiVaultTvmTvmEventNative/tact_MultiVaultTvmTvmEventNative';
import { MultiVaultTvmTvmEventNative } from '../wrappers/MultiVaultTvmTvmEventNative';
import { tvmTvmEventBody } from '../wrappers/tvmTvmEvent';
import { EventStatus } from '../wrappers/eventStatus';
import { Op } from '../wrappers/constants';
import { JettonWallet } from '../wrappers/JettonWallet';

/** a jetton the tests give tokens with and read balances of (the reference, status and this project's) */
export interface LiquidityToken {
    minter: Address;
    walletAddress(owner: Address): Address;
    balanceOf(owner: Address): Promise<bigint>;
}

export interface LiquidityEventArgs {
    /** distinguishes Events of the same configuration (part of the address) */
    msgHash: bigint;
    configuration: Address;
    proxy: Address;
    tokenRoot: Address;
    /** the Event's wallet of the token (how the token derives it) */
    eventWallet: (event: Address) => Address;
    walletKnown: boolean;
    amount: bigint;
    bounty: bigint;
    sender: Address;
    recipient: Address;
    payload?: Cell | null;
    sourceChainId?: number;
}

/**
 * The TvmEventState of an Event placed straight in a status (TvmEventState in
 * contracts/bridge/event.tlb): `user` initialized it and takes the remaining gas, the
 * configuration is its checker, nothing else set but the liquidity cell given (null for an Alien Event).
 */
export function placedEventState(a: {
    user: Address;
    configuration: Address;
    proxy: Address;
    msgHash: bigint;
    event: Cell;
    liquidity: Cell | null;
}): Cell {
    return beginCell()
        .store(
            storeTvmEventState({
                $$type: 'TvmEventState',
                initializer: a.user,
                remainingGasTo: a.user,
                transactionChecker: a.configuration,
                proxy: a.proxy,
                transactionHash: a.msgHash,
                verificationFailed: false,
                nativeProxy: null,
                event: a.event,
                lastErrorCode: 0n,
                limitApprover: null,
                limitApproved: false,
                liquidity: a.liquidity,
                cancelPending: false,
                merge: null,
            }),
        )
        .endCell();
}

export async function liquidityRequestedEvent(
    blockchain: Blockchain,
    a: LiquidityEventArgs,
): Promise<{ event: SandboxContract<MultiVaultTvmTvmEventNative>; wallet: Address }> {
    const body = tvmTvmEventBody('alien', {
        destinationChainId: 2000,
        amount: a.amount,
        recipient: a.recipient,
        value: toNano('0.1'),
        expectedGas: 0n,
        token: { token: a.tokenRoot, nativeProxyWallet: null, name: 'T', symbol: 'T', decimals: 9 },
        transfer: { sender: a.sender, remainingGasTo: a.sender, payload: a.payload ?? null },
    });
    const liquidity = beginCell()
        .store(
            storeEventLiquidity({
                $$type: 'EventLiquidity',
                bounty: a.bounty,
                eventTokenWallet: null,
                liquidityProvider: null,
                providerRepaid: false,
                provisionPending: false,
                deliveryBounced: false,
                held: 0n,
                stranded: Dictionary.empty(),
                strandedCount: 0n,
                strandedNext: 0n,
            }),
        )
        .endCell();
    const state = placedEventState({
        user: a.sender,
        configuration: a.configuration,
        proxy: a.proxy,
        msgHash: a.msgHash,
        event: body,
        liquidity,
    });
    const gen = await Generated.fromInit(
        a.msgHash,
        a.configuration,
        BigInt(a.sourceChainId ?? -239),
        BigInt(EventStatus.LiquidityRequested),
        state,
        Dictionary.empty(Dictionary.Keys.BigUint(64), Dictionary.Values.Address()),
    );
    const event = blockchain.openContract(new MultiVaultTvmTvmEventNative(gen.address, gen.init));
    const wallet = a.eventWallet(event.address);
    const answer = beginCell()
        .storeUint(Op.jetton.takeWalletAddress, 32)
        .storeUint(0, 64)
        .storeAddress(a.walletKnown ? wallet : null)
        .storeMaybeRef(null)
        .endCell();
    const r = await blockchain.sendMessage(
        internal({ from: a.tokenRoot, to: event.address, value: toNano('1'), body: answer, stateInit: gen.init }),
    );
    const tx = r.transactions.find((t) => t.inMessage?.info.dest?.toString() === event.address.toString());
    if (!tx || tx.description.type !== 'generic' || tx.description.aborted)
        throw new Error('liquidityRequestedEvent: deploy failed');
    return { event, wallet };
}

/**
 * A jetton transfer request body (TEP-74 transfer) of `amount` to `to`, excesses to `response`, no
 * forward payload: JettonWallet.transferMessage with this module's argument names.
 */
export function jettonTransferBody(a: {
    queryId?: bigint;
    amount: bigint;
    to: Address;
    response: Address;
    forwardTonAmount: bigint;
}): Cell {
    return JettonWallet.transferMessage({
        queryId: a.queryId,
        amount: a.amount,
        to: a.to,
        responseDestination: a.response,
        forwardTonAmount: a.forwardTonAmount,
    });
}
