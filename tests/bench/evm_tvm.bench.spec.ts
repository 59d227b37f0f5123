import hre from 'hardhat';
import { Address, toNano, Transaction } from '@ton/core';
import { SendMessageResult } from '@ton/sandbox';
import { Contract, TransactionReceipt } from 'ethers';
import { benchBlockchain, benchEvm, GasSection } from '../../harness/bench';
import { EvmTvmSetup, evmTvmSetup, tvmRecipient } from '../../harness/evm/fixture';
import { EvmRelayService, readConfiguration, RelaySet } from '../../harness/evm/relay';
import { evmTvmProxySetup } from '../../harness/evm/proxyFixture';
import { deployEventNonCredit } from '../../harness/evm/user';
import { Bridge } from '../../wrappers/Bridge';
import { MergeRouter } from '../../wrappers/MergeRouter';
import { depositParams } from '../../wrappers/evm/MultiVault';

/**
 * Gas of the TVM side of EVM to TVM: deployEvent (configuration, then the Event's deployment), each
 * relay vote (an external message the Event pays for), the final confirm with its callback
 * (Event -> configuration -> proxy), and the Bridge's pushes. Compute-phase gas of each transaction.
 */
const section = new GasSection('EVM to TVM (relay-voted)');

/** Ceilings the bench holds (a regression fails it). A vote must also stay payable by EVM_EVENT_VOTE_MIN_BALANCE. */
const MAX_VOTE_GAS = 18_000;
/**
 * Gas a vote spends before ACCEPT, out of the 10,000 an external message is credited (a vote above it could never be
 * accepted). The signed data carries the network's global id, read with GLOBALID before ACCEPT (a vote signed for
 * another network must cost the Event nothing): measured 4,448 with 4 relays and 5,148 with 100.
 */
const MAX_PRE_ACCEPT_GAS = 6_000;
const MAX_DEPLOY_GAS = 25_000;

function gasOf(tx: Transaction): number {
    const d = tx.description;
    if (d.type !== 'generic' || d.computePhase.type !== 'vm') return 0;
    return Number(d.computePhase.gasUsed);
}

/** Gas used before ACCEPT (needs vmLogs 'vm_logs_gas'). */
function preAcceptGas(tx: Transaction): number {
    const lines: string[] = ((tx as unknown as { vmLogs?: string }).vmLogs ?? '').split('\n');
    const at = lines.findIndex((l) => l.includes('execute ACCEPT'));
    for (let i = at; i >= 0; i--) {
        const m = /gas remaining: (\d+)/.exec(lines[i]);
        if (m) return 10_000 - Number(m[1]);
    }
    throw new Error('no ACCEPT in the VM log');
}

function txTo(r: SendMessageResult, to: Address): Transaction {
    const tx = r.transactions.find(
        (t) =>
            t.inMessage &&
            'dest' in t.inMessage.info &&
            t.inMessage.info.dest instanceof Address &&
            t.inMessage.info.dest.equals(to),
    );
    if (!tx) throw new Error(`no transaction on ${to}`);
    return tx;
}

function fee(r: SendMessageResult): string {
    const total = r.transactions.reduce((a, t) => a + t.totalFees.coins, 0n);
    return `fees of the whole chain ${Number(total) / 1e9} TON`;
}

async function mined(tx: Promise<{ wait(): Promise<TransactionReceipt | null> }>): Promise<TransactionReceipt> {
    const r = await (await tx).wait();
    if (!r) throw new Error('no receipt');
    return r;
}

async function deposit(s: EvmTvmSetup): Promise<void> {
    const user = s.evm.signers.user;
    await mined((s.evm.token.connect(user) as Contract).getFunction('approve')(s.evm.vaultAddress, 1000n));
    await mined(
        s.evm.vaultAs(user).getFunction('deposit')(
            depositParams(tvmRecipient(s.recipient.address), s.evm.tokenAddress, 1000n, {
                expectedGas: 1n,
                payload: '0x',
            }),
        ),
    );
    await s.evm.mine(2);
}

// a Hardhat network of this spec's own, on a fixed clock: the report does not move from run to run
beforeAll(() => benchEvm(hre));

