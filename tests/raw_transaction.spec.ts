/**
 * lib/rawCell.ts and lib/rawTransaction.ts (the indexer's BoC reader) against @ton/core, the
 * reference: every hash, every bit and every field they read must be @ton/core's. Real masterchain
 * blocks and Merkle proofs (the fixtures: thousands of cells, pruned branches, tick-tock and ordinary
 * transactions), BoCs with an index and a CRC, slices read at every bit offset, and transactions built
 * with every description phase, message shape and out_msgs dictionary shape the reader takes apart.
 */
import {
    Address,
    beginCell,
    Cell,
    CurrencyCollection,
    Dictionary,
    DictionaryValue,
    external,
    ExternalAddress,
    loadTransaction,
    Message,
    storeMessage,
    storeTransaction,
    Transaction,
    TransactionDescription,
} from '@ton/core';
import { parseBoc, RawCell } from '../lib/rawCell';
import { RawTransaction } from '../lib/rawTransaction';
import { describeWithFixtures, readFixture } from '../harness/fixtures';
import { transactionsOf } from './transaction_checker.util';

/** every cell of both trees in step: the same bits, refs and hash */
function sameTree(raw: RawCell, ref: Cell, seen = new Set<string>()): number {
    const key = ref.hash().toString('hex');
    if (seen.has(key)) return 0;
    seen.add(key);
    expect(raw.hash().toString('hex')).toBe(key);
    expect(raw.bits).toBe(ref.bits.length);
    expect(raw.exotic).toBe(ref.isExotic);
    expect(raw.refs.length).toBe(ref.refs.length);
    expect(raw.depth()).toBe(ref.depth());
    let n = 1;
    raw.refs.forEach((r, i) => (n += sameTree(r, ref.refs[i], seen)));
    return n;
}

/** a successful generic transaction's reading, by @ton/core's parse (the indexer's rule) */
function successfulByCore(tx: Transaction): boolean {
    const d = tx.description;
    if (d.type !== 'generic' || d.aborted) return false;
    if (d.computePhase.type !== 'vm' || !d.computePhase.success) return false;
    return !d.actionPhase || d.actionPhase.success;
}

function sameTransaction(cell: Cell) {
    const ref = loadTransaction(cell.beginParse());
    const raw = new RawTransaction(parseBoc(cell.toBoc())[0]);
    expect(raw.lt).toBe(ref.lt);
    expect(raw.now).toBe(ref.now);
    expect(raw.hash().equals(cell.hash())).toBe(true);
    expect(raw.successful).toBe(successfulByCore(ref));
    const inRef = ref.inMessage;
    if (!inRef) expect(raw.inMessage).toBeNull();
    else {
        const m = raw.inMessage!;
        expect(m.type).toBe(inRef.info.type);
        expect(String(m.src)).toBe(String(inRef.info.src ?? null));
        expect(String(m.dest)).toBe(String(inRef.info.dest ?? null));
        expect(m.init).toBe(!!inRef.init);
        expect(m.body.hash().equals(inRef.body.hash())).toBe(true);
    }
    expect([...raw.outMessages.keys()]).toEqual([...ref.outMessages.keys()]);
    for (const [k, m] of raw.outMessages) {
        const r = ref.outMessages.get(k)!;
        expect(m.type).toBe(r.info.type);
        expect(String(m.src)).toBe(String(r.info.src ?? null));
        expect(String(m.dest)).toBe(String(r.info.dest ?? null));
        expect(m.init).toBe(!!r.init);
        expect(m.body.hash().equals(r.body.hash())).toBe(true);
        expect(m.cell.hash().equals(beginCell().store(storeMessage(r)).endCell().hash())).toBe(true);
    }
    return ref;
}

describeWithFixtures('the BoC reader on real masterchain blocks', () => {
    it('a full block: every cell, bit and hash as @ton/core reads them; its transactions alike', () => {
        // as served (cells with stored hashes: read through @ton/core) and written again without them
        const boc = readFixture('testnet-rsquad', 'samples', '1_check_block.boc');
        const ref = Cell.fromBoc(boc)[0];
        expect(sameTree(parseBoc(boc)[0], ref)).toBeGreaterThan(200);
        expect(sameTree(parseBoc(ref.toBoc({ idx: false, crc32: false }))[0], ref)).toBeGreaterThan(200);
        const kinds = transactionsOf(ref).map((t) => sameTransaction(t.cell).description.type);
        expect(new Set(kinds)).toEqual(new Set(['tick-tock', 'generic']));
    });

    it('Merkle proofs with pruned branches (levels): hashed by @ton/core, the same hashes', () => {
        for (const name of [
            'pruned_block_27620829.boc',
            'txproof_13D7C4_block_27620829.boc',
            'block_765944_pruned.boc',
        ]) {
            const boc = readFixture('testnet-rsquad', 'samples', name);
            const raw = parseBoc(boc)[0];
            expect(raw.plain).toBe(false);
            sameTree(raw, Cell.fromBoc(boc)[0]);
        }
    });
});

