/**
 * Storage rows for the API specs, shaped as the indexers write them (service/indexer): TVM to TVM
 * transfers from A (-239) to B (2000) and back, EVM to TVM deposits from chain 31337, Events on the
 * destination, deliveries.
 */
import crypto from 'crypto';
import { Deployment } from '../../lib/deploy/deployment';
import { EventRow, TransferRow } from '../../service/storage/store';

export const A = -239;
export const B = 2000;
export const EVM = 31337;

const h = (seed: string) => crypto.createHash('sha256').update(seed).digest('hex');
export const tvmAddr = (seed: string) => `0:${h(seed)}`;
export const evmAddr = (seed: string) => `0x${h(seed).slice(0, 40)}`;

export const deployment: Deployment = {
    name: 'api-spec',
    tvm: {
        A: { globalId: A, contracts: { nativeProxy: tvmAddr('A.native'), alienProxy: tvmAddr('A.alien') } },
        B: {
            globalId: B,
            contracts: {
                nativeProxy: tvmAddr('B.native'),
                alienProxy: tvmAddr('B.alien'),
                alienConfiguration: tvmAddr('B.alienConf'),
                nativeConfiguration: tvmAddr('B.nativeConf'),
            },
        },
    },
    evm: { chainId: EVM, tvm: 'A', blocksToConfirm: 2, startBlockNumber: 0, multiVault: evmAddr('vault') },
};

export const USERS = Array.from({ length: 10 }, (_, i) => tvmAddr(`user${i}`));
export const TOKEN_A = tvmAddr('tokenA');
export const TOKEN_B_ALIEN = tvmAddr('tokenB-alien-of-A');
export const EVM_TOKEN = evmAddr('erc20');

/** TVM to TVM transfer i: from USERS[i % 10] to USERS[(i + 1) % 10], created at 1_700_000_000 + i * 10. */
export function tvmTransfer(i: number, o: Partial<TransferRow> = {}): TransferRow {
    const messageHash = h(`msg${i}`);
    return {
        transferId: h(`tx${i}`),
        kind: 'TvmToTvm',
        createdAt: 1_700_000_000 + i * 10,
        fromChainId: A,
        toChainId: B,
        tokenType: 'Native',
        sender: USERS[i % 10],
        recipient: USERS[(i + 1) % 10],
        token: TOKEN_A,
        proxy: deployment.tvm.A.contracts.nativeProxy!,
        amount: String(1_000_000_000n * BigInt(i + 1) + 500_000_000n),
        decimals: 9,
        symbol: 'TKA',
        messageHash,
        linkKey: `tvm:${messageHash}`,
        expectedGas: i % 2 === 0 ? '100000000' : '0',
        sourceLt: String(1000 + i),
        sourceTx: null,
        outMsgIndex: 0,
        proofPayload: null,
        ...o,
    };
}

export function evmTransfer(i: number, o: Partial<TransferRow> = {}): TransferRow {
    const hash = h(`evm${i}`);
    return {
        transferId: `0x${hash}`,
        kind: 'EvmToTvm',
        createdAt: 1_700_000_005 + i * 10,
        fromChainId: EVM,
        toChainId: A,
        tokenType: 'Alien',
        sender: evmAddr(`evmuser${i % 3}`),
        recipient: USERS[i % 10],
        token: EVM_TOKEN,
        proxy: '',
        amount: String(5_000_000n * BigInt(i + 1)),
        decimals: 6,
        symbol: 'USDT',
        messageHash: '',
        linkKey: `evm:${hash}:${i}`,
        expectedGas: '0',
        sourceLt: String(100 + i),
        sourceTx: null,
        outMsgIndex: i,
        proofPayload: null,
        ...o,
    };
}

export function eventFor(t: TransferRow, status: number, o: Partial<EventRow> = {}): EventRow {
    const evm = t.kind === 'EvmToTvm';
    return {
        linkKey: t.linkKey,
        chainId: t.toChainId,
        address: tvmAddr(`event:${t.linkKey}`),
        eventKind: evm ? 'EvmTvm' : 'TvmTvm',
        tokenType: evm ? t.tokenType : t.tokenType === 'Native' ? 'Alien' : 'Native',
        configuration: evm ? tvmAddr('A.evmAlienConf') : deployment.tvm.B.contracts.alienConfiguration!,
        status,
        lastErrorCode: 0,
        deployedAt: t.createdAt + 5,
        deployTx: h(`deploy:${t.linkKey}`),
        ...o,
    };
}

export const hash = h;
