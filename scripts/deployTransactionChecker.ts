import { Address, toNano } from '@ton/core';
import { compile, NetworkProvider } from '@ton/blueprint';
import { TransactionChecker } from '../wrappers/TransactionChecker';

/**
 * Deploys a TransactionChecker bound to a deployed LiteClient (the only sender of `correct` it
 * accepts).
 *
 *   npx blueprint run deployTransactionChecker <lite-client-address>
 */
export async function run(provider: NetworkProvider, args: string[]) {
    const ui = provider.ui();
    const liteClient = Address.parse(args[0] ?? (await ui.input('LiteClient address')));
    const checker = provider.open(
        TransactionChecker.createFromConfig({ liteClient }, await compile('TransactionChecker')),
    );
    await checker.sendDeploy(provider.sender(), toNano('0.1'));
    await provider.waitForDeploy(checker.address);
    ui.write(`TransactionChecker deployed at ${checker.address.toString()} (LiteClient ${liteClient.toString()})`);
}
