/**
 * A jetton of foreign code (not this project's wallet) registered in a side's native proxy and
 * given the pair's minter shape, so the model and the pair use it like the project's own jetton:
 * shared by the USDT-style lane (foreignLane.ts) and the reference TEP-74 lane (referenceLane.ts).
 */
import { Address, Cell, toNano } from '@ton/core';
import { SandboxContract, SendMessageResult } from '@ton/sandbox';
import { BridgePair, TokenInfo } from '../bridge';
import { Net } from '../model';
import { JettonMinter, MintArgs } from '../../wrappers/JettonMinter';
import { JettonWallet } from '../../wrappers/JettonWallet';

export interface ForeignJetton {
    /** its master contract */
    root: Address;
    meta: { name: string; symbol: string; decimals: number };
    /** whether the proxy learns its wallet by TEP-89; else (a plain minter) the owner gives it */
    tep89: boolean;
    walletAddress(owner: Address): Address;
    wallet(owner: Address): SandboxContract<JettonWallet>;
    mint(
        to: Address,
        amount: bigint,
        o: { forwardTonAmount?: bigint; forwardPayload?: Cell | null; response?: Address | null },
    ): Promise<SendMessageResult>;
    totalSupply(): Promise<bigint>;
}

/**
 * Registers `j` in `n`'s native proxy (throws unless the proxy then holds its wallet: `what` names
 * the token in that error), makes the pair's wallet(...) answer `j`'s wallets, and returns the pair's
 * TokenInfo of it. Run once, before the pair's snapshot.
 */
export async function registerForeignJetton(
    pair: BridgePair,
    n: Net,
    j: ForeignJetton,
    what: string,
): Promise<TokenInfo> {
    const side = pair[n];
    const net = side.network;
    const proxyWallet = j.walletAddress(side.nativeProxy.address);
    await side.nativeProxy.sendRegisterNativeToken(
        side.owner.getSender(),
        { token: j.root, ...(j.tep89 ? {} : { wallet: proxyWallet }), ...j.meta },
        toNano('0.1'),
    );
    const known = await side.nativeProxy.getWalletOf(j.root);
    if (!known?.equals(proxyWallet)) throw new Error(`the native proxy on ${n} did not ${what}`);
    // the pair's minter shape for the model (address, mint, wallet address, supply)
    const minter: Pick<
        SandboxContract<JettonMinter>,
        'address' | 'sendMint' | 'getWalletAddress' | 'getTotalSupply'
    > = {
        address: j.root,
        sendMint: async (_via, a: MintArgs & { value?: bigint }) => ({
            ...(await j.mint(a.to, a.amount, {
                forwardTonAmount: a.forwardTonAmount,
                forwardPayload: a.forwardPayload,
                response: a.responseDestination,
            })),
            result: undefined,
        }),
        getWalletAddress: async (owner: Address) => j.walletAddress(owner),
        getTotalSupply: () => j.totalSupply(),
    };
    const wallet = pair.wallet.bind(pair);
    pair.wallet = async (network, root, owner) =>
        network === net && root.equals(j.root) ? j.wallet(owner) : wallet(network, root, owner);
    return { minter: minter as SandboxContract<JettonMinter>, ...j.meta, proxyWallet };
}
