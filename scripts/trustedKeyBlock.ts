import { TonClient } from '@ton/ton';
import { NetworkProvider } from '@ton/blueprint';
import { deploymentPath, otherKey, readDeployment, writeDeployment } from '../lib/deploy/deployment';
import { describeKeyBlock, formatKeyBlock, loadKeyBlock, lookupMasterchainBlock } from '../lib/deploy/keyBlock';

/**
 * Records the key block the other network's LiteClient will trust (`tvm.<network>.trustedKeyBlock`),
 * after checking it: a key block of this network's global id with ConfigParam 34, whose root hash
 * the network options' endpoint (toncenter v2 `lookupBlock`) confirms: a second source, as the
 * block comes from a lite server or a file.
 *
 *   npx blueprint run trustedKeyBlock <network options> -- <deployment> <network> <source> [--yes]
 *
 * <source>: a lite servers' global config (https://ton.org/testnet-global.config.json,
 * https://ton.org/global.config.json or a local *.config.json): the newest key block is fetched;
 * or a file holding a key block BOC (raw bytes, base64 or hex).
 */
export async function run(provider: NetworkProvider, args: string[]) {
    const yes = args.includes('--yes') || process.env.BRIDGE_ASSUME_YES === '1';
    const [name, key, source] = args.filter((a) => a !== '--yes' && a !== '--');
    if (!name || !key || !source)
        throw new Error(
            'usage: npx blueprint run trustedKeyBlock <network options> -- <deployment> <network> <global config | key block file> [--yes]',
        );
    const file = deploymentPath(name);
    const d = readDeployment(file);
    const entry = d.tvm[key];
    const oKey = otherKey(d, key);
    if (d.tvm[oKey].contracts.liteClient)
        throw new Error(
            `deployment ${name}: the LiteClient following ${key} is already deployed on ${oKey} (${d.tvm[oKey].contracts.liteClient}); it keeps the key block it was deployed from`,
        );
    const ui = provider.ui();
    ui.write(`Key block of ${key} from ${source}`);
    const boc = await loadKeyBlock(source);
    const { summary } = describeKeyBlock(boc);
    for (const line of formatKeyBlock(summary)) ui.write(line);
    if (summary.globalId !== entry.globalId)
        throw new Error(`the block is of global id ${summary.globalId}, the deployment's ${key} is ${entry.globalId}`);

    const api = provider.api();
    if (!(api instanceof TonClient))
        throw new Error(
            'the second source is a toncenter v2 endpoint: use --custom <url>/jsonRPC, --testnet or --mainnet',
        );
    const seen = await lookupMasterchainBlock(api.parameters.endpoint, summary.seqno, api.parameters.apiKey);
    if (seen.rootHash !== summary.rootHash)
        throw new Error(
            `${api.parameters.endpoint} knows masterchain block ${summary.seqno} with root hash ${seen.rootHash}, not ${summary.rootHash}: do not trust this block`,
        );
    ui.write(`  confirmed:  ${api.parameters.endpoint} has the same root hash for block ${summary.seqno}`);
    ui.write(
        `  WARNING:    the LiteClient on ${oKey} will trust these validators: compare the root hash with a source of your own`,
    );
    if (!yes && !(await ui.prompt(`Record it as tvm.${key}.trustedKeyBlock in ${file}?`)))
        throw new Error('cancelled: nothing was written');
    entry.trustedKeyBlock = boc.toString('base64');
    writeDeployment(file, d);
    ui.write(`  written:    ${file}`);
}
