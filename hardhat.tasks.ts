/**
 * EVM admin as Hardhat tasks, one per MultiVault governance operation, each showing the current
 * value, sending as the governance (or the guardian, for turning the emergency shutdown on) and reading the value back:
 *
 *   npx hardhat multivault:fee       --network <net> --deployment <name> [--token <address>] --bps <n>
 *   npx hardhat multivault:limit     --network <net> --deployment <name> --token <address> --limit <amount>
 *   npx hardhat multivault:blacklist --network <net> --deployment <name> --token <address> --blacklisted <true|false>
 *   npx hardhat multivault:emergency --network <net> --deployment <name> --active <true|false>
 *   npx hardhat multivault:governance --network <net> --deployment <name> --to <address>   (then the new one: --accept)
 *
 * TVM to EVM (withdrawals; the relays' Bridge at evm.bridge, deployed by ignition/modules/EvmBridge.ts):
 *   npx hardhat bridge:round --network <net> --deployment <name> --round <n> --relays <a,b,...> --end <unix seconds>
 *   npx hardhat multivault:withdrawals --network <net> --deployment <name> [--guardian <address>]
 *       (setBridge to evm.bridge, the TVM network's native proxy listed as Native and its alien proxy as Alien)
 *   npx hardhat multivault:withdraw-fee    --network <net> --deployment <name> [--token <address>] --bps <n>
 *   npx hardhat multivault:withdraw-limits --network <net> --deployment <name> --token <address> --single <n> --daily <n>
 *   npx hardhat multivault:pending --network <net> --deployment <name> --recipient <address> --id <n> --approve <true|false>
 *
 * The MultiVault's address comes from deployments/<name>.json (evm.multiVault). `--from <address>` picks
 * the signing account among the network's (on the local network: #1 is the governance, #2 the guardian).
 */
import fs from 'fs';
import path from 'path';
import { task, types } from 'hardhat/config';
import type { HardhatRuntimeEnvironment } from 'hardhat/types';
import { Contract } from 'ethers';
import { multiVaultAbi } from './wrappers/evm/MultiVault';

function deploymentFile(deployment: string) {
    const file = path.resolve('deployments', `${deployment}.json`);
    if (!fs.existsSync(file)) throw new Error(`no deployment file ${file}`);
    return { file, d: JSON.parse(fs.readFileSync(file, 'utf8')) };
}

async function vault(hre: HardhatRuntimeEnvironment, deployment: string, from?: string) {
    const { file, d } = deploymentFile(deployment);
    const address = d.evm?.multiVault;
    if (!address) throw new Error(`${file}: evm.multiVault is not set`);
    const signer = from ? await hre.ethers.getSigner(from) : (await hre.ethers.getSigners())[0];
    // its own ABI and its withdrawals part's (run at its address)
    const v = new Contract(address, await multiVaultAbi(hre), signer);
    console.log(
        `MultiVault ${address} on chain ${(await hre.ethers.provider.getNetwork()).chainId}, signer ${signer.address}`,
    );
    return v;
}

async function send(what: string, tx: Promise<{ wait: () => Promise<unknown> }>) {
    try {
        await (await tx).wait();
    } catch (e) {
        throw new Error(
            `${what} reverted: ${(e as { shortMessage?: string; message: string }).shortMessage ?? (e as Error).message}`,
            { cause: e },
        );
    }
}

/** A task of this file: every one names the deployment and may pick the signing account. */
function adminTask(name: string, description: string) {
    return task(name, description)
        .addParam('deployment', 'deployment name')
        .addOptionalParam('from', 'the signing account (default: the first account of the network)');
}

/**
 * Shows a value, sends the change and shows the value it reads back (the fee tasks: deposit and
 * withdrawal fees alike, a token's or the default one).
 */
async function changeAndShow(
    show: () => Promise<unknown>,
    change: string,
    what: string,
    tx: () => Promise<{ wait: () => Promise<unknown> }>,
) {
    console.log(`now: ${await show()}; change: ${change}`);
    await send(what, tx());
    console.log(`done: ${await show()}`);
}

adminTask('multivault:fee', 'Set the default deposit fee, or a token fee (basis points)')
    .addOptionalParam('token', 'token (omit for the default fee)')
    .addParam('bps', 'fee in basis points', undefined, types.int)
    .setAction(async (a, hre) => {
        const v = await vault(hre, a.deployment, a.from);
        if (a.token)
            await changeAndShow(
                async () => `${await v.depositFeeBps(a.token)} bps`,
                `${a.bps} bps`,
                'setTokenDepositFee',
                () => v.setTokenDepositFee(a.token, a.bps),
            );
        else
            await changeAndShow(
                async () => `${await v.defaultDepositFeeBps()} bps`,
                `${a.bps} bps`,
                'setDefaultDepositFee',
                () => v.setDefaultDepositFee(a.bps),
            );
    });

