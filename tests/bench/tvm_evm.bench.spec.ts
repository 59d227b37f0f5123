import fs from 'fs';
import path from 'path';
import hre from 'hardhat';
import { Transaction } from '@ton/core';
import { SendMessageResult } from '@ton/sandbox';
import { benchEvm, GasSection } from '../../harness/bench';
import { EvmRelayService } from '../../harness/evm/relay';
import { sendWithdrawal } from '../../harness/evm/tvmEvmRelay';
import { as } from '../../wrappers/evm/MultiVault';
import { tvmEvmPayloadCell } from '../../lib/tvmEvmEvents';
import { depositErc20, mined } from '../evm_tvm.util';
import { tvmEvmSetup } from '../tvm_evm.util';

/** the constant the note names, as contracts/bridge/tvm_evm.tact has it */
const GAS_NATIVE_LOCK_EVM = Number(
    /^const GAS_NATIVE_LOCK_EVM: Int = (\d+);/m.exec(
        fs.readFileSync(path.resolve(__dirname, '..', '..', 'contracts', 'bridge', 'tvm_evm.tact'), 'utf8'),
    )![1],
);

/**
 * TVM to EVM end to end: the proxies' side (a lock to EVM, a burn of an EVM alien token to EVM:
 * compute gas and what the whole TVM trace costs) and the MultiVault withdrawals of those real
 * events with 3 of 4 relay signatures (target: at most 120,000 + 5,000 a signature checked).
 */
const section = new GasSection('TVM to EVM (the proxies and the withdrawals of real events)');
const TARGET_3 = 120_000 + 3 * 5_000;

function gasOf(tx: Transaction): number {
    const d = tx.description;
    if (d.type !== 'generic' || d.computePhase.type !== 'vm') return 0;
    return Number(d.computePhase.gasUsed);
}

const totalFees = (r: SendMessageResult) => r.transactions.reduce((a, t) => a + t.totalFees.coins, 0n);

// a Hardhat network of this spec's own, on a fixed clock: the report does not move from run to run
beforeAll(() => benchEvm(hre));

describe('bench: TVM to EVM', () => {
    afterAll(() => section.write());

    it('records the proxies and the withdrawals', async () => {
        const s = await tvmEvmSetup();
        const proxyTx = (r: SendMessageResult, proxy: { address: { hash: Buffer } }) =>
            r.transactions.find((t) => t.address === BigInt('0x' + proxy.address.hash.toString('hex')))!;
        const v = as(s.evm.vault, s.evm.signers.user);

        // locks: the first deploys the representation on EVM, the second mints
        const l1 = await s.lock(1_000n);
        const l2 = await s.lock(2_000n, tvmEvmPayloadCell(s.toEvm({ payload: '0x' + 'ab'.repeat(254) })));
        section.record({
            path: 'ProxyMultiVaultNative.transfer_notification (lock to EVM: TvmEvmNative, excesses)',
            gas: gasOf(proxyTx(l1, s.proxies.native)),
            notes: `the whole TVM trace (wallets, proxy) ${totalFees(l1)} nanoton`,
        });
        section.record({
            path: 'ProxyMultiVaultNative.transfer_notification (lock to EVM, a 254-byte payload)',
            gas: gasOf(proxyTx(l2, s.proxies.native)),
            notes: `GAS_NATIVE_LOCK_EVM ${GAS_NATIVE_LOCK_EVM.toLocaleString('en-US')}; the whole TVM trace ${totalFees(l2)} nanoton`,
        });
        const [n1, n2] = await s.signNow();
        const r1 = await mined(sendWithdrawal(v, n1, { count: 3 }));
        const r2 = await mined(sendWithdrawal(v, n2, { count: 3 }));
        section.record({
            path: 'MultiVault.saveWithdrawNative of a real TvmEvmNative (first: deploys the representation, 3 signatures)',
            gas: Number(r1.gasUsed),
            notes: 'once per TVM token',
        });
        const g2 = Number(r2.gasUsed);
        section.record({
            path: 'MultiVault.saveWithdrawNative of a real TvmEvmNative (minted, a 254-byte payload, 3 signatures)',
            gas: g2,
            notes: `target <= ${TARGET_3} (transaction gas, the 21,000 base and calldata included)`,
        });

        // an EVM alien token: deposited on EVM, minted on TVM, burned back to EVM
        await depositErc20(s, 5_000_000n);
        await new EvmRelayService(s.evm, s.blockchain, s.alienConfiguration, s.relays, s.relayer).poll();
        const minter = (await s.proxies.alien.getEvmMinter(BigInt(s.evm.chainId), BigInt(s.evm.tokenAddress)))!;
        const b1 = await s.burn(minter, 1_000n, tvmEvmPayloadCell(s.toEvm({ remainingGasTo: s.recipient.address })));
        const b2 = await s.burn(minter, 2_000n, tvmEvmPayloadCell(s.toEvm({ remainingGasTo: s.recipient.address })));
        section.record({
            path: 'ProxyMultiVaultAlien.accept_tokens_burn (an EVM alien token to EVM: TvmEvmAlien, excesses)',
            gas: gasOf(proxyTx(b1, s.proxies.alien)),
            notes: `GAS_ALIEN_BURN_EVM 24,200; the whole TVM trace (wallet, minter, proxy) ${totalFees(b1)} nanoton`,
        });
        const [a1, a2] = await s.signNow();
        const w1 = await mined(sendWithdrawal(v, a1, { count: 3 }));
        const w2 = await mined(sendWithdrawal(v, a2, { count: 3 }));
        section.record({
            path: 'MultiVault.saveWithdrawAlien of a real TvmEvmAlien (ERC-20 to a new holder, 3 signatures)',
            gas: Number(w1.gasUsed),
            notes: "the recipient's and the fees' balances 0 -> non-zero",
        });
        const ga = Number(w2.gasUsed);
        section.record({
            path: 'MultiVault.saveWithdrawAlien of a real TvmEvmAlien (ERC-20 to a holder, 3 signatures)',
            gas: ga,
            notes: `target <= ${TARGET_3}; the second burn's proxy gas ${gasOf(proxyTx(b2, s.proxies.alien))}`,
        });
        expect(g2).toBeLessThanOrEqual(TARGET_3);
        expect(ga).toBeLessThanOrEqual(TARGET_3);
    });
});
