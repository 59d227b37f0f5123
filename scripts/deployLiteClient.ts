import fs from 'fs';
import { Cell, toNano } from '@ton/core';
import { compile, NetworkProvider } from '@ton/blueprint';
import { LiteClient } from '../wrappers/LiteClient';

/**
 * Deploys a LiteClient that follows another TVM network, trusting one of its key blocks.
 *
 *   npx blueprint run deployLiteClient <key-block.boc>
 *
 * <key-block.boc>: the trusted key block of the followed network, as a full block BOC or a Merkle
 * proof that keeps BlockInfo and ConfigParam 34 (what a lite server's getBlock or a proof service
 * returns). The LiteClient starts with that block's ConfigParam 34 (main validators and weights),
 * its seq_no, epoch and global_id. Verify the block out of band before you trust it.
 */
export async function run(provider: NetworkProvider, args: string[]) {
    const ui = provider.ui();
    const file = args[0] ?? (await ui.input('Path of the trusted key block BOC'));
    const block = Cell.fromBoc(fs.readFileSync(file))[0];
    const config = LiteClient.configFromKeyBlock(block);
    ui.write(
        `global_id ${config.globalId}, key block ${config.seqNo}, epoch ${config.epochSince}..${config.epochUntil}, ` +
            `${config.validators.length} main validators`,
    );
    const liteClient = provider.open(LiteClient.createFromConfig(config, await compile('LiteClient')));
    await liteClient.sendDeploy(provider.sender(), toNano('0.5'));
    await provider.waitForDeploy(liteClient.address);
    ui.write(`LiteClient deployed at ${liteClient.address.toString()}`);
}
