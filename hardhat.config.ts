import { subtask } from 'hardhat/config';
import { TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD } from 'hardhat/builtin-tasks/task-names';
import { HardhatUserConfig } from 'hardhat/types';
import '@nomicfoundation/hardhat-toolbox';
import './hardhat.tasks';

const SOLC_VERSION = '0.8.28';

// Hardhat would download solc; use the solc-js compiler shipped in node_modules instead (offline).
subtask(TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD, async (args: { solcVersion: string }, _hre, runSuper) => {
    if (args.solcVersion === SOLC_VERSION) {
        const solc = require('solc');
        return {
            compilerPath: require.resolve('solc/soljson.js'),
            isSolcJs: true,
            version: args.solcVersion,
            longVersion: solc.version(),
        };
    }
    return runSuper();
});

/**
 * Networks: `devnet` is the local bridge network's node (`npm start`; DEVNET_RPC_URL, default
 * http://127.0.0.1:8545, with the node's unlocked accounts); `testnet` and `mainnet` come from the
 * environment (EVM_TESTNET_RPC_URL / EVM_MAINNET_RPC_URL and the deployer's key
 * EVM_TESTNET_PRIVATE_KEY / EVM_MAINNET_PRIVATE_KEY; see .env.example) and exist only when set.
 */
function envNetwork(prefix: string) {
    const url = process.env[`${prefix}_RPC_URL`];
    if (!url) return {};
    const key = process.env[`${prefix}_PRIVATE_KEY`];
    return { url, accounts: key ? [key] : [] };
}
const testnet = envNetwork('EVM_TESTNET');
const mainnet = envNetwork('EVM_MAINNET');

const config: HardhatUserConfig = {
    networks: {
        // the local network's node mines a block every LOCALNET_EVM_BLOCK_MS too, so deposits get their confirmations
        ...(process.env.LOCALNET_EVM_BLOCK_MS
            ? { hardhat: { mining: { auto: true, interval: Number(process.env.LOCALNET_EVM_BLOCK_MS) } } }
            : {}),
        devnet: { url: process.env.DEVNET_RPC_URL ?? 'http://127.0.0.1:8545' },
        ...('url' in testnet ? { testnet } : {}),
        ...('url' in mainnet ? { mainnet } : {}),
    },
    solidity: {
        version: SOLC_VERSION,
        settings: { optimizer: { enabled: true, runs: 200 } },
    },
    paths: { sources: './evm', tests: './tests/evm', cache: './cache', artifacts: './artifacts' },
    ignition: { requiredConfirmations: 1 },
};

export default config;
