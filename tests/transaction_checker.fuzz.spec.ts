/**
 * Issue 9 §5: every exit is a documented code. A seeded fuzz test mutates valid requests (blocks,
 * proofs, proof paths, signature sets, transactions and the message bodies themselves) and sends
 * them to check_transaction; sends check_block (with and without a context) and new_key_block straight
 * to the LiteClient, and the LiteClient's answers to the checker from a stranger. Every run must end
 * in success or in a code of the tables
 * (contracts/transaction_checker.tlb, contracts/lite_client.fc), and the sender must get its value
 * back with the code: a bounce, or an answer carrying it, with at least the value minus what the
 * checker asks for (tc::min_value + 3 forward fees of the request). Nothing is stored.
 *
 * FUZZ_SEED (default 1) and FUZZ_RUNS (default 60) choose the runs; a failure names its seed and
 * run, so `FUZZ_SEED=<seed> FUZZ_RUNS=<run + 1> npx jest tests/transaction_checker.fuzz.spec.ts`
 * replays it.
 */
import { Blockchain, BlockchainTransaction, internal, SandboxContract, TreasuryContract } from '@ton/sandbox';
import { Address, beginCell, Cell, CellType, convertToMerkleProof, toNano } from '@ton/core';
import '@ton/test-utils';
import { compiledCode } from '../wrappers/compiled';
import { makeValidatorSet } from '../harness/validators';
import { currentBlockCell, SyntheticChain } from '../harness/chain';
import { buildSignaturesCell, parseSignaturesCell } from '../harness/signatures';
import { prunedBranch } from '../harness/proofs';
import { buildStateUpdate } from '../harness/blocks';
import { LiteClient } from '../wrappers/LiteClient';
import { TransactionChecker, tcRequiredValue } from '../wrappers/TransactionChecker';
import { Errors, Op } from '../wrappers/constants';
import { contractDataHex, fwdFeeOfBody, remainingFwdFee, tcSeenFwdFee } from './transaction_checker.util';
import { checkerValidatorSet, deployCheckerWorld, GLOBAL_ID, T0 } from './transaction_checker.fixture';
import { envInt } from './env.util';
import { prng, Prng } from './prng.util';

const SEED = envInt('FUZZ_SEED', 1);
const RUNS = envInt('FUZZ_RUNS', 60);

const E = Errors.transactionChecker;
const M = Errors.merkle;
const L = Errors.liteClient;
/** check_transaction's refusals (contracts/transaction_checker.tlb) */
const TC_CODES = new Set<number>([
    M.notExotic,
    M.notMerkleProof,
    M.notMerkleUpdate,
    E.transactionNotFound,
    E.invalidTransactionHash,
    E.blockNotMasterchain,
    E.blockNotLinked,
    E.notEnoughValue,
    E.pathTooLong,
    E.notBasechain,
    E.malformedRequest,
    // a body whose op was damaged
    Errors.common.wrongOp,
]);
/** check_block's refusals (contracts/lite_client.fc), carried by check_block_failed and transaction_check_failed */
const LC_CODES = new Set<number>([
    M.notExotic,
    M.notMerkleProof,
    L.invalidSignature,
    L.weightBelowCutoff,
    L.wrongGlobalId,
    L.blockAfterEpoch,
    L.blockNotMasterchain,
    L.notEnoughValue,
]);

/** new_key_block's refusals (contracts/lite_client.fc): check_block's and the key block's own */
const NK_CODES = new Set<number>([
    M.notExotic,
    M.notMerkleProof,
    L.blockNotMasterchain,
    L.wrongGlobalId,
    L.notKeyBlock,
    L.keyBlockSameEpoch,
    L.keyBlockOldEpoch,
    L.invalidSignature,
    L.weightBelowCutoff,
    L.invalidEpoch,
    L.notEnoughValue,
    Errors.common.wrongOp,
]);

type Rng = Prng;

interface Request {
    transaction: Cell;
    txProof: Cell;
    blockProof: Cell;
    signatures: Cell;
    path: Cell | null;
}

// ---------------------------------------------------------------- cell mutations

/** Copy of `c` with its data bits replaced. */
function withBits(c: Cell, bits: (b: import('@ton/core').BitString) => import('@ton/core').BitString): Cell {
    const b = beginCell().storeBits(bits(c.bits));
    for (const r of c.refs) b.storeRef(r);
    return b.endCell();
}

