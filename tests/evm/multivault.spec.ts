import hre from 'hardhat';
import { loadFixture, setBalance } from '@nomicfoundation/hardhat-network-helpers';
import { AbiCoder, Interface, getCreate2Address, id, keccak256 } from 'ethers';
import { EvmErrors } from '../../wrappers/evm/EvmErrors';
import {
    as,
    deployMultiVault,
    depositNativeTokenParams,
    depositParams,
    evmContractAt,
    multiVaultInterface,
} from '../../wrappers/evm/MultiVault';
import {
    baseTokenAddress,
    eventVoteFields,
    findDepositEvent,
    findDepositEvents,
} from '../../wrappers/evm/depositEvents';
import { NATIVE_ROOT, RECIPIENT, USER_BALANCE, deployToken, mined, revertReason, vaultFixture } from './fixtures';

const E = EvmErrors;
const PAYLOAD = '0xb5ee9c72410101010002000000cafe';
const CHAIN_ID = 31337n;

/** The fixture plus a representation token of NATIVE_ROOT, `user` holding some of it. */
async function nativeFixture() {
    const f = await vaultFixture();
    const { governance, user, vault } = f;
    await mined(as(vault, governance).deployNativeToken(NATIVE_ROOT.wid, NATIVE_ROOT.addr, 'Toncoin', 'TON', 9));
    const nativeAddress: string = await vault.predictNativeTokenAddress(NATIVE_ROOT.wid, NATIVE_ROOT.addr);
    const native = await evmContractAt(hre, 'MultiVaultToken', nativeAddress, user);
    await mined(as(vault, governance).testMintNative(nativeAddress, user.address, 10n ** 12n));
    return { ...f, native, nativeAddress };
}

