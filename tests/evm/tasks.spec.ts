/**
 * The TVM to EVM admin tasks (hardhat.tasks.ts) run in process against Hardhat's network, with a
 * deployment file of their own (deployments/e2e-tasks-<pid>.json, removed at the end): the EVM
 * Bridge deployed by its Ignition module, bridge:round, multivault:withdrawals (the proxies listed by
 * kind, read back), multivault:withdraw-fee, multivault:withdraw-limits, multivault:pending; a signer
 * without the role fails with the contract's reason.
 */
import fs from 'fs';
import path from 'path';
import hre from 'hardhat';
import { time } from '@nomicfoundation/hardhat-network-helpers';
import { AbiCoder, computeAddress, keccak256 } from 'ethers';
import EvmBridge from '../../ignition/modules/EvmBridge';
import { as } from '../../wrappers/evm/MultiVault';
import { ApproveStatus, WithdrawalKind } from '../../wrappers/evm/withdrawals';
import { mined } from './fixtures';
import { relayKeys, withdrawalsFixture } from './withdrawals.fixture';

const NAME = `e2e-tasks-${process.pid}`;
const FILE = path.resolve('deployments', `${NAME}.json`);
const NATIVE_PROXY = '0:' + '11'.repeat(32);
const ALIEN_PROXY = '0:' + '22'.repeat(32);
const key = (raw: string) => {
    const [wid, hex] = raw.split(':');
    return keccak256(AbiCoder.defaultAbiCoder().encode(['int8', 'uint256'], [Number(wid), BigInt('0x' + hex)]));
};

describe('TVM to EVM admin tasks (hardhat.tasks.ts)', () => {
    afterAll(() => fs.rmSync(FILE, { force: true }));

    it('deploys the EVM Bridge (Ignition), sets a round, opens withdrawals, sets fees and limits, decides a pending withdrawal', async () => {
        const f = await withdrawalsFixture(4);
        const { bridge } = await hre.ignition.deploy(EvmBridge, {
            parameters: { EvmBridge: { owner: f.governance.address, guardian: f.guardian.address } },
        });
        const bridgeAddress = await bridge.getAddress();
        fs.writeFileSync(
            FILE,
            JSON.stringify({
                name: NAME,
                tvm: { A: { contracts: { nativeProxy: NATIVE_PROXY, alienProxy: ALIEN_PROXY } } },
                evm: { chainId: Number(f.chainId), tvm: 'A', multiVault: f.vaultAddress, bridge: bridgeAddress },
            }),
        );
        const relays = relayKeys(3, 'tasks').map((k) => computeAddress(k.publicKey));
        const end = (await time.latest()) + 3600;
        // the Bridge's owner only
        await expect(
            hre.run('bridge:round', {
                deployment: NAME,
                from: f.user.address,
                round: 1,
                relays: relays.join(','),
                end,
            }),
        ).rejects.toThrow('Bridge: caller is not the owner');
        await hre.run('bridge:round', {
            deployment: NAME,
            from: f.governance.address,
            round: 1,
            relays: relays.join(','),
            end,
        });
        expect(await bridge.lastRound()).toBe(1n);
        expect((await bridge.rounds(1)).requiredSignatures).toBe(3n);

        await expect(hre.run('multivault:withdrawals', { deployment: NAME, from: f.user.address })).rejects.toThrow(
            'reverted',
        );
        await hre.run('multivault:withdrawals', {
            deployment: NAME,
            from: f.governance.address,
            guardian: f.other.address,
        });
        expect(await f.vault.bridge()).toBe(bridgeAddress);
        expect(Number(await f.vault.tvmConfigurations(key(NATIVE_PROXY)))).toBe(WithdrawalKind.Native);
        expect(Number(await f.vault.tvmConfigurations(key(ALIEN_PROXY)))).toBe(WithdrawalKind.Alien);
        expect(await f.vault.withdrawGuardian()).toBe(f.other.address);

        await hre.run('multivault:withdraw-fee', { deployment: NAME, from: f.governance.address, bps: 15 });
        expect(await f.vault.defaultWithdrawFeeBps()).toBe(15n);
        await hre.run('multivault:withdraw-fee', {
            deployment: NAME,
            from: f.governance.address,
            token: f.tokenAddress,
            bps: 7,
        });
        expect(await f.vault.withdrawFeeBps(f.tokenAddress)).toBe(7n);
        await hre.run('multivault:withdraw-limits', {
            deployment: NAME,
            from: f.governance.address,
            token: f.tokenAddress,
            single: '100',
            daily: '1000',
        });
        const [single, daily] = await f.vault.withdrawalLimits(f.tokenAddress);
        expect([single, daily]).toEqual([100n, 1000n]);

        // a withdrawal over the single limit (signed by the fixture's round on the fixture's bridge)
        await mined(as(f.vault, f.governance).setBridge(await f.bridge.getAddress()));
        const w = f.alien({ amount: 500n });
        const r = await mined(f.saveAlien(w));
        const id = r.logs
            .map((l) => {
                try {
                    return f.vault.interface.parseLog(l as never);
                } catch {
                    return null;
                }
            })
            .find((l) => l?.name === 'PendingWithdrawalCreated')!.args.id as bigint;
        await expect(
            hre.run('multivault:pending', {
                deployment: NAME,
                from: f.user.address,
                recipient: w.recipient,
                id: id.toString(),
                approve: true,
            }),
        ).rejects.toThrow('Pending: caller is not withdraw guardian');
        await hre.run('multivault:pending', {
            deployment: NAME,
            from: f.other.address,
            recipient: w.recipient,
            id: id.toString(),
            approve: true,
        });
        const p = await f.vault.pendingWithdrawal(w.recipient, id);
        expect([p.amount, Number(p.approveStatus)]).toEqual([0n, ApproveStatus.Approved]);
    });
});
