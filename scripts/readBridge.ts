import { NetworkProvider } from '@ton/blueprint';
import { loadCodes } from '../lib/deploy/codes';
import { deploymentPath, readDeployment } from '../lib/deploy/deployment';
import { verifyDeployment } from '../lib/deploy/verify';

/**
 * Prints the state of every contract of a deployment (both TVM networks and the MultiVault).
 *
 *   npx blueprint run readBridge <network options> -- <deployment>
 */
export async function run(provider: NetworkProvider, args: string[]) {
    const ui = provider.ui();
    const name = args.filter((a) => a !== '--')[0] ?? (await ui.input('Deployment name (deployments/<name>.json)'));
    const findings = await verifyDeployment(readDeployment(deploymentPath(name)), loadCodes(), (l) => ui.write(l));
    const bad = findings.filter((f) => !f.ok);
    if (bad.length) ui.write(`\n${bad.length} mismatches: run verifyDeployment for the list`);
}
