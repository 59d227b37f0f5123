import hre from 'hardhat';
import { time } from '@nomicfoundation/hardhat-network-helpers';
import { Contract, TransactionReceipt } from 'ethers';
import { benchEvm, GasSection } from '../../harness/bench';
import {
    as,
    depositNativeTokenParams,
    depositParams,
    deployMultiVault,
    deployTestToken,
    deployWeth,
    parseTvmAddress,
} from '../../wrappers/evm/MultiVault';

/**
 * Gas of every MultiVault deposit kind: the receipt's gasUsed (21,000 intrinsic included).
 * "warm" = the vault already holds the token and the token was seen before (metadata cached);
 * non-credit mode (value 0), expected_gas set, empty payload, no fee and no limit unless stated.
 */
const TARGET_WARM_ALIEN = 107_000n;
const RECIPIENT = parseTvmAddress('0:' + 'ab'.repeat(32));
const NATIVE_ROOT = parseTvmAddress('0:' + '5e'.repeat(32));

const section = new GasSection('EVM MultiVault deposits');

async function gasOf(tx: Promise<{ wait(): Promise<TransactionReceipt | null> }>): Promise<bigint> {
    const receipt = await (await tx).wait();
    return receipt!.gasUsed;
}

// a Hardhat network of this spec's own, on a fixed clock: the report does not move from run to run
beforeAll(() => benchEvm(hre));