describe('MultiVault deposits (EVM -> TVM)', () => {
    let iface: Interface;
    beforeAll(async () => {
        iface = await multiVaultInterface(hre);
    });

    describe('events', () => {
        it('should declare AlienTransfer and NativeTransfer exactly as the specification, nothing indexed', () => {
            const alien = iface.getEvent('AlienTransfer')!;
            const native = iface.getEvent('NativeTransfer')!;
            expect(alien.format('sighash')).toBe(
                'AlienTransfer(uint256,uint160,string,string,uint8,uint128,int8,uint256,uint256,uint256,bytes)',
            );
            expect(alien.inputs.map((p) => p.name)).toEqual([
                'base_chainId',
                'base_token',
                'name',
                'symbol',
                'decimals',
                'amount',
                'recipient_wid',
                'recipient_addr',
                'value',
                'expected_gas',
                'payload',
            ]);
            expect(native.format('sighash')).toBe(
                'NativeTransfer(int8,uint256,uint128,int8,uint256,uint256,uint256,bytes)',
            );
            expect(native.inputs.map((p) => p.name)).toEqual([
                'native_wid',
                'native_addr',
                'amount',
                'recipient_wid',
                'recipient_addr',
                'value',
                'expected_gas',
                'payload',
            ]);
            expect([...alien.inputs, ...native.inputs].some((p) => p.indexed)).toBe(false);
        });
    });

    describe('deposit of an alien ERC-20 (lock)', () => {
        it('should lock the tokens and emit AlienTransfer with every field as deposited', async () => {
            const { vault, vaultAddress, token, tokenAddress, user } = await loadFixture(vaultFixture);
            await mined(as(token, user).approve(vaultAddress, 5_000_000n));
            const receipt = await mined(
                as(vault, user).deposit(
                    depositParams(RECIPIENT, tokenAddress, 5_000_000n, { expectedGas: 123_456n, payload: PAYLOAD }),
                    { value: 777n },
                ),
            );
            const ev = findDepositEvent(receipt, iface, { vault: vaultAddress });
            expect(ev.name).toBe('AlienTransfer');
            expect(ev.fields).toEqual({
                base_chainId: CHAIN_ID,
                base_token: BigInt(tokenAddress),
                name: 'Test Token',
                symbol: 'TST',
                decimals: 6,
                amount: 5_000_000n,
                recipient_wid: 0,
                recipient_addr: RECIPIENT.addr,
                value: 777n,
                expected_gas: 123_456n,
                payload: PAYLOAD,
            });
            expect(baseTokenAddress(ev.fields as never)).toBe(tokenAddress);
            // raw log: one topic (the signature), the data is the ABI encoding of all eleven parameters
            const raw = receipt.logs[ev.logIndex - receipt.logs[0].index];
            expect(raw.topics).toEqual([
                id('AlienTransfer(uint256,uint160,string,string,uint8,uint128,int8,uint256,uint256,uint256,bytes)'),
            ]);

            expect(await token.balanceOf(user.address)).toBe(USER_BALANCE - 5_000_000n);
            expect(await token.balanceOf(vaultAddress)).toBe(5_000_000n);
            expect(await vault.fees(tokenAddress)).toBe(0n);
            // the credit-mode gas stays in the vault for the credit backend
            expect(await hre.ethers.provider.getBalance(vaultAddress)).toBe(777n);
        });

        it('should cache the token metadata at the first deposit and emit the cached values later', async () => {
            const { vault, vaultAddress, token, tokenAddress, user } = await loadFixture(vaultFixture);
            await mined(as(token, user).approve(vaultAddress, 10n ** 9n));
            const first = await mined(as(vault, user).deposit(depositParams(RECIPIENT, tokenAddress, 10n)));
            const activated = first.logs.map((l) => iface.parseLog(l)).find((l) => l?.name === 'TokenActivated');
            expect(activated?.args.toArray()).toEqual([tokenAddress, 'Test Token', 'TST', 6n]);
            const second = await mined(as(vault, user).deposit(depositParams(RECIPIENT, tokenAddress, 20n)));
            expect(second.logs.some((l) => iface.parseLog(l)?.name === 'TokenActivated')).toBe(false);
            const ev = findDepositEvent(second, iface);
            expect(ev.fields).toMatchObject({ name: 'Test Token', symbol: 'TST', decimals: 6, amount: 20n });
            const info = await vault.tokenInfo(tokenAddress);
            expect([info.activated, info.isNative, info.name, info.symbol, info.decimals]).toEqual([
                true,
                false,
                'Test Token',
                'TST',
                6n,
            ]);
        });

        it('should stay at or under 107,000 gas for a warm deposit (token seen, vault holding it)', async () => {
            const { vault, vaultAddress, token, tokenAddress, user } = await loadFixture(vaultFixture);
            await mined(as(token, user).approve(vaultAddress, 10n ** 9n));
            const params = depositParams(RECIPIENT, tokenAddress, 1_000n, { expectedGas: 500_000_000n });
            await mined(as(vault, user).deposit(params));
            const warm = await mined(as(vault, user).deposit(params));
            expect(warm.gasUsed).toBeLessThanOrEqual(107_000n);
        });

        it('should accept name and symbol returned as bytes32 (MKR style)', async () => {
            const { vault, vaultAddress, user } = await loadFixture(vaultFixture);
            const mkr = await deployToken('Bytes32MetaToken');
            await mined(mkr.mint(user.address, 1000n));
            await mined(as(mkr, user).approve(vaultAddress, 1000n));
            const receipt = await mined(
                as(vault, user).deposit(depositParams(RECIPIENT, await mkr.getAddress(), 1000n)),
            );
            expect(findDepositEvent(receipt, iface).fields).toMatchObject({
                name: 'Maker',
                symbol: 'MKR',
                decimals: 18,
            });
        });

        it('should bridge what a fee-on-transfer token delivered (balance delta), minus the deposit fee', async () => {
            const { vault, vaultAddress, governance, user } = await loadFixture(vaultFixture);
            const fot = await deployToken('FeeOnTransferToken', [100]); // the token keeps 1%
            const fotAddress = await fot.getAddress();
            await mined(fot.mint(user.address, 1_000_000n));
            await mined(as(fot, user).approve(vaultAddress, 1_000_000n));
            await mined(as(vault, governance).setTokenDepositFee(fotAddress, 50)); // vault fee 0.5%
            const receipt = await mined(as(vault, user).deposit(depositParams(RECIPIENT, fotAddress, 1_000_000n)));
            // received 990,000; fee ceil(990,000 * 50 / 10,000) = 4,950
            expect(findDepositEvent(receipt, iface).fields).toMatchObject({ amount: 985_050n });
            expect(await fot.balanceOf(vaultAddress)).toBe(990_000n);
            expect(await vault.fees(fotAddress)).toBe(4_950n);
        });

        it('should bridge more than requested when a token credits more, within 2^120', async () => {
            const { vault, vaultAddress, user } = await loadFixture(vaultFixture);
            const inf = await deployToken('InflatingToken');
            const infAddress = await inf.getAddress();
            await mined(inf.mint(user.address, 100n));
            await mined(as(inf, user).approve(vaultAddress, 100n));
            await mined(inf.setExtra(5n));
            const receipt = await mined(as(vault, user).deposit(depositParams(RECIPIENT, infAddress, 100n)));
            expect(findDepositEvent(receipt, iface).fields).toMatchObject({ amount: 105n });
            await mined(inf.mint(user.address, 100n));
            await mined(as(inf, user).approve(vaultAddress, 100n));
            await mined(inf.setExtra(2n ** 120n));
            expect(await revertReason(as(vault, user).deposit(depositParams(RECIPIENT, infAddress, 100n)))).toBe(
                E.deposit.amountTooLarge,
            );
        });
        it('should refuse a token that lowers the vault balance on transferFrom', async () => {
            const { vault, vaultAddress, user } = await loadFixture(vaultFixture);
            const shr = await deployToken('ShrinkingToken');
            const shrAddress = await shr.getAddress();
            await mined(shr.mint(user.address, 1_000n));
            await mined(as(shr, user).approve(vaultAddress, 1_000n));
            await mined(as(vault, user).deposit(depositParams(RECIPIENT, shrAddress, 100n)));
            await mined(shr.setShrink(1n));
            expect(await revertReason(as(vault, user).deposit(depositParams(RECIPIENT, shrAddress, 100n)))).toBe(
                E.deposit.balanceDecreased,
            );
        });
    });

    describe('deposit of a representation token (burn)', () => {
        it('should deploy the representation at the predicted CREATE2 address', async () => {
            const { vault, vaultAddress, nativeAddress, native } = await loadFixture(nativeFixture);
            const salt = keccak256(
                AbiCoder.defaultAbiCoder().encode(['int8', 'uint256'], [NATIVE_ROOT.wid, NATIVE_ROOT.addr]),
            );
            const { bytecode } = await hre.artifacts.readArtifact('MultiVaultToken');
            expect(getCreate2Address(vaultAddress, salt, keccak256(bytecode))).toBe(nativeAddress);
            expect([await native.name(), await native.symbol(), await native.decimals(), await native.vault()]).toEqual(
                ['Toncoin', 'TON', 9n, vaultAddress],
            );
            const info = await vault.tokenInfo(nativeAddress);
            expect([info.isNative, info.nativeWid, info.nativeAddr]).toEqual([true, 0n, NATIVE_ROOT.addr]);
            // another root, another address; masterchain differs from basechain
            const other = await vault.predictNativeTokenAddress(-1, NATIVE_ROOT.addr);
            expect(other).not.toBe(nativeAddress);
        });

        it('should burn the amount without any allowance and emit NativeTransfer with every field', async () => {
            const { vault, vaultAddress, native, nativeAddress, user } = await loadFixture(nativeFixture);
            const supplyBefore: bigint = await native.totalSupply();
            // (a basechain recipient: the others are refused, see 'Deposit: recipient not in the basechain')
            const recipient = { wid: 0, addr: 2n ** 256n - 1n };
            const receipt = await mined(
                as(vault, user).deposit(
                    depositParams(recipient, nativeAddress, 3_000n, { expectedGas: 9n, payload: PAYLOAD }),
                    {
                        value: 5n,
                    },
                ),
            );
            const ev = findDepositEvent(receipt, iface, { vault: vaultAddress });
            expect(ev.name).toBe('NativeTransfer');
            expect(ev.fields).toEqual({
                native_wid: 0,
                native_addr: NATIVE_ROOT.addr,
                amount: 3_000n,
                recipient_wid: 0,
                recipient_addr: 2n ** 256n - 1n,
                value: 5n,
                expected_gas: 9n,
                payload: PAYLOAD,
            });
            expect(await native.balanceOf(user.address)).toBe(10n ** 12n - 3_000n);
            expect(await native.totalSupply()).toBe(supplyBefore - 3_000n);
            expect(await native.balanceOf(vaultAddress)).toBe(0n);
        });

        it('should charge the fee on a burn and mint the accrued fee on withdrawal', async () => {
            const { vault, governance, native, nativeAddress, user, other } = await loadFixture(nativeFixture);
            await mined(as(vault, governance).setDefaultDepositFee(100)); // 1%
            const receipt = await mined(as(vault, user).deposit(depositParams(RECIPIENT, nativeAddress, 10_001n)));
            // fee ceil(10,001 * 100 / 10,000) = 101
            expect(findDepositEvent(receipt, iface).fields).toMatchObject({ amount: 9_900n });
            expect(await vault.fees(nativeAddress)).toBe(101n);
            await mined(as(vault, governance).withdrawFees(nativeAddress, other.address, 101n));
            expect(await native.balanceOf(other.address)).toBe(101n);
            expect(await vault.fees(nativeAddress)).toBe(0n);
        });

        it('should let only the vault mint, burn and initialize the representation', async () => {
            const { native, user } = await loadFixture(nativeFixture);
            expect(await revertReason(native.mint(user.address, 1n))).toBe(E.token.onlyVault);
            expect(await revertReason(native.burn(user.address, 1n))).toBe(E.token.onlyVault);
            expect(await revertReason(native.initialize('X', 'X', 1))).toBe(E.token.onlyVault);
        });

        it('should refuse a second representation of the same root and invalid arguments', async () => {
            const { vault, governance } = await loadFixture(nativeFixture);
            const g = as(vault, governance);
            expect(await revertReason(g.deployNativeToken(NATIVE_ROOT.wid, NATIVE_ROOT.addr, 'A', 'A', 9))).toBe(
                E.config.nativeTokenExists,
            );
            expect(await revertReason(g.deployNativeToken(0, 0n, 'A', 'A', 9))).toBe(E.config.zeroNativeAddress);
            expect(await revertReason(g.deployNativeToken(0, 1n, '', 'A', 9))).toBe(E.deposit.invalidTokenMeta);
            expect(await revertReason(g.deployNativeToken(0, 1n, 'A', '', 9))).toBe(E.deposit.invalidTokenMeta);
            expect(await revertReason(g.deployNativeToken(0, 1n, 'A'.repeat(65), 'A', 9))).toBe(
                E.deposit.invalidTokenMeta,
            );
        });
    });

    describe('depositByNativeToken (gas currency, wrapped into WETH)', () => {
        it('should wrap msg.value - creditGas and emit AlienTransfer for WETH with value = creditGas', async () => {
            const { vault, vaultAddress, weth, user } = await loadFixture(vaultFixture);
            const wethAddress = await weth.getAddress();
            const amount = 10n ** 18n;
            const creditGas = 3n * 10n ** 15n;
            const before = await hre.ethers.provider.getBalance(user.address);
            const receipt = await mined(
                as(vault, user).depositByNativeToken(
                    depositNativeTokenParams(RECIPIENT, { creditGas, expectedGas: 500_000_000n, payload: PAYLOAD }),
                    { value: amount + creditGas },
                ),
            );
            const ev = findDepositEvent(receipt, iface, { vault: vaultAddress });
            expect(ev.name).toBe('AlienTransfer');
            expect(ev.fields).toEqual({
                base_chainId: CHAIN_ID,
                base_token: BigInt(wethAddress),
                name: 'Wrapped Ether',
                symbol: 'WETH',
                decimals: 18,
                amount,
                recipient_wid: 0,
                recipient_addr: RECIPIENT.addr,
                value: creditGas,
                expected_gas: 500_000_000n,
                payload: PAYLOAD,
            });
            expect(await weth.balanceOf(vaultAddress)).toBe(amount);
            expect(await hre.ethers.provider.getBalance(vaultAddress)).toBe(creditGas);
            expect(await hre.ethers.provider.getBalance(user.address)).toBe(before - amount - creditGas - receipt.fee);
        });

        it('should charge the WETH fee and let governance withdraw fees and credit gas', async () => {
            const { vault, vaultAddress, weth, governance, user, other } = await loadFixture(vaultFixture);
            const wethAddress = await weth.getAddress();
            await mined(as(vault, governance).setTokenDepositFee(wethAddress, 25));
            const receipt = await mined(
                as(vault, user).depositByNativeToken(depositNativeTokenParams(RECIPIENT, { creditGas: 1_000n }), {
                    value: 41_000n,
                }),
            );
            // 40,000 wrapped, fee ceil(40,000 * 25 / 10,000) = 100
            expect(findDepositEvent(receipt, iface).fields).toMatchObject({ amount: 39_900n, value: 1_000n });
            expect(await vault.fees(wethAddress)).toBe(100n);
            expect(await revertReason(as(vault, governance).withdrawFees(wethAddress, other.address, 101n))).toBe(
                E.config.feesExceedAccrued,
            );
            await mined(as(vault, governance).withdrawFees(wethAddress, other.address, 100n));
            expect(await weth.balanceOf(other.address)).toBe(100n);
            expect(await weth.balanceOf(vaultAddress)).toBe(39_900n);

            const otherBefore = await hre.ethers.provider.getBalance(other.address);
            expect(await revertReason(as(vault, governance).withdrawCreditGas(other.address, 1_001n))).toBe(
                E.config.gasExceedsBalance,
            );
            await mined(as(vault, governance).withdrawCreditGas(other.address, 1_000n));
            expect(await hre.ethers.provider.getBalance(other.address)).toBe(otherBefore + 1_000n);
            expect(await hre.ethers.provider.getBalance(vaultAddress)).toBe(0n);
        });
    });

    describe('fees', () => {
        it('should take the default fee, a token override (0 included), rounding up, and fall back on clear', async () => {
            const { vault, vaultAddress, token, tokenAddress, governance, user, other } =
                await loadFixture(vaultFixture);
            const g = as(vault, governance);
            await mined(as(token, user).approve(vaultAddress, 10n ** 12n));
            const dep = async (amount: bigint) =>
                findDepositEvent(
                    await mined(as(vault, user).deposit(depositParams(RECIPIENT, tokenAddress, amount))),
                    iface,
                ).fields.amount;

            await mined(g.setDefaultDepositFee(30)); // 0.3%
            expect(await vault.depositFeeBps(tokenAddress)).toBe(30n);
            expect(await dep(1_000_000n)).toBe(997_000n); // exactly 3,000
            expect(await dep(1_001n)).toBe(997n); // 3.003 rounds up to 4
            expect(await dep(2n)).toBe(1n); // dust pays at least 1
            // nothing left after the fee: refused rather than an empty transfer
            expect(await revertReason(as(vault, user).deposit(depositParams(RECIPIENT, tokenAddress, 1n)))).toBe(
                E.deposit.zeroAmount,
            );
            expect(await vault.fees(tokenAddress)).toBe(3_000n + 4n + 1n);

            await mined(g.setTokenDepositFee(tokenAddress, 0)); // override to free
            expect(await vault.depositFeeBps(tokenAddress)).toBe(0n);
            expect(await dep(1_000n)).toBe(1_000n);
            await mined(g.setTokenDepositFee(tokenAddress, 10_000)); // 100%: every deposit would be empty
            expect(await revertReason(as(vault, user).deposit(depositParams(RECIPIENT, tokenAddress, 1_000n)))).toBe(
                E.deposit.zeroAmount,
            );
            await mined(g.clearTokenDepositFee(tokenAddress));
            expect(await vault.depositFeeBps(tokenAddress)).toBe(30n);
            expect(await dep(10_000n)).toBe(9_970n);

            const accrued: bigint = await vault.fees(tokenAddress);
            expect(accrued).toBe(3_005n + 30n);
            expect(await token.balanceOf(vaultAddress)).toBe(1_000_000n + 1_001n + 2n + 1_000n + 10_000n);
            await mined(g.withdrawFees(tokenAddress, other.address, accrued));
            expect(await token.balanceOf(other.address)).toBe(accrued);
            expect(await vault.fees(tokenAddress)).toBe(0n);
        });

        it('should validate the fee setters arguments', async () => {
            const { vault, tokenAddress, governance, other } = await loadFixture(vaultFixture);
            const g = as(vault, governance);
            expect(await revertReason(g.setDefaultDepositFee(10_001))).toBe(E.config.feeTooHigh);
            expect(await revertReason(g.setDefaultDepositFee(65_536 + 30))).toBe(E.config.feeTooHigh); // no uint16 wrap
            expect(await revertReason(g.setTokenDepositFee(tokenAddress, 10_001))).toBe(E.config.feeTooHigh);
            expect(await revertReason(g.setTokenDepositFee(hre.ethers.ZeroAddress, 1))).toBe(E.config.zeroToken);
            expect(await revertReason(g.clearTokenDepositFee(hre.ethers.ZeroAddress))).toBe(E.config.zeroToken);
            await mined(g.setDefaultDepositFee(10_000));
            await mined(g.setTokenDepositFee(tokenAddress, 10_000));
            expect(await vault.defaultDepositFeeBps()).toBe(10_000n);
            expect(await revertReason(g.withdrawFees(tokenAddress, other.address, 0n))).toBe(
                E.config.feesExceedAccrued,
            );
            expect(await revertReason(g.withdrawFees(tokenAddress, other.address, 1n))).toBe(
                E.config.feesExceedAccrued,
            );
            expect(await revertReason(g.withdrawFees(tokenAddress, hre.ethers.ZeroAddress, 1n))).toBe(
                E.config.feesZeroRecipient,
            );
            expect(await revertReason(g.withdrawCreditGas(hre.ethers.ZeroAddress, 0n))).toBe(E.config.gasZeroRecipient);
            expect(await revertReason(g.setDepositLimit(tokenAddress, 2n ** 128n))).toBe(E.config.limitTooLarge);
            expect(await revertReason(g.setDepositLimit(hre.ethers.ZeroAddress, 1n))).toBe(E.config.zeroToken);
            expect(await revertReason(g.setTokenBlacklist(hre.ethers.ZeroAddress, true))).toBe(E.config.zeroToken);
        });
    });

    describe('deposit errors (specification messages, word for word)', () => {
        it('Msg value to low: value not above creditGas', async () => {
            const { vault, user } = await loadFixture(vaultFixture);
            const v = as(vault, user);
            expect(await revertReason(v.depositByNativeToken(depositNativeTokenParams(RECIPIENT), { value: 0n }))).toBe(
                E.deposit.msgValueTooLow,
            );
            expect(
                await revertReason(
                    v.depositByNativeToken(depositNativeTokenParams(RECIPIENT, { creditGas: 100n }), { value: 100n }),
                ),
            ).toBe(E.deposit.msgValueTooLow);
            expect(
                await revertReason(
                    v.depositByNativeToken(depositNativeTokenParams(RECIPIENT, { creditGas: 100n }), { value: 99n }),
                ),
            ).toBe(E.deposit.msgValueTooLow);
            // one wei above the gas is a deposit of 1
            const r = await mined(
                v.depositByNativeToken(depositNativeTokenParams(RECIPIENT, { creditGas: 100n }), { value: 101n }),
            );
            expect(findDepositEvent(r, iface).fields).toMatchObject({ amount: 1n, value: 100n });
        });

        it('Deposit amount too is large: 2^120 and above (a TVM Coins value carries no more), ERC-20 and gas currency; nothing leaves the user', async () => {
            const { vault, vaultAddress, token, tokenAddress, user } = await loadFixture(vaultFixture);
            await mined(token.mint(user.address, 2n ** 129n));
            await mined(as(token, user).approve(vaultAddress, 2n ** 130n));
            const v = as(vault, user);
            const held = await token.balanceOf(user.address);
            for (const amount of [2n ** 120n, 2n ** 128n, 2n ** 256n - 1n])
                expect(await revertReason(v.deposit(depositParams(RECIPIENT, tokenAddress, amount)))).toBe(
                    E.deposit.amountTooLarge,
                );
            expect(await token.balanceOf(user.address)).toBe(held);
            expect(await token.balanceOf(vaultAddress)).toBe(0n);
            // 2^120 - 1 is the largest accepted amount
            const r = await mined(v.deposit(depositParams(RECIPIENT, tokenAddress, 2n ** 120n - 1n)));
            expect(findDepositEvent(r, iface).fields.amount).toBe(2n ** 120n - 1n);
            expect(await token.balanceOf(vaultAddress)).toBe(2n ** 120n - 1n);

            await setBalance(user.address, 2n ** 130n);
            expect(
                await revertReason(
                    v.depositByNativeToken(depositNativeTokenParams(RECIPIENT, { creditGas: 1n }), {
                        value: 2n ** 120n + 1n,
                    }),
                ),
            ).toBe(E.deposit.amountTooLarge);
        });

        it('Deposit: recipient not in the basechain (the TVM proxies deliver there only): ERC-20, representation and gas currency; nothing leaves the user', async () => {
            const { vault, vaultAddress, token, tokenAddress, user } = await loadFixture(vaultFixture);
            await mined(as(token, user).approve(vaultAddress, 1_000n));
            const v = as(vault, user);
            const held = await token.balanceOf(user.address);
            const master = { wid: -1, addr: RECIPIENT.addr };
            expect(await revertReason(v.deposit(depositParams(master, tokenAddress, 1_000n)))).toBe(
                E.deposit.recipientNotBasechain,
            );
            expect(
                await revertReason(v.deposit(depositParams({ wid: 1, addr: RECIPIENT.addr }, tokenAddress, 1_000n))),
            ).toBe(E.deposit.recipientNotBasechain);
            expect(
                await revertReason(
                    v.depositByNativeToken(depositNativeTokenParams(master, { creditGas: 1n }), { value: 1_001n }),
                ),
            ).toBe(E.deposit.recipientNotBasechain);
            expect(await token.balanceOf(user.address)).toBe(held);
            expect(await token.balanceOf(vaultAddress)).toBe(0n);
            // the basechain: accepted
            await mined(v.deposit(depositParams(RECIPIENT, tokenAddress, 1_000n)));
            expect(await token.balanceOf(vaultAddress)).toBe(1_000n);
        });

        it('Emergency: shutdown: every deposit kind while shut down', async () => {
            const { vault, vaultAddress, token, tokenAddress, nativeAddress, guardian, governance, user } =
                await loadFixture(nativeFixture);
            await mined(as(token, user).approve(vaultAddress, 1_000n));
            await mined(as(vault, guardian).setEmergencyShutdown(true));
            const v = as(vault, user);
            expect(await revertReason(v.deposit(depositParams(RECIPIENT, tokenAddress, 1_000n)))).toBe(
                E.deposit.emergencyShutdown,
            );
            expect(await revertReason(v.deposit(depositParams(RECIPIENT, nativeAddress, 1_000n)))).toBe(
                E.deposit.emergencyShutdown,
            );
            expect(
                await revertReason(v.depositByNativeToken(depositNativeTokenParams(RECIPIENT), { value: 1_000n })),
            ).toBe(E.deposit.emergencyShutdown);
            await mined(as(vault, governance).setEmergencyShutdown(false));
            await mined(v.deposit(depositParams(RECIPIENT, tokenAddress, 1_000n)));
        });

        it('Tokens: token is blacklisted / Tokens: weth is blacklisted', async () => {
            const { vault, vaultAddress, token, tokenAddress, weth, nativeAddress, governance, user } =
                await loadFixture(nativeFixture);
            const g = as(vault, governance);
            const v = as(vault, user);
            await mined(as(token, user).approve(vaultAddress, 1_000n));
            await mined(g.setTokenBlacklist(tokenAddress, true));
            await mined(g.setTokenBlacklist(nativeAddress, true));
            expect(await revertReason(v.deposit(depositParams(RECIPIENT, tokenAddress, 1_000n)))).toBe(
                E.deposit.tokenBlacklisted,
            );
            expect(await revertReason(v.deposit(depositParams(RECIPIENT, nativeAddress, 1_000n)))).toBe(
                E.deposit.tokenBlacklisted,
            );
            await mined(g.setTokenBlacklist(await weth.getAddress(), true));
            expect(
                await revertReason(v.depositByNativeToken(depositNativeTokenParams(RECIPIENT), { value: 1_000n })),
            ).toBe(E.deposit.wethBlacklisted);
            await mined(g.setTokenBlacklist(tokenAddress, false));
            await mined(v.deposit(depositParams(RECIPIENT, tokenAddress, 1_000n)));
        });

        it.each([
            [1, 'name() reverts'],
            [2, 'symbol() reverts'],
            [3, 'decimals() reverts'],
            [4, 'empty name'],
            [5, 'empty symbol'],
            [6, 'decimals 256'],
            [7, 'name longer than 64 bytes'],
            [8, 'name returns one byte'],
            [9, 'name with a bad ABI offset'],
            [10, 'name length beyond the returned data'],
        ])('Tokens: invalid token meta: %i, %s', async (mode) => {
            const { vault, vaultAddress, user } = await loadFixture(vaultFixture);
            const bad = await deployToken('BadMetaToken', [mode]);
            await mined(bad.mint(user.address, 1_000n));
            await mined(as(bad, user).approve(vaultAddress, 1_000n));
            expect(
                await revertReason(as(vault, user).deposit(depositParams(RECIPIENT, await bad.getAddress(), 1_000n))),
            ).toBe(E.deposit.invalidTokenMeta);
        });

        it('Tokens: invalid token meta: a token address without code', async () => {
            const { vault, user, other } = await loadFixture(vaultFixture);
            expect(await revertReason(as(vault, user).deposit(depositParams(RECIPIENT, other.address, 1_000n)))).toBe(
                E.deposit.invalidTokenMeta,
            );
        });

        it('Insufficient allowance: none, and one below the amount', async () => {
            const { vault, vaultAddress, token, tokenAddress, user } = await loadFixture(vaultFixture);
            const v = as(vault, user);
            expect(await revertReason(v.deposit(depositParams(RECIPIENT, tokenAddress, 1_000n)))).toBe(
                E.deposit.insufficientAllowance,
            );
            await mined(as(token, user).approve(vaultAddress, 999n));
            expect(await revertReason(v.deposit(depositParams(RECIPIENT, tokenAddress, 1_000n)))).toBe(
                E.deposit.insufficientAllowance,
            );
            await mined(as(token, user).approve(vaultAddress, 1_000n));
            await mined(v.deposit(depositParams(RECIPIENT, tokenAddress, 1_000n)));
            expect(await token.allowance(user.address, vaultAddress)).toBe(0n);
        });

        it.each([
            [1, 'deposit'],
            [2, 'depositByNativeToken'],
        ])('ReentrancyGuard: reentrant call: mode %i, transferFrom re-enters %s', async (mode) => {
            const { vault, vaultAddress, user } = await loadFixture(vaultFixture);
            const evil = await deployToken('ReentrantToken');
            const evilAddress = await evil.getAddress();
            await mined(evil.mint(user.address, 1_000n));
            await mined(evil.mint(evilAddress, 1_000n));
            await mined(as(evil, user).approve(vaultAddress, 1_000n));
            await setBalance(evilAddress, 10n ** 18n);
            await mined(evil.arm(vaultAddress, mode));
            expect(await revertReason(as(vault, user).deposit(depositParams(RECIPIENT, evilAddress, 1_000n)))).toBe(
                E.deposit.reentrantCall,
            );
            // disarmed, the same token deposits normally
            await mined(evil.arm(vaultAddress, 0));
            await mined(as(vault, user).deposit(depositParams(RECIPIENT, evilAddress, 1_000n)));
        });

        it('should refuse amount 0 and recipient 0 (messages outside the specification)', async () => {
            const { vault, vaultAddress, token, tokenAddress, user } = await loadFixture(vaultFixture);
            await mined(as(token, user).approve(vaultAddress, 1_000n));
            const v = as(vault, user);
            expect(await revertReason(v.deposit(depositParams(RECIPIENT, tokenAddress, 0n)))).toBe(
                E.deposit.zeroAmount,
            );
            expect(await revertReason(v.deposit(depositParams({ wid: 0, addr: 0n }, tokenAddress, 1n)))).toBe(
                E.deposit.zeroRecipient,
            );
            expect(
                await revertReason(
                    v.depositByNativeToken(depositNativeTokenParams({ wid: 0, addr: 0n }), { value: 1n }),
                ),
            ).toBe(E.deposit.zeroRecipient);
        });
    });

    describe('roles', () => {
        it('should let only governance configure', async () => {
            const { vault, tokenAddress, user, guardian } = await loadFixture(vaultFixture);
            for (const caller of [user, guardian]) {
                const c = as(vault, caller);
                // thunks: each call starts only when awaited (no rejection left unhandled meanwhile)
                const calls: (() => Promise<unknown>)[] = [
                    () => c.setDefaultDepositFee(1),
                    () => c.setTokenDepositFee(tokenAddress, 1),
                    () => c.clearTokenDepositFee(tokenAddress),
                    () => c.setDepositLimit(tokenAddress, 1),
                    () => c.setTokenBlacklist(tokenAddress, true),
                    () => c.deployNativeToken(0, 1n, 'A', 'A', 9),
                    () => c.withdrawFees(tokenAddress, caller.address, 1n),
                    () => c.withdrawCreditGas(caller.address, 0n),
                    () => c.setGuardian(caller.address),
                    () => c.setPendingGovernance(caller.address),
                    () => c.testMintNative(tokenAddress, caller.address, 1n),
                ];
                for (const call of calls) expect(await revertReason(call())).toBe(E.roles.onlyGovernance);
            }
        });

        it('should let guardian or governance shut down, and only governance resume', async () => {
            const { vault, governance, guardian, user } = await loadFixture(vaultFixture);
            expect(await revertReason(as(vault, user).setEmergencyShutdown(true))).toBe(
                E.roles.onlyGuardianOrGovernance,
            );
            await mined(as(vault, guardian).setEmergencyShutdown(true));
            expect(await vault.emergencyShutdown()).toBe(true);
            expect(await revertReason(as(vault, guardian).setEmergencyShutdown(false))).toBe(
                E.roles.onlyGovernanceDisables,
            );
            expect(await revertReason(as(vault, user).setEmergencyShutdown(false))).toBe(
                E.roles.onlyGovernanceDisables,
            );
            await mined(as(vault, governance).setEmergencyShutdown(false));
            expect(await vault.emergencyShutdown()).toBe(false);
            await mined(as(vault, governance).setEmergencyShutdown(true));
            expect(await vault.emergencyShutdown()).toBe(true);
        });

        it('should move governance in two steps and change the guardian', async () => {
            const { vault, governance, guardian, user, other } = await loadFixture(vaultFixture);
            expect(await revertReason(as(vault, governance).setPendingGovernance(hre.ethers.ZeroAddress))).toBe(
                E.roles.zeroAddress,
            );
            await mined(as(vault, governance).setPendingGovernance(user.address));
            expect(await vault.governance()).toBe(governance.address);
            expect(await revertReason(as(vault, other).acceptGovernance())).toBe(E.roles.onlyPendingGovernance);
            await mined(as(vault, user).acceptGovernance());
            expect(await vault.governance()).toBe(user.address);
            expect(await vault.pendingGovernance()).toBe(hre.ethers.ZeroAddress);
            expect(await revertReason(as(vault, governance).setDefaultDepositFee(1))).toBe(E.roles.onlyGovernance);

            expect(await revertReason(as(vault, user).setGuardian(hre.ethers.ZeroAddress))).toBe(E.roles.zeroAddress);
            await mined(as(vault, user).setGuardian(other.address));
            expect(await revertReason(as(vault, guardian).setEmergencyShutdown(true))).toBe(
                E.roles.onlyGuardianOrGovernance,
            );
            await mined(as(vault, other).setEmergencyShutdown(true));
        });

        it('should refuse zero roles at deployment', async () => {
            const { deployer, guardian, weth } = await loadFixture(vaultFixture);
            expect(
                await revertReason(
                    deployMultiVault(hre, deployer, {
                        governance: hre.ethers.ZeroAddress,
                        guardian: guardian.address,
                        weth: await weth.getAddress(),
                    }),
                ),
            ).toBe(E.roles.zeroAddress);
            expect(
                await revertReason(
                    deployMultiVault(hre, deployer, {
                        governance: guardian.address,
                        guardian: guardian.address,
                        weth: guardian.address,
                    }),
                ),
            ).toBe(E.config.wethNotContract);
        });
    });

    describe('event lookup helper', () => {
        it('should return the decoded log with the receipt coordinates EventVoteData needs', async () => {
            const { vault, vaultAddress, token, tokenAddress, user } = await loadFixture(vaultFixture);
            await mined(as(token, user).approve(vaultAddress, 1_000n));
            const receipt = await mined(as(vault, user).deposit(depositParams(RECIPIENT, tokenAddress, 1_000n)));
            const ev = findDepositEvent(receipt, iface, { vault: vaultAddress, name: 'AlienTransfer' });
            const raw = await hre.ethers.provider.send('eth_getTransactionReceipt', [receipt.hash]);
            const rawLog = raw.logs.find(
                (l: { topics: string[] }) => l.topics[0] === iface.getEvent('AlienTransfer')!.topicHash,
            );
            const block = await hre.ethers.provider.getBlock(receipt.blockNumber);
            expect(ev.transactionHash).toBe(receipt.hash);
            expect(ev.logIndex).toBe(Number(rawLog.logIndex));
            expect(ev.blockNumber).toBe(Number(raw.blockNumber));
            expect(ev.blockHash).toBe(block!.hash);
            expect(ev.data).toBe(rawLog.data);
            expect(ev.emitter).toBe(vaultAddress);
            expect(eventVoteFields(ev)).toEqual({
                eventTransaction: BigInt(receipt.hash),
                eventIndex: Number(rawLog.logIndex),
                eventBlockNumber: receipt.blockNumber,
                eventBlock: BigInt(block!.hash!),
            });
            // filters: another vault address, the other event name
            expect(findDepositEvents(receipt, iface, { vault: tokenAddress })).toEqual([]);
            expect(findDepositEvents(receipt, iface, { name: 'NativeTransfer' })).toEqual([]);
            expect(() => findDepositEvent(receipt, iface, { name: 'NativeTransfer' })).toThrow(/found 0/);
        });

        it('should return every transfer log of a receipt with two deposits, in log order', async () => {
            const { vaultAddress, token, tokenAddress, user } = await loadFixture(vaultFixture);
            const dd = await deployToken('DoubleDepositor');
            await mined(as(token, user).approve(await dd.getAddress(), 2_000n));
            const receipt = await mined(
                as(dd, user).depositTwice(
                    vaultAddress,
                    depositParams(RECIPIENT, tokenAddress, 1_000n, { payload: PAYLOAD }),
                ),
            );
            const events = findDepositEvents(receipt, iface, { vault: vaultAddress });
            expect(events.map((e) => [e.name, e.fields.amount, e.fields.payload])).toEqual([
                ['AlienTransfer', 1_000n, PAYLOAD],
                ['AlienTransfer', 1_000n, PAYLOAD],
            ]);
            expect(events[1].logIndex).toBeGreaterThan(events[0].logIndex);
            expect(() => findDepositEvent(receipt, iface)).toThrow(/found 2/);
        });
    });
});
