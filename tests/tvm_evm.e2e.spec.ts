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
import { time } from '@nomicfoundation/hardhat-network-helpers';
import { Contract, computeAddress } from 'ethers';
import { as, depositNativeTokenParams, depositParams } from '../wrappers/evm/MultiVault';
import { ApproveStatus, signDigest, WithdrawalKind, withdrawalDigest, withdrawalId } from '../wrappers/evm/withdrawals';
import { tvmEvmPayloadCell } from '../lib/tvmEvmEvents';
import { sendWithdrawal } from '../harness/evm/tvmEvmRelay';
import { EvmRelayService } from '../harness/evm/relay';
import { tvmRecipient } from '../harness/evm/fixture';
import { depositErc20, evmFee, mined, tvmFee } from './evm_tvm.util';
import { relayEvmKeys, ROUND_TTL, tvmEvmSetup, TvmEvmSetup, USER_NATIVE } from './tvm_evm.util';

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
        expect(await s.tvmRelays.poll()).toEqual([]);
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

    it('burn an EVM-origin alien token on TVM, receive the original ERC-20 (relays from sealed blocks; a stranger sends)', async () => {
        const s = await tvmEvmSetup({ withdrawFeeBps: WITHDRAW_FEE_BPS });
        const { minter, minted } = await erc20OnTvm(s, 5_000_000n);
        const tvmWallet = await s.walletOf(minter);
        expect(await tvmWallet.getJettonBalance()).toBe(minted);
        const evmRecipient = s.evm.signers.other.address;
        const vaultBefore: bigint = await s.evm.token.getFunction('balanceOf')(s.evm.vaultAddress);
        const amount = minted - 1000n;
        const r = await s.burn(minter, amount, tvmEvmPayloadCell(s.toEvm({ remainingGasTo: s.recipient.address })));
        expect(r.transactions).toHaveTransaction({ to: s.proxies.alien.address, success: true });
        expect(await tvmWallet.getJettonBalance()).toBe(1000n);
        const [signed] = await s.signNow();
        expect(signed.withdrawal.kind).toBe(WithdrawalKind.Alien);
        expect((signed.withdrawal as { token: string }).token).toBe(s.evm.tokenAddress);
        const before: bigint = await s.evm.token.getFunction('balanceOf')(evmRecipient);
        await mined(sendWithdrawal(as(s.evm.vault, s.evm.signers.user), signed));
        expect((await s.evm.token.getFunction('balanceOf')(evmRecipient)) - before).toBe(amount - wfee(amount));
        expect(vaultBefore - (await s.evm.token.getFunction('balanceOf')(s.evm.vaultAddress))).toBe(
            amount - wfee(amount),
        );
    });

    it('the gas currency: a wrapped-native alien token burned on TVM arrives unwrapped', async () => {
        const s = await tvmEvmSetup();
        const amount = 10n ** 15n;
        await mined(
            s.evm.vaultAs(s.evm.signers.user).getFunction('depositByNativeToken')(
                depositNativeTokenParams(tvmRecipient(s.recipient.address)),
                { value: amount },
            ),
        );
        await s.evm.mine(2);
        await new EvmRelayService(s.evm, s.blockchain, s.alienConfiguration, s.relays, s.relayer).poll();
        const weth = await s.evm.weth.getAddress();
        const minter = (await s.proxies.alien.getEvmMinter(BigInt(s.evm.chainId), BigInt(weth)))!;
        const minted = await (await s.walletOf(minter)).getJettonBalance();
        expect(minted).toBeGreaterThan(0n);
        await s.burn(minter, minted, tvmEvmPayloadCell(s.toEvm({ remainingGasTo: s.recipient.address })));
        const [signed] = await s.signNow();
        const recipient = s.evm.signers.other.address;
        const before = await s.evm.provider.getBalance(recipient);
        await mined(sendWithdrawal(as(s.evm.vault, s.evm.signers.user), signed));
        expect((await s.evm.provider.getBalance(recipient)) - before).toBe(minted);
    });

    it('a withdrawal over the limit waits for the withdraw guardian, who approves it: paid', async () => {
        const s = await tvmEvmSetup();
        const root = tvmRecipient(s.nativeToken.address);
        const token: string = await s.evm.vault.getFunction('predictNativeTokenAddress')(root.wid, root.addr);
        // the representation exists after a first withdrawal; then a single-withdrawal limit
        await s.lock(10n);
        await mined(sendWithdrawal(as(s.evm.vault, s.evm.signers.user), (await s.signNow())[0]));
        await mined(s.g.getFunction('setWithdrawalLimits')(token, 1_000n, 0n));
        await s.lock(5_000n);
        const [signed] = await s.signNow();
        const rc = await mined(sendWithdrawal(as(s.evm.vault, s.evm.signers.user), signed));
        const created = logsOf(s.evm.vault, rc).find((l) => l!.name === 'PendingWithdrawalCreated')!;
        expect(Number(created.args.approveStatus)).toBe(ApproveStatus.Required);
        const recipient = s.evm.signers.other.address;
        const rep = new Contract(token, ['function balanceOf(address) view returns (uint256)'], s.evm.provider);
        expect(await rep.balanceOf(recipient)).toBe(10n);
        const pid = { recipient, id: created.args.id as bigint };
        // a stranger cannot approve
        await expect(
            as(s.evm.vault, s.evm.signers.user).getFunction('setPendingWithdrawalApprove')(pid, true),
        ).rejects.toThrow('Pending: caller is not withdraw guardian');
        await mined(as(s.evm.vault, s.evm.signers.guardian).getFunction('setPendingWithdrawalApprove')(pid, true));
        expect(await rep.balanceOf(recipient)).toBe(5_010n);
    });

    it("short of liquidity: pending with the recipient's bounty, filled by someone's deposit who earns the bounty on TVM", async () => {
        const s = await tvmEvmSetup();
        const { minter, minted, service } = await erc20OnTvm(s, 5_000_000n);
        // the vault's liquidity taken out (a strategy, in production)
        const all: bigint = await s.evm.token.getFunction('balanceOf')(s.evm.vaultAddress);
        await mined(s.g.getFunction('testTakeLiquidity')(s.evm.tokenAddress, s.evm.signers.governance.address, all));
        await s.burn(minter, minted, tvmEvmPayloadCell(s.toEvm({ remainingGasTo: s.recipient.address })));
        const [signed] = await s.signNow();
        const recipient = s.evm.signers.other;
        // the recipient sends it itself and sets a bounty
        const rc = await mined(sendWithdrawal(as(s.evm.vault, recipient), signed, { bounty: 1_000n }));
        const created = logsOf(s.evm.vault, rc).find((l) => l!.name === 'PendingWithdrawalCreated')!;
        expect(Number(created.args.approveStatus)).toBe(ApproveStatus.NotRequired);
        const pid = { recipient: recipient.address, id: created.args.id as bigint };
        expect((await s.evm.vault.getFunction('pendingWithdrawal')(pid.recipient, pid.id)).bounty).toBe(1_000n);
        // a depositor fills it: the recipient gets amount - bounty, the depositor's TVM transfer carries it
        const depositor = s.evm.signers.user;
        const deposit = minted * 2n;
        await mined(as(s.evm.token, depositor).getFunction('approve')(s.evm.vaultAddress, 2n * deposit));
        const fill = as(s.evm.vault, depositor).getFunction(
            'deposit((int8,uint256,address,uint256,uint256,bytes),uint256,(address,uint256)[])',
        );
        const depositorTvm = s.user.address;
        expect(
            await fill(depositParams(tvmRecipient(depositorTvm), s.evm.tokenAddress, minted - 1n), 0n, [pid]).catch(
                (e: Error) => e.message,
            ),
        ).toContain('Pending: deposit insufficient');
        const before: bigint = await s.evm.token.getFunction('balanceOf')(recipient.address);
        await mined(fill(depositParams(tvmRecipient(depositorTvm), s.evm.tokenAddress, deposit), 1_000n, [pid]));
        expect((await s.evm.token.getFunction('balanceOf')(recipient.address)) - before).toBe(minted - 1_000n);
        await expect(
            fill(depositParams(tvmRecipient(depositorTvm), s.evm.tokenAddress, deposit), 0n, [pid]),
        ).rejects.toThrow('Pending: already filled');
        // the depositor's AlienTransfer (deposit - fee + bounty) minted on TVM
        await s.evm.mine(2);
        await service.poll();
        const depositorWallet = await s.walletOf(minter, depositorTvm);
        const bridged = deposit - evmFee(deposit) + 1_000n;
        expect(await depositorWallet.getJettonBalance()).toBe(bridged - tvmFee(s, bridged));
    });

    it('a cancelled pending withdrawal arrives back on TVM; force-withdraw once liquidity is back', async () => {
        const s = await tvmEvmSetup();
        const { minter, minted, service } = await erc20OnTvm(s, 5_000_000n);
        const all: bigint = await s.evm.token.getFunction('balanceOf')(s.evm.vaultAddress);
        await mined(s.g.getFunction('testTakeLiquidity')(s.evm.tokenAddress, s.evm.signers.governance.address, all));
        const half = minted / 2n;
        await s.burn(minter, half, tvmEvmPayloadCell(s.toEvm({ remainingGasTo: s.recipient.address })));
        await s.burn(minter, minted - half, tvmEvmPayloadCell(s.toEvm({ remainingGasTo: s.recipient.address })));
        const [a, b] = await s.signNow();
        const recipient = s.evm.signers.other;
        const ids: { recipient: string; id: bigint }[] = [];
        for (const x of [a, b]) {
            const rc = await mined(sendWithdrawal(as(s.evm.vault, s.evm.signers.user), x));
            const created = logsOf(s.evm.vault, rc).find((l) => l!.name === 'PendingWithdrawalCreated')!;
            ids.push({ recipient: recipient.address, id: created.args.id as bigint });
        }
        // a stranger cannot cancel the recipient's (its own id points elsewhere) nor force it while short
        await expect(
            as(s.evm.vault, s.evm.signers.user).getFunction('cancelPendingWithdrawal')(ids[0].id, 1n, 0, 1n, 0n, '0x'),
        ).rejects.toThrow('Pending: wrong amount');
        await expect(as(s.evm.vault, s.evm.signers.user).getFunction('forceWithdraw')([ids[1]])).rejects.toThrow(
            'Pending: not enough liquidity',
        );
        // the recipient cancels the first back to a TVM address
        const back = await s.net.treasury('back on tvm');
        const tvm = tvmRecipient(back.address);
        await mined(
            as(s.evm.vault, recipient).getFunction('cancelPendingWithdrawal')(
                ids[0].id,
                half,
                tvm.wid,
                tvm.addr,
                0n,
                '0x',
            ),
        );
        await s.evm.mine(2);
        await service.poll();
        // no deposit fee on the way back: the TVM proxy's fee only
        expect(await (await s.walletOf(minter, back.address)).getJettonBalance()).toBe(half - tvmFee(s, half));
        // liquidity back: anyone force-withdraws the second
        await mined(as(s.evm.token, s.evm.signers.governance).getFunction('transfer')(s.evm.vaultAddress, all));
        const before: bigint = await s.evm.token.getFunction('balanceOf')(recipient.address);
        await mined(as(s.evm.vault, s.evm.signers.user).getFunction('forceWithdraw')([ids[1]]));
        expect((await s.evm.token.getFunction('balanceOf')(recipient.address)) - before).toBe(minted - half);
    });

    it("refused: a replay, too few signatures, non-relays, a past round's keys, an expired round", async () => {
        const s = await tvmEvmSetup();
        await s.lock(100n);
        await s.lock(200n);
        const [first, second] = await s.signNow();
        const v = as(s.evm.vault, s.evm.signers.user);
        // 2 of 4 (3 required)
        await expect(sendWithdrawal(v, first, { count: 2 })).rejects.toThrow('Bridge: not enough signatures');
        // signed by keys that are not the round's
        const strangers = relayEvmKeys(4, 'not relays');
        const forged = { ...first, signatures: strangers.map((k) => signDigest(k, first.digest)) };
        await expect(sendWithdrawal(v, forged)).rejects.toThrow('Bridge: not enough relay signatures');
        await mined(sendWithdrawal(v, first));
        await expect(sendWithdrawal(v, first)).rejects.toThrow('Withdraw: already withdrawn');
        // a new round with other relays: the old keys signing for it count for nothing
        const next = relayEvmKeys(4, 'round 2');
        await mined(
            as(s.evmBridge, s.evm.signers.governance).getFunction('setRoundRelays')(
                2,
                next.map((k) => computeAddress(k.publicKey)),
                (await time.latest()) + 10 * 24 * 3600,
            ),
        );
        const w2 = { ...second.withdrawal, round: 2 };
        const d2 = withdrawalDigest(s.evm.chainId, s.evm.vaultAddress, w2);
        const byOld = { ...second, withdrawal: w2, digest: d2, signatures: s.keys.map((k) => signDigest(k, d2)) };
        await expect(sendWithdrawal(v, byOld)).rejects.toThrow('Bridge: not enough relay signatures');
        // round 1's signatures after round 1's ttl
        await time.increase(24 * 3600 + ROUND_TTL + 1);
        await expect(sendWithdrawal(v, second)).rejects.toThrow('Bridge: round expired');
        const byNew = { ...byOld, signatures: next.map((k) => signDigest(k, d2)) };
        await mined(sendWithdrawal(v, byNew));
    });
});
