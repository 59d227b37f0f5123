/**
 * ChainOps straight on a TvmNode, for the local network deploying itself (startLocalNetwork's
 * `deploy()`): the same node operations its toncenter endpoint answers with (toncenter.ts:
 * `account`, `runGetMethod`, `sendBoc`, an account's transactions), each one at a time on the wall
 * clock (`node.exclusive`), without the HTTP, JSON and base64 of every request in between (about
 * 300 requests a deploy). What a deployer runs against the endpoint (`npx blueprint run
 * deployBridge`, lib/deploy/adapters.ts opsFromBlueprint) is the same lib/deploy code over
 * TonClient; tests/localnet/e2e.spec.ts runs it that way.
 */
import {
    Address,
    beginCell,
    Cell,
    Contract,
    ContractProvider,
    ContractState,
    openContract,
    StateInit,
    storeMessage,
    Transaction,
    TupleReader,
} from '@ton/core';
import { KeyPair } from '@ton/crypto';
import { WalletContractV4, WalletContractV5R1 } from '@ton/ton';
import { ChainOps } from '../../lib/deploy/ops';
import { TvmNode } from './tvmNode';

/** A ContractProvider of `address` on the node: state, get methods and external messages. */
export function nodeProvider(node: TvmNode, address: Address, init?: StateInit | null): ContractProvider {
    const getState = async (): Promise<ContractState> => {
        const a = await node.exclusive(() => node.account(address));
        return {
            balance: a.balance,
            extracurrency: null,
            last: a.lastLt === 0n ? null : { lt: a.lastLt, hash: a.lastHash },
            state:
                a.state === 'active'
                    ? { type: 'active', code: a.code?.toBoc() ?? null, data: a.data?.toBoc() ?? null }
                    : a.state === 'frozen'
                      ? { type: 'frozen', stateHash: Buffer.alloc(32) }
                      : { type: 'uninit' },
        };
    };
    const provider: ContractProvider = {
        getState,
        get: async (name, args) => {
            const r = await node.exclusive(() => node.runGetMethod(address, name, args));
            // as TonClient's provider: a get method that fails throws with its exit code
            if (r.exitCode !== 0 && r.exitCode !== 1)
                throw new Error(`Unable to execute get method. Got exit_code: ${r.exitCode}`);
            return { stack: new TupleReader(r.stack), gasUsed: r.gasUsed };
        },
        external: async (body: Cell) => {
            // the init goes with the message while the account is not active (a wallet's first send)
            const withInit = init && (await getState()).state.type !== 'active' ? init : null;
            const message = beginCell()
                .store(
                    storeMessage({
                        info: { type: 'external-in', dest: address, importFee: 0n },
                        init: withInit,
                        body,
                    }),
                )
                .endCell();
            await node.exclusive(() => node.sendBoc(message.toBoc()));
        },
        internal: async () => {
            throw new Error('nodeProvider: internal messages are sent through a wallet (ChainOps.sender)');
        },
        open: <T extends Contract>(contract: T) =>
            openContract(contract, (p) => nodeProvider(node, p.address, p.init ?? null)),
        getTransactions: async (a, lt, _hash, limit) =>
            (await node.exclusive(() => node.accountTransactions(a)))
                .filter((t) => t.lt <= lt)
                .slice(0, limit ?? 20) as Transaction[],
    };
    return provider;
}

/** ChainOps on the node, signing with a v4 or v5 wallet (opsFromTonClient's counterpart). */
export function opsFromNode(
    node: TvmNode,
    wallet: WalletContractV4 | WalletContractV5R1,
    keys: KeyPair,
    o: { log?: (line: string) => void; attempts?: number; pollMs?: number } = {},
): ChainOps {
    const opened = openContract(wallet, (p) => nodeProvider(node, p.address, p.init ?? null));
    const signer = opened.sender(keys.secretKey);
    return {
        sender: { address: wallet.address, send: (args) => signer.send(args) },
        provider: (address, init) => nodeProvider(node, address, init),
        transactions: async (address, limit) =>
            (await node.exclusive(() => node.accountTransactions(address))).slice(0, limit) as Transaction[],
        log: o.log ?? (() => undefined),
        attempts: o.attempts,
        pollMs: o.pollMs,
    };
}
