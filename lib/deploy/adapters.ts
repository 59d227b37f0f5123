/**
 * ChainOps from what a deployer has: blueprint's NetworkProvider (`npx blueprint run`), or a
 * TonClient and a wallet's keys (the local network, tests, services).
 */
import { Address, ContractProvider, StateInit, Transaction } from '@ton/core';
import { KeyPair } from '@ton/crypto';
import { TonClient, WalletContractV4, WalletContractV5R1 } from '@ton/ton';
import type { NetworkProvider } from '@ton/blueprint';
import { v2Provider } from '../toncenterV2';
import { ChainOps } from './ops';

/** ChainOps over blueprint's provider: its wallet signs, its client reads. */
export function opsFromBlueprint(provider: NetworkProvider, o: { attempts?: number; pollMs?: number } = {}): ChainOps {
    const sender = provider.sender();
    if (!sender.address) throw new Error('the blueprint wallet has no address (use --mnemonic or connect a wallet)');
    const api = provider.api();
    const ui = provider.ui();
    return {
        sender: sender as ChainOps['sender'],
        provider: (address: Address, init?: StateInit | null): ContractProvider =>
            api instanceof TonClient
                ? v2Provider(api, address, init)
                : (provider.provider(
                      address,
                      init ? { code: init.code ?? undefined, data: init.data ?? undefined } : undefined,
                  ) as unknown as ContractProvider),
        transactions: async (address: Address, limit: number): Promise<Transaction[]> => {
            if (api instanceof TonClient) return api.getTransactions(address, { limit, archival: true });
            const p = provider.provider(address);
            const { last } = await p.getState();
            if (!last) return [];
            return (await p.getTransactions(address, last.lt, last.hash, limit)).slice(0, limit);
        },
        log: (line: string) => ui.write(line),
        ...o,
    };
}

/** ChainOps over a TonClient, signing with a v4 or v5 wallet. */
export function opsFromTonClient(
    client: TonClient,
    wallet: WalletContractV4 | WalletContractV5R1,
    keys: KeyPair,
    o: { log?: (line: string) => void; attempts?: number; pollMs?: number } = {},
): ChainOps {
    const opened = client.open(wallet);
    const signer = opened.sender(keys.secretKey);
    const sender: ChainOps['sender'] = { address: wallet.address, send: (args) => signer.send(args) };
    return {
        sender,
        provider: (address, init) => v2Provider(client, address, init),
        transactions: (address, limit) => client.getTransactions(address, { limit }),
        log: o.log ?? (() => undefined),
        attempts: o.attempts,
        pollMs: o.pollMs,
    };
}
