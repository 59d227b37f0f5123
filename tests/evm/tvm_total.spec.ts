import { loadFixture, setBalance } from '@nomicfoundation/hardhat-network-helpers';
import { Contract, id } from 'ethers';
import { EvmErrors } from '../../wrappers/evm/EvmErrors';
import { as, depositNativeTokenParams, depositParams } from '../../wrappers/evm/MultiVault';
import { AlienTransferFields, findDepositEvent } from '../../wrappers/evm/depositEvents';
import { RECIPIENT, NATIVE_ROOT, mined, revertReason, vaultFixture } from './fixtures';
import { withdrawalsFixture } from './withdrawals.fixture';

/**
 * What of one EVM token TVM can hold (issue 11 §4): the TVM alien token's total_supply is a Coins
 * value (below 2^120), so the MultiVault keeps `tvmOutstanding[token]`, what it has sent of the token
 * to TVM and not taken back (AlienTransfer amounts less alien withdrawals), below 2^120 and refuses
 * the transfer that would reach it ("Deposit: total on TVM would reach 2^120") with nothing moved.
 * Without it, deposits each below 2^120 were all taken, and the TVM minter refused the mint that
 * passed 2^120 (exit 5) with the deposit locked here for good (tests/evm_tvm.total.spec.ts follows
 * it through TVM).
 */
const E = EvmErrors.deposit;
const MAX = 2n ** 120n;
const PART = (MAX * 4n) / 10n;

function amountOf(r: Parameters<typeof findDepositEvent>[0], vault: Contract): bigint {
    return (findDepositEvent(r, vault.interface, { name: 'AlienTransfer' }).fields as AlienTransferFields).amount;
}

