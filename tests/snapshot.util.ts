import { Blockchain, BlockchainSnapshot } from '@ton/sandbox';

/**
 * A beforeEach that deploys once: its first run calls `deploy` (which builds the sandbox and returns
 * it); every later run restores the snapshot taken right after that (blockchain.loadFrom): the same
 * accounts, time and configuration as a fresh deployment. State the tests read from variables that
 * `deploy` set (contracts, treasuries) stays as the first run left it.
 */
export function beforeEachDeployedOnce(deploy: () => Promise<Blockchain>): void {
    let deployed: { blockchain: Blockchain; snapshot: BlockchainSnapshot } | undefined;
    beforeEach(async () => {
        if (deployed) return deployed.blockchain.loadFrom(deployed.snapshot);
        const blockchain = await deploy();
        deployed = { blockchain, snapshot: blockchain.snapshot() };
    });
}
