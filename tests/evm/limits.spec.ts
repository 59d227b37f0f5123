import hre from 'hardhat';
import { loadFixture, time } from '@nomicfoundation/hardhat-network-helpers';
import { Contract } from 'ethers';
import { EvmErrors } from '../../wrappers/evm/EvmErrors';
import {
    as,
    depositNativeTokenParams,
    depositParams,
    evmContractAt,
    multiVaultInterface,
} from '../../wrappers/evm/MultiVault';
import { findDepositEvent } from '../../wrappers/evm/depositEvents';
import { NATIVE_ROOT, RECIPIENT, mined, revertReason, vaultFixture } from './fixtures';

/**
 * Deposit limit over the rolling 24-hour window (MultiVault._consumeLimit): one-hour buckets
 * b = timestamp / 3600; a deposit made in bucket b counts until timestamp (b + 25) * 3600 exclusive.
 */
const HOUR = 3600;
const LIMIT = 1_000_000n;

async function limitFixture() {
    const f = await vaultFixture();
    await mined(as(f.token, f.user).approve(f.vaultAddress, 2n ** 200n));
    await mined(as(f.vault, f.governance).setDepositLimit(f.tokenAddress, LIMIT));
    // start well inside a fresh bucket: the start of a bucket two hours ahead
    const now = await time.latest();
    const h0 = Math.floor(now / HOUR) + 2;
    return { ...f, h0 };
}

/** Sends a deposit mined at exactly `timestamp`; returns 'ok' or the revert reason. */
async function depositAt(vault: Contract, token: string, timestamp: number, amount: bigint): Promise<string> {
    await time.setNextBlockTimestamp(timestamp);
    try {
        const tx = await vault.deposit(depositParams(RECIPIENT, token, amount), { gasLimit: 1_000_000 });
        await tx.wait();
        return 'ok';
    } catch (e) {
        return revertReason(Promise.reject(e));
    }
}