describe('MultiVault: the total of an EVM token on TVM stays below 2^120', () => {
    it('Deposit: total on TVM would reach 2^120: three deposits of 0.4 * 2^120 of one token, the third refused with nothing moved; up to 2^120 - 1 taken; after the fee; another token, the gas currency and a representation count apart', async () => {
        const f = await loadFixture(vaultFixture);
        const { vault, vaultAddress, token, tokenAddress, user } = f;
        const v = as(vault, user);
        await mined(token.mint(user.address, 3n * PART));
        await mined(as(token, user).approve(vaultAddress, 2n ** 200n));
        const held: bigint = await token.balanceOf(user.address);

        await mined(v.deposit(depositParams(RECIPIENT, tokenAddress, PART)));
        await mined(v.deposit(depositParams(RECIPIENT, tokenAddress, PART)));
        expect(await vault.tvmOutstanding(tokenAddress)).toBe(2n * PART);
        expect(await revertReason(v.deposit(depositParams(RECIPIENT, tokenAddress, PART)))).toBe(E.tvmTotalTooLarge);
        // nothing left the user, nothing more in the vault
        expect(await token.balanceOf(user.address)).toBe(held - 2n * PART);
        expect(await token.balanceOf(vaultAddress)).toBe(2n * PART);
        expect(await vault.tvmOutstanding(tokenAddress)).toBe(2n * PART);

        // the last unit TVM can hold is taken, one more is not
        const room = MAX - 1n - 2n * PART;
        expect(amountOf(await mined(v.deposit(depositParams(RECIPIENT, tokenAddress, room))), vault)).toBe(room);
        expect(await vault.tvmOutstanding(tokenAddress)).toBe(MAX - 1n);
        expect(await revertReason(v.deposit(depositParams(RECIPIENT, tokenAddress, 1n)))).toBe(E.tvmTotalTooLarge);

        // another token counts on its own; with a fee only what goes to TVM (amount - fee) counts
        const other = f.weth;
        await mined(as(vault, f.governance).setDefaultDepositFee(100));
        await setBalance(user.address, 2n ** 121n);
        const r = await mined(v.depositByNativeToken(depositNativeTokenParams(RECIPIENT), { value: PART }));
        const bridged = PART - (PART * 100n + 9999n) / 10000n;
        expect(amountOf(r, vault)).toBe(bridged);
        expect(await vault.tvmOutstanding(await other.getAddress())).toBe(bridged);
        expect(await vault.fees(await other.getAddress())).toBe(PART - bridged);

        // a representation of a TVM-native token is burned, never counted (the TVM side unlocks it
        // from the native proxy's liquidity)
        const g = as(vault, f.governance);
        await mined(g.deployNativeToken(NATIVE_ROOT.wid, NATIVE_ROOT.addr, 'Tvm Native', 'TNT', 9));
        const rep: string = await vault.predictNativeTokenAddress(NATIVE_ROOT.wid, NATIVE_ROOT.addr);
        await mined(g.testMintNative(rep, user.address, MAX - 1n));
        await mined(v.deposit(depositParams(RECIPIENT, rep, MAX - 1n)));
        expect(await vault.tvmOutstanding(rep)).toBe(0n);
    });

    it('alien withdrawals make room (their whole amount, the fee included, paid or pending); a fill carries its bounties to TVM and counts them; a pending withdrawal cancelled back to TVM counts again, refused while there is no room (it stays pending) or to a recipient outside the basechain', async () => {
        const f = await loadFixture(withdrawalsFixture);
        const { vault, vaultAddress, token, tokenAddress, user, other } = f;
        const out = (): Promise<bigint> => vault.tvmOutstanding(tokenAddress);
        // the fixture's deposit: 10^12 sent to TVM
        expect(await out()).toBe(10n ** 12n);
        await mined(f.g.setDefaultWithdrawFee(100));
        await mined(f.saveAlien(f.alien({ amount: 10_000n })));
        expect(await out()).toBe(10n ** 12n - 10_000n);

        // short of liquidity: pending with a bounty; it left TVM all the same
        const all: bigint = await token.balanceOf(vaultAddress);
        await mined(f.g.testTakeLiquidity(tokenAddress, f.governance.address, all - (await vault.fees(tokenAddress))));
        const w = f.alien({ amount: 20_000n });
        await mined(f.saveAlien(w, { bounty: 300n, from: as(vault, other) }));
        expect(await out()).toBe(10n ** 12n - 30_000n);
        const pid = { recipient: w.recipient, id: 0n };
        expect((await vault.pendingWithdrawal(w.recipient, 0n)).amount).toBe(20_000n - 200n);

        // fill the whole room, then cancelling is refused: the withdrawal stays pending
        await mined(token.mint(user.address, MAX));
        await mined(as(token, user).approve(vaultAddress, 2n ** 200n));
        await mined(f.g.setDefaultDepositFee(0));
        const room = MAX - 1n - (await out());
        await mined(as(vault, user).deposit(depositParams(RECIPIENT, tokenAddress, room - 5_000n)));
        expect(await out()).toBe(MAX - 1n - 5_000n);
        const tvm = { wid: 0, addr: BigInt(id('tvm recipient')) };
        const mine = as(vault, other);
        expect(await revertReason(mine.cancelPendingWithdrawal(0n, 5_001n, tvm.wid, tvm.addr, 0n, '0x'))).toBe(
            E.tvmTotalTooLarge,
        );
        expect(await revertReason(mine.cancelPendingWithdrawal(0n, 100n, -1, tvm.addr, 0n, '0x'))).toBe(
            E.recipientNotBasechain,
        );
        expect((await vault.pendingWithdrawal(w.recipient, 0n)).amount).toBe(19_800n);
        expect(await vault.pendingWithdrawalsTotal(tokenAddress)).toBe(19_800n);
        const r = await mined(mine.cancelPendingWithdrawal(0n, 5_000n, tvm.wid, tvm.addr, 0n, '0x'));
        expect(amountOf(r, vault)).toBe(5_000n);
        expect(await out()).toBe(MAX - 1n);
        expect((await vault.pendingWithdrawal(w.recipient, 0n)).amount).toBe(14_800n);

        // a deposit filling the rest carries amount - fee + the bounty to TVM: refused while there is
        // no room for it, taken once a withdrawal made it
        const fill = (amount: bigint) =>
            as(vault, user).getFunction(
                'deposit((int8,uint256,address,uint256,uint256,bytes),uint256,(address,uint256)[])',
            )(depositParams(RECIPIENT, tokenAddress, amount), 0n, [pid]);
        expect(await revertReason(fill(14_800n))).toBe(E.tvmTotalTooLarge);
        await mined(f.saveAlien(f.alien({ amount: 1_000_000n })));
        expect(await out()).toBe(MAX - 1n - 1_000_000n);
        const paidBefore: bigint = await token.balanceOf(w.recipient);
        const rf = await mined(fill(20_000n));
        // the recipient got 14_800 - 300 out of it; TVM gets the deposit (no fee now) and the bounty
        expect((await token.balanceOf(w.recipient)) - paidBefore).toBe(14_800n - 300n);
        expect(amountOf(rf, vault)).toBe(20_000n + 300n);
        expect(await out()).toBe(MAX - 1n - 1_000_000n + 20_300n);
    });

    it('a withdrawal larger than what the vault counts on TVM (tokens another vault sent there) leaves the count at 0, never below', async () => {
        const f = await loadFixture(withdrawalsFixture);
        await mined(as(f.token, f.user).transfer(f.vaultAddress, 10n ** 13n));
        await mined(f.saveAlien(f.alien({ amount: 10n ** 12n + 1n })));
        expect(await f.vault.tvmOutstanding(f.tokenAddress)).toBe(0n);
    });
});
