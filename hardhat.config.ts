import { subtask } from 'hardhat/config';
import { TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD } from 'hardhat/builtin-tasks/task-names';
import { HardhatUserConfig } from 'hardhat/types';
import '@nomicfoundation/hardhat-toolbox';

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

const config: HardhatUserConfig = {
    solidity: {
        version: SOLC_VERSION,
        settings: { optimizer: { enabled: true, runs: 200 } },
    },
    paths: { sources: './evm', tests: './tests/evm', cache: './cache', artifacts: './artifacts' },
};

export default config;
