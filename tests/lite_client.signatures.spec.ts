import { Blockchain, SandboxContract, TreasuryContract } from '@ton/sandbox';
import { Cell, toNano } from '@ton/core';
import { compiledCode } from '../wrappers/compiled';
import '@ton/test-utils';
import { createHash } from 'crypto';
import { makeValidatorSet, ValidatorSet } from '../harness/validators';
import { buildKeyBlock, buildMasterchainBlock } from '../harness/blocks';
import { buildSignaturesCell, signBlock, SignatureEntry } from '../harness/signatures';
import { blockHeaderProof, keyBlockProof } from '../harness/proofs';
import { LiteClient, liteClientCutoff } from '../wrappers/LiteClient';
import { Errors, Op } from '../wrappers/constants';

/**
 * Differential test of the signature loop (contracts/lite_client.fc, lc::sig_loop and lc::gap)
 * against a direct model of the rule: nodes are read in order, at most `main` of them, until the
 * signed weight reaches the cutoff (later nodes are not read); every node read must carry an index
 * greater than the previous node's and below main, and a valid signature (else 114); a list that
 * ends below the cutoff is 115.
 */
const GLOBAL_ID = 5;
const T0 = 1_700_000_000;

function rng(seed: string) {
    let n = 0;
    return () => createHash('sha256').update(`${seed}/${n++}`).digest().readUInt32BE(0) / 2 ** 32;
}

interface Model {
    exitCode: number;
}

function model(set: ValidatorSet, list: { index: number; valid: boolean }[], cutoff: bigint): Model {
    let prev = -1;
    let sum = 0n;
    for (const e of list.slice(0, set.main)) {
        if (e.index <= prev || e.index >= set.main || !e.valid) return { exitCode: Errors.liteClient.invalidSignature };
        prev = e.index;
        sum += set.validators[e.index].weight;
        if (sum >= cutoff) return { exitCode: 0 };
    }
    return { exitCode: Errors.liteClient.weightBelowCutoff };
}

describe('LiteClient signature loop (differential)', () => {
    let code: Cell;
    let blockchain: Blockchain;
    let sync: SandboxContract<TreasuryContract>;
    let lc: SandboxContract<LiteClient>;
    let set: ValidatorSet;
    let cutoff: bigint;
    // main = 40 of 45: 14 chunks, the last one holding a single entry
    const MAIN = 40;

    beforeAll(async () => {
        code = compiledCode('LiteClient');
        blockchain = await Blockchain.create();
        sync = await blockchain.treasury('sync');
        set = makeValidatorSet({
            size: 45,
            main: MAIN,
            weights: 'mainnet',
            seed: 'diff',
            utimeSince: T0,
            utimeUntil: T0 + 100_000,
        });
        const genesis = buildKeyBlock({ globalId: GLOBAL_ID, seqno: 10, genUtime: T0, p34: set, prevKeyBlockSeqno: 0 });
        lc = blockchain.openContract(LiteClient.createFromKeyBlock(keyBlockProof(genesis), code));
        await lc.sendDeploy(sync.getSender(), toNano('1'));
        cutoff = liteClientCutoff(set.validators.slice(0, MAIN));
        expect(await lc.getCurrentCutoffWeight()).toBe(cutoff);
    });

    const shapes: [string, (r: () => number) => { index: number; valid: boolean }[]][] = [
        ['all main, in order', () => Array.from({ length: MAIN }, (_, i) => ({ index: i, valid: true }))],
        ['every second', () => Array.from({ length: MAIN / 2 }, (_, i) => ({ index: 2 * i, valid: true }))],
        [
            'gaps at chunk ends',
            () =>
                Array.from({ length: MAIN }, (_, i) => i)
                    .filter((i) => i % 3 !== 2)
                    .map((i) => ({ index: i, valid: true })),
        ],
        [
            'gaps at chunk starts',
            () =>
                Array.from({ length: MAIN }, (_, i) => i)
                    .filter((i) => i % 3 !== 0)
                    .map((i) => ({ index: i, valid: true })),
        ],
        [
            'long gaps',
            () =>
                [0, 1, 9, 10, 11, 12, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39].map((i) => ({
                    index: i,
                    valid: true,
                })),
        ],
        [
            'beyond main then smaller',
            () => [
                ...Array.from({ length: 30 }, (_, i) => ({ index: i, valid: true })),
                { index: 42, valid: true },
                { index: 35, valid: true },
            ],
        ],
        [
            'beyond the set',
            () => [
                ...Array.from({ length: 30 }, (_, i) => ({ index: i, valid: true })),
                { index: 60000, valid: false },
            ],
        ],
        ['invalid among counted', () => Array.from({ length: MAIN }, (_, i) => ({ index: i, valid: i !== 17 }))],
        [
            'invalid but repeated (skipped)',
            () => [
                ...Array.from({ length: 20 }, (_, i) => ({ index: i, valid: true })),
                { index: 19, valid: false },
                { index: 5, valid: false },
                ...Array.from({ length: 20 }, (_, i) => ({ index: 20 + i, valid: true })),
            ],
        ],
        ['last entry only', () => [{ index: MAIN - 1, valid: true }]],
    ];
    for (let k = 0; k < 24; k++) {
        shapes.push([
            `random #${k}`,
            (r) => {
                const out: { index: number; valid: boolean }[] = [];
                let i = 0;
                while (i < MAIN + 3) {
                    const x = r();
                    if (x < 0.8) out.push({ index: i, valid: r() > 0.02 });
                    else if (x < 0.87 && out.length > 0)
                        out.push({ index: out[Math.floor(r() * out.length)].index, valid: r() > 0.5 });
                    i += r() < 0.8 ? 1 : 1 + Math.floor(r() * 5);
                }
                if (r() < 0.2) out.push({ index: MAIN + Math.floor(r() * 10), valid: r() > 0.5 });
                return out;
            },
        ]);
    }

    let seqno = 11;
    for (const [name, make] of shapes) {
        it(name, async () => {
            const list = make(rng(name));
            const b = buildMasterchainBlock({
                globalId: GLOBAL_ID,
                seqno: seqno,
                genUtime: T0 + seqno,
                prevKeyBlockSeqno: 10,
            });
            seqno++;
            const other = makeValidatorSet({ size: 1, seed: 'outsider', utimeSince: 0, utimeUntil: 1 });
            const entries: SignatureEntry[] = list.map((e) => {
                if (e.index < set.validators.length && e.valid) return signBlock(b, set, [e.index])[0];
                return { index: e.index, signature: signBlock(b, other, [0])[0].signature };
            });
            const expected = model(set, list, cutoff);
            const r = await lc.sendCheckBlock(sync.getSender(), {
                value: toNano('1'),
                block: blockHeaderProof(b),
                signatures: buildSignaturesCell(b.fileHash, entries),
            });
            if (expected.exitCode === 0) {
                expect(r.transactions).toHaveTransaction({ from: lc.address, op: Op.liteClient.correct });
            } else {
                expect(r.transactions).toHaveTransaction({
                    to: lc.address,
                    success: false,
                    exitCode: expected.exitCode,
                });
            }
        });
    }
});
