import hre from 'hardhat';
import { Contract, TransactionReceipt } from 'ethers';
import {
    deployEvmContract,
    deployMultiVault,
    deployTestToken,
    deployWeth,
    parseTvmAddress,
} from '../../wrappers/evm/MultiVault';

export const RECIPIENT = parseTvmAddress('0:' + 'ab'.repeat(32));
export const NATIVE_ROOT = parseTvmAddress('0:' + '5e'.repeat(32));
export const USER_BALANCE = 10n ** 15n;

/** A vault (test harness: can mint representation tokens), WETH, a 6-decimals token held by `user`. */
export async function vaultFixture(harness = true) {
    const [deployer, governance, guardian, user, other] = await hre.ethers.getSigners();
    const weth = await deployWeth(hre, deployer);
    const vault = await deployMultiVault(hre, deployer, {
        governance: governance.address,
        guardian: guardian.address,
        weth: await weth.getAddress(),
        harness,
    });
    const token = await deployTestToken(hre, deployer, 'Test Token', 'TST', 6);
    await (await token.mint(user.address, USER_BALANCE)).wait();
    return {
        deployer,
        governance,
        guardian,
        user,
        other,
        weth,
        vault,
        vaultAddress: await vault.getAddress(),
        token,
        tokenAddress: await token.getAddress(),
    };
}

export async function deployToken(
    name: Parameters<typeof deployEvmContract>[1],
    args: unknown[] = [],
): Promise<Contract> {
    const [deployer] = await hre.ethers.getSigners();
    return deployEvmContract(hre, name, args, deployer);
}

/** The revert reason of a failing call or transaction (fails the test if it does not revert). */
export async function revertReason(p: Promise<unknown>): Promise<string> {
    try {
        await p;
    } catch (e: unknown) {
        const err = e as { reason?: string; message?: string };
        if (typeof err.reason === 'string') return err.reason;
        const m = /reverted with reason string '([^']*)'/.exec(err.message ?? '');
        if (m) return m[1];
        throw e;
    }
    throw new Error('expected a revert, the call succeeded');
}

export async function mined(tx: Promise<{ wait(): Promise<TransactionReceipt | null> }>): Promise<TransactionReceipt> {
    const receipt = await (await tx).wait();
    if (!receipt) throw new Error('no receipt');
    return receipt;
}
