/**
 * Issue 11 ("no token left behind"): a lane of the model-based test (tests/model.spec.ts) whose
 * native token is the reference TEP-74 jetton (ton-blockchain/token-contract, the compiled code the
 * npm package tonweb ships: harness/referenceJetton.ts). Its wallet refuses a transfer with less
 * than forward TON + forward fees + a fixed 0.04 TON (709; tonweb's build asks 0.03), and its
 * minter is a plain one: it answers no TEP-89 provide_wallet_address (it throws, the request
 * bounces), so the native proxy is registered with its wallet given and a Native Event of the
 * token never learns its own wallet.
 *
 * `registerReferenceJetton(pair, n)` deploys the reference minter on `n`, registers it in `n`'s
 * native proxy (the wallet given) and returns the pair's TokenInfo of it; `useNativeToken` makes
 * it (or any registered token) `n`'s own token of the pair (side.token: the lane `n`.token, locked
 * and unlocked by `n`'s native proxy, an alien on the other network). tests/model.spec.ts picks B's
 * own token per sequence (MODEL_B_TOKEN): the USDT-style jetton of harness/model/foreignLane.ts or
 * this one, so every move of the model on that lane (lock, unlock, the refused lock's refund,
 * claim_refund, tvm_event_retry, approve_limit, cancel, the provider step, limits, liquidity, the
 * small values of harness/model/hops.ts) runs against the reference wallets with the invariants
 * unchanged. What the model predicts differently: a provider's transfer to such a Native Event is
 * never taken (the Event does not know its wallet): the tokens go back to the provider, or, with
 * too little forward TON for their return, the Event records them (BridgeModel.noWalletDiscovery).
 */
import { Address, beginCell, Cell, toNano } from '@ton/core';
import { BridgePair, TokenInfo } from '../bridge';
import { Net } from '../model';
import { ReferenceJetton } from '../referenceJetton';
import { registerForeignJetton } from './laneToken';
import { storeJettonTransferInternal } from '../../build/JettonWallet/tact_JettonWallet';
import { JettonWallet } from '../../wrappers/JettonWallet';

/** the reference token's metadata, as the owner registers it */
export const REFERENCE_TOKEN = { name: 'Reference Token', symbol: 'REF', decimals: 9 };

/**
 * The reference minter's mint (op 21, admin only) of `amount` to `to`, with forward TON and a
 * forward payload for the wallet's transfer_notification (from = the admin: the notification's
 * from_user must be an address, proxy_add_liquidity sends the rest of the value back to it).
 */
export async function referenceMint(
    jetton: ReferenceJetton,
    to: Address,
    amount: bigint,
    o: { forwardTonAmount?: bigint; forwardPayload?: Cell | null; response?: Address | null } = {},
) {
    const forwardTonAmount = o.forwardTonAmount ?? 0n;
    const master = beginCell()
        .store(
            storeJettonTransferInternal({
                $$type: 'JettonTransferInternal',
                queryId: 0n,
                amount,
                from: jetton.admin.address,
                responseDestination: o.response ?? null,
                forwardTonAmount,
                forwardPayload: JettonWallet.forwardPayload(o.forwardPayload ?? null),
            }),
        )
        .endCell();
    const ton = toNano('0.1') + forwardTonAmount;
    const body = beginCell().storeUint(21, 32).storeUint(0, 64).storeAddress(to).storeCoins(ton).storeRef(master);
    return jetton.admin.send({ to: jetton.minter, value: ton + toNano('0.05'), body: body.endCell() });
}

/**
 * Deploys the reference jetton on `n` and registers it in `n`'s native proxy with the proxy's
 * wallet given (a plain minter: no TEP-89); the pair's wallet(...) answers its reference wallets.
 * Run once, before the pair's snapshot. Returns the jetton and the pair's TokenInfo of it (for
 * useNativeToken).
 */
export async function registerReferenceJetton(
    pair: BridgePair,
    n: Net,
): Promise<{ jetton: ReferenceJetton; token: TokenInfo }> {
    const net = pair[n].network;
    const admin = await net.treasury('reference token admin');
    const jetton = await ReferenceJetton.deploy(net.blockchain, admin, 'https://example.org/reference.json');
    const token = await registerForeignJetton(
        pair,
        n,
        {
            root: jetton.minter,
            meta: REFERENCE_TOKEN,
            tep89: false,
            walletAddress: (owner) => jetton.walletAddress(owner),
            wallet: (owner) => jetton.wallet(owner),
            mint: (to, amount, o) => referenceMint(jetton, to, amount, o),
            totalSupply: () => jetton.totalSupply(),
        },
        'register its wallet of the reference token',
    );
    return { jetton, token };
}

/** `token` (registered in `n`'s native proxy) becomes `n`'s own token of the pair (side.token). */
export function useNativeToken(pair: BridgePair, n: Net, token: TokenInfo): void {
    pair[n].token = token;
}
