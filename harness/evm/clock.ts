import type { HardhatRuntimeEnvironment } from 'hardhat/types';

/**
 * A fixed clock for Hardhat's in-process network, for measurements that must not move from run to
 * run (the bench). Hardhat stamps every block with the wall clock, and a block's hash covers its
 * timestamp and its parent's hash: the hash of an EVM deposit's block is part of the EVM Event the
 * relays confirm on TVM, so wall-clock seconds reached the TVM transactions' hashes, the withdrawal
 * digests the relays sign, and through the signatures' zero bytes the gas of the withdrawals.
 *
 * pinEvmClock starts the network again from its genesis (hardhat_reset: no state, nonce or
 * timestamp of anything that ran before in this process) with the genesis stamped `genesis`, and
 * from then on stamps each block one second after the last one: blocks mined by a transaction, by
 * evm_mine and the first of hardhat_mine (its others follow at its interval). evm_increaseTime
 * (time.increase) moves the next block that much further; evm_setNextBlockTimestamp
 * (time.increaseTo, time.setNextBlockTimestamp) and evm_mine with a timestamp are kept as asked.
 */
export async function pinEvmClock(hre: HardhatRuntimeEnvironment, genesis: number): Promise<void> {
    if (hre.network.name !== 'hardhat')
        throw new Error(`pinEvmClock: the in-process network only, not ${hre.network.name}`);
    type Args = { method: string; params?: unknown[] };
    const provider = hre.network.provider as unknown as {
        request(a: Args): Promise<unknown>;
        send(method: string, params?: unknown[]): Promise<unknown>;
    };
    const config = hre.network.config as { initialDate?: string };
    const original =
        (provider as { pinnedRequest?: (a: Args) => Promise<unknown> }).pinnedRequest ??
        provider.request.bind(provider);
    // read when the network is created: set before the first request, or by the reset below
    config.initialDate = new Date(genesis * 1000).toISOString();
    await original({ method: 'hardhat_reset', params: [] });
    const latest = async () =>
        Number(
            ((await original({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as { timestamp: string })
                .timestamp,
        );
    const stamp = await latest();
    if (stamp !== genesis) {
        // the network was created before the date was set (a provider made elsewhere): a reset keeps its date
        throw new Error(`pinEvmClock: the genesis block is stamped ${stamp}, not ${genesis}`);
    }

    let next: number | undefined;
    let increase = 0;
    const MINING = new Set(['eth_sendTransaction', 'eth_sendRawTransaction', 'evm_mine', 'hardhat_mine']);
    const request = async (a: Args): Promise<unknown> => {
        if (a.method === 'evm_setNextBlockTimestamp') {
            next = Number(a.params?.[0]);
        } else if (a.method === 'evm_increaseTime') {
            increase += Number(a.params?.[0]);
        } else if (MINING.has(a.method) && !(a.method === 'evm_mine' && a.params?.[0] !== undefined)) {
            const t = next ?? (await latest()) + Math.max(1, increase);
            await original({ method: 'evm_setNextBlockTimestamp', params: [t] });
            next = undefined;
            increase = 0;
            try {
                return await original(a);
            } catch (e) {
                // refused before any block was mined (a failed estimate): the stamp is still the next one
                if ((await latest()) < t) next = t;
                throw e;
            }
        } else if (a.method === 'hardhat_reset') {
            next = undefined;
            increase = 0;
        }
        return original(a);
    };
    Object.assign(provider, {
        pinnedRequest: original,
        request,
        send: (method: string, params?: unknown[]) => request({ method, params }),
    });
}