describe('bench: MultiVault deposits', () => {
    let vault: Contract;
    let user: Awaited<ReturnType<typeof hre.ethers.getSigners>>[number];
    let governance: typeof user;
    let tokenAddress: string;
    let wethAddress: string;

    beforeAll(async () => {
        const [deployer, gov, guardian, u] = await hre.ethers.getSigners();
        user = u;
        governance = gov;
        const weth = await deployWeth(hre, deployer);
        wethAddress = await weth.getAddress();
        vault = await deployMultiVault(hre, deployer, {
            governance: gov.address,
            guardian: guardian.address,
            weth: wethAddress,
        });
        const token = await deployTestToken(hre, deployer, 'Test Token', 'TST', 6);
        tokenAddress = await token.getAddress();
        await (await token.mint(user.address, 10n ** 18n)).wait();
        await (await as(token, user).approve(await vault.getAddress(), 2n ** 255n)).wait();
    });

    afterAll(() => section.write());

    it('alien ERC-20: first deposit and warm deposits', async () => {
        const v = as(vault, user);
        const params = depositParams(RECIPIENT, tokenAddress, 1_000_000n, { expectedGas: 500_000_000n });
        const first = await gasOf(v.deposit(params));
        section.record({
            path: 'MultiVault.deposit (alien ERC-20, first time)',
            gas: Number(first),
            notes: 'reads and caches name/symbol/decimals; vault balance 0 -> non-zero',
        });
        const warm = await gasOf(v.deposit(params));
        section.record({
            path: 'MultiVault.deposit (alien ERC-20, warm)',
            gas: Number(warm),
            notes: `target <= ${TARGET_WARM_ALIEN.toLocaleString('en-US')}; no fee, no limit`,
        });
        expect(warm).toBeLessThanOrEqual(TARGET_WARM_ALIEN);

        const credit = await gasOf(v.deposit(params, { value: 10n ** 15n }));
        section.record({
            path: 'MultiVault.deposit (alien ERC-20, warm, credit value)',
            gas: Number(credit),
            notes: 'msg.value > 0',
        });

        const payload = '0x' + 'ab'.repeat(128);
        const withPayload = await gasOf(v.deposit({ ...params, payload }));
        section.record({ path: 'MultiVault.deposit (alien ERC-20, warm, 128-byte payload)', gas: Number(withPayload) });

        const g = as(vault, governance);
        await (await g.setDefaultDepositFee(10)).wait();
        await (await g.setDepositLimit(tokenAddress, 10n ** 15n)).wait();
        await gasOf(v.deposit(params)); // fee accrual slot and first bucket written
        const feeLimit = await gasOf(v.deposit(params));
        section.record({
            path: 'MultiVault.deposit (alien ERC-20, warm, fee + limit)',
            gas: Number(feeLimit),
            notes: 'fee 10 bps (accrued before), limit set, same hour bucket',
        });
        expect(feeLimit).toBeLessThanOrEqual(TARGET_WARM_ALIEN);

        await time.increase(3600);
        const nextHour = await gasOf(v.deposit(params));
        section.record({
            path: 'MultiVault.deposit (alien ERC-20, fee + limit, next hour)',
            gas: Number(nextHour),
            notes: 'new bucket',
        });
        await time.increase(23 * 3600);
        const worst = await gasOf(v.deposit(params));
        section.record({
            path: 'MultiVault.deposit (alien ERC-20, fee + limit, 23 idle hours)',
            gas: Number(worst),
            notes: 'worst case of the window: 23 expired buckets read',
        });
        // steady state: every bucket slot of the ring written once, so a new bucket rewrites a used slot
        for (let i = 0; i < 25; i++) {
            await time.increase(3600);
            await gasOf(v.deposit(params));
        }
        await time.increase(3600);
        const steady = await gasOf(v.deposit(params));
        section.record({
            path: 'MultiVault.deposit (alien ERC-20, fee + limit, next hour, steady state)',
            gas: Number(steady),
            notes: 'the bucket slot reused (non-zero -> non-zero)',
        });
        expect(steady).toBeLessThanOrEqual(TARGET_WARM_ALIEN);
        await time.increase(23 * 3600);
        const steadyWorst = await gasOf(v.deposit(params));
        section.record({
            path: 'MultiVault.deposit (alien ERC-20, fee + limit, 23 idle hours, steady state)',
            gas: Number(steadyWorst),
        });
    });

    it('native representation burn', async () => {
        const [deployer, gov, guardian, u] = await hre.ethers.getSigners();
        const harness = await deployMultiVault(hre, deployer, {
            governance: gov.address,
            guardian: guardian.address,
            weth: wethAddress,
            harness: true,
        });
        const g = as(harness, gov);
        await (await g.deployNativeToken(NATIVE_ROOT.wid, NATIVE_ROOT.addr, 'Toncoin', 'TON', 9)).wait();
        const native = await harness.predictNativeTokenAddress(NATIVE_ROOT.wid, NATIVE_ROOT.addr);
        await (await g.testMintNative(native, u.address, 10n ** 15n)).wait();
        const v = as(harness, u);
        const params = depositParams(RECIPIENT, native, 1_000_000n, { expectedGas: 500_000_000n });
        const first = await gasOf(v.deposit(params));
        section.record({ path: 'MultiVault.deposit (native representation burn, first)', gas: Number(first) });
        const warm = await gasOf(v.deposit(params));
        section.record({ path: 'MultiVault.deposit (native representation burn, warm)', gas: Number(warm) });
    });

    it('gas currency (depositByNativeToken)', async () => {
        const v = as(vault, user);
        const params = depositNativeTokenParams(RECIPIENT, { expectedGas: 500_000_000n });
        const first = await gasOf(v.depositByNativeToken(params, { value: 10n ** 16n }));
        section.record({
            path: 'MultiVault.depositByNativeToken (first time)',
            gas: Number(first),
            notes: 'caches WETH metadata; vault WETH balance 0 -> non-zero',
        });
        const warm = await gasOf(v.depositByNativeToken(params, { value: 10n ** 16n }));
        section.record({ path: 'MultiVault.depositByNativeToken (warm)', gas: Number(warm) });
        const credit = await gasOf(
            v.depositByNativeToken({ ...params, creditGas: 10n ** 15n }, { value: 11n * 10n ** 15n }),
        );
        section.record({ path: 'MultiVault.depositByNativeToken (warm, credit value)', gas: Number(credit) });
    });
});
