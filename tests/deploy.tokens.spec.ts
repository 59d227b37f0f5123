/**
 * Registering a native token from what its root says (lib/deploy/tokens.ts nativeTokenFacts and
 * registerNativeToken, what scripts/registerNativeToken.ts runs), issue 11 §1: the native proxy's
 * wallet from the minter's get_wallet_address (any TEP-74 minter: the reference minter has no TEP-89
 * discovery and never answers the proxy's on-chain question), name, symbol and decimals from the
 * root's on-chain TEP-64 metadata instead of typed-in values; off-chain metadata must be given.
 * Runs the library against a sandbox through a ChainOps of its own (the sandbox applies a message
 * before the send returns, so the first check decides).
 */
import { Blockchain, SandboxContract, TreasuryContract } from '@ton/sandbox';
import { Address, ContractProvider, SenderArguments, toNano, TupleReader } from '@ton/core';
import '@ton/test-utils';
import { ChainOps } from '../lib/deploy/ops';
import { deployJetton, nativeTokenFacts, registerNativeToken } from '../lib/deploy/tokens';
import { ProxyMultiVaultNative, transferPayloadCell } from '../wrappers/ProxyMultiVaultNative';
import { JettonWallet } from '../wrappers/JettonWallet';
import { ReferenceJetton } from '../harness/referenceJetton';
import { emittedEvents } from '../wrappers/ProxyMultiVaultNative';

/**
 * ChainOps over a sandbox: the owner treasury signs; its "seqno" counts the messages it sent (the
 * library waits for the wallet's seqno to move; a treasury has none), every other account is the
 * sandbox's.
 */
function sandboxOps(blockchain: Blockchain, owner: SandboxContract<TreasuryContract>): ChainOps {
    let seqno = 0n;
    const wallet = {
        getState: async () => ({ state: { type: 'active' } }),
        get: async () => ({ stack: new TupleReader([{ type: 'int', value: seqno }]) }),
    } as unknown as ContractProvider;
    return {
        sender: {
            address: owner.address,
            send: async (args: SenderArguments) => {
                await owner.send(args);
                seqno++;
            },
        },
        provider: (address, init) =>
            address.equals(owner.address) ? wallet : blockchain.provider(address, init ?? undefined),
        transactions: async () => [],
        log: () => {},
        attempts: 1,
        pollMs: 0,
    };
}

describe('Registering a native token from what its root says (lib/deploy/tokens.ts)', () => {
    let blockchain: Blockchain;
    let owner: SandboxContract<TreasuryContract>;
    let alice: SandboxContract<TreasuryContract>;
    let proxy: SandboxContract<ProxyMultiVaultNative>;
    let ops: ChainOps;

    beforeEach(async () => {
        blockchain = await Blockchain.create();
        owner = await blockchain.treasury('owner');
        alice = await blockchain.treasury('alice');
        proxy = blockchain.openContract(
            await ProxyMultiVaultNative.createFromConfig({ owner: owner.address, tvmChains: [2000] }),
        );
        await proxy.sendDeploy(owner.getSender());
        ops = sandboxOps(blockchain, owner);
    });

    it("this project's jetton (on-chain metadata, TEP-89): name, symbol, decimals and the wallet from the root; typed-in values that disagree are refused", async () => {
        const token = await deployJetton(ops, { name: 'Chain Token', symbol: 'CHN', decimals: 6 });
        const f = await nativeTokenFacts(ops, proxy.address, token);
        expect(f.metaSource).toBe('on-chain metadata');
        expect(f.meta).toEqual({ name: 'Chain Token', symbol: 'CHN', decimals: 6 });
        expect(f.wallet).toEqualAddress((await JettonWallet.createFromOwner(proxy.address, token)).address);
        await expect(nativeTokenFacts(ops, proxy.address, token, { decimals: 9 })).rejects.toThrow(
            /decimals given as "9", the root's on-chain metadata says "6"/,
        );
        await registerNativeToken(ops, proxy.address, token, f.meta, f.wallet);
        const t = (await proxy.getNativeToken(token))!;
        expect(t.wallet).toEqualAddress(f.wallet);
        expect({ name: t.name, symbol: t.symbol, decimals: Number(t.decimals) }).toEqual(f.meta);
    });

    it('the reference jetton (a plain minter, off-chain metadata): refused without name, symbol and decimals; with them, registered with the wallet get_wallet_address names, and a lock through that wallet emits', async () => {
        const admin = await blockchain.treasury('jetton admin');
        const jetton = await ReferenceJetton.deploy(blockchain, admin);
        await expect(nativeTokenFacts(ops, proxy.address, jetton.minter)).rejects.toThrow(
            /off-chain \(a URI\), not readable on chain: give name, symbol, decimals/,
        );
        await expect(nativeTokenFacts(ops, proxy.address, jetton.minter, { name: 'R' })).rejects.toThrow(
            /give symbol, decimals$/,
        );
        const f = await nativeTokenFacts(ops, proxy.address, jetton.minter, {
            name: 'Ref',
            symbol: 'REF',
            decimals: 9,
        });
        expect(f.metaSource).toBe('given');
        expect(f.wallet).toEqualAddress(jetton.walletAddress(proxy.address));
        await registerNativeToken(ops, proxy.address, jetton.minter, f.meta, f.wallet);
        expect(await proxy.getWalletOf(jetton.minter)).toEqualAddress(f.wallet);

        // the wallet is the one the tokens arrive in: a lock emits TvmTvmNative
        await jetton.mint(alice.address, 1_000n);
        const r = await jetton.wallet(alice.address).sendTransfer(alice.getSender(), {
            to: proxy.address,
            amount: 1_000n,
            responseDestination: alice.address,
            forwardTonAmount: toNano('0.2'),
            forwardPayload: transferPayloadCell({
                destinationChainId: 2000,
                recipient: alice.address,
                expectedGas: 0n,
                remainingGasTo: alice.address,
                payload: null,
            }),
        });
        const t = r.transactions.find(
            (x) => x.inMessage?.info.dest instanceof Address && x.inMessage.info.dest.equals(proxy.address),
        )!;
        expect(emittedEvents(t.outMessages.values())).toHaveLength(1);
        expect(await proxy.getLiquidity(jetton.minter)).toBe(1_000n);
        expect(await jetton.balanceOf(proxy.address)).toBe(1_000n);
    });
});
