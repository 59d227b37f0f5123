import { buildModule } from '@nomicfoundation/hardhat-ignition/modules';

/**
 * The EVM side of TVM to EVM: the relays' Bridge (evm/Bridge.sol), which the MultiVault asks to check
 * the relays' signatures of a withdrawal.
 *
 *   npx hardhat ignition deploy ignition/modules/EvmBridge.ts --network <testnet|mainnet> \
 *       --parameters <your-parameters.json>
 *
 * Parameters (module "EvmBridge"): owner (sets the relay rounds: use a multisig), guardian (may turn
 * the emergency shutdown on and ban relays), roundTtl (seconds a round's signatures stay valid after
 * its end; default 7 days). Then write its address into the deployment file's evm.bridge and run
 * `npx hardhat bridge:round` (the owner) and `npx hardhat multivault:withdrawals` (the MultiVault's
 * governance).
 */
export default buildModule('EvmBridge', (m) => {
    const owner = m.getParameter<string>('owner');
    const guardian = m.getParameter<string>('guardian');
    const roundTtl = m.getParameter<number>('roundTtl', 7 * 24 * 3600);
    const bridge = m.contract('Bridge', [owner, guardian, roundTtl]);
    return { bridge };
});