/** One mutation of an ordinary cell (never an exotic one: those are replaced, not edited). */
function mutateCell(c: Cell, rng: Rng, insideProof: boolean): Cell {
    const n = c.bits.length;
    const kind = rng.int(insideProof ? 7 : 6);
    switch (kind) {
        case 0: {
            if (n === 0) return beginCell().storeBit(1).endCell();
            const at = rng.int(n);
            return withBits(c, (bs) => {
                const b = beginCell().storeBits(bs.substring(0, at)).storeBit(!bs.at(at));
                b.storeBits(bs.substring(at + 1, n - at - 1));
                return b.endCell().bits;
            });
        }
        case 1:
            // cut the data short
            return withBits(c, (bs) => bs.substring(0, rng.int(n + 1)));
        case 2: {
            // extra data bits
            const extra = Math.min(1 + rng.int(30), 1023 - n);
            if (extra <= 0) return c;
            const v = rng.int(2 ** extra);
            return withBits(c, (bs) => beginCell().storeBits(bs).storeUint(v, extra).endCell().bits);
        }
        case 3: {
            // a reference dropped
            if (c.refs.length === 0) return c;
            const k = rng.int(c.refs.length);
            const b = beginCell().storeBits(c.bits);
            c.refs.forEach((r, i) => i !== k && b.storeRef(r));
            return b.endCell();
        }
        case 4: {
            // a junk reference added
            if (c.refs.length >= 4) return c;
            const b = beginCell().storeBits(c.bits);
            for (const r of c.refs) b.storeRef(r);
            return b
                .storeRef(
                    beginCell()
                        .storeUint(rng.int(2 ** 30), 30)
                        .endCell(),
                )
                .endCell();
        }
        case 5: {
            // references swapped
            if (c.refs.length < 2) return c;
            const b = beginCell().storeBits(c.bits);
            for (const r of [...c.refs].reverse()) b.storeRef(r);
            return b.endCell();
        }
        default:
            // pruned away (inside a Merkle proof only: a pruned branch outside one is not a valid cell)
            return prunedBranch(c);
    }
}

/** Mutates one cell somewhere in the tree of `root` (a random walk down the ordinary cells). */
function mutateTree(root: Cell, rng: Rng, insideProof: boolean): Cell {
    if (root.isExotic) return root;
    const depth = rng.int(12);
    const walk = (c: Cell, d: number): Cell => {
        const ordinary = c.refs.map((r, i) => [r, i] as const).filter(([r]) => !r.isExotic);
        if (d === 0 || ordinary.length === 0 || rng.chance(0.15)) return mutateCell(c, rng, insideProof);
        const [child, i] = rng.pick(ordinary);
        const refs = c.refs.map((r, k) => (k === i ? walk(child, d - 1) : r));
        const b = beginCell().storeBits(c.bits);
        for (const r of refs) b.storeRef(r);
        return b.endCell();
    };
    return walk(root, depth);
}

/** A Merkle proof mutated inside and sealed again (a valid proof of another tree), or broken as a whole. */
function mutateProof(proof: Cell, rng: Rng): Cell {
    const r = rng.next();
    if (r < 0.05) return beginCell().storeUint(rng.int(256), 8).endCell(); // not exotic: 101
    if (r < 0.1) {
        // an exotic cell of another type (a Merkle update): 102
        return buildStateUpdate(
            beginCell().storeUint(1, 8).endCell(),
            beginCell().storeUint(rng.int(256), 8).endCell(),
        );
    }
    // an earlier mutation left no Merkle proof here: damage what is there
    if (!proof.isExotic || proof.type !== CellType.MerkleProof)
        return proof.isExotic ? proof : mutateTree(proof, rng, false);
    const inner = proof.refs[0];
    const mutated = mutateTree(inner, rng, true);
    if (mutated.isExotic) return proof;
    try {
        return convertToMerkleProof(mutated);
    } catch {
        return proof;
    }
}

