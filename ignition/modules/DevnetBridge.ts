import { buildModule } from '@nomicfoundation/hardhat-ignition/modules';

/**
 * The local network's EVM side (devnet only): a test WETH, the MultiVault over it with its
 * configuration (the default deposit fee), and a test ERC-20 minted to the user. The node's accounts:
 * 0 deploys, 1 is the governance, 2 the guardian, 3 the user. Parameter: defaultDepositFeeBps.
 */
export default buildModule('DevnetBridge', (m) => {
    const governance = m.getAccount(1);
    const guardian = m.getAccount(2);
    const user = m.getAccount(3);
    const fee = m.getParameter<number>('defaultDepositFeeBps', 0);
    const weth = m.contract('TestWETH', []);
    const multiVault = m.contract('MultiVault', [governance, guardian, weth]);
    m.call(multiVault, 'setDefaultDepositFee', [fee], { from: governance });
    const token = m.contract('TestERC20', ['Test Token', 'TST', 6]);
    m.call(token, 'mint', [user, 10n ** 15n]);
    return { weth, multiVault, token };
});