adminTask('multivault:limit', 'Set the rolling 24-hour deposit limit of a token (0: none)')
    .addParam('token', 'token')
    .addParam('limit', 'amount (token units)')
    .setAction(async (a, hre) => {
        const v = await vault(hre, a.deployment, a.from);
        console.log(`now: ${(await v.depositLimit(a.token)).limit}; change: ${a.limit}`);
        await send('setDepositLimit', v.setDepositLimit(a.token, BigInt(a.limit)));
        const after = (await v.depositLimit(a.token)).limit;
        if (after !== BigInt(a.limit)) throw new Error(`the limit reads ${after}, not ${a.limit}`);
        console.log(`done: ${after}`);
    });

adminTask('multivault:blacklist', 'Blacklist a token (deposits refused) or lift it')
    .addParam('token', 'token')
    .addParam('blacklisted', 'true or false', undefined, types.boolean)
    .setAction(async (a, hre) => {
        const v = await vault(hre, a.deployment, a.from);
        console.log(`now: blacklisted ${(await v.tokenInfo(a.token)).blacklisted}; change: ${a.blacklisted}`);
        await send('setTokenBlacklist', v.setTokenBlacklist(a.token, a.blacklisted));
        console.log(`done: blacklisted ${(await v.tokenInfo(a.token)).blacklisted}`);
    });

adminTask('multivault:emergency', 'Emergency shutdown on (guardian or governance) or off (governance)')
    .addParam('active', 'true or false', undefined, types.boolean)
    .setAction(async (a, hre) => {
        const v = await vault(hre, a.deployment, a.from);
        console.log(`now: shutdown ${await v.emergencyShutdown()}; change: ${a.active}`);
        await send('setEmergencyShutdown', v.setEmergencyShutdown(a.active));
        console.log(`done: shutdown ${await v.emergencyShutdown()}`);
    });

adminTask('multivault:governance', 'Propose a new governance (--to), or accept it as the proposed one (--accept)')
    .addOptionalParam('to', 'the new governance (a multisig)')
    .addFlag('accept', 'accept as the pending governance')
    .setAction(async (a, hre) => {
        const v = await vault(hre, a.deployment, a.from);
        if (a.accept) {
            await send('acceptGovernance', v.acceptGovernance());
        } else {
            if (!a.to) throw new Error('--to or --accept');
            console.log(`now: governance ${await v.governance()}; proposed: ${a.to} (it must accept)`);
            await send('setPendingGovernance', v.setPendingGovernance(a.to));
        }
        console.log(`done: governance ${await v.governance()}`);
    });

// ------------------------------------------------------------------ TVM to EVM

