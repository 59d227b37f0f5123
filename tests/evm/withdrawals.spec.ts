import hre from 'hardhat';
import { loadFixture, setBalance, time } from '@nomicfoundation/hardhat-network-helpers';
import { Contract, ZeroAddress, getCreate2Address, id, keccak256 } from 'ethers';
import { EvmErrors } from '../../wrappers/evm/EvmErrors';
import {
    as,
    deployEvmContract,
    depositNativeTokenParams,
    depositParams,
    evmContractAt,
} from '../../wrappers/evm/MultiVault';
import { AlienTransferFields, findDepositEvent } from '../../wrappers/evm/depositEvents';
import { ApproveStatus, WithdrawalKind, withdrawalDigest, withdrawalId } from '../../wrappers/evm/withdrawals';
import { RECIPIENT, mined, revertReason } from './fixtures';
import { ALIEN_CONFIGURATION, ROUND, TVM_ROOT, relayKeys, withdrawalsFixture } from './withdrawals.fixture';

/**
 * TVM -> EVM withdrawals on the MultiVault (evm/MultiVaultWithdrawals.sol, reached at the vault's
 * address): verification by the Bridge, once per TVM Event, the withdrawal fee, the payout (unlock,
 * mint, unwrap), withdrawal limits and the withdraw guardian, pending withdrawals for lack of
 * liquidity (bounty, fill by a deposit, force withdraw, cancel back to TVM), the callback.
 */
const E = EvmErrors;
const fixture = () => withdrawalsFixture(4);

/** The events of a receipt decoded by the vault's ABI. */
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

