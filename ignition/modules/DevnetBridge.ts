import { buildModule } from '@nomicfoundation/hardhat-ignition/modules';

/**
 * The local network's EVM side (devnet only): a test WETH, the MultiVault over it with its
 * configuration (the default deposit fee), the relays' Bridge of TVM to EVM withdrawals (owned by
 * the governance; the vault's setBridge, the Bridge's first round and the vault's TVM
 * configurations follow once the TVM side is deployed: service/localnet/tvmEvm.ts), and a test ERC-20 minted to
 * the user. The node's accounts: 0 deploys, 1 is the governance, 2 the guardian, 3 the user.
 * Parameters: defaultDepositFeeBps, tvmGlobalId (the TVM network the vault's deposits go to; the
 * local network's A, -239), roundTtl (seconds a round's signatures stay valid after its end).
 */
export default buildModule('DevnetBridge', (m) => {
    const governance = m.getAccount(1);
    const guardian = m.getAccount(2);
    const user = m.getAccount(3);
    const fee = m.getParameter<number>('defaultDepositFeeBps', 0);
    const weth = m.contract('TestWETH', []);
    const tvmGlobalId = m.getParameter<number>('tvmGlobalId', -239);
    const multiVault = m.contract('MultiVault', [governance, guardian, weth, tvmGlobalId]);
    m.call(multiVault, 'setDefaultDepositFee', [fee], { from: governance });
    const bridge = m.contract('Bridge', [governance, guardian, m.getParameter<number>('roundTtl', 7 * 24 * 3600)]);
    const token = m.contract('TestERC20', ['Test Token', 'TST', 6]);
    m.call(token, 'mint', [user, 10n ** 15n]);
    return { weth, multiVault, bridge, token };
});