/** A TVM address (raw "wid:hex" or user-friendly) as the MultiVault's (wid, addr) pair. */
function tvmPair(address: string): [number, bigint] {
    const raw = /^(-?\d+):([0-9a-fA-F]{64})$/.exec(address);
    if (raw) return [Number(raw[1]), BigInt('0x' + raw[2])];
    // user-friendly base64url: 1 flags byte, 1 workchain byte, 32 bytes of address, 2 of crc
    const b = Buffer.from(address.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    if (b.length !== 36) throw new Error(`not a TVM address: ${address}`);
    return [b.readInt8(1), BigInt('0x' + b.subarray(2, 34).toString('hex'))];
}

adminTask('bridge:round', "Set the relays' next round on the EVM Bridge (the Bridge's owner)")
    .addParam('round', 'round number (above the last)', undefined, types.int)
    .addParam('relays', "the relays' EVM addresses, comma separated")
    .addParam('end', 'unix seconds the round ends at (its signatures stay valid roundTtl longer)', undefined, types.int)
    .setAction(async (a, hre) => {
        const { file, d } = deploymentFile(a.deployment);
        if (!d.evm?.bridge) throw new Error(`${file}: evm.bridge is not set`);
        const signer = a.from ? await hre.ethers.getSigner(a.from) : (await hre.ethers.getSigners())[0];
        const bridge = await hre.ethers.getContractAt('Bridge', d.evm.bridge, signer);
        const relays = String(a.relays)
            .split(',')
            .map((x) => x.trim())
            .filter((x) => x);
        console.log(
            `Bridge ${d.evm.bridge}: last round ${await bridge.lastRound()}; set round ${a.round}: ${relays.length} relays, end ${a.end}`,
        );
        await send('setRoundRelays', bridge.setRoundRelays(a.round, relays, a.end));
        const r = await bridge.rounds(a.round);
        console.log(
            `done: round ${await bridge.lastRound()}, ${r.requiredSignatures} signatures required, ttl ${r.ttl}`,
        );
    });

adminTask('multivault:withdrawals', "Open TVM to EVM withdrawals: the relays' Bridge and the TVM proxies listed")
    .addOptionalParam('guardian', 'the withdraw guardian (approves withdrawals over a limit)')
    .setAction(async (a, hre) => {
        const { file, d } = deploymentFile(a.deployment);
        const v = await vault(hre, a.deployment, a.from);
        if (!d.evm?.bridge) throw new Error(`${file}: evm.bridge is not set`);
        const contracts = d.tvm?.[d.evm.tvm]?.contracts ?? {};
        if (!contracts.nativeProxy || !contracts.alienProxy)
            throw new Error(
                `${file}: tvm.${d.evm.tvm}.contracts has no nativeProxy / alienProxy (deploy the TVM side first)`,
            );
        console.log(`now: bridge ${await v.bridge()}; change: ${d.evm.bridge}`);
        if ((await v.bridge()).toLowerCase() !== String(d.evm.bridge).toLowerCase())
            await send('setBridge', v.setBridge(d.evm.bridge));
        for (const [kind, name, address] of [
            [1, 'native proxy', contracts.nativeProxy],
            [2, 'alien proxy', contracts.alienProxy],
        ] as const) {
            const [wid, addr] = tvmPair(address);
            await send(`setTvmConfiguration ${name}`, v.setTvmConfiguration(wid, addr, kind));
            const key = hre.ethers.keccak256(
                hre.ethers.AbiCoder.defaultAbiCoder().encode(['int8', 'uint256'], [wid, addr]),
            );
            const listed = await v.tvmConfigurations(key);
            if (Number(listed) !== kind) throw new Error(`the ${name} reads kind ${listed}, not ${kind}`);
            console.log(`done: ${name} ${address} listed as ${kind === 1 ? 'Native' : 'Alien'}`);
        }
        if (a.guardian) {
            await send('setWithdrawGuardian', v.setWithdrawGuardian(a.guardian));
            console.log(`done: withdraw guardian ${await v.withdrawGuardian()}`);
        }
        console.log(`done: bridge ${await v.bridge()}`);
    });

adminTask('multivault:withdraw-fee', 'Set the default withdrawal fee, or a token withdrawal fee (basis points)')
    .addOptionalParam('token', 'token (omit for the default fee)')
    .addParam('bps', 'fee in basis points', undefined, types.int)
    .setAction(async (a, hre) => {
        const v = await vault(hre, a.deployment, a.from);
        if (a.token)
            await changeAndShow(
                async () => `${await v.withdrawFeeBps(a.token)} bps`,
                `${a.bps} bps`,
                'setTokenWithdrawFee',
                () => v.setTokenWithdrawFee(a.token, true, a.bps),
            );
        else
            await changeAndShow(
                async () => `${await v.defaultWithdrawFeeBps()} bps`,
                `${a.bps} bps`,
                'setDefaultWithdrawFee',
                () => v.setDefaultWithdrawFee(a.bps),
            );
    });

adminTask('multivault:withdraw-limits', "Set a token's single-withdrawal and daily withdrawal limits (0: none)")
    .addParam('token', 'token')
    .addParam('single', 'most of one withdrawal (token units)')
    .addParam('daily', 'most per UTC day (token units)')
    .setAction(async (a, hre) => {
        const v = await vault(hre, a.deployment, a.from);
        const [single, daily] = await v.withdrawalLimits(a.token);
        console.log(`now: single ${single}, daily ${daily}; change: single ${a.single}, daily ${a.daily}`);
        await send('setWithdrawalLimits', v.setWithdrawalLimits(a.token, BigInt(a.single), BigInt(a.daily)));
        const after = await v.withdrawalLimits(a.token);
        if (after[0] !== BigInt(a.single) || after[1] !== BigInt(a.daily))
            throw new Error(`the limits read ${after[0]} / ${after[1]}`);
        console.log(`done: single ${after[0]}, daily ${after[1]}`);
    });

adminTask('multivault:pending', 'Approve or reject a withdrawal over a limit (the withdraw guardian or governance)')
    .addParam('recipient', "the withdrawal's recipient")
    .addParam('id', 'its pending id (PendingWithdrawalCreated)')
    .addParam('approve', 'true or false', undefined, types.boolean)
    .setAction(async (a, hre) => {
        const v = await vault(hre, a.deployment, a.from);
        const p = await v.pendingWithdrawal(a.recipient, BigInt(a.id));
        console.log(
            `now: amount ${p.amount}, approve status ${p.approveStatus}; change: ${a.approve ? 'approve' : 'reject'}`,
        );
        await send(
            'setPendingWithdrawalApprove',
            v.setPendingWithdrawalApprove({ recipient: a.recipient, id: BigInt(a.id) }, a.approve),
        );
        const q = await v.pendingWithdrawal(a.recipient, BigInt(a.id));
        console.log(`done: amount ${q.amount} (0: paid), approve status ${q.approveStatus}`);
    });