describe('MultiVault withdrawals (TVM -> EVM)', () => {
    describe('verification', () => {
        it('should hash withdrawals as EIP-712 (the digest the relays sign) and pay an alien withdrawal once', async () => {
            const f = await loadFixture(fixture);
            const w = f.alien({ amount: 12_345n });
            expect(await f.vault.hashAlienWithdrawal(w)).toBe(
                withdrawalDigest(f.chainId, f.vaultAddress, { kind: WithdrawalKind.Alien, ...w }),
            );
            const n = f.native();
            expect(await f.vault.hashNativeWithdrawal(n)).toBe(
                withdrawalDigest(f.chainId, f.vaultAddress, { kind: WithdrawalKind.Native, ...n }),
            );
            const before: bigint = await f.token.balanceOf(w.recipient);
            const r = await mined(f.saveAlien(w));
            expect((await f.token.balanceOf(w.recipient)) - before).toBe(12_345n);
            const ev = logsOf(f.vault, r).find((l) => l!.name === 'Withdrawal')!;
            expect(ev.args.withdrawalId).toBe(withdrawalId(w.eventWid, w.eventAddr));
            expect(await f.vault.withdrawalIds(withdrawalId(w.eventWid, w.eventAddr))).toBe(true);
            // replayed, even signed in another round: "Withdraw: already withdrawn"
            expect(await revertReason(f.saveAlien(w))).toBe(E.withdraw.alreadyWithdrawn);
        });

        it('should refuse a configuration not listed for the kind, too few signatures, non-relays, a past round', async () => {
            const f = await loadFixture(fixture);
            // an alien event from the native configuration, and from an unknown one
            expect(
                await revertReason(f.saveAlien(f.alien({ configurationAddr: BigInt(id('native configuration')) }))),
            ).toBe(E.withdraw.wrongConfiguration);
            expect(await revertReason(f.saveAlien(f.alien({ configurationAddr: 5n })))).toBe(
                E.withdraw.wrongConfiguration,
            );
            // too few: 2 of 4 (3 required)
            expect(await revertReason(f.saveAlien(f.alien(), { signers: f.keys.slice(0, 2) }))).toBe(
                E.bridge.notEnoughSignatures,
            );
            // non-relays
            const strangers = relayKeys(3, 'strangers');
            expect(await revertReason(f.saveAlien(f.alien(), { signers: strangers }))).toBe(
                E.bridge.notEnoughRelaySignatures,
            );
            // a round the bridge does not know
            expect(await revertReason(f.saveAlien(f.alien({ round: ROUND + 1 })))).toBe(E.bridge.unknownRound);
            // round ROUND + 1 with new relays: the old round's keys do not count for its events
            const next = relayKeys(4, 'next');
            await mined(
                as(f.bridge, f.governance).setRoundRelays(
                    ROUND + 1,
                    next.map((k) => hre.ethers.computeAddress(k.publicKey)),
                    (await time.latest()) + 100,
                ),
            );
            expect(await revertReason(f.saveAlien(f.alien({ round: ROUND + 1 })))).toBe(
                E.bridge.notEnoughRelaySignatures,
            );
            await mined(f.saveAlien(f.alien({ round: ROUND + 1 }), { signers: next.slice(0, 3) }));
            // a changed field: the signatures are of another digest
            const w = f.alien();
            const sigs = f.sign(w, WithdrawalKind.Alien);
            expect(await revertReason(f.vault.saveWithdrawAlien({ ...w, amount: w.amount + 1n }, sigs, 0n))).toMatch(
                /^Bridge: (not enough relay signatures|signers not ascending)$/,
            );
            expect(
                await revertReason(f.vault.saveWithdrawAlien({ ...w, recipient: f.user.address }, sigs, 0n)),
            ).toMatch(/^Bridge: (not enough relay signatures|signers not ascending)$/);
        });

        it("should refuse everything in emergency shutdown (the vault's and the bridge's)", async () => {
            const f = await loadFixture(fixture);
            await mined(as(f.vault, f.guardian).setEmergencyShutdown(true));
            expect(await revertReason(f.saveAlien(f.alien()))).toBe(E.deposit.emergencyShutdown);
            expect(await revertReason(f.saveNative(f.native()))).toBe(E.deposit.emergencyShutdown);
            await mined(f.g.setEmergencyShutdown(false));
            await mined(as(f.bridge, f.guardian).setEmergencyShutdown(true));
            expect(await revertReason(f.saveAlien(f.alien()))).toBe(E.bridge.emergencyShutdown);
        });

        it('should refuse an alien withdrawal of a representation token and a zero recipient', async () => {
            const f = await loadFixture(fixture);
            await mined(f.saveNative(f.native()));
            const representation: string = await f.vault.predictNativeTokenAddress(TVM_ROOT.wid, TVM_ROOT.addr);
            expect(await revertReason(f.saveAlien(f.alien({ token: representation })))).toBe(E.withdraw.notAlienToken);
            expect(await revertReason(f.saveAlien(f.alien({ recipient: ZeroAddress })))).toBe(E.withdraw.zeroRecipient);
        });
    });

    describe('payout', () => {
        it('should mint a native withdrawal, deploying the representation at the first one with the signed metadata', async () => {
            const f = await loadFixture(fixture);
            const token: string = await f.vault.predictNativeTokenAddress(TVM_ROOT.wid, TVM_ROOT.addr);
            expect(await hre.ethers.provider.getCode(token)).toBe('0x');
            await mined(f.saveNative(f.native({ amount: 777n })));
            const t = await evmContractAt(hre, 'MultiVaultToken', token, f.user);
            expect([await t.name(), await t.symbol(), Number(await t.decimals())]).toEqual(['Tvm Native', 'TNT', 9]);
            expect(await t.balanceOf(f.other.address)).toBe(777n);
            // the address is CREATE2 from the vault (the deployer's code ran in the vault's context)
            const salt = keccak256(
                hre.ethers.AbiCoder.defaultAbiCoder().encode(['int8', 'uint256'], [TVM_ROOT.wid, TVM_ROOT.addr]),
            );
            const initCode = (await hre.artifacts.readArtifact('MultiVaultToken')).bytecode;
            expect(getCreate2Address(f.vaultAddress, salt, keccak256(initCode))).toBe(token);
            expect(await t.vault()).toBe(f.vaultAddress);
            // later withdrawals reuse it, whatever metadata they carry
            await mined(f.saveNative(f.native({ amount: 3n, name: 'Other', symbol: 'OTH', decimals: 6 })));
            expect(await t.balanceOf(f.other.address)).toBe(780n);
            expect(await t.name()).toBe('Tvm Native');
            // invalid metadata for a first deployment
            const other = { tokenAddr: TVM_ROOT.addr + 1n };
            expect(await revertReason(f.saveNative(f.native({ ...other, name: '' })))).toBe(E.deposit.invalidTokenMeta);
            expect(await revertReason(f.saveNative(f.native({ ...other, symbol: 'S'.repeat(65) })))).toBe(
                E.deposit.invalidTokenMeta,
            );
        });

        it("should charge the withdrawal fee (rounded up; default or the token's own) and keep it in fees", async () => {
            const f = await loadFixture(fixture);
            await mined(f.g.setDefaultWithdrawFee(30)); // 0.3 %
            const w = f.alien({ amount: 1001n });
            const before: bigint = await f.token.balanceOf(w.recipient);
            const feesBefore: bigint = await f.vault.fees(f.tokenAddress);
            await mined(f.saveAlien(w));
            const fee = (1001n * 30n + 9999n) / 10000n;
            expect((await f.token.balanceOf(w.recipient)) - before).toBe(1001n - fee);
            expect((await f.vault.fees(f.tokenAddress)) - feesBefore).toBe(fee);
            // a token's own fee overrides; clearing goes back to the default
            await mined(f.g.setTokenWithdrawFee(f.tokenAddress, true, 0));
            expect(await f.vault.withdrawFeeBps(f.tokenAddress)).toBe(0n);
            await mined(f.g.setTokenWithdrawFee(f.tokenAddress, false, 0));
            expect(await f.vault.withdrawFeeBps(f.tokenAddress)).toBe(30n);
            // native: the fee part is accrued (minted by withdrawFees), the recipient gets the rest
            await mined(f.saveNative(f.native({ amount: 10_000n })));
            const token: string = await f.vault.predictNativeTokenAddress(TVM_ROOT.wid, TVM_ROOT.addr);
            expect(await f.vault.fees(token)).toBe(30n);
            expect(await (await evmContractAt(hre, 'MultiVaultToken', token, f.user)).balanceOf(f.other.address)).toBe(
                9970n,
            );
        });

        it('should unwrap the wrapped gas currency, and pay WETH to a recipient that refuses the gas currency', async () => {
            const f = await loadFixture(fixture);
            const wethAddress = await f.weth.getAddress();
            await mined(
                as(f.vault, f.user).getFunction('depositByNativeToken((int8,uint256,uint256,uint256,bytes))')(
                    depositNativeTokenParams(RECIPIENT),
                    { value: 10n ** 18n },
                ),
            );
            const recipient = hre.ethers.Wallet.createRandom().address;
            await mined(f.saveAlien(f.alien({ token: wethAddress, amount: 10n ** 17n, recipient })));
            expect(await hre.ethers.provider.getBalance(recipient)).toBe(10n ** 17n);
            const refuser = await deployEvmContract(hre, 'GasCurrencyRefuser', [], f.deployer);
            const refuserAddress = await refuser.getAddress();
            await mined(f.saveAlien(f.alien({ token: wethAddress, amount: 5n, recipient: refuserAddress })));
            expect(await f.weth.balanceOf(refuserAddress)).toBe(5n);
            expect(await hre.ethers.provider.getBalance(refuserAddress)).toBe(0n);
            // plain gas currency sent to the vault is refused
            expect(await revertReason(f.user.sendTransaction({ to: f.vaultAddress, value: 1n }))).toBe(
                E.config.unexpectedGasCurrency,
            );
        });

        it('should call the callback with the payload after the payout; a failing one does not undo it', async () => {
            const f = await loadFixture(fixture);
            const cb = await deployEvmContract(hre, 'TestWithdrawalCallback', [], f.deployer);
            const callback = await cb.getAddress();
            await mined(f.saveAlien(f.alien({ amount: 42n, callback, payload: '0xcafe' })));
            expect(await cb.calls()).toBe(1n);
            expect([
                await cb.lastToken(),
                await cb.lastRecipient(),
                await cb.lastAmount(),
                await cb.lastPayloadHash(),
            ]).toEqual([f.tokenAddress, f.other.address, 42n, keccak256('0xcafe')]);
            for (const mode of [1, 2]) {
                await mined(cb.setMode(mode));
                const before: bigint = await f.token.balanceOf(f.other.address);
                const r = await mined(f.saveAlien(f.alien({ amount: 5n, callback }), {}));
                expect((await f.token.balanceOf(f.other.address)) - before).toBe(5n);
                expect(logsOf(f.vault, r).some((l) => l!.name === 'CallbackFailed')).toBe(true);
            }
        });
    });

    describe('limits and the withdraw guardian', () => {
        it('should make a withdrawal above the single limit pending (Required); the withdraw guardian approves: paid', async () => {
            const f = await loadFixture(fixture);
            await mined(f.g.setWithdrawalLimits(f.tokenAddress, 1000, 0));
            await mined(f.saveAlien(f.alien({ amount: 1000n }))); // exactly the limit passes
            const w = f.alien({ amount: 1001n });
            const r = await mined(f.saveAlien(w));
            const created = logsOf(f.vault, r).find((l) => l!.name === 'PendingWithdrawalCreated')!;
            expect(Number(created.args.approveStatus)).toBe(ApproveStatus.Required);
            const id = { recipient: w.recipient, id: created.args.id };
            const p = await f.vault.pendingWithdrawal(w.recipient, id.id);
            expect([p.token, p.amount, Number(p.approveStatus)]).toEqual([
                f.tokenAddress,
                1001n,
                ApproveStatus.Required,
            ]);
            expect(await f.vault.pendingWithdrawalsTotal(f.tokenAddress)).toBe(1001n);
            // it cannot be filled, forced or cancelled before the approval
            expect(await revertReason(as(f.vault, f.other).forceWithdraw([id]))).toBe(E.pending.wrongApproveStatus);
            expect(await revertReason(as(f.vault, f.other).cancelPendingWithdrawal(id.id, 1n, 0, 1n, 0n, '0x'))).toBe(
                E.pending.wrongApproveStatus,
            );
            // only the withdraw guardian or governance
            expect(await revertReason(as(f.vault, f.user).setPendingWithdrawalApprove(id, true))).toBe(
                E.pending.notWithdrawGuardian,
            );
            const before: bigint = await f.token.balanceOf(w.recipient);
            await mined(as(f.vault, f.guardian).setPendingWithdrawalApprove(id, true));
            expect((await f.token.balanceOf(w.recipient)) - before).toBe(1001n);
            expect((await f.vault.pendingWithdrawal(w.recipient, id.id)).amount).toBe(0n);
            expect(await f.vault.pendingWithdrawalsTotal(f.tokenAddress)).toBe(0n);
            expect(await revertReason(as(f.vault, f.guardian).setPendingWithdrawalApprove(id, true))).toBe(
                E.pending.wrongCurrentApproveStatus,
            );
        });

        it('should count the daily limit per UTC day; a rejected withdrawal is final', async () => {
            const f = await loadFixture(fixture);
            const day = 86400;
            await time.increaseTo(Math.ceil((await time.latest()) / day) * day + 60);
            await mined(f.g.setWithdrawalLimits(f.tokenAddress, 0, 2000));
            await mined(f.saveAlien(f.alien({ amount: 1500n })));
            expect((await f.vault.withdrawalLimits(f.tokenAddress)).usedToday).toBe(1500n);
            const w = f.alien({ amount: 501n });
            const r = await mined(f.saveAlien(w));
            const created = logsOf(f.vault, r).find((l) => l!.name === 'PendingWithdrawalCreated')!;
            const id = { recipient: w.recipient, id: created.args.id };
            await mined(f.saveAlien(f.alien({ amount: 500n }))); // the day's rest passes
            expect((await f.vault.withdrawalLimits(f.tokenAddress)).usedToday).toBe(2000n);
            // reject: final
            await mined(f.g.setPendingWithdrawalApprove(id, false));
            const p = await f.vault.pendingWithdrawal(w.recipient, id.id);
            expect(Number(p.approveStatus)).toBe(ApproveStatus.Rejected);
            expect(await f.vault.pendingWithdrawalsTotal(f.tokenAddress)).toBe(0n);
            expect(await revertReason(f.g.setPendingWithdrawalApprove(id, true))).toBe(
                E.pending.wrongCurrentApproveStatus,
            );
            expect(await revertReason(as(f.vault, f.other).forceWithdraw([id]))).toBe(E.pending.wrongApproveStatus);
            // the next UTC day has its own count
            await time.increase(day);
            await mined(f.saveAlien(f.alien({ amount: 2000n })));
            expect((await f.vault.withdrawalLimits(f.tokenAddress)).usedToday).toBe(2000n);
        });

        it('should mint an approved native withdrawal over the limit at once', async () => {
            const f = await loadFixture(fixture);
            const token: string = await f.vault.predictNativeTokenAddress(TVM_ROOT.wid, TVM_ROOT.addr);
            // set on the representation's address before it exists
            await mined(f.g.setWithdrawalLimits(token, 100, 0));
            const w = f.native({ amount: 101n });
            const r = await mined(f.saveNative(w));
            const created = logsOf(f.vault, r).find((l) => l!.name === 'PendingWithdrawalCreated')!;
            const t = await evmContractAt(hre, 'MultiVaultToken', token, f.user);
            expect(await t.balanceOf(w.recipient)).toBe(0n);
            // a native pending withdrawal has no bounty and cannot be cancelled
            expect(await revertReason(as(f.vault, f.other).setPendingWithdrawalBounty(created.args.id, 1n))).toBe(
                E.pending.nativeToken,
            );
            await mined(f.g.setPendingWithdrawalApprove({ recipient: w.recipient, id: created.args.id }, true));
            expect(await t.balanceOf(w.recipient)).toBe(101n);
        });

        it("should saturate the day's approved amount, never wrap it: approvals summing to 2^128 keep the daily limit", async () => {
            const f = await loadFixture(fixture);
            const token: string = await f.vault.predictNativeTokenAddress(TVM_ROOT.wid, TVM_ROOT.addr);
            const day = 86400;
            await time.increaseTo(Math.ceil((await time.latest()) / day) * day + 60);
            await mined(f.g.setWithdrawalLimits(token, 0, 1000));
            await mined(f.g.setTokenWithdrawFee(token, true, 0));
            // two withdrawals of 2^127 over the daily limit, both approved the same day: 2^128 in all
            for (let i = 0; i < 2; i++) {
                const w = f.native({ amount: 2n ** 127n });
                const created = logsOf(f.vault, await mined(f.saveNative(w))).find(
                    (l) => l!.name === 'PendingWithdrawalCreated',
                )!;
                expect(Number(created.args.approveStatus)).toBe(ApproveStatus.Required);
                await mined(f.g.setPendingWithdrawalApprove({ recipient: w.recipient, id: created.args.id }, true));
            }
            // kept at 2^128 - 1 (a wrap would read 0 and give the day's whole limit back)
            expect((await f.vault.withdrawalLimits(token)).usedToday).toBe(2n ** 128n - 1n);
            const w = f.native({ amount: 1000n });
            const created = logsOf(f.vault, await mined(f.saveNative(w))).find(
                (l) => l!.name === 'PendingWithdrawalCreated',
            );
            expect(created && Number(created.args.approveStatus)).toBe(ApproveStatus.Required);
            const t = await evmContractAt(hre, 'MultiVaultToken', token, f.user);
            expect(await t.balanceOf(w.recipient)).toBe(2n ** 128n);
            // the next UTC day starts from 0
            await time.increase(day);
            await mined(f.saveNative(f.native({ amount: 1000n })));
            expect((await f.vault.withdrawalLimits(token)).usedToday).toBe(1000n);
        });
    });

    describe('pending withdrawals for lack of liquidity', () => {
        /** The vault short: the operator took its liquidity out (a strategy, in production). */
        async function short() {
            const f = await loadFixture(fixture);
            const all: bigint = await f.token.balanceOf(f.vaultAddress);
            await mined(f.g.testTakeLiquidity(f.tokenAddress, f.governance.address, all));
            const w = f.alien({ amount: 10_000n });
            // the recipient sends it and sets a bounty at once
            const r = await mined(f.saveAlien(w, { bounty: 100n, from: as(f.vault, f.other) }));
            const created = logsOf(f.vault, r).find((l) => l!.name === 'PendingWithdrawalCreated')!;
            expect(Number(created.args.approveStatus)).toBe(ApproveStatus.NotRequired);
            return { ...f, w, id: { recipient: w.recipient, id: created.args.id as bigint } };
        }

        it('should record a pending withdrawal with the bounty its recipient set (at most the amount)', async () => {
            const f = await short();
            const p = await f.vault.pendingWithdrawal(f.w.recipient, f.id.id);
            expect([p.amount, p.bounty, Number(p.approveStatus)]).toEqual([10_000n, 100n, ApproveStatus.NotRequired]);
            expect(await f.vault.pendingWithdrawalsPerUser(f.w.recipient)).toBe(1n);
            // a bounty above the amount at save time; only the recipient sets it then (others: 0)
            expect(
                await revertReason(f.saveAlien(f.alien({ amount: 5n }), { bounty: 6n, from: as(f.vault, f.other) })),
            ).toBe(E.withdraw.bountyAboveAmount);
            const r = await mined(f.saveAlien(f.alien({ amount: 5n }), { bounty: 5n, from: as(f.vault, f.user) }));
            const id2 = logsOf(f.vault, r).find((l) => l!.name === 'PendingWithdrawalCreated')!.args.id;
            expect((await f.vault.pendingWithdrawal(f.w.recipient, id2)).bounty).toBe(0n);
            // setPendingWithdrawalBounty: the recipient's own, at most the amount
            expect(await revertReason(as(f.vault, f.other).setPendingWithdrawalBounty(f.id.id, 10_001n))).toBe(
                E.pending.bountyTooLarge,
            );
            await mined(as(f.vault, f.other).setPendingWithdrawalBounty(f.id.id, 200n));
            expect((await f.vault.pendingWithdrawal(f.w.recipient, f.id.id)).bounty).toBe(200n);
        });

        it("should be filled by anyone's deposit: the recipient gets amount - bounty, the depositor's transfer carries the bounty", async () => {
            const f = await short();
            await mined(f.g.setDefaultDepositFee(10));
            const depositor = f.user;
            await mined(as(f.token, depositor).approve(f.vaultAddress, 50_000n));
            const before: bigint = await f.token.balanceOf(f.w.recipient);
            const fill = (amount: bigint, ids: { recipient: string; id: bigint }[], minBounty = 0n) =>
                as(f.vault, depositor).getFunction(
                    'deposit((int8,uint256,address,uint256,uint256,bytes),uint256,(address,uint256)[])',
                )(depositParams(RECIPIENT, f.tokenAddress, amount), minBounty, ids);
            // the spec's three messages
            expect(await revertReason(fill(9_999n, [f.id]))).toBe('Pending: deposit insufficient');
            expect(await revertReason(fill(20_000n, [f.id], 101n))).toBe(E.deposit.bountyTooLow);
            const r = await mined(fill(20_000n, [f.id], 100n));
            expect((await f.token.balanceOf(f.w.recipient)) - before).toBe(9_900n);
            const ev = findDepositEvent(r, f.vault.interface, { vault: f.vaultAddress, name: 'AlienTransfer' });
            const depositFee = (20_000n * 10n + 9999n) / 10000n;
            expect((ev.fields as AlienTransferFields).amount).toBe(20_000n - depositFee + 100n);
            const paid = logsOf(f.vault, r).find((l) => l!.name === 'PendingWithdrawalPaid')!;
            expect([paid.args.amount, paid.args.filler, paid.args.bounty]).toEqual([9_900n, depositor.address, 100n]);
            expect(await f.vault.pendingWithdrawalsTotal(f.tokenAddress)).toBe(0n);
            // filled already
            expect(await revertReason(fill(20_000n, [f.id]))).toBe('Pending: already filled');
            // a pending withdrawal of another token
            const weth = await f.weth.getAddress();
            await mined(
                f.g.testTakeLiquidity(f.tokenAddress, f.governance.address, await f.token.balanceOf(f.vaultAddress)),
            );
            const w2 = f.alien({ token: weth, amount: 7n });
            const r2 = await mined(f.saveAlien(w2));
            const id2 = {
                recipient: w2.recipient,
                id: logsOf(f.vault, r2).find((l) => l!.name === 'PendingWithdrawalCreated')!.args.id,
            };
            expect(await revertReason(fill(20_000n, [id2]))).toBe('Pending: wrong token');
            // a native deposit fills nothing
            await mined(f.saveNative(f.native()));
            const rep: string = await f.vault.predictNativeTokenAddress(TVM_ROOT.wid, TVM_ROOT.addr);
            expect(
                await revertReason(
                    as(f.vault, f.other).getFunction(
                        'deposit((int8,uint256,address,uint256,uint256,bytes),uint256,(address,uint256)[])',
                    )(depositParams(RECIPIENT, rep, 1n), 0n, [id2]),
                ),
            ).toBe(E.pending.nativeToken);
            // depositByNativeToken fills a pending withdrawal of the wrapped gas currency (unwrapped)
            const gasBefore = await hre.ethers.provider.getBalance(w2.recipient);
            await mined(
                as(f.vault, f.user).getFunction(
                    'depositByNativeToken((int8,uint256,uint256,uint256,bytes),uint256,(address,uint256)[])',
                )(depositNativeTokenParams(RECIPIENT), 0n, [id2], { value: 10n }),
            );
            expect((await hre.ethers.provider.getBalance(w2.recipient)) - gasBefore).toBe(7n);
        });

        it('should be force-withdrawn by anyone once the vault holds the tokens (the whole amount, no bounty)', async () => {
            const f = await short();
            expect(await revertReason(as(f.vault, f.user).forceWithdraw([f.id]))).toBe(E.pending.notEnoughLiquidity);
            await mined(as(f.token, f.governance).transfer(f.vaultAddress, 10_000n));
            const before: bigint = await f.token.balanceOf(f.w.recipient);
            await mined(as(f.vault, f.user).forceWithdraw([f.id]));
            expect((await f.token.balanceOf(f.w.recipient)) - before).toBe(10_000n);
            expect(await revertReason(as(f.vault, f.user).forceWithdraw([f.id]))).toBe(E.pending.zeroAmount);
        });

        it('should be cancelled by its recipient back to TVM: an AlienTransfer of the amount (partly too), no deposit fee', async () => {
            const f = await short();
            await mined(f.g.setDefaultDepositFee(100));
            const tvm = { wid: 0, addr: BigInt(id('tvm recipient')) };
            // only the recipient's own pending withdrawal: another caller's id points elsewhere
            expect(
                await revertReason(as(f.vault, f.user).cancelPendingWithdrawal(f.id.id, 1n, 0, tvm.addr, 0n, '0x')),
            ).toBe(E.pending.wrongAmount);
            const v = as(f.vault, f.other);
            expect(await revertReason(v.cancelPendingWithdrawal(f.id.id, 0n, 0, tvm.addr, 0n, '0x'))).toBe(
                E.pending.wrongAmount,
            );
            expect(await revertReason(v.cancelPendingWithdrawal(f.id.id, 10_001n, 0, tvm.addr, 0n, '0x'))).toBe(
                E.pending.wrongAmount,
            );
            expect(await revertReason(v.cancelPendingWithdrawal(f.id.id, 1n, 0, 0n, 0n, '0x'))).toBe(
                E.deposit.zeroRecipient,
            );
            const r = await mined(
                v.cancelPendingWithdrawal(f.id.id, 4_000n, tvm.wid, tvm.addr, 5n, '0xbeef', { value: 9n }),
            );
            const ev = findDepositEvent(r, f.vault.interface, { vault: f.vaultAddress, name: 'AlienTransfer' });
            expect([
                (ev.fields as AlienTransferFields).amount,
                (ev.fields as AlienTransferFields).recipient_addr,
                (ev.fields as AlienTransferFields).value,
                (ev.fields as AlienTransferFields).expected_gas,
                (ev.fields as AlienTransferFields).payload,
            ]).toEqual([4_000n, tvm.addr, 9n, 5n, '0xbeef']);
            expect(BigInt((ev.fields as AlienTransferFields).base_token)).toBe(BigInt(f.tokenAddress));
            const p = await f.vault.pendingWithdrawal(f.w.recipient, f.id.id);
            expect(p.amount).toBe(6_000n);
            expect(await f.vault.pendingWithdrawalsTotal(f.tokenAddress)).toBe(6_000n);
            await mined(v.cancelPendingWithdrawal(f.id.id, 6_000n, tvm.wid, tvm.addr, 0n, '0x'));
            expect((await f.vault.pendingWithdrawal(f.w.recipient, f.id.id)).amount).toBe(0n);
        });

        it('should pay an approved withdrawal over the limit once liquidity is back (force withdraw)', async () => {
            const f = await loadFixture(fixture);
            await mined(f.g.setWithdrawalLimits(f.tokenAddress, 10, 0));
            await mined(
                f.g.testTakeLiquidity(f.tokenAddress, f.governance.address, await f.token.balanceOf(f.vaultAddress)),
            );
            const w = f.alien({ amount: 50n });
            const r = await mined(f.saveAlien(w));
            const id = {
                recipient: w.recipient,
                id: logsOf(f.vault, r).find((l) => l!.name === 'PendingWithdrawalCreated')!.args.id,
            };
            await mined(f.g.setPendingWithdrawalApprove(id, true));
            const p = await f.vault.pendingWithdrawal(w.recipient, id.id);
            expect([p.amount, Number(p.approveStatus)]).toEqual([50n, ApproveStatus.Approved]);
            await mined(as(f.token, f.governance).transfer(f.vaultAddress, 50n));
            await mined(as(f.vault, f.user).forceWithdraw([id]));
            expect((await f.vault.pendingWithdrawal(w.recipient, id.id)).amount).toBe(0n);
        });
    });

    describe('settings', () => {
        it('should let only governance set the bridge, the withdraw guardian, configurations, fees and limits, and validate them', async () => {
            const f = await loadFixture(fixture);
            const u = as(f.vault, f.user);
            for (const call of [
                () => u.setBridge(f.vaultAddress),
                () => u.setWithdrawGuardian(f.user.address),
                () => u.setTvmConfiguration(0, 1n, 1),
                () => u.setDefaultWithdrawFee(1),
                () => u.setTokenWithdrawFee(f.tokenAddress, true, 1),
                () => u.setWithdrawalLimits(f.tokenAddress, 1, 1),
            ])
                expect(await revertReason(call())).toBe(E.roles.onlyGovernance);
            expect(await revertReason(f.g.setBridge(f.user.address))).toBe(E.config.bridgeNotContract);
            expect(await revertReason(f.g.setWithdrawGuardian(ZeroAddress))).toBe(E.roles.zeroAddress);
            expect(await revertReason(f.g.setTvmConfiguration(0, 1n, 3))).toBe(E.config.wrongKind);
            expect(await revertReason(f.g.setDefaultWithdrawFee(10_001))).toBe(E.config.feeTooHigh);
            expect(await revertReason(f.g.setTokenWithdrawFee(f.tokenAddress, true, 10_001))).toBe(E.config.feeTooHigh);
            expect(await revertReason(f.g.setTokenWithdrawFee(ZeroAddress, true, 1))).toBe(E.config.zeroToken);
            expect(await revertReason(f.g.setWithdrawalLimits(f.tokenAddress, 2n ** 128n, 0))).toBe(
                E.config.limitTooLarge,
            );
            expect(await revertReason(f.g.setWithdrawalLimits(ZeroAddress, 1, 0))).toBe(E.config.zeroToken);
            // a configuration removed (kind 0): its events refused
            await mined(f.g.setTvmConfiguration(ALIEN_CONFIGURATION.wid, ALIEN_CONFIGURATION.addr, 0));
            expect(await revertReason(f.saveAlien(f.alien()))).toBe(E.withdraw.wrongConfiguration);
            // the withdraw guardian can be another account than the guardian
            await mined(f.g.setWithdrawGuardian(f.user.address));
            expect(await f.vault.withdrawGuardian()).toBe(f.user.address);
            await setBalance(f.user.address, 10n ** 20n);
        });

        it('should keep the withdrawals part unusable on its own (no governance, no bridge, no tokens)', async () => {
            const f = await loadFixture(fixture);
            const part = await evmContractAt(hre, 'MultiVaultWithdrawals', await f.vault.withdrawals(), f.governance);
            expect(await revertReason(part.setBridge(f.vaultAddress))).toBe(E.roles.onlyGovernance);
            expect(await part.governance()).toBe(ZeroAddress);
            await expect(
                part.saveWithdrawAlien(f.alien(), f.sign(f.alien(), WithdrawalKind.Alien), 0n),
            ).rejects.toThrow();
        });
    });
});