const addr = (i: number) => new Address(0, Buffer.alloc(32, i));
const intMsg = (dest: Address, coins: bigint, body: Cell, bounce = true): Message => ({
    info: {
        type: 'internal',
        ihrDisabled: true,
        bounce,
        bounced: false,
        src: addr(9),
        dest,
        value: { coins },
        ihrFee: 0n,
        forwardFee: 1n,
        createdLt: 5n,
        createdAt: 6,
    },
    body,
});
const cc = (coins: bigint, extra = false): CurrencyCollection => {
    if (!extra) return { coins };
    const other = Dictionary.empty(Dictionary.Keys.Uint(32), Dictionary.Values.BigVarUint(5));
    other.set(7, 1000n);
    return { coins, other };
};

describe('the BoC reader on built cells', () => {
    it('BoCs with an index and a CRC, several roots, shared cells', () => {
        const shared = beginCell().storeUint(0xabcdef, 24).endCell();
        const a = beginCell().storeRef(shared).storeRef(shared).storeBit(true).endCell();
        const b = beginCell().storeStringTail('x'.repeat(300)).storeRef(shared).endCell();
        for (const opts of [
            { idx: false, crc32: false },
            { idx: true, crc32: false },
            { idx: true, crc32: true },
        ]) {
            const boc = a.toBoc(opts);
            sameTree(parseBoc(boc)[0], a);
            sameTree(parseBoc(b.toBoc(opts))[0], b);
        }
    });

    it('slices: numbers, coins, addresses, strings and remainders at every bit offset', () => {
        for (let pad = 0; pad < 16; pad++) {
            const body = beginCell()
                .storeUint(0, pad)
                .storeUint(0x2e5a65ab, 32)
                .storeInt(-239, 32)
                .storeUint(2n ** 128n - 3n, 128)
                .storeInt(-5n, 64)
                .storeCoins(123456789012345n)
                .storeCoins(0n)
                .storeAddress(addr(pad))
                .storeAddress(null)
                .storeAddress(new ExternalAddress(0x1234n, 17))
                .storeBit(true)
                .storeRef(beginCell().storeStringTail('snake '.repeat(40)).endCell())
                .storeMaybeRef(null)
                .storeUint(pad, 7)
                .endCell();
            const raw = parseBoc(body.toBoc())[0].beginParse();
            const ref = body.beginParse();
            raw.skip(pad);
            ref.skip(pad);
            expect(raw.preloadUint(32)).toBe(ref.preloadUint(32));
            expect(raw.loadUint(32)).toBe(ref.loadUint(32));
            expect(raw.loadInt(32)).toBe(ref.loadInt(32));
            expect(raw.loadUintBig(128)).toBe(ref.loadUintBig(128));
            expect(raw.loadIntBig(64)).toBe(ref.loadIntBig(64));
            expect(raw.loadCoins()).toBe(ref.loadCoins());
            expect(raw.loadCoins()).toBe(ref.loadCoins());
            expect(raw.loadAddress().equals(ref.loadAddress())).toBe(true);
            expect(raw.loadMaybeAddress()).toBe(ref.loadMaybeAddress());
            expect(String(raw.loadMaybeExternalAddress())).toBe(String(ref.loadMaybeExternalAddress()));
            // the rest as a cell of its own (unaligned bits, the refs left): @ton/core's hash
            const restRaw = raw.asCell();
            const restRef = ref.asCell();
            expect(restRaw.hash().equals(restRef.hash())).toBe(true);
            expect(raw.loadBit()).toBe(ref.loadBit());
            expect(raw.loadRef().beginParse().loadStringTail()).toBe(ref.loadRef().beginParse().loadStringTail());
            expect(raw.loadMaybeRef()).toBeNull();
            expect(ref.loadMaybeRef()).toBeNull();
            expect(raw.loadUint(7)).toBe(pad);
            expect(raw.remainingBits).toBe(0);
            expect(() => raw.loadUint(1)).toThrow(/1 bits wanted, 0 left/);
        }
    });

    const msgValue: DictionaryValue<Message> = {
        serialize: (m, b) => void b.storeRef(beginCell().store(storeMessage(m))),
        parse: () => {
            throw new Error('not read');
        },
    };

    function descriptions(): TransactionDescription[] {
        const vm = (success: boolean) =>
            ({
                type: 'vm',
                success,
                messageStateUsed: false,
                accountActivated: true,
                gasFees: 1234n,
                gasUsed: 100n,
                gasLimit: 1000n,
                gasCredit: 10n,
                mode: 0,
                exitCode: success ? 0 : 37,
                exitArg: null,
                vmSteps: 12,
                vmInitStateHash: 0n,
                vmFinalStateHash: 0n,
            }) as const;
        const action = (success: boolean) => ({
            success,
            valid: true,
            noFunds: false,
            statusChange: 'unchanged' as const,
            totalFwdFees: 5n,
            totalActionFees: 3n,
            resultCode: success ? 0 : 37,
            resultArg: null,
            totalActions: 1,
            specActions: 0,
            skippedActions: 0,
            messagesCreated: 1,
            actionListHash: 0n,
            totalMessageSize: { cells: 1n, bits: 700n },
        });
        const out: TransactionDescription[] = [];
        // every value of every phase at least once, in changing company
        const statuses = ['unchanged', 'frozen', 'deleted'] as const;
        const computes = [vm(true), vm(false), { type: 'skipped' as const, reason: 'no-gas' as const }];
        const actions = [undefined, action(true), action(false)];
        for (let i = 0; i < 18; i++) {
            const statusChange = statuses[i % 3];
            const actionPhase = actions[Math.floor(i / 3) % 3];
            const aborted = i % 2 === 1;
            out.push({
                type: 'generic',
                creditFirst: aborted,
                storagePhase:
                    statusChange === 'unchanged' && !aborted
                        ? undefined
                        : { storageFeesCollected: 17n, storageFeesDue: aborted ? 4n : null, statusChange },
                creditPhase:
                    actionPhase === undefined
                        ? undefined
                        : { dueFeesColelcted: aborted ? 9n : undefined, credit: cc(10n ** 9n, !aborted) },
                computePhase: computes[Math.floor(i / 6) % 3],
                actionPhase,
                aborted,
                destroyed: false,
            });
        }
        out.push({
            type: 'tick-tock',
            isTock: true,
            storagePhase: { storageFeesCollected: 0n, statusChange: 'unchanged' },
            computePhase: vm(true),
            actionPhase: action(true),
            aborted: false,
            destroyed: false,
        });
        return out;
    }

    function messages(i: number): { inMessage: Message | undefined; out: Message[] } {
        const init = { code: beginCell().storeUint(i, 16).endCell(), data: beginCell().storeUint(7, 8).endCell() };
        const bodies = [
            beginCell().endCell(),
            beginCell().storeUint(0x178d4519, 32).storeUint(i, 64).storeCoins(99n).endCell(),
            beginCell().storeBuffer(Buffer.alloc(120, i)).storeRef(beginCell().storeUint(1, 1).endCell()).endCell(),
        ];
        const kinds: (Message | undefined)[] = [
            undefined,
            external({ to: addr(1), body: bodies[i % 3] }),
            intMsg(addr(2), 10n ** 9n, bodies[(i + 1) % 3], i % 2 === 0),
            { ...intMsg(addr(3), 5n, bodies[i % 3]), init },
        ];
        const inMessage = kinds[i % kinds.length];
        const counts = [0, 1, 2, 5, 17, 40];
        const out: Message[] = [];
        for (let k = 0; k < counts[i % counts.length]; k++) {
            if (k % 3 === 0)
                out.push({
                    info: {
                        type: 'external-out',
                        src: addr(1),
                        dest: k % 2 ? new ExternalAddress(BigInt(k), 12) : null,
                        createdLt: BigInt(k),
                        createdAt: k,
                    },
                    body: bodies[k % 3],
                });
            else {
                const m = intMsg(addr(k), BigInt(k), bodies[k % 3]);
                out.push(k % 4 === 1 ? { ...m, init } : m);
            }
        }
        return { inMessage, out };
    }

    it('transactions of every description, message and out_msgs shape: @ton/core’s fields and hashes', () => {
        const all = descriptions();
        for (let i = 0; i < all.length; i++) {
            const { inMessage, out } = messages(i);
            const dict = Dictionary.empty(Dictionary.Keys.Uint(15), msgValue);
            // sparse keys too: the dictionary's labels take every form
            out.forEach((m, k) => dict.set(i % 2 ? k : k * 7 + (i % 3), m));
            const cell = beginCell()
                .store(
                    storeTransaction({
                        address: BigInt(i),
                        lt: BigInt(1000 + i),
                        prevTransactionHash: 5n,
                        prevTransactionLt: 3n,
                        now: 1_700_000_000 + i,
                        outMessagesCount: out.length,
                        oldStatus: 'active',
                        endStatus: i % 4 === 0 ? 'frozen' : 'active',
                        inMessage,
                        outMessages: dict as unknown as Dictionary<number, Message>,
                        totalFees: cc(BigInt(i), i % 2 === 0),
                        stateUpdate: { oldHash: Buffer.alloc(32, 1), newHash: Buffer.alloc(32, 2) },
                        description: all[i],
                    } as unknown as Transaction),
                )
                .endCell();
            sameTransaction(cell);
        }
    });

    it('a cell that is not a transaction is refused', () => {
        expect(() => new RawTransaction(parseBoc(beginCell().storeUint(0b0110, 4).endCell().toBoc())[0])).toThrow(
            /transaction\$0111 expected/,
        );
    });
});
