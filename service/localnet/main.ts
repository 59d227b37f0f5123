/**
 * `npm start`: the local bridge network on loopback, until Ctrl-C.
 *
 * Environment: LOCALNET_TVM_A_PORT, LOCALNET_TVM_B_PORT, LOCALNET_EVM_PORT (defaults 8081, 8082,
 * 8545; 0 takes a free port), LOCALNET_BLOCK_SECONDS (2), LOCALNET_EPOCH_SECONDS (600),
 * LOCALNET_NAME (deployment name, "local"), LOCALNET_LOG=json for structured logs on stdout,
 * LOCALNET_OPERATORS (processes, the default: the operator services of service/operators/ as
 * child processes; in-process: the harness's actors in this process; none: deploy but leave the
 * transfers to operators started elsewhere, see service/localnet/README.md).
 */
import { startLocalNetwork } from './localnet';
import { computeAddress } from 'ethers';
import { HARDHAT_ACCOUNTS } from './evmNode';

const env = (k: string, d: number) => {
    const v = process.env[k];
    if (v === undefined || v === '') return d;
    const n = Number(v);
    if (!Number.isInteger(n) || n < 0) throw new Error(`${k}=${v}: a non-negative integer is expected`);
    return n;
};

async function main() {
    const t0 = Date.now();
    const json = process.env.LOCALNET_LOG === 'json';
    const log = (event: string, fields: Record<string, unknown> = {}) => {
        if (json) console.log(JSON.stringify({ t: new Date().toISOString(), event, ...fields }));
        else if (event !== 'deploy' && event !== 'credit.skip_non_credit')
            console.log(
                `  [${event}] ${Object.entries(fields)
                    .map(([k, v]) => `${k}=${v}`)
                    .join(' ')}`,
            );
    };
    const operators = process.env.LOCALNET_OPERATORS || 'processes';
    if (operators !== 'in-process' && operators !== 'none' && operators !== 'processes')
        throw new Error(`LOCALNET_OPERATORS=${operators}: processes, in-process or none`);
    process.env.LOCALNET_EVM_BLOCK_MS ??= '1000';
    console.log('Starting the local bridge network...');
    const net = await startLocalNetwork({
        name: process.env.LOCALNET_NAME || 'local',
        ports: {
            A: env('LOCALNET_TVM_A_PORT', 8081),
            B: env('LOCALNET_TVM_B_PORT', 8082),
            evm: env('LOCALNET_EVM_PORT', 8545),
        },
        blockSeconds: env('LOCALNET_BLOCK_SECONDS', 2),
        epochSeconds: env('LOCALNET_EPOCH_SECONDS', 600),
        startOperators: operators !== 'none',
        operators: operators === 'in-process' ? 'in-process' : 'processes',
        log,
    });
    let stopping = false;
    const shutdown = async (signal: string) => {
        if (stopping) return;
        stopping = true;
        console.log(`\n${signal}: stopping the local bridge network...`);
        await net.stop();
        console.log('stopped.');
        process.exit(0);
    };
    process.on('SIGINT', () => void shutdown('SIGINT'));
    process.on('SIGTERM', () => void shutdown('SIGTERM'));

    const d = net.deployment();
    const lines = [
        '',
        `Local bridge network up in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
        '',
        'TVM networks (toncenter v2 JSON-RPC; explorer traces at <base>/traces/<hash>; proofs at <base>/v1/proof_chain/<address>/<lt>; key blocks at <base>/v1/key_blocks):',
        ...Object.values(net.tvm).map((t) => `  ${t.key}  global id ${t.node.globalId}  ${t.server.jsonRpc}`),
        `  blocks sealed every ${net.tvm.A.node.blockSeconds} s, validators rotate every ${net.tvm.A.node.epochSeconds} s`,
        net.evm ? `EVM network (Hardhat JSON-RPC): ${net.evm.url}  chain id ${net.evm.chainId}` : '',
        '',
        `Deployment file: ${net.deploymentFile}`,
        '',
        'TVM accounts (funded on both networks; WALLET_VERSION=v4 for blueprint, the v5r1 wallet is funded too):',
        ...(['deployer', 'user', 'operator'] as const).flatMap((role) => {
            const a = net.accounts[role];
            const note = {
                deployer: ' (owner of every contract)',
                user: '',
                operator: ' (for operators run as processes)',
            };
            return [
                `  ${role}${note[role]}`,
                `    v4   ${a.v4.address.toString({ testOnly: true, bounceable: false })}`,
                `    v5r1 ${a.v5.address.toString({ testOnly: true, bounceable: false })}`,
                `    WALLET_MNEMONIC="${a.mnemonic.join(' ')}"`,
            ];
        }),
        '',
        'EVM accounts (Hardhat node; public test keys, never use them on a real network):',
        ...HARDHAT_ACCOUNTS.map((a, i) => `  #${i} ${a.role.padEnd(10)} ${a.address}  ${a.key}`),
        '',
        'Contracts:',
        ...Object.entries(d.tvm).flatMap(([k, n]) => [
            `  ${k}`,
            ...Object.entries(n.contracts).map(([c, a]) => `    ${c.padEnd(24)} ${a}`),
        ]),
        ...(d.evm
            ? [
                  '  EVM',
                  `    multiVault               ${d.evm.multiVault}`,
                  `    weth                     ${d.evm.weth}`,
                  `    bridge (TVM to EVM)      ${d.evm.bridge}`,
              ]
            : []),
        ...Object.entries((d.extra?.tokens ?? {}) as Record<string, { minter: string; symbol: string }>).map(
            ([k, t]) =>
                `  test token ${t.symbol} on ${k}: ${t.minter} (registered in the native proxy, minted to the user)`,
        ),
        d.extra?.evmToken ? `  test ERC-20 TST on EVM: ${d.extra.evmToken} (minted to account #3)` : '',
        '',
        `EVM relays (the Bridge's first round; ed25519 seed = "${net.name}-relay-<i>" zero-padded to 32 bytes):`,
        ...net.relays.relays.map(
            (r, i) =>
                `  #${i} public ${r.keys.publicKey.toString('hex')}  seed ${r.keys.secretKey.subarray(0, 32).toString('hex')}`,
        ),
        '',
        `TVM to EVM relays (the EVM Bridge's round 1; private key = keccak256("localnet tvm-evm relay <i>")):`,
        ...net.tvmEvmRelayKeys.map(
            (k, i) =>
                `  #${i} ${computeAddress(k.publicKey)}  key ${k.privateKey}${d.evm?.relayEndpoints?.[i] ? `  signatures at ${d.evm.relayEndpoints[i]}/v1/withdrawals/<id>` : ''}`,
        ),
        '',
        operators !== 'none'
            ? `Off-chain actors running (${operators}): sync service and credit backend each way, EVM relays both ways. Ctrl-C stops.`
            : 'Off-chain actors NOT started (LOCALNET_OPERATORS=none): transfers wait for your operators. Ctrl-C stops.',
    ];
    console.log(lines.join('\n'));
}

main().catch((e) => {
    console.error(e);
    process.exit(1);
});