/** A signature set reordered, repeated, cut, re-indexed or damaged. */
function mutateSignatures(sigs: Cell, rng: Rng): Cell {
    let parsed: ReturnType<typeof parseSignaturesCell>;
    try {
        parsed = parseSignaturesCell(sigs);
    } catch {
        return mutateTree(sigs, rng, false);
    }
    const entries = [...parsed.entries];
    let fileHash = parsed.fileHash;
    switch (rng.int(8)) {
        case 0:
            entries.reverse();
            break;
        case 1:
            if (entries.length) entries.splice(rng.int(entries.length), 0, entries[rng.int(entries.length)]);
            break;
        case 2:
            entries.splice(rng.int(entries.length + 1));
            break;
        case 3:
            if (entries.length)
                entries[rng.int(entries.length)] = {
                    ...entries[0],
                    index: rng.pick([0xffff, 7, 9, rng.int(70000) & 0xffff]),
                };
            break;
        case 4:
            if (entries.length) {
                const k = rng.int(entries.length);
                const s = Buffer.from(entries[k].signature);
                s[rng.int(64)] ^= 1 << rng.int(8);
                entries[k] = { ...entries[k], signature: s };
            }
            break;
        case 5:
            fileHash = Buffer.from(fileHash);
            fileHash[rng.int(32)] ^= 1;
            break;
        case 6:
            for (let i = 0, n = rng.int(40); i < n; i++)
                entries.push({ index: 0xffff, signature: Buffer.alloc(64, i) });
            break;
        default:
            return mutateTree(sigs, rng, false);
    }
    return buildSignaturesCell(fileHash, entries);
}

/** A message body cut short, stripped of references, or damaged somewhere in its tree. */
function mutateBody(good: Cell, rng: Rng): Cell {
    switch (rng.int(4)) {
        case 0:
            // cut anywhere after the op (a query_id, an error code or a hash cut short)
            return withBits(good, (bs) => bs.substring(0, 32 + rng.int(Math.max(1, bs.length - 31))));
        case 1: {
            // references dropped from the end
            const b = beginCell().storeBits(good.bits);
            good.refs.slice(0, rng.int(good.refs.length + 1)).forEach((r) => b.storeRef(r));
            return b.endCell();
        }
        case 2:
            return mutateCell(good, rng, false);
        default:
            return mutateTree(good, rng, false);
    }
}

/** The check_transaction body of a request (with its query_id), then mutated as a message body. */
function body(req: Request, queryId: bigint, rng: Rng | null): Cell {
    const good = TransactionChecker.checkTransactionMessage(
        req.transaction,
        req.txProof,
        currentBlockCell(req.blockProof, req.signatures, req.path),
        queryId,
    );
    if (!rng) return good;
    switch (rng.int(6)) {
        case 0:
            // the query_id cut short (the checker then reads none: 0)
            return withBits(good, (bs) => bs.substring(0, 32 + rng.int(64)));
        case 1: {
            const b = beginCell().storeBits(good.bits);
            good.refs.slice(0, rng.int(3)).forEach((r) => b.storeRef(r));
            return b.endCell();
        }
        case 2: {
            // current_block with its references shuffled or one missing
            const cb = good.refs[2];
            return beginCell()
                .storeBits(good.bits)
                .storeRef(good.refs[0])
                .storeRef(good.refs[1])
                .storeRef(mutateCell(cb, rng, false))
                .endCell();
        }
        case 3:
            return mutateTree(good, rng, false);
        default:
            return good;
    }
}

