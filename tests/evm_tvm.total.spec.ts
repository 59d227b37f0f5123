/**
 * Issue 11 §4, the total of one EVM token on TVM, end to end (Hardhat's EVM beside @ton/sandbox, the
 * real MultiVault, relays, configuration, alien proxy and minter; tests/tvm_evm.util.ts).
 *
 * The alien token's total_supply on TVM is a Coins value (below 2^120), as is each deposit's amount.
 * Before the vault counted what it had sent to TVM, three deposits of 0.4 * 2^120 of one token were
 * all taken; the third's mint made the minter's total_supply pass 2^120 - 1 and the minter's compute
 * phase failed (exit 5, range check: the supply is stored as Coins); the mint bounced to the alien
 * proxy, which has no handler for it and kept its TON; the Event stayed Confirmed (the API says
 * Completed: the proxy's transaction sent the mint), the recipient got nothing, the proxy counted the
 * third deposit's fee, and the deposit stayed locked in the vault with no way out. Now the vault
 * refuses that deposit ("Deposit: total on TVM would reach 2^120") with nothing moved, and takes it
 * once tokens have come back to EVM.
 *
 * The same class on TVM: a daily limit's count of the day (approved transfers included) was a Coins
 * value; approved deposits of a token that came back in between could take it past 2^120, and the
 * alien proxy's transaction failed storing it (exit 5): the bounce went to the configuration, which
 * ignores it, the Event stayed Confirmed (API Completed) and nothing was minted. The count is a
 * VarUInteger 32 now (proxy.tlb, daily_limit).
 */
import '@ton/test-utils';
import { Address, toNano } from '@ton/core';
import { Contract } from 'ethers';
import { EvmErrors } from '../wrappers/evm/EvmErrors';
import { as, depositParams } from '../wrappers/evm/MultiVault';
import { EvmEventStatus } from '../wrappers/EvmTvmEventConfiguration';
import { toTransferStatus, TransferStatus } from '../wrappers/eventStatus';
import { ProxyMessages } from '../wrappers/ProxyMultiVaultNative';
import { limitActionMessage } from '../wrappers/tvmTvmEvent';
import { JettonMinter } from '../wrappers/JettonMinter';
import { MultiVaultEvmTvmEventAlien } from '../wrappers/MultiVaultEvmTvmEventAlien';
import { tvmEvmPayloadCell } from '../lib/tvmEvmEvents';
import { sendWithdrawal } from '../harness/evm/tvmEvmRelay';
import { EvmRelayService } from '../harness/evm/relay';
import { tvmRecipient } from '../harness/evm/fixture';
import { effectsOf } from '../service/indexer/tvm';
import { revertReason } from './evm/fixtures';
import { computeOf, depositErc20, evmFee, mined, proxyTx, lastOf, tvmFee } from './evm_tvm.util';
import { tvmEvmSetup } from './tvm_evm.util';

jest.setTimeout(180_000);

const MAX = 2n ** 120n;
const PART = (MAX * 4n) / 10n;

it('three deposits of 0.4 * 2^120 of one EVM token: two minted on TVM, the third refused by the vault with nothing moved ("Deposit: total on TVM would reach 2^120"), taken and minted once tokens came back to EVM; every token followed on both sides', async () => {
    const s = await tvmEvmSetup();
    const { user } = s.evm.signers;
    const evmToken = s.evm.token as Contract;
    const balanceOf = async (a: string): Promise<bigint> => evmToken.getFunction('balanceOf')(a);
    const vaultFees = async (): Promise<bigint> => s.evm.vault.getFunction('fees')(s.evm.tokenAddress);
    const outstanding = async (): Promise<bigint> => s.evm.vault.getFunction('tvmOutstanding')(s.evm.tokenAddress);
    await mined(evmToken.getFunction('mint')(user.address, 3n * PART));
    const userStart = await balanceOf(user.address);
    const service = new EvmRelayService(s.evm, s.blockchain, s.alienConfiguration, s.relays, s.relayer);
    const chainId = BigInt(s.evm.chainId);
    const bridged = PART - evmFee(PART);
    const minted = bridged - tvmFee(s, bridged);

    /** A deposit relayed to TVM: its Event Confirmed, what the indexer records of the proxy's transaction. */
    const depositAndRelay = async () => {
        await depositErc20(s, PART);
        const [p] = await service.poll();
        const event = s.blockchain.openContract(MultiVaultEvmTvmEventAlien.createFromAddress(p.eventAddress));
        // Confirmed is "Completed" through the API once the indexer saw the proxy's delivery
        expect(Number(await event.getGetStatus())).toBe(EvmEventStatus.Confirmed);
        const effects = effectsOf(
            proxyTx(lastOf(p.votes), s.proxies.alien.address),
            {
                role: 'proxy',
                address: s.proxies.alien.address,
            },
            s.net.globalId,
        );
        expect(effects.deliveries.map((d) => d.delivery.deliveredAmount)).toEqual([minted.toString()]);
        return p.eventAddress;
    };
    await depositAndRelay();
    await depositAndRelay();
    const minter = (await s.proxies.alien.getEvmMinter(chainId, BigInt(s.evm.tokenAddress)))!;
    const tvmMinter = s.blockchain.openContract(JettonMinter.createFromAddress(minter));
    const supply = async () => (await tvmMinter.getGetJettonData()).totalSupply;
    const wallet = await s.walletOf(minter);

    /** EVM: the vault holds its fees and what is on TVM; TVM: the supply and the proxy's fees are that. */
    const conserved = async () => {
        expect(await balanceOf(s.evm.vaultAddress)).toBe((await vaultFees()) + (await outstanding()));
        expect((await supply()) + (await s.proxies.alien.getAccumulatedFees(minter))).toBe(await outstanding());
    };
    expect(await outstanding()).toBe(2n * bridged);
    expect(await supply()).toBe(2n * minted);
    expect(await wallet.getJettonBalance()).toBe(2n * minted);
    await conserved();

    // the third: each deposit is below 2^120, together they are not
    expect(3n * bridged).toBeGreaterThanOrEqual(MAX);
    const userBefore = await balanceOf(user.address);
    await mined(as(evmToken, user).getFunction('approve')(s.evm.vaultAddress, PART));
    expect(
        await revertReason(
            s.evm.vaultAs(user).getFunction('deposit')(
                depositParams(tvmRecipient(s.recipient.address), s.evm.tokenAddress, PART),
            ),
        ),
    ).toBe(EvmErrors.deposit.tvmTotalTooLarge);
    await s.evm.mine(2);
    expect(await balanceOf(user.address)).toBe(userBefore);
    expect(await balanceOf(s.evm.vaultAddress)).toBe(2n * PART);
    // no transfer exists: no log for the relays, no Event, no Transfer ID for the API
    expect(await service.poll()).toEqual([]);
    expect(await supply()).toBe(2n * minted);
    await conserved();

    // the way back makes room: the recipient burns part of it on TVM for EVM, the relays sign, a
    // anyone sends the withdrawal (the depositor here)
    const back = PART / 2n;
    const r = await s.burn(minter, back, tvmEvmPayloadCell(s.toEvm({ remainingGasTo: s.recipient.address })));
    expect(r.transactions).toHaveTransaction({ to: s.proxies.alien.address, success: true });
    const [signed] = await s.signNow();
    const evmRecipient = s.evm.signers.other.address;
    await mined(sendWithdrawal(as(s.evm.vault, user), signed));
    expect(await balanceOf(evmRecipient)).toBe(back);
    expect(await outstanding()).toBe(2n * bridged - back);
    await conserved();

    // now the third deposit fits, and is minted
    await depositAndRelay();
    expect(await outstanding()).toBe(3n * bridged - back);
    expect(await outstanding()).toBeLessThan(MAX);
    expect(await supply()).toBe(3n * minted - back);
    expect(await wallet.getJettonBalance()).toBe(3n * minted - back);
    expect(await balanceOf(user.address)).toBe(userStart - 3n * PART);
    expect(await balanceOf(s.evm.vaultAddress)).toBe(3n * PART - back);
    await conserved();
});