describe('bench: EVM to TVM', () => {
    afterAll(() => section.write());

    for (const relays of [4, 100]) {
        it(`deployEvent, every confirm, the final confirm with callback (${relays} relays)`, async () => {
            const s = await evmTvmSetup(hre, { relays, blockchain: await benchBlockchain() });
            await deposit(s);
            const service = new EvmRelayService(s.evm, s.blockchain, s.alienConfiguration, s.relays, s.relayer);
            // the VM log kept on each transaction (for the gas before ACCEPT), not printed
            s.blockchain.verbosity = { ...s.blockchain.verbosity, print: false, vmLogs: 'vm_logs_gas' };
            const [p] = await service.poll();
            const pre = preAcceptGas(txTo(p.votes[0], p.eventAddress));
            expect(pre).toBeLessThan(MAX_PRE_ACCEPT_GAS);
            section.record({
                path: `MultiVaultEvmTvmEvent vote: gas before ACCEPT (${relays} relays)`,
                gas: pre,
                notes: 'of the 10,000 credited to an external message',
            });
            const required = s.relays.requiredVotes;
            expect(p.votes).toHaveLength(required);

            if (relays === 4) {
                const cfg = gasOf(txTo(p.deploy, s.alienConfiguration.address));
                const ev = gasOf(txTo(p.deploy, p.eventAddress));
                expect(cfg).toBeLessThan(MAX_DEPLOY_GAS);
                section.record({
                    path: 'EvmTvmEventConfiguration.deployEvent (AlienTransfer, checks + decode + deploy)',
                    gas: cfg,
                    notes: fee(p.deploy),
                });
                section.record({ path: 'MultiVaultEvmTvmEvent.evm_event_init (deployment, 4 relay keys)', gas: ev });
            } else {
                section.record({
                    path: `MultiVaultEvmTvmEvent.evm_event_init (deployment, ${relays} relay keys)`,
                    gas: gasOf(txTo(p.deploy, p.eventAddress)),
                });
            }
            for (let i = 0; i < required - 1; i++) {
                const g = gasOf(txTo(p.votes[i], p.eventAddress));
                expect(g).toBeLessThan(MAX_VOTE_GAS);
                if (i < 2 || i === required - 2) {
                    section.record({
                        path: `MultiVaultEvmTvmEvent confirm #${i + 1} of ${required} (${relays} relays, external)`,
                        gas: g,
                    });
                }
            }
            const last = p.votes[required - 1];
            const g = gasOf(txTo(last, p.eventAddress));
            expect(g).toBeLessThan(MAX_VOTE_GAS);
            section.record({
                path: `MultiVaultEvmTvmEvent final confirm #${required} with callback (${relays} relays)`,
                gas: g,
                notes: fee(last),
            });
            section.record({
                path: `EvmTvmEventConfiguration.evm_event_confirmed -> proxy (${relays} relays)`,
                gas: gasOf(txTo(last, s.alienConfiguration.address)),
                notes: 'derive + check the Event, decode, forward on_evm_event_confirmed_extended',
            });
        });
    }

    it('through the real proxies: the proxy mint / unlock on the EVM path, and the whole TVM side of one deposit', async () => {
        const s = await evmTvmProxySetup(hre);
        const onProxy = (r: SendMessageResult, proxy: Address) => gasOf(txTo(r, proxy));
        const whole = (rs: SendMessageResult[]) => {
            const txs = rs.flatMap((r) => r.transactions);
            return {
                n: txs.length,
                gas: txs.reduce((a, t) => a + gasOf(t), 0),
                fees: txs.reduce((a, t) => a + t.totalFees.coins, 0n),
            };
        };
        const service = new EvmRelayService(s.evm, s.blockchain, s.alienConfiguration, s.relays, s.relayer);
        // an ERC-20 deposit, twice: the first mint deploys the minter
        for (const label of ['first mint: deploys the minter', 'minter deployed']) {
            await deposit(s as unknown as EvmTvmSetup);
            const [p] = await service.poll();
            const last = p.votes[p.votes.length - 1];
            section.record({
                path: `ProxyMultiVaultAlien.on_evm_event_confirmed_extended (mint, ${label})`,
                gas: onProxy(last, s.proxies.alien.address),
            });
            const w = whole([p.deploy, ...p.votes]);
            section.record({
                path: `EVM to TVM, whole TVM side of one ERC-20 deposit (${label}; deployEvent -> tokens in the wallet, 4 relays)`,
                gas: w.gas,
                notes: `${w.n} transactions, fees ${Number(w.fees) / 1e9} TON (expected_gas 1 nanoton)`,
            });
        }
        // merge.tlb 5: once a MergePool names the EVM token's minter (its router set to a pool: any
        // address stands for one here), its mints are kept in flight
        const minter = (await s.proxies.alien.getEvmMinter(BigInt(s.evm.chainId), BigInt(s.evm.tokenAddress)))!;
        await s.proxies.alien.sendDeployMergeRouter(s.proxyOwner.getSender(), {
            token: minter,
            owner: s.proxyOwner.address,
        });
        const router = s.blockchain.openContract(
            MergeRouter.createFromAddress(await s.proxies.alien.getMergeRouterAddress(minter)),
        );
        const named = await router.sendBody(
            s.proxyOwner.getSender(),
            MergeRouter.setPoolMessage((await s.blockchain.treasury('a pool')).address),
        );
        expect(await s.proxies.alien.getMergePool(minter)).not.toBeNull();
        void named;
        await deposit(s as unknown as EvmTvmSetup);
        const [kept] = await service.poll();
        const keptLast = kept.votes[kept.votes.length - 1];
        section.record({
            path: 'ProxyMultiVaultAlien.on_evm_event_confirmed_extended (mint of a token a pool named: kept in flight)',
            gas: onProxy(keptLast, s.proxies.alien.address),
        });
        // a burned representation of the TVM-native token: the native proxy unlocks
        const { governance, user } = s.evm.signers;
        const root = tvmRecipient(s.nativeToken.address);
        await mined(
            s.evm.vaultAs(governance).getFunction('deployNativeToken')(root.wid, root.addr, 'Tvm Native', 'TNT', 9),
        );
        const token: string = await s.evm.vault.getFunction('predictNativeTokenAddress')(root.wid, root.addr);
        await mined(s.evm.vaultAs(governance).getFunction('testMintNative')(token, user.address, 1000n));
        const receipt = await mined(
            s.evm.vaultAs(user).getFunction('deposit')(depositParams(tvmRecipient(s.recipient.address), token, 1000n)),
        );
        await s.evm.mine(2);
        const d = await deployEventNonCredit(s.evm, s.nativeConfiguration, s.user, receipt.hash);
        const votes = await new EvmRelayService(s.evm, s.blockchain, s.nativeConfiguration, s.relays, s.relayer).vote(
            await readConfiguration(s.nativeConfiguration, s.blockchain),
            d.eventAddress,
            d.voteData,
            s.relays.requiredVotes,
        );
        section.record({
            path: 'ProxyMultiVaultNative.on_evm_event_confirmed_extended (unlock)',
            gas: onProxy(votes[votes.length - 1], s.proxies.native.address),
        });
        const w = whole([d.result, ...votes]);
        section.record({
            path: 'EVM to TVM, whole TVM side of one NativeTransfer (non-credit: deployEvent -> tokens in the wallet, 4 relays)',
            gas: w.gas,
            notes: `${w.n} transactions, fees ${Number(w.fees) / 1e9} TON`,
        });
    });

    it('Bridge: set_relays with its pushes, and a configuration taking a push', async () => {
        const s = await evmTvmSetup(hre, { blockchain: await benchBlockchain() });
        for (const n of [4, 100]) {
            const r = await s.ownerSend(
                Bridge.setRelaysMessage(2, RelaySet.generate(n, `b${n}`).publicKeys),
                toNano('1'),
            );
            section.record({
                path: `Bridge.set_relays (${n} keys, 2 configurations)`,
                gas: gasOf(txTo(r, s.bridge.address)),
            });
            section.record({
                path: `EvmTvmEventConfiguration.bridge_push_state (${n} keys)`,
                gas: gasOf(txTo(r, s.alienConfiguration.address)),
            });
        }
    });
});
