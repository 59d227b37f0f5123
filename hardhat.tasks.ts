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
 * The MultiVault's address comes from deployments/<name>.json (evm.multiVault). `--from <address>` picks
 * the signing account among the network's (on the local network: #1 is the governance, #2 the guardian).
 */
import fs from 'fs';
import path from 'path';
import { task, types } from 'hardhat/config';
import type { HardhatRuntimeEnvironment } from 'hardhat/types';

async function vault(hre: HardhatRuntimeEnvironment, deployment: string, from?: string) {
    const file = path.resolve('deployments', `${deployment}.json`);
    if (!fs.existsSync(file)) throw new Error(`no deployment file ${file}`);
    const address = JSON.parse(fs.readFileSync(file, 'utf8')).evm?.multiVault;
    if (!address) throw new Error(`${file}: evm.multiVault is not set`);
    const signer = from ? await hre.ethers.getSigner(from) : (await hre.ethers.getSigners())[0];
    const v = await hre.ethers.getContractAt('MultiVault', address, signer);
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

task('multivault:fee', 'Set the default deposit fee, or a token fee (basis points)')
    .addParam('deployment', 'deployment name')
    .addOptionalParam('from', 'the signing account (default: the first account of the network)')
    .addOptionalParam('token', 'token (omit for the default fee)')
    .addParam('bps', 'fee in basis points', undefined, types.int)
    .setAction(async (a, hre) => {
        const v = await vault(hre, a.deployment, a.from);
        if (a.token) {
            console.log(`now: ${await v.depositFeeBps(a.token)} bps; change: ${a.bps} bps`);
            await send('setTokenDepositFee', v.setTokenDepositFee(a.token, a.bps));
            console.log(`done: ${await v.depositFeeBps(a.token)} bps`);
        } else {
            console.log(`now: ${await v.defaultDepositFeeBps()} bps; change: ${a.bps} bps`);
            await send('setDefaultDepositFee', v.setDefaultDepositFee(a.bps));
            console.log(`done: ${await v.defaultDepositFeeBps()} bps`);
        }
    });

task('multivault:limit', 'Set the rolling 24-hour deposit limit of a token (0: none)')
    .addParam('deployment', 'deployment name')
    .addOptionalParam('from', 'the signing account (default: the first account of the network)')
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

task('multivault:blacklist', 'Blacklist a token (deposits refused) or lift it')
    .addParam('deployment', 'deployment name')
    .addOptionalParam('from', 'the signing account (default: the first account of the network)')
    .addParam('token', 'token')
    .addParam('blacklisted', 'true or false', undefined, types.boolean)
    .setAction(async (a, hre) => {
        const v = await vault(hre, a.deployment, a.from);
        console.log(`now: blacklisted ${(await v.tokenInfo(a.token)).blacklisted}; change: ${a.blacklisted}`);
        await send('setTokenBlacklist', v.setTokenBlacklist(a.token, a.blacklisted));
        console.log(`done: blacklisted ${(await v.tokenInfo(a.token)).blacklisted}`);
    });

task('multivault:emergency', 'Emergency shutdown on (guardian or governance) or off (governance)')
    .addParam('deployment', 'deployment name')
    .addOptionalParam('from', 'the signing account (default: the first account of the network)')
    .addParam('active', 'true or false', undefined, types.boolean)
    .setAction(async (a, hre) => {
        const v = await vault(hre, a.deployment, a.from);
        console.log(`now: shutdown ${await v.emergencyShutdown()}; change: ${a.active}`);
        await send('setEmergencyShutdown', v.setEmergencyShutdown(a.active));
        console.log(`done: shutdown ${await v.emergencyShutdown()}`);
    });

task('multivault:governance', 'Propose a new governance (--to), or accept it as the proposed one (--accept)')
    .addParam('deployment', 'deployment name')
    .addOptionalParam('from', 'the signing account (default: the first account of the network)')
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