describe('MultiVault deposit limit (rolling 24-hour window)', () => {
    const VIOLATED = EvmErrors.deposit.limitsViolated;

    it('should accept deposits up to the limit exactly, then refuse one unit more with "Deposit: limits violated"', async () => {
        const { vault, tokenAddress, user, h0 } = await loadFixture(limitFixture);
        const v = as(vault, user);
        expect(await depositAt(v, tokenAddress, h0 * HOUR + 10, 400_000n)).toBe('ok');
        expect(await depositAt(v, tokenAddress, h0 * HOUR + 20, 600_000n)).toBe('ok');
        expect(await depositAt(v, tokenAddress, h0 * HOUR + 30, 1n)).toBe(VIOLATED);
        const [limit, used, available] = await vault.depositLimit(tokenAddress);
        expect([limit, used, available]).toEqual([LIMIT, LIMIT, 0n]);
        // a single deposit above the limit
        expect(await revertReason(v.deposit(depositParams(RECIPIENT, tokenAddress, LIMIT + 1n)))).toBe(VIOLATED);
    });

    it('edge: a deposit at the first second of bucket b blocks until (b + 25) * 3600 exactly', async () => {
        const { vault, tokenAddress, user, h0 } = await loadFixture(limitFixture);
        const v = as(vault, user);
        const t = h0 * HOUR; // first second of bucket h0
        expect(await depositAt(v, tokenAddress, t, LIMIT)).toBe('ok');
        expect(await depositAt(v, tokenAddress, t + 24 * HOUR, 1n)).toBe(VIOLATED); // 24 h later: still counted
        expect(await depositAt(v, tokenAddress, (h0 + 25) * HOUR - 1, 1n)).toBe(VIOLATED); // last second
        expect(await depositAt(v, tokenAddress, (h0 + 25) * HOUR, LIMIT)).toBe('ok'); // 25 h later: released
    });

    it('edge: a deposit at the last second of bucket b is released 24 h + 1 s later, never before 24 h', async () => {
        const { vault, tokenAddress, user, h0 } = await loadFixture(limitFixture);
        const v = as(vault, user);
        const t = h0 * HOUR + HOUR - 1; // last second of bucket h0
        expect(await depositAt(v, tokenAddress, t, LIMIT)).toBe('ok');
        expect(await depositAt(v, tokenAddress, t + 24 * HOUR, 1n)).toBe(VIOLATED); // exactly 24 h later
        expect(await depositAt(v, tokenAddress, t + 24 * HOUR + 1, LIMIT)).toBe('ok'); // = (h0 + 25) * 3600
    });

    it('should release each bucket on its own (partial expiry) and count a bucket once', async () => {
        const { vault, tokenAddress, user, h0 } = await loadFixture(limitFixture);
        const v = as(vault, user);
        expect(await depositAt(v, tokenAddress, h0 * HOUR + 100, 300_000n)).toBe('ok'); // bucket h0
        expect(await depositAt(v, tokenAddress, h0 * HOUR + 200, 100_000n)).toBe('ok'); // bucket h0 again
        expect(await depositAt(v, tokenAddress, (h0 + 3) * HOUR + 5, 500_000n)).toBe('ok'); // bucket h0 + 3
        expect(await depositAt(v, tokenAddress, (h0 + 24) * HOUR + 5, 100_001n)).toBe(VIOLATED); // 900,000 used
        // bucket h0 (400,000) left; bucket h0 + 3 (500,000) still in
        expect(await depositAt(v, tokenAddress, (h0 + 25) * HOUR, 500_001n)).toBe(VIOLATED);
        expect(await depositAt(v, tokenAddress, (h0 + 25) * HOUR + 1, 500_000n)).toBe('ok'); // bucket h0 + 25
        // bucket h0 + 3 leaves at (h0 + 28) * 3600; h0 + 25 stays
        expect(await depositAt(v, tokenAddress, (h0 + 28) * HOUR - 1, 1n)).toBe(VIOLATED);
        expect(await depositAt(v, tokenAddress, (h0 + 28) * HOUR, 500_000n)).toBe('ok');
        expect(await depositAt(v, tokenAddress, (h0 + 28) * HOUR + 1, 1n)).toBe(VIOLATED);
        // after 25 idle buckets the window is empty again
        expect(await depositAt(v, tokenAddress, (h0 + 60) * HOUR, LIMIT)).toBe('ok');
    });

    it('should match a reference model on random deposits, and never let more than the limit in within 24 h', async () => {
        const { vault, tokenAddress, user, h0 } = await loadFixture(limitFixture);
        const v = as(vault, user);
        let seed = 12345;
        const rnd = (n: number) => {
            seed = (seed * 1103515245 + 12345) % 2 ** 31;
            return seed % n;
        };
        const accepted: { t: number; a: bigint }[] = [];
        let t = h0 * HOUR;
        for (let i = 0; i < 40; i++) {
            t += 1 + rnd(4 * HOUR);
            const a = BigInt(1 + rnd(450_000));
            const b = Math.floor(t / HOUR);
            const used = accepted.filter((d) => Math.floor(d.t / HOUR) >= b - 24).reduce((s, d) => s + d.a, 0n);
            const expected = used + a <= LIMIT ? 'ok' : VIOLATED;
            expect(await depositAt(v, tokenAddress, t, a)).toBe(expected);
            if (expected === 'ok') accepted.push({ t, a });
        }
        expect(accepted.length).toBeGreaterThan(10);
        expect(accepted.length).toBeLessThan(40);
        for (const d of accepted) {
            const inDay = accepted.filter((x) => x.t > d.t - 24 * HOUR && x.t <= d.t).reduce((s, x) => s + x.a, 0n);
            expect(inDay).toBeLessThanOrEqual(LIMIT);
        }
    });

    it('should count the amount before the fee, per token, and apply to burns and gas-currency deposits', async () => {
        const { vault, tokenAddress, governance, user, weth, deployer } = await loadFixture(limitFixture);
        const iface = await multiVaultInterface(hre);
        const g = as(vault, governance);
        const v = as(vault, user);
        await mined(g.setDefaultDepositFee(100));
        const r = await mined(v.deposit(depositParams(RECIPIENT, tokenAddress, LIMIT)));
        expect(findDepositEvent(r, iface).fields.amount).toBe(990_000n);
        expect(await revertReason(v.deposit(depositParams(RECIPIENT, tokenAddress, 1n)))).toBe(VIOLATED);

        // gas currency: WETH has its own limit
        await mined(g.setDepositLimit(await weth.getAddress(), 1_000n));
        await mined(v.depositByNativeToken(depositNativeTokenParams(RECIPIENT, { creditGas: 7n }), { value: 1_007n }));
        expect(await revertReason(v.depositByNativeToken(depositNativeTokenParams(RECIPIENT), { value: 1n }))).toBe(
            VIOLATED,
        );

        // representation burn
        await mined(g.deployNativeToken(NATIVE_ROOT.wid, NATIVE_ROOT.addr, 'Toncoin', 'TON', 9));
        const nativeAddress = await vault.predictNativeTokenAddress(NATIVE_ROOT.wid, NATIVE_ROOT.addr);
        await mined(g.testMintNative(nativeAddress, user.address, 10_000n));
        await mined(g.setDepositLimit(nativeAddress, 5_000n));
        await mined(v.deposit(depositParams(RECIPIENT, nativeAddress, 5_000n)));
        expect(await revertReason(v.deposit(depositParams(RECIPIENT, nativeAddress, 1n)))).toBe(VIOLATED);
        const native = await evmContractAt(hre, 'MultiVaultToken', nativeAddress, deployer);
        expect(await native.balanceOf(user.address)).toBe(5_000n);
    });

    it('should stop limiting at limit 0 and block while a lowered limit is below the window usage', async () => {
        const { vault, tokenAddress, governance, user } = await loadFixture(limitFixture);
        const g = as(vault, governance);
        const v = as(vault, user);
        await mined(v.deposit(depositParams(RECIPIENT, tokenAddress, 600_000n)));
        await mined(g.setDepositLimit(tokenAddress, 500_000n));
        expect(await revertReason(v.deposit(depositParams(RECIPIENT, tokenAddress, 1n)))).toBe(VIOLATED);
        const [, used, available] = await vault.depositLimit(tokenAddress);
        expect([used, available]).toEqual([600_000n, 0n]);
        await mined(g.setDepositLimit(tokenAddress, 0n));
        await mined(v.deposit(depositParams(RECIPIENT, tokenAddress, 5n * LIMIT)));
        const [limit, , avail] = await vault.depositLimit(tokenAddress);
        expect([limit, avail]).toEqual([0n, 2n ** 256n - 1n]);
    });
});
