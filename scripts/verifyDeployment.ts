import { NetworkProvider } from '@ton/blueprint';
import { loadCodes } from '../lib/deploy/codes';
import { deploymentPath, readDeployment } from '../lib/deploy/deployment';
import { verifyDeployment } from '../lib/deploy/verify';

/**
 * Checks a deployment against this build and across its networks (every endpoint of the deployment
 * file is read; the blueprint network options only satisfy blueprint). Exits non-zero on any mismatch.
 *
 *   npx blueprint run verifyDeployment <network options> -- <deployment>
 */
export async function run(provider: NetworkProvider, args: string[]) {
    const ui = provider.ui();
    const name = args.filter((a) => a !== '--')[0] ?? (await ui.input('Deployment name (deployments/<name>.json)'));
    const findings = await verifyDeployment(readDeployment(deploymentPath(name)), loadCodes());
    for (const f of findings)
        ui.write(`${f.ok ? 'ok  ' : 'FAIL'} ${f.network.padEnd(4)} ${f.contract.padEnd(24)} ${f.what}`);
    const bad = findings.filter((f) => !f.ok);
    if (bad.length) throw new Error(`verifyDeployment: ${bad.length} of ${findings.length} checks failed`);
    ui.write(`verifyDeployment: all ${findings.length} checks passed`);
}