it("the day's count of a daily limit goes past 2^120 (approved transfers of a token that came back between them): each approved deposit is minted, the Event Confirmed, the count exact", async () => {
    const s = await tvmEvmSetup();
    const { user } = s.evm.signers;
    const evmToken = s.evm.token as Contract;
    const big = (MAX * 6n) / 10n;
    await mined(evmToken.getFunction('mint')(user.address, 2n * big + 10n ** 6n));
    const service = new EvmRelayService(s.evm, s.blockchain, s.alienConfiguration, s.relays, s.relayer);
    const chainId = BigInt(s.evm.chainId);
    const relayed = async (amount: bigint) => {
        await depositErc20(s, amount);
        const [p] = await service.poll();
        return s.blockchain.openContract(MultiVaultEvmTvmEventAlien.createFromAddress(p.eventAddress));
    };
    // a first deposit deploys the minter, then the owner limits it
    await relayed(10n ** 6n);
    const minter = (await s.proxies.alien.getEvmMinter(chainId, BigInt(s.evm.tokenAddress)))!;
    await s.proxies.alien.sendBody(s.proxyOwner.getSender(), ProxyMessages.setDailyLimit(minter, 10n ** 9n));
    const wallet = await s.walletOf(minter);
    const bridged = big - evmFee(big);
    const approved = async () => {
        const event = await relayed(big);
        expect(Number(await event.getGetStatus())).toBe(EvmEventStatus.LimitReached);
        const r = await s.proxyOwner.send({
            to: event.address,
            value: toNano('0.5'),
            body: limitActionMessage('approveLimit'),
        });
        return { event, r };
    };
    const first = await approved();
    expect(Number(await first.event.getGetStatus())).toBe(EvmEventStatus.Confirmed);
    const held = await wallet.getJettonBalance();
    expect(held).toBe(
        10n ** 6n - evmFee(10n ** 6n) - tvmFee(s, 10n ** 6n - evmFee(10n ** 6n)) + bridged - tvmFee(s, bridged),
    );
    // all of it back to EVM: the vault has room again for the same amount
    await s.burn(minter, held, tvmEvmPayloadCell(s.toEvm({ remainingGasTo: s.recipient.address })));
    await mined(sendWithdrawal(as(s.evm.vault, user), (await s.signNow())[0]));
    expect(await wallet.getJettonBalance()).toBe(0n);

    // the same day, another approved one: the day's count is now above 2^120
    const second = await approved();
    const ptx = second.r.transactions.find(
        (t) => t.inMessage?.info.dest instanceof Address && t.inMessage.info.dest.equals(s.proxies.alien.address),
    )!;
    expect(computeOf(ptx).exitCode).toBe(0);
    expect(Number(await second.event.getGetStatus())).toBe(EvmEventStatus.Confirmed);
    expect(toTransferStatus(EvmEventStatus.Confirmed)).toBe(TransferStatus.Completed);
    expect(await wallet.getJettonBalance()).toBe(bridged - tvmFee(s, bridged));
    // both approved ones counted (the first deposit came before the limit): above what Coins holds
    expect((await s.proxies.alien.getDailyLimit(minter))!.used).toBe(2n * bridged);
    expect(2n * bridged).toBeGreaterThanOrEqual(MAX);
});
