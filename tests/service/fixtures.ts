/**
 * Storage rows for the API specs, shaped as the indexers write them (service/indexer): TVM to TVM
 * transfers from A (-239) to B (2000) and back, EVM to TVM deposits from chain 31337, Events on the
 * destination, deliveries.
 */
import crypto from 'crypto';
import { Deployment } from '../../lib/deploy/deployment';
import { Db } from '../../service/storage/db';
import { withdrawalLinkKey } from '../../service/storage/withdrawals';
import { withdrawalId } from '../../wrappers/evm/withdrawals';
import {
    EventRow,
    insertDelivery,
    insertEvents,
    insertTransfers,
    setEventStatus,
    setProofPayload,
    TransferRow,
    upsertConfiguration,
} from '../../service/storage/store';

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
        outMsgIndex: i,
        proofPayload: null,
        ...o,
    };
}

/** TVM to EVM transfer i from A to EVM: even i a lock of a native token (9 decimals), odd i a burn (6). */
export function tvmEvmTransfer(i: number, o: Partial<TransferRow> = {}): TransferRow {
    const transferId = h(`tvm-evm ${i}`);
    const native = i % 2 === 0;
    return {
        transferId,
        kind: 'TvmToEvm',
        createdAt: 1_700_100_000 + i * 10,
        fromChainId: A,
        toChainId: EVM,
        tokenType: native ? 'Native' : 'Alien',
        sender: tvmAddr('tvm sender'),
        recipient: evmAddr('evm recipient'),
        token: native ? tvmAddr('A.native-root') : tvmAddr('A.alien-minter'),
        proxy: native ? deployment.tvm.A.contracts.nativeProxy! : deployment.tvm.A.contracts.alienProxy!,
        amount: String(1_000_000n * BigInt(i + 1)),
        decimals: native ? 9 : 6,
        symbol: native ? 'TNT' : 'USDT',
        messageHash: h(`tvm-evm msg ${i}`),
        linkKey: withdrawalLinkKey(withdrawalId(0, BigInt('0x' + transferId))),
        expectedGas: '0',
        sourceLt: String(5000 + i),
        outMsgIndex: 0,
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

export const PROOF = {
    txBlockProof: 'te6cckEBAQEAAgAAAEysuc0=',
    txProof: 'te6cckEBAQEAAgAAAEysuc0=',
    messageHash: hash('msg3'),
    outMessageIndex: 0,
    event: {
        tokenType: 'Native',
        chainId: B,
        token: TOKEN_A,
        amount: '4500000000',
        recipient: USERS[4],
        value: '100000000',
        expectedGas: '0',
        remainingGasTo: USERS[3],
        sender: USERS[3],
        payload: '',
        nativeProxyWallet: null,
        name: 'Token A',
        symbol: 'TKA',
        decimals: 9,
    },
    abiTx: {
        tx: 'te6cckEBAQEAAgAAAEysuc0=',
        executionAddress: deployment.tvm.B.contracts.alienConfiguration!,
        attachedValue: '1200000000',
        abiMethod: 'deployEvent',
        abi: '{}',
        params: '{}',
    },
};

/** 40 TVM to TVM transfers and 6 EVM to TVM ones in every state the API shows. */
export async function fill(db: Db) {
    const tvm = Array.from({ length: 40 }, (_, i) => tvmTransfer(i));
    tvm[3].proofPayload = null;
    const evm = Array.from({ length: 6 }, (_, i) => evmTransfer(i));
    await db.transaction(async (q) => {
        await insertTransfers(q, [...tvm, ...evm]);
        // 0: Completed (Confirmed, delivered with a 0.1 % fee); 1: LimitReached; 2: Cancelled; 5: Verified
        // with a refused delivery; 6..9: Confirmed and delivered; 3: no Event, proof ready; 4: no Event, no proof
        await insertEvents(
            q,
            [0, 1, 2, 5, 6, 7, 8, 9].map((i) => eventFor(tvm[i], 0)),
        );
        // EVM: 0 and 1 have Events (0 delivered), the others exist only on EVM
        await insertEvents(
            q,
            [0, 1].map((i) => eventFor(evm[i], 0)),
        );
    });
    const ev = (t: (typeof tvm)[0]) => eventFor(t, 0).address;
    const deliver = async (t: (typeof tvm)[0], token: string, proxy: string) =>
        insertDelivery(
            db,
            ev(t),
            t.toChainId,
            {
                deliveryTx: hash(`delivery:${t.transferId}`),
                deliveryMsgHash: hash(`dmsg:${t.transferId}`),
                deliveredAmount: String(BigInt(t.amount) - BigInt(t.amount) / 1000n),
                deliveredToken: token,
                deliveredProxy: proxy,
            },
            t.createdAt + 20,
        );
    for (const i of [0, 6, 7, 8, 9]) {
        await setEventStatus(db, ev(tvm[i]), 2, 0);
        await deliver(tvm[i], TOKEN_B_ALIEN, deployment.tvm.B.contracts.alienProxy!);
    }
    await setEventStatus(db, ev(tvm[1]), 5, 0);
    await setEventStatus(db, ev(tvm[2]), 4, 0);
    await setEventStatus(db, ev(tvm[5]), 8, 2702);
    await setProofPayload(db, tvm[3].transferId, JSON.stringify(PROOF));
    await setEventStatus(db, ev(evm[0]), 2, 0);
    await deliver(evm[0], tvmAddr('A.evm-minter'), deployment.tvm.A.contracts.alienProxy!);
    await setEventStatus(db, ev(evm[1]), 1, 0);
    await upsertConfiguration(db, {
        address: tvmAddr('A.evmAlienConf'),
        tvmChainId: A,
        chainId: EVM,
        flags: 3,
        eventInitialBalance: '1000000000',
        tokenType: 'Alien',
        direction: 'ToTvm',
    });
    return { tvm, evm };
}
