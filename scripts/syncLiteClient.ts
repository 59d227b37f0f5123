import fs from 'fs';
import { Address, Cell, toNano } from '@ton/core';
import { NetworkProvider } from '@ton/blueprint';
import { LiteClient } from '../wrappers/LiteClient';

/**
 * One step of the sync service: sends a key block that switches the validator set to a LiteClient.
 *
 *   npx blueprint run syncLiteClient <network options> -- <lite-client-address> <key-block-proof.boc> <signatures.boc>
 *
 * <key-block-proof.boc>: Merkle proof of the key block keeping BlockInfo and ConfigParam 34;
 * <signatures.boc>: block_signatures (contracts/verifier.tlb) by the LiteClient's current set,
 * ordered by validator index (lib/signatures.ts converts a lite server's signature set).
 */
export async function run(provider: NetworkProvider, argv: string[]) {
    const args = argv.filter((a) => a !== '--');
    const ui = provider.ui();
    const address = Address.parse(args[0] ?? (await ui.input('LiteClient address')));
    const proof = Cell.fromBoc(fs.readFileSync(args[1] ?? (await ui.input('Key block proof BOC'))))[0];
    const signatures = Cell.fromBoc(fs.readFileSync(args[2] ?? (await ui.input('Signatures BOC'))))[0];
    const liteClient = provider.open(LiteClient.createFromAddress(address));
    const before = await liteClient.getCurrentSeqNo();
    await liteClient.sendNewKeyBlock(provider.sender(), {
        value: toNano('1'),
        queryId: BigInt(Date.now()),
        block: proof,
        signatures,
    });
    ui.write(`new_key_block sent; LiteClient was at key block ${before}`);
}