describe(`TransactionChecker and LiteClient fuzz (FUZZ_SEED=${SEED}, FUZZ_RUNS=${RUNS})`, () => {
    let blockchain: Blockchain;
    let user: SandboxContract<TreasuryContract>;
    let liteClient: SandboxContract<LiteClient>;
    let checker: SandboxContract<TransactionChecker>;
    let initialData: string;
    const bases: Request[] = [];

    beforeAll(async () => {
        let chain: SyntheticChain;
        ({ blockchain, chain, liteClient, checker, initialData } = await deployCheckerWorld(
            checkerValidatorSet('fuzz'),
            {
                shardBlocksPerMc: 3,
            },
        ));
        user = await blockchain.treasury('user', { balance: toNano('100000') });

        // real transactions of a sandbox, sealed into the synthetic chain
        const src = await Blockchain.create();
        const a = await src.treasury('fuzz-a');
        const txs: Cell[] = [];
        for (let i = 0; txs.length < 8; i++) {
            const r = await a.send({
                to: (await src.treasury(`fuzz-b${i}`)).address,
                value: toNano('0.5'),
                bounce: false,
            });
            for (const t of r.transactions) txs.push(t.raw);
        }
        const direct = (b: ReturnType<SyntheticChain['blockWithTransactions']>): Request => ({
            transaction: b.transaction,
            txProof: b.txProof,
            blockProof: b.blockProof,
            signatures: b.signatures,
            path: null,
        });
        bases.push(direct(chain.blockWithTransactions([txs[0]])));
        bases.push(direct(chain.blockWithTransactions([txs[1]], { shard: true })));
        // a shard chain of three blocks: the oldest transaction needs a path; then a backward link
        const sealed = chain.seal(
            txs.slice(2, 8).map((cell) => ({ cell, workchain: 0 })),
            { shardBlocks: 3 },
        );
        const signatures = chain.signaturesOf(sealed);
        for (const tx of txs.slice(2, 4)) {
            const p = chain.proofPath(tx);
            bases.push({ transaction: tx, txProof: p.txProof, blockProof: p.blockProof, signatures, path: p.path });
        }
        const later = chain.seal([]);
        const back = chain.proofPath(txs[2], { anchor: later.block.seqno });
        bases.push({
            transaction: txs[2],
            txProof: back.txProof,
            blockProof: back.blockProof,
            signatures: chain.signaturesOf(later),
            path: back.path,
        });
    });

    function transactionsOf(txs: BlockchainTransaction[], to: Address) {
        return txs.filter((t) => t.inMessage?.info.dest?.toString() === to.toString());
    }
    const exitCode = (t: BlockchainTransaction) =>
        t.description.type === 'generic' && t.description.computePhase.type === 'vm'
            ? t.description.computePhase.exitCode
            : -1;
    const aborted = (t: BlockchainTransaction) => t.description.type === 'generic' && t.description.aborted;
    const valueOf = (t: BlockchainTransaction) =>
        t.inMessage?.info.type === 'internal' ? t.inMessage.info.value.coins : 0n;

    it('every valid base request is answered transaction_checked', async () => {
        for (const req of bases) {
            const b = body(req, 1n, null);
            const full = fwdFeeOfBody(b);
            const r = await blockchain.sendMessage(
                internal({
                    from: user.address,
                    to: checker.address,
                    value: toNano('1'),
                    bounce: true,
                    body: b,
                    forwardFee: remainingFwdFee(full),
                }),
            );
            expect(r.transactions).toHaveTransaction({
                from: checker.address,
                to: user.address,
                op: Op.transactionChecker.transactionChecked,
            });
        }
    });

    it(`${RUNS} mutated requests: each ends in success or a documented code, its value back`, async () => {
        const rng = prng(SEED);
        const outcomes = new Map<string, number>();
        for (let run = 0; run < RUNS; run++) {
            const where = `FUZZ_SEED=${SEED} run ${run}`;
            const base = rng.pick(bases);
            const req: Request = { ...base };
            const mutations = 1 + rng.int(2);
            const applied: string[] = [];
            for (let m = 0; m < mutations; m++) {
                const target = rng.pick([
                    'txProof',
                    'blockProof',
                    'signatures',
                    'transaction',
                    'path',
                    'none',
                ] as const);
                applied.push(target);
                if (target === 'txProof') req.txProof = mutateProof(req.txProof, rng);
                else if (target === 'blockProof') req.blockProof = mutateProof(req.blockProof, rng);
                else if (target === 'signatures') req.signatures = mutateSignatures(req.signatures, rng);
                else if (target === 'transaction') req.transaction = mutateTree(req.transaction, rng, false);
                else if (target === 'path' && req.path) req.path = mutateTree(req.path, rng, false);
            }
            const queryId = BigInt(rng.int(2 ** 31));
            const msgBody = body(req, queryId, rng.chance(0.3) ? rng : null);
            const full = fwdFeeOfBody(msgBody);
            const required = tcRequiredValue(tcSeenFwdFee(full));
            const value = rng.chance(0.1) ? required - 1n - BigInt(rng.int(1e8)) : required + BigInt(rng.int(1e9));
            if (value <= 0n) continue;
            let r;
            try {
                r = await blockchain.sendMessage(
                    internal({
                        from: user.address,
                        to: checker.address,
                        value,
                        bounce: true,
                        body: msgBody,
                        forwardFee: remainingFwdFee(full),
                    }),
                );
            } catch (e) {
                throw new Error(`${where} (${applied.join(', ')}): the emulator refused the message`, { cause: e });
            }
            const txs = r.transactions;
            const [request] = transactionsOf(txs, checker.address);
            const back = transactionsOf(txs, user.address);
            const returned = back.reduce((s, t) => s + valueOf(t), 0n);
            const ctx = `${where} (${applied.join(', ')})`;
            if (msgBody.bits.length < 32) {
                // no op left: a plain transfer, which the checker keeps as a top-up of its balance
                expect({ ctx, aborted: aborted(request), out: request.outMessagesCount }).toEqual({
                    ctx,
                    aborted: false,
                    out: 0,
                });
                outcomes.set('top-up', (outcomes.get('top-up') ?? 0) + 1);
                continue;
            }
            if (aborted(request)) {
                const code = exitCode(request);
                expect({ ctx, code, documented: TC_CODES.has(code) }).toEqual({ ctx, code, documented: true });
                // the bounce brings the value back, less the checker's gas and the bounce's fee
                expect({
                    ctx,
                    bounced: back.some((t) => t.inMessage?.info.type === 'internal' && t.inMessage.info.bounced),
                }).toEqual({ ctx, bounced: true });
                outcomes.set(`bounce ${code}`, (outcomes.get(`bounce ${code}`) ?? 0) + 1);
            } else {
                // the checker asked the LiteClient: it answers, never aborts, and the checker passes the answer on
                for (const t of txs) expect({ ctx, aborted: aborted(t) }).toEqual({ ctx, aborted: false });
                const answer = back.find((t) => t.inMessage?.info.src?.toString() === checker.address.toString());
                expect({ ctx, answered: answer !== undefined }).toEqual({ ctx, answered: true });
                const s = answer!.inMessage!.body.beginParse();
                const op = s.loadUint(32);
                const qid = s.loadUintBig(64);
                // the query_id the (possibly mutated) body holds, 0 when too short to hold one
                const sent = msgBody.bits.length >= 96 ? msgBody.beginParse().skip(32).loadUintBig(64) : 0n;
                expect({ ctx, qid }).toEqual({ ctx, qid: sent });
                if (op === Op.transactionChecker.transactionCheckFailed) {
                    const code = s.loadUint(16);
                    expect({ ctx, code, documented: LC_CODES.has(code) }).toEqual({ ctx, code, documented: true });
                    outcomes.set(`failed ${code}`, (outcomes.get(`failed ${code}`) ?? 0) + 1);
                } else {
                    expect({ ctx, op }).toEqual({ ctx, op: Op.transactionChecker.transactionChecked });
                    outcomes.set('checked', (outcomes.get('checked') ?? 0) + 1);
                }
            }
            // nothing lost beyond what the checker asks for
            expect({ ctx, enough: returned >= value - required && returned > 0n }).toEqual({ ctx, enough: true });
            expect(await contractDataHex(blockchain, checker.address)).toEqual(initialData);
        }
        console.log(`fuzz outcomes (seed ${SEED}, ${RUNS} runs): ${JSON.stringify(Object.fromEntries(outcomes))}`);
    });

    it(`${RUNS} mutated check_block messages straight to the LiteClient (with and without a context): documented codes only`, async () => {
        const rng = prng(SEED ^ 0x5a5a5a5a);
        const context = beginCell().storeAddress(user.address).storeRef(bases[0].transaction).endCell();
        for (let run = 0; run < RUNS; run++) {
            const ctx = `FUZZ_SEED=${SEED} LiteClient run ${run}`;
            const base = rng.pick(bases);
            let block = base.blockProof;
            let sigs = base.signatures;
            if (rng.chance(0.6)) block = mutateProof(block, rng);
            if (rng.chance(0.6)) sigs = mutateSignatures(sigs, rng);
            const withContext = rng.chance(0.5);
            const b = beginCell()
                .storeUint(Op.liteClient.checkBlock, 32)
                .storeUint(run, 64)
                .storeRef(block)
                .storeRef(sigs);
            if (withContext) b.storeRef(context);
            let msg = b.endCell();
            if (rng.chance(0.15)) msg = mutateTree(msg, rng, false);
            const r = await blockchain.sendMessage(
                internal({ from: user.address, to: liteClient.address, value: toNano('1'), bounce: true, body: msg }),
            );
            const [t] = transactionsOf(r.transactions, liteClient.address);
            if (aborted(t)) {
                const code = exitCode(t);
                const ok = LC_CODES.has(code) || code === Errors.common.wrongOp;
                expect({ ctx, code, documented: ok }).toEqual({ ctx, code, documented: true });
                expect(r.transactions).toHaveTransaction({
                    from: liteClient.address,
                    to: user.address,
                    inMessageBounced: true,
                });
            } else {
                // an answer with the value back (correct, check_block_failed with a documented code), or a body too short to be a request
                const ans = transactionsOf(r.transactions, user.address)[0];
                if (msg.bits.length >= 32 + 64 && msg.refs.length >= 2) {
                    expect({ ctx, answered: ans !== undefined }).toEqual({ ctx, answered: true });
                    const s = ans.inMessage!.body.beginParse();
                    const op = s.loadUint(32);
                    if (op === Op.liteClient.checkBlockFailed) {
                        s.skip(64);
                        const code = s.loadUint(16);
                        expect({ ctx, code, documented: LC_CODES.has(code) }).toEqual({ ctx, code, documented: true });
                    } else expect({ ctx, op }).toEqual({ ctx, op: Op.liteClient.correct });
                    expect(valueOf(ans)).toBeGreaterThan(toNano('0.5'));
                }
            }
        }
    });

    it(`${RUNS} mutated new_key_block messages (key blocks, signature sets, bodies, values): documented codes only, the value back`, async () => {
        const rng = prng(SEED ^ 0x3c3c3c3c);
        // a LiteClient of its own, restored after every key block it accepts
        const setA = makeValidatorSet({ size: 9, main: 7, seed: 'fuzz-k', utimeSince: T0, utimeUntil: T0 + 1_000_000 });
        const kchain = new SyntheticChain({ globalId: GLOBAL_ID, validators: setA, startUtime: T0 + 10 });
        const deployer = await blockchain.treasury('fuzz-k-deployer');
        const lc = blockchain.openContract(
            LiteClient.createFromKeyBlock(kchain.genesisKeyBlock().proof, compiledCode('LiteClient')),
        );
        await lc.sendDeploy(deployer.getSender(), toNano('1'));
        const setB = makeValidatorSet({
            size: 12,
            main: 10,
            seed: 'fuzz-k2',
            utimeSince: T0 + 500_000,
            utimeUntil: T0 + 2_000_000,
        });
        const announce = kchain.announceKeyBlock(setB); // ConfigParam 34 unchanged: 112
        const next = kchain.nextKeyBlock(setB); // accepted
        const keyBlocks = [announce, next, next, next];
        const snapshot = blockchain.snapshot();
        const outcomes = new Map<string, number>();
        const count = (k: string) => outcomes.set(k, (outcomes.get(k) ?? 0) + 1);
        for (let run = 0; run < RUNS; run++) {
            const ctx = `FUZZ_SEED=${SEED} new_key_block run ${run}`;
            const base = rng.pick(keyBlocks);
            let block = base.proof;
            let sigs = base.signatures;
            if (rng.chance(0.5)) block = mutateProof(block, rng);
            if (rng.chance(0.5)) sigs = mutateSignatures(sigs, rng);
            let msg = LiteClient.newKeyBlockMessage(run, block, sigs);
            if (rng.chance(0.3)) msg = mutateBody(msg, rng);
            // mostly enough value; sometimes less than the signatures and the new set may cost (206)
            const value = rng.chance(0.15) ? toNano('0.01') + BigInt(rng.int(5e7)) : toNano('1');
            const r = await blockchain.sendMessage(
                internal({ from: user.address, to: lc.address, value, bounce: true, body: msg }),
            );
            const [t] = transactionsOf(r.transactions, lc.address);
            const back = transactionsOf(r.transactions, user.address);
            if (msg.bits.length < 32) {
                expect({ ctx, aborted: aborted(t), out: t.outMessagesCount }).toEqual({ ctx, aborted: false, out: 0 });
                count('top-up');
                continue;
            }
            if (aborted(t)) {
                const code = exitCode(t);
                expect({ ctx, code, documented: NK_CODES.has(code) }).toEqual({ ctx, code, documented: true });
                const bounce = back.find((x) => x.inMessage?.info.type === 'internal' && x.inMessage.info.bounced);
                expect({ ctx, bounced: bounce !== undefined }).toEqual({ ctx, bounced: true });
                // the value back, less the gas spent and the bounce's fee
                expect({ ctx, back: valueOf(bounce!) > 0n && valueOf(bounce!) > value - toNano('0.45') }).toEqual({
                    ctx,
                    back: true,
                });
                count(`bounce ${code}`);
            } else {
                // accepted: ok with the rest of the value; then the LiteClient is restored
                const ans = back[0];
                expect({ ctx, answered: ans !== undefined }).toEqual({ ctx, answered: true });
                expect({ ctx, op: ans.inMessage!.body.beginParse().loadUint(32) }).toEqual({
                    ctx,
                    op: Op.liteClient.ok,
                });
                // the rest of the value: less the gas (at most 1,000,000 gas, 0.4 TON) and the answer's fee
                expect({ ctx, back: valueOf(ans) > 0n && valueOf(ans) > value - toNano('0.45') }).toEqual({
                    ctx,
                    back: true,
                });
                count('ok');
                await blockchain.loadFrom(snapshot);
            }
        }
        console.log(
            `new_key_block fuzz outcomes (seed ${SEED}, ${RUNS} runs): ${JSON.stringify(Object.fromEntries(outcomes))}`,
        );
    });

    it(`${RUNS} LiteClient answers (correct, check_block_failed) and bounces from anyone else: 203 or an unknown op, the value back`, async () => {
        const rng = prng(SEED ^ 0x0f0f0f0f);
        const context = beginCell().storeAddress(user.address).storeRef(bases[0].transaction).endCell();
        const answers = [
            beginCell()
                .storeUint(Op.liteClient.correct, 32)
                .storeUint(7, 64)
                .storeUint(1n, 256)
                .storeRef(context)
                .endCell(),
            beginCell()
                .storeUint(Op.liteClient.checkBlockFailed, 32)
                .storeUint(7, 64)
                .storeUint(L.invalidSignature, 16)
                .storeRef(context)
                .endCell(),
        ];
        for (let run = 0; run < RUNS; run++) {
            const ctx = `FUZZ_SEED=${SEED} answer run ${run}`;
            let msg = rng.pick(answers);
            if (rng.chance(0.7)) msg = mutateBody(msg, rng);
            const bounced = rng.chance(0.15);
            const r = await blockchain.sendMessage(
                internal({
                    from: user.address,
                    to: checker.address,
                    value: toNano('1'),
                    bounce: !bounced,
                    bounced,
                    body: msg,
                }),
            );
            const [t] = transactionsOf(r.transactions, checker.address);
            const back = transactionsOf(r.transactions, user.address);
            if (bounced || msg.bits.length < 32) {
                // a bounce (its value stays: it cannot name a sender) or a top-up: nothing sent, nothing thrown
                expect({ ctx, aborted: aborted(t), out: t.outMessagesCount }).toEqual({ ctx, aborted: false, out: 0 });
                continue;
            }
            const code = exitCode(t);
            const op = msg.beginParse().loadUint(32);
            const expected =
                op === Op.liteClient.correct || op === Op.liteClient.checkBlockFailed
                    ? E.senderNotLiteClient
                    : op === Op.transactionChecker.checkTransaction
                      ? code
                      : Errors.common.wrongOp;
            expect({ ctx, aborted: aborted(t), code }).toEqual({ ctx, aborted: true, code: expected });
            expect({ ctx, documented: TC_CODES.has(code) || code === E.senderNotLiteClient }).toEqual({
                ctx,
                documented: true,
            });
            const bounce = back.find((x) => x.inMessage?.info.type === 'internal' && x.inMessage.info.bounced);
            expect({ ctx, back: bounce !== undefined && valueOf(bounce) > toNano('0.9') }).toEqual({ ctx, back: true });
        }
        expect(await contractDataHex(blockchain, checker.address)).toEqual(initialData);
    });
});
