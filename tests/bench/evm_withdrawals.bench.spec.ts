import hre from 'hardhat';
import { TransactionReceipt, computeAddress, id } from 'ethers';
import { benchEvm, GasSection } from '../../harness/bench';
import { as, depositNativeTokenParams, depositParams } from '../../wrappers/evm/MultiVault';
import { RECIPIENT } from '../evm/fixtures';
import { withdrawalsFixture } from '../evm/withdrawals.fixture';

/**
 * Gas of every TVM -> EVM withdrawal kind by the number of relay signatures checked: the receipt's
 * gasUsed (21,000 intrinsic and the calldata included). Target (issue 16): at most 120,000 plus
 * 5,000 per signature checked, for the withdrawals that pay (the vault holds the token, the recipient
 * holds some already, a fee accrued before, no limit). A round of n relays needs n * 2 / 3 + 1.
 */
const section = new GasSection('EVM MultiVault withdrawals (TVM -> EVM), by relay signatures');
const RELAYS = [1, 4, 7, 10, 16, 31];
const target = (signatures: number) => 120_000 + 5_000 * signatures;

async function gasOf(tx: Promise<{ wait(): Promise<TransactionReceipt | null> }>): Promise<number> {
    const receipt = await (await tx).wait();
    return Number(receipt!.gasUsed);
}

// a Hardhat network of this spec's own, on a fixed clock: the report does not move from run to run
beforeAll(() => benchEvm(hre));

