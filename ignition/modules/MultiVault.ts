import { buildModule } from '@nomicfoundation/hardhat-ignition/modules';

/**
 * The EVM side of the bridge: the MultiVault.
 *
 *   npx hardhat ignition deploy ignition/modules/MultiVault.ts --network <testnet|mainnet> \
 *       --parameters <your-parameters.json>
 *
 * Parameters (module "MultiVault"): governance (the owner: use a multisig), guardian (may trigger the
 * emergency shutdown), weth (the wrapped gas token of the network). The governance then sets fees,
 * limits and the blacklist (`npx hardhat multivault:* --network ...`). Write the MultiVault's address
 * into the deployment file's evm.multiVault before deploying the TVM side's EVM configurations.
 */
export default buildModule('MultiVault', (m) => {
    const governance = m.getParameter<string>('governance');
    const guardian = m.getParameter<string>('guardian');
    const weth = m.getParameter<string>('weth');
    const multiVault = m.contract('MultiVault', [governance, guardian, weth]);
    return { multiVault };
});
