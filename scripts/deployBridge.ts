import { NetworkProvider } from '@ton/blueprint';
import { loadCodes } from '../lib/deploy/codes';
import { deploymentPath, readDeployment, writeDeployment } from '../lib/deploy/deployment';
import { opsFromBlueprint } from '../lib/deploy/adapters';
import { deployTvmSide } from '../lib/deploy/tvm';

/**
 * Deploys the whole TVM side of the bridge on one network of a deployment file, or completes it:
 *
 *   npx blueprint run deployBridge --custom <url>/jsonRPC --custom-version v2 --custom-type testnet --mnemonic <deployment> <network>
 *
 * <deployment>: deployments/<deployment>.json (see README: the deployer's path); <network>: its key
 * of the TVM network this endpoint serves (e.g. A). Idempotent: a rerun checks what is deployed and
 * sends only what is missing. The wallet becomes the owner of every contract. Exits non-zero when
 * anything fails; prints what is still pending (e.g. the other network's owner is not known yet).
 */
export async function run(provider: NetworkProvider, args: string[]) {
    const ui = provider.ui();
    const name = args[0] ?? (await ui.input('Deployment name (deployments/<name>.json)'));
    const key = args[1] ?? (await ui.input('TVM network key in that file (e.g. A)'));
    const file = deploymentPath(name);
    const d = readDeployment(file);
    const r = await deployTvmSide(opsFromBlueprint(provider), d, key, loadCodes(), (x) => writeDeployment(file, x));
    ui.write(`\nDeployment file: ${file}`);
    for (const [k, v] of Object.entries(r.contracts)) ui.write(`  ${k.padEnd(24)} ${v}`);
    if (r.pending.length) ui.write(`Still pending on ${key}: run again once resolved:\n  ${r.pending.join('\n  ')}`);
}
