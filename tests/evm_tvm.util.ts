/**
 * Shared by the EVM <-> TVM end-to-end specs (the real proxies, harness/evm/proxyFixture.ts): the
 * fixture with an EVM deposit fee, deposits, and the transaction lookups.
 */
import hre from 'hardhat';
import { Address, beginCell, toNano } from '@ton/core';
import { BlockchainTransaction, SendMessageResult } from '@ton/sandbox';
import { Contract, TransactionReceipt } from 'ethers';
import { OpEvm } from '../wrappers/constants';
import { depositParams } from '../wrappers/evm/MultiVault';
import { tvmRecipient } from '../harness/evm/fixture';
import { EvmTvmProxySetup, evmTvmProxySetup } from '../harness/evm/proxyFixture';

export const PAYLOAD_CELL = beginCell().storeUint(0xcafe, 16).storeRef(beginCell().storeUint(7, 8)).endCell();
export const PAYLOAD = '0x' + PAYLOAD_CELL.toBoc().toString('hex');
/** EVM deposit fee (basis points), set on the MultiVault by governance. */
export const EVM_FEE_BPS = 10n;
export const EXPECTED_GAS = toNano('0.05');

export async function mined(tx: Promise<{ wait(): Promise<TransactionReceipt | null> }>): Promise<TransactionReceipt> {
    const r = await (await tx).wait();
    if (!r) throw new Error('no receipt');
    return r;
}

export const evmFee = (amount: bigint) => (amount * EVM_FEE_BPS + 9999n) / 10000n;
export const tvmFee = (s: EvmTvmProxySetup, amount: bigint) => (amount * s.fee.numerator) / s.fee.denominator;

export async function setup(o: Parameters<typeof evmTvmProxySetup>[1] = {}) {
    const s = await evmTvmProxySetup(hre, o);
    await mined((s.evm.vaultAs(s.evm.signers.governance) as Contract).getFunction('setDefaultDepositFee')(EVM_FEE_BPS));
    return s;
}

/**
 * A setup deployed once per spec file: the first call runs `deploy`; each later call puts Hardhat's
 * network back to the state right after it (evm_revert to a snapshot taken then) and the TVM side
 * too (`tvmOf(s)`: its snapshot / loadFrom), and hands out the same setup, as a fresh deployment
 * would be. A test that needs a second setup beside it, or other options, deploys its own.
 */
export function deployedOnce<S, T>(
    deploy: () => Promise<S>,
    tvmOf: (s: S) => { snapshot(): T; loadFrom(snapshot: T): Promise<void> },
): () => Promise<S> {
    const evmSnapshot = (): Promise<string> => hre.network.provider.send('evm_snapshot', []);
    let deployed: { s: S; tvm: T; evm: string } | undefined;
    return async () => {
        if (!deployed) {
            const s = await deploy();
            deployed = { s, tvm: tvmOf(s).snapshot(), evm: await evmSnapshot() };
            return s;
        }
        // a snapshot is used up by its revert: take it again
        if (!(await hre.network.provider.send('evm_revert', [deployed.evm]))) throw new Error('evm_revert failed');
        deployed.evm = await evmSnapshot();
        await tvmOf(deployed.s).loadFrom(deployed.tvm);
        return deployed.s;
    };
}

/** setup() with no options, deployed once per spec file (deployedOnce: both networks restored on each call). */
export const freshSetup = deployedOnce(setup, (s) => s.net);

export async function depositErc20(s: EvmTvmProxySetup, amount: bigint, creditGas = 777n): Promise<TransactionReceipt> {
    const user = s.evm.signers.user;
    await mined((s.evm.token.connect(user) as Contract).getFunction('approve')(s.evm.vaultAddress, amount));
    const r = await mined(
        s.evm.vaultAs(user).getFunction('deposit')(
            depositParams(tvmRecipient(s.recipient.address), s.evm.tokenAddress, amount, {
                expectedGas: EXPECTED_GAS,
                payload: PAYLOAD,
            }),
            { value: creditGas },
        ),
    );
    await s.evm.mine(2);
    return r;
}

/** The EVM representation of the fixture's TVM-native token, minted to the user, then deposited (burned). */
export async function depositRepresentation(s: EvmTvmProxySetup, amount: bigint): Promise<TransactionReceipt> {
    const { governance, user } = s.evm.signers;
    const root = tvmRecipient(s.nativeToken.address);
    const g = s.evm.vaultAs(governance);
    const token: string = await s.evm.vault.getFunction('predictNativeTokenAddress')(root.wid, root.addr);
    if ((await s.evm.provider.getCode(token)) === '0x')
        await mined(g.getFunction('deployNativeToken')(root.wid, root.addr, 'Tvm Native', 'TNT', 9));
    await mined(g.getFunction('testMintNative')(token, user.address, amount));
    const r = await mined(
        s.evm.vaultAs(user).getFunction('deposit')(
            depositParams(tvmRecipient(s.recipient.address), token, amount, {
                expectedGas: EXPECTED_GAS,
                payload: PAYLOAD,
            }),
        ),
    );
    await s.evm.mine(2);
    return r;
}

export const opOf = (t: BlockchainTransaction) => {
    const m = t.inMessage;
    if (!m || m.info.type !== 'internal') return undefined;
    const b = m.body.beginParse();
    return b.remainingBits >= 32 ? b.loadUint(32) : undefined;
};
export const isAt = (t: BlockchainTransaction, a: Address) =>
    t.inMessage?.info.dest instanceof Address && (t.inMessage.info.dest as Address).equals(a);

/** The proxy's transaction that took on_evm_event_confirmed_extended. */
export function proxyTx(r: SendMessageResult, proxy: Address): BlockchainTransaction {
    const tx = r.transactions.find((t) => isAt(t, proxy) && opOf(t) === OpEvm.onEvmEventConfirmedExtended);
    if (!tx) throw new Error('no on_evm_event_confirmed_extended to the proxy');
    return tx;
}

export function computeOf(tx: BlockchainTransaction): { exitCode: number; gas: bigint } {
    const d = tx.description;
    if (d.type !== 'generic' || d.computePhase.type !== 'vm') throw new Error('no compute phase');
    return { exitCode: d.computePhase.exitCode, gas: d.computePhase.gasUsed };
}

/** The transfer_notification the recipient got (forward_ton_amount = expected_gas). */
export function notification(r: SendMessageResult, recipient: Address) {
    const tx = r.transactions.find((t) => isAt(t, recipient) && opOf(t) === 0x7362d09c);
    if (!tx) throw new Error('no transfer_notification to the recipient');
    const info = tx.inMessage!.info as { value: { coins: bigint } };
    return { value: info.value.coins };
}

export function lastOf(results: SendMessageResult[]): SendMessageResult {
    return results[results.length - 1];
}