describe('bench: MultiVault withdrawals', () => {
    afterAll(() => section.write());

    for (const n of RELAYS) {
        const k = Math.floor((n * 2) / 3) + 1;
        it(`${n} relays: ${k} signatures`, async () => {
            const f = await withdrawalsFixture(n);
            const wethAddress = await f.weth.getAddress();
            await (await f.g.setDefaultWithdrawFee(10)).wait();
            const recipient = f.other.address;
            const rows: { path: string; gas: number; notes: string; checked?: boolean }[] = [];

            // alien ERC-20: a first withdrawal (the fee slot and the recipient's balance start at 0),
            // then the steady state
            await gasOf(f.saveAlien(f.alien({ amount: 1_000_000n, recipient })));
            rows.push({
                path: `saveWithdrawAlien (ERC-20 unlocked, ${k} signatures)`,
                gas: await gasOf(f.saveAlien(f.alien({ amount: 1_000_000n, recipient }))),
                notes: 'the recipient and the fee hold some already',
                checked: true,
            });
            rows.push({
                path: `saveWithdrawAlien (ERC-20 unlocked to a new holder, ${k} signatures)`,
                gas: await gasOf(
                    f.saveAlien(f.alien({ amount: 1_000_000n, recipient: computeAddress(id(`fresh ${n}`)) })),
                ),
                notes: "the recipient's token balance 0 -> non-zero (+17,100)",
            });

            // alien with a callback
            const cb = await (await hre.ethers.getContractFactory('TestWithdrawalCallback')).deploy();
            await gasOf(
                f.saveAlien(f.alien({ amount: 10n, recipient, callback: await cb.getAddress(), payload: '0xcafe' })),
            );
            rows.push({
                path: `saveWithdrawAlien (ERC-20, a callback with a 2-byte payload, ${k} signatures)`,
                gas: await gasOf(
                    f.saveAlien(
                        f.alien({ amount: 10n, recipient, callback: await cb.getAddress(), payload: '0xcafe' }),
                    ),
                ),
                notes: 'the callback records the call (4 storage writes of its own)',
            });

            // wrapped gas currency: unwrapped to the recipient
            await (
                await as(f.vault, f.user).getFunction('depositByNativeToken((int8,uint256,uint256,uint256,bytes))')(
                    depositNativeTokenParams(RECIPIENT),
                    { value: 10n ** 18n },
                )
            ).wait();
            await gasOf(f.saveAlien(f.alien({ token: wethAddress, amount: 10n ** 15n, recipient })));
            rows.push({
                path: `saveWithdrawAlien (wrapped gas currency, unwrapped, ${k} signatures)`,
                gas: await gasOf(f.saveAlien(f.alien({ token: wethAddress, amount: 10n ** 15n, recipient }))),
                notes: 'WETH.withdraw and the gas currency sent to a recipient holding some',
                checked: true,
            });
            rows.push({
                path: `saveWithdrawAlien (wrapped gas currency to a new account, ${k} signatures)`,
                gas: await gasOf(
                    f.saveAlien(
                        f.alien({ token: wethAddress, amount: 10n ** 15n, recipient: computeAddress(id(`new ${n}`)) }),
                    ),
                ),
                notes: 'a value transfer to an empty account costs 25,000 more (EVM rule)',
            });

            // native: the first withdrawal deploys the representation
            rows.push({
                path: `saveWithdrawNative (first: deploys the representation, ${k} signatures)`,
                gas: await gasOf(f.saveNative(f.native({ amount: 1_000_000n, recipient }))),
                notes: 'once per TVM token (CREATE2 of MultiVaultToken)',
            });
            rows.push({
                path: `saveWithdrawNative (representation minted, ${k} signatures)`,
                gas: await gasOf(f.saveNative(f.native({ amount: 1_000_000n, recipient }))),
                notes: 'the recipient and the fee hold some already',
                checked: true,
            });

            // limits: daily limit counted, then a withdrawal over it (pending, Required)
            await (await f.g.setWithdrawalLimits(f.tokenAddress, 0, 10n ** 9n)).wait();
            await gasOf(f.saveAlien(f.alien({ amount: 1000n, recipient })));
            rows.push({
                path: `saveWithdrawAlien (ERC-20, a daily limit counted, ${k} signatures)`,
                gas: await gasOf(f.saveAlien(f.alien({ amount: 1000n, recipient }))),
                notes: 'limits set: one more slot read and written',
                checked: true,
            });
            const over = f.alien({ amount: 10n ** 9n, recipient });
            const overTx = await (await f.saveAlien(over)).wait();
            rows.push({
                path: `saveWithdrawAlien (over the limit: pending, Required, ${k} signatures)`,
                gas: Number(overTx!.gasUsed),
                notes: 'a pending withdrawal recorded (3 new slots, counters)',
            });
            const pid = { recipient, id: (await f.vault.pendingWithdrawalsPerUser(recipient)) - 1n };
            rows.push({
                path: 'setPendingWithdrawalApprove (approved: paid)',
                gas: await gasOf(f.g.setPendingWithdrawalApprove(pid, true)),
                notes: 'withdraw guardian; no signatures',
            });
            await (await f.g.setWithdrawalLimits(f.tokenAddress, 0, 0)).wait();

            // lack of liquidity: pending with a bounty, then filled by a deposit
            await (
                await f.g.testTakeLiquidity(
                    f.tokenAddress,
                    f.governance.address,
                    await f.token.balanceOf(f.vaultAddress),
                )
            ).wait();
            const shortTx = await (
                await f.saveAlien(f.alien({ amount: 5000n, recipient }), { bounty: 50n, from: as(f.vault, f.other) })
            ).wait();
            rows.push({
                path: `saveWithdrawAlien (short of liquidity: pending with a bounty, ${k} signatures)`,
                gas: Number(shortTx!.gasUsed),
                notes: 'a pending withdrawal recorded',
            });
            const id2 = { recipient, id: (await f.vault.pendingWithdrawalsPerUser(recipient)) - 1n };
            await (await as(f.token, f.user).approve(f.vaultAddress, 10n ** 9n)).wait();
            rows.push({
                path: 'deposit filling 1 pending withdrawal',
                gas: await gasOf(
                    as(f.vault, f.user).getFunction(
                        'deposit((int8,uint256,address,uint256,uint256,bytes),uint256,(address,uint256)[])',
                    )(depositParams(RECIPIENT, f.tokenAddress, 6000n), 0n, [id2]),
                ),
                notes: 'the recipient paid amount - bounty; AlienTransfer of the deposit + the bounty',
            });
            for (const row of rows) {
                const t = target(k);
                section.record({
                    path: `MultiVault.${row.path}`,
                    gas: row.gas,
                    notes: row.checked ? `${row.notes}; target <= ${t.toLocaleString('en-US')}` : row.notes,
                });
                if (row.checked) expect(row.gas).toBeLessThanOrEqual(t);
            }
        });
    }

    it('force withdraw and cancel (no signatures)', async () => {
        const f = await withdrawalsFixture(4);
        await (
            await f.g.testTakeLiquidity(f.tokenAddress, f.governance.address, await f.token.balanceOf(f.vaultAddress))
        ).wait();
        const recipient = f.other.address;
        for (let i = 0; i < 2; i++) await (await f.saveAlien(f.alien({ amount: 1000n, recipient }))).wait();
        await (await as(f.token, f.governance).transfer(f.vaultAddress, 1000n)).wait();
        section.record({
            path: 'MultiVault.forceWithdraw (1 pending withdrawal)',
            gas: await gasOf(as(f.vault, f.user).forceWithdraw([{ recipient, id: 0n }])),
            notes: 'anyone, once the vault holds the tokens',
        });
        section.record({
            path: 'MultiVault.cancelPendingWithdrawal (back to TVM: AlienTransfer)',
            gas: await gasOf(as(f.vault, f.other).cancelPendingWithdrawal(1n, 1000n, 0, 1n, 0n, '0x')),
            notes: 'the recipient',
        });
    });
});
