/**
 * TVM -> EVM end to end through the REAL proxies, relays and MultiVault (one jest process: Hardhat's
 * EVM beside @ton/sandbox). Fixture: tests/tvm_evm.util.ts. A lock of a TVM-native token (native
 * proxy) or a burn of an EVM alien token (alien proxy) emits TvmEvmNative / TvmEvmAlien; the relays
 * sign the withdrawal it names once its block is sealed; anyone sends it to the MultiVault with the
 * signatures, which mints the representation or pays the EVM token out (unwrapping the gas currency),
 * or records a pending withdrawal (over a limit, or short of liquidity) that is approved, filled by a
 * deposit, force-withdrawn or cancelled back to TVM.
 */
import '@ton/test-utils';
import { Address } from '@ton/core';
import { Contract, ZeroAddress } from 'ethers';
import { as } from '../wrappers/evm/MultiVault';
import { ApproveStatus, WithdrawalKind, withdrawalId } from '../wrappers/evm/withdrawals';
import { JettonWallet } from '../wrappers/JettonWallet';
import { tvmEvmPayloadCell } from '../lib/tvmEvmEvents';
import { sendWithdrawal } from '../harness/evm/tvmEvmRelay';
import { EvmRelayService } from '../harness/evm/relay';
import { tvmRecipient } from '../harness/evm/fixture';
import { depositErc20, evmFee, mined, tvmFee } from './evm_tvm.util';
import { tvmEvmSetup, TvmEvmSetup, USER_NATIVE } from './tvm_evm.util';

jest.setTimeout(180_000);

const WITHDRAW_FEE_BPS = 20n;
const wfee = (amount: bigint) => (amount * WITHDRAW_FEE_BPS + 9999n) / 10000n;

/** The vault's events in a receipt. */
function logsOf(vault: Contract, receipt: { logs: readonly { topics: readonly string[]; data: string }[] }) {
    return receipt.logs
        .map((l) => {
            try {
                return vault.interface.parseLog(l as never);
            } catch {
                return null;
            }
        })
        .filter((x) => x !== null);
}

/** An ERC-20 deposit minted on TVM to s.recipient (the relays of EVM -> TVM); returns the minter. */
async function erc20OnTvm(s: TvmEvmSetup, amount: bigint) {
    await depositErc20(s, amount);
    const service = new EvmRelayService(s.evm, s.blockchain, s.alienConfiguration, s.relays, s.relayer);
    await service.poll();
    const minter = (await s.proxies.alien.getEvmMinter(BigInt(s.evm.chainId), BigInt(s.evm.tokenAddress)))!;
    const bridged = amount - evmFee(amount);
    return { minter, minted: bridged - tvmFee(s, bridged), service };
}

describe('TVM -> EVM end to end', () => {
    it('lock a TVM-native token on TVM, receive its representation on EVM (sent by a stranger; once)', async () => {
        const s = await tvmEvmSetup({ withdrawFeeBps: WITHDRAW_FEE_BPS });
        const amount = 7_000_000n;
        const liquidityBefore = await s.proxies.native.getLiquidity(s.nativeToken.address);
        const r = await s.lock(amount);
        expect(r.transactions).toHaveTransaction({ to: s.proxies.native.address, success: true });
        // the tokens stay in the proxy as liquidity; the excesses go to remaining_gas_to
        expect(await s.userNativeWallet.getJettonBalance()).toBe(USER_NATIVE - amount);
        expect(await s.proxies.native.getLiquidity(s.nativeToken.address)).toBe(liquidityBefore + amount);
        expect(r.transactions).toHaveTransaction({
            from: s.proxies.native.address,
            to: s.user.address,
            op: 0xd53276db,
        });

        // relays sign only what is sealed
        expect(await s.relays.poll()).toEqual([]);
        const [signed] = await s.signNow();
        expect(signed.withdrawal.kind).toBe(WithdrawalKind.Native);
        expect(signed.found.proxy.equals(s.proxies.native.address)).toBe(true);
        expect(signed.withdrawal.amount).toBe(amount);
        expect(signed.withdrawal.recipient).toBe(s.evm.signers.other.address);
        const w = signed.withdrawal as typeof signed.withdrawal & { name: string; symbol: string; decimals: number };
        expect([w.name, w.symbol, w.decimals]).toEqual(['Tvm Native', 'TNT', 9]);
        // the hash of the proxy's transaction is the event id (the Transfer ID)
        const proxyTx = r.transactions.find(
            (t) => t.address === BigInt('0x' + s.proxies.native.address.hash.toString('hex')),
        )!;
        expect(signed.found.transactionHash).toBe(BigInt('0x' + proxyTx.hash().toString('hex')));

        // a stranger sends it; the recipient gets amount - withdrawal fee of the representation
        const stranger = s.evm.signers.user;
        const rc = await mined(sendWithdrawal(as(s.evm.vault, stranger), signed, { count: 3 }));
        const root = tvmRecipient(s.nativeToken.address);
        const token: string = await s.evm.vault.getFunction('predictNativeTokenAddress')(root.wid, root.addr);
        const rep = new Contract(
            token,
            ['function balanceOf(address) view returns (uint256)', 'function name() view returns (string)'],
            s.evm.provider,
        );
        expect(await rep.balanceOf(s.evm.signers.other.address)).toBe(amount - wfee(amount));
        expect(await rep.name()).toBe('Tvm Native');
        expect(await s.evm.vault.getFunction('fees')(token)).toBe(wfee(amount));
        expect(logsOf(s.evm.vault, rc).some((l) => l!.name === 'Withdrawal')).toBe(true);
        expect(await s.evm.vault.getFunction('withdrawalIds')(withdrawalId(0, signed.found.transactionHash))).toBe(
            true,
        );
        // never twice
        await expect(sendWithdrawal(as(s.evm.vault, stranger), signed)).rejects.toThrow('Withdraw: already withdrawn');
        // the relays sign an event once
        expect(await s.signNow()).toEqual([]);
    });
});
