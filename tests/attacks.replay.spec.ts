/**
 * Issue 10 §3: relay votes replayed across networks. Before the fix a relay's signed vote covered
 * only its kind, key, expiry and the Event's address, and a deposit named no destination network:
 * the same bridge deployed the same way on a second TVM network (same addresses, so the same Event
 * address for the same vote data) took the very same signed external votes, and one deposit was
 * confirmed on both networks.
 *
 * Now every vote signs the TVM network's global_id with the Event's address (the Event checks both:
 * 2336), and a MultiVault serves one TVM network (its immutable tvmGlobalId; the deposit events keep
 * the specification's parameters and order): relays confirm a deposit only on the network its vault
 * serves. The test deploys the EVM to TVM bridge with the real proxies on two TVM networks
 * (global ids -239 and 2000) the same way, both configurations naming the one MultiVault (the
 * mistake the vault's destination makes harmless), makes one deposit for network A and shows: A
 * mints it; its votes replayed on B's Event (same address) are refused before ACCEPT; B's relays
 * reject it; nothing is minted on B; B's Event costs the attacker what it deployed it with.
 */
import hre from 'hardhat';
import '@ton/test-utils';
import { external, toNano } from '@ton/core';
import { Contract, TransactionReceipt } from 'ethers';
import { ErrorsEvm } from '../wrappers/constants';
import { EvmEventStatus, EvmTvmEventConfiguration, VoteKind } from '../wrappers/EvmTvmEventConfiguration';
import { MultiVaultEvmTvmEventAlien } from '../wrappers/MultiVaultEvmTvmEventAlien';
import { depositParams } from '../wrappers/evm/MultiVault';
import { EvmRelayService, readConfiguration, verifyVoteData } from '../harness/evm/relay';
import { EVENT_INITIAL_BALANCE, refusedExternal, tvmRecipient } from '../harness/evm/fixture';
import { EvmTvmProxySetup, evmTvmProxySetup } from '../harness/evm/proxyFixture';

jest.setTimeout(180_000);

async function mined(tx: Promise<{ wait(): Promise<TransactionReceipt | null> }>): Promise<TransactionReceipt> {
    const r = await (await tx).wait();
    if (!r) throw new Error('no receipt');
    return r;
}

async function depositErc20(s: EvmTvmProxySetup, amount: bigint): Promise<TransactionReceipt> {
    const user = s.evm.signers.user;
    await mined((s.evm.token.connect(user) as Contract).getFunction('approve')(s.evm.vaultAddress, amount));
    const r = await mined(
        s.evm.vaultAs(user).getFunction('deposit')(
            depositParams(tvmRecipient(s.recipient.address), s.evm.tokenAddress, amount, {
                expectedGas: toNano('0.05'),
            }),
            { value: 0n },
        ),
    );
    await s.evm.mine(2);
    return r;
}

/** the recipient's balance of the alien token of the EVM test token on `s` (0 when no minter exists) */
async function minted(s: EvmTvmProxySetup): Promise<bigint> {
    const minter = await s.proxies.alien.getEvmMinter(BigInt(s.evm.chainId), BigInt(s.evm.tokenAddress));
    if (!minter) return 0n;
    const w = await s.walletOf(minter);
    const c = await s.blockchain.getContract(w.address);
    return c.accountState?.type === 'active' ? w.getJettonBalance() : 0n;
}

describe('issue 10 §3: relay votes replayed on another network', () => {
    it('one deposit, the same bridge on two networks: confirmed on A; the votes replayed on B refused (2336), B relays reject, nothing minted on B', async () => {
        const a = await evmTvmProxySetup(hre, { globalId: -239 });
        const b = await evmTvmProxySetup(hre, { globalId: 2000, evm: a.evm });
        // deployed the same way: the same addresses on both networks
        expect(b.alienConfiguration.address.equals(a.alienConfiguration.address)).toBe(true);
        expect(b.proxies.alien.address.equals(a.proxies.alien.address)).toBe(true);
        expect(b.recipient.address.equals(a.recipient.address)).toBe(true);
        // the vault's deposits are for A
        expect(Number(await a.evm.vault.getFunction('tvmGlobalId')())).toBe(-239);

        const amount = 1_000_000n;
        await depositErc20(a, amount);
        const [p] = await new EvmRelayService(a.evm, a.blockchain, a.alienConfiguration, a.relays, a.relayer).poll();
        const eventA = a.blockchain.openContract(MultiVaultEvmTvmEventAlien.createFromAddress(p.eventAddress));
        expect(Number(await eventA.getGetStatus())).toBe(EvmEventStatus.Confirmed);
        const onA = await minted(a);
        expect(onA).toBe(amount - (amount * a.fee.numerator) / a.fee.denominator);

        // the signed external votes as they went to A's Event
        const votes = p.votes.map((r) => r.transactions[0].inMessage!.body);
        expect(votes).toHaveLength(a.relays.requiredVotes);

        // B: an attacker deploys the Event of the same vote data (the same address), then replays them
        const attacker = await b.blockchain.treasury('attacker');
        const attackerTon0 = await attacker.getBalance();
        await attacker.send({
            to: b.alienConfiguration.address,
            value: EVENT_INITIAL_BALANCE + toNano('0.5'),
            body: EvmTvmEventConfiguration.deployEventMessage(p.voteData),
        });
        const eventB = b.blockchain.openContract(MultiVaultEvmTvmEventAlien.createFromAddress(p.eventAddress));
        expect(Number(await eventB.getGetStatus())).toBe(EvmEventStatus.Pending);
        const balanceB0 = (await b.blockchain.getContract(eventB.address)).balance;
        for (const body of votes)
            expect(await refusedExternal(b.blockchain.sendMessage(external({ to: eventB.address, body })))).toBe(
                ErrorsEvm.wrongVoteReceiver,
            );
        // refused before ACCEPT: not a nanoton of B's Event spent, no vote counted
        expect((await b.blockchain.getContract(eventB.address)).balance).toBe(balanceB0);
        expect(Number((await eventB.getGetDetails()).confirms)).toBe(0);

        // the refusal is the network binding: the same relay's vote signed for B's network is taken
        await a.relays.relays[0].vote(b.blockchain, eventB.address, VoteKind.Confirm);
        expect(Number((await eventB.getGetDetails()).confirms)).toBe(1);

        // B's own relays check the deposit: its vault serves A, so they reject it
        const viewB = await readConfiguration(b.alienConfiguration, b.blockchain);
        expect(await verifyVoteData(b.evm, viewB, p.voteData)).toEqual({
            kind: VoteKind.Reject,
            reason: 'destination',
        });
        for (const relay of b.relays.relays.slice(1)) {
            const v = await verifyVoteData(b.evm, viewB, p.voteData);
            await relay.vote(b.blockchain, eventB.address, v.kind as VoteKind);
        }
        expect(Number(await eventB.getGetStatus())).toBe(EvmEventStatus.Rejected);

        // nothing minted on B, the deposit delivered once (on A)
        expect(await minted(b)).toBe(0n);
        expect(await minted(a)).toBe(onA);
        const attackerSpent = attackerTon0 - (await attacker.getBalance());
        console.log(
            `issue 10 §3: deposit ${amount}; minted on A ${onA}, on B ${await minted(b)}; ` +
                `${votes.length} replayed votes refused (2336); the attacker spent ${attackerSpent} nanoTON on B's Event ` +
                `(the rejected Event returns its balance to its initializer)`,
        );
    });
});
