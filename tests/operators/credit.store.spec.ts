/**
 * The credit backend's SQL store (service/operators/creditStore.ts) on PGlite, two instances
 * simulated by two stores with their own lease owners on one database: a transfer found twice is
 * stored once and the cursor only moves forward; concurrent claims never hand one transfer to two
 * owners; a lease is taken over only once it expired, and the instance that lost it can no longer
 * record anything (so it sends nothing); a clean stop gives the leases back.
 */
import { Db } from '../../service/storage/db';
import { openMigratedPglite } from '../service/pglite';
import { NewTransfer, SqlCreditStore } from '../../service/operators/creditStore';

const LEASE = 1000;

function transfer(i: number): NewTransfer {
    const hex = (n: number, len: number) => n.toString(16).padStart(len, '0');
    return {
        eventAddress: `0:${hex(i, 64)}`,
        transferId: hex(1000 + i, 64),
        configuration: `0:${'c'.repeat(64)}`,
        proxy: `0:${'p'.repeat(64)}`,
        lt: String(1000 + i),
        messageHash: hex(5000 + i, 64),
        outIndex: 0,
        seenAt: 1_000_000 + i,
    };
}

const signed = (wallet: string, seqno: number) => ({
    wallet,
    seqno,
    validUntil: 2_000_000_000,
    boc: 'te6c',
    balance: '1000',
    at: 1,
});

describe('credit store (SQL, PGlite): leases between instances', () => {
    let db: Db;
    let a: SqlCreditStore;
    let b: SqlCreditStore;

    beforeAll(async () => {
        // a migrated database (the kept dump: the migrations are the storage specs' subject, not this one's)
        db = await openMigratedPglite();
        a = new SqlCreditStore(db, '1:2', 'instance-a', LEASE);
        b = new SqlCreditStore(db, '1:2', 'instance-b', LEASE);
    });
    afterAll(async () => db?.close());

    it('a transfer found by both instances is stored once; the cursor only moves forward', async () => {
        const found = [transfer(1), transfer(2), transfer(3)];
        expect((await a.addSeen(found[0].proxy, 1003n, found)).length).toBe(3);
        expect((await b.addSeen(found[0].proxy, 1002n, found.slice(0, 2))).length).toBe(0);
        expect(await b.cursor(found[0].proxy)).toBe(1003n);
        // another route (the other direction) has a cursor of its own
        expect(await new SqlCreditStore(db, '2:1', 'x', LEASE).cursor(found[0].proxy)).toBe(0n);
        expect(await a.pending()).toEqual({ count: 3, oldestSeenAt: 1_000_001 });
    });

    it('concurrent claims hand every transfer to one instance; held ones come back to their holder first', async () => {
        const now = 2_000_000;
        const claims = await Promise.all([a.claim(now, []), b.claim(now, []), a.claim(now, []), b.claim(now, [])]);
        const got = claims.filter((c) => c !== null);
        // a's second claim takes the one it holds already; so does b's
        expect(new Set(got.map((c) => c!.eventAddress)).size).toBe(2);
        const byA = claims[0]!;
        const byB = claims[1]!;
        expect(byA.eventAddress).not.toBe(byB.eventAddress);
        expect(claims[2]!.eventAddress).toBe(byA.eventAddress);
        expect(claims[3]!.eventAddress).toBe(byB.eventAddress);
        // the third is free: skipping its own, a takes it
        const third = await a.claim(now, [byA.eventAddress]);
        expect([byA.eventAddress, byB.eventAddress]).not.toContain(third!.eventAddress);
        // nothing left for b while the leases run
        expect(await b.claim(now + LEASE - 1, [byB.eventAddress])).toBeNull();
    });

    it("an expired lease is taken over with the transfer's record; the instance that lost it records nothing", async () => {
        const now = 3_000_000;
        const t = (await a.claim(now, []))!;
        expect(t.tookOverFrom).toBeNull();
        expect(await a.recordSigned(t, signed('0:aa', 7), 1)).toBe(true);
        // not before the lease ends
        const early = await b.claim(now + LEASE - 1, []);
        expect(early?.eventAddress).not.toBe(t.eventAddress);
        // after it: b takes it, with a's recorded deployment
        let taken = await b.claim(now + LEASE + 1, early ? [early.eventAddress] : []);
        while (taken && taken.eventAddress !== t.eventAddress)
            taken = await b.claim(now + LEASE + 1, [taken.eventAddress]);
        expect(taken).toMatchObject({
            eventAddress: t.eventAddress,
            tookOverFrom: 'instance-a',
            attempts: 1,
            signed: { wallet: '0:aa', seqno: 7 },
        });
        // a, back from a stall, can no longer record (and so never sends)
        expect(await a.recordSigned(t, signed('0:aa', 8), 2)).toBe(false);
        expect(await a.recordDelivered(t, { eventStatus: 2, spent: '1', paidBy: '0:aa' })).toBe(false);
        // wallet 0:aa has a deployment pending: it pays for nothing else meanwhile (but this one)
        expect(await b.busy('0:aa', `0:${'f'.repeat(64)}`)).toBe(true);
        expect(await b.busy('0:aa', t.eventAddress)).toBe(false);
        expect(await b.busy('0:bb', `0:${'f'.repeat(64)}`)).toBe(false);
        expect(await b.recordDelivered(taken!, { eventStatus: 2, spent: '150', paidBy: '0:aa' })).toBe(true);
        // delivered: the wallet is free again
        expect(await b.busy('0:aa', `0:${'f'.repeat(64)}`)).toBe(false);
        expect(await b.spent()).toEqual([
            {
                transferId: t.transferId,
                eventAddress: t.eventAddress,
                spent: '150',
                paidBy: '0:aa',
                by: 'this backend',
                doneBy: 'instance-b',
            },
        ]);
    });

    it('a transfer given back (waited on) and a clean stop free the leases at once', async () => {
        const now = 4_000_000;
        const held = (await a.claim(now, []))!;
        const other = (await b.claim(now, []))!;
        expect(other.eventAddress).not.toBe(held.eventAddress);
        await a.release(held);
        // b's release of a transfer a holds changes nothing
        const again0 = (await a.claim(now, []))!;
        expect(again0.eventAddress).toBe(held.eventAddress);
        await b.release(again0);
        expect(await b.claim(now, [other.eventAddress])).toBeNull();
        await a.release(held);
        expect((await b.claim(now, [other.eventAddress]))!.eventAddress).toBe(held.eventAddress);
        await a.releaseAll();
        await b.releaseAll();
        const again = (await b.claim(now + 1, []))!;
        expect(again.tookOverFrom).toBeNull();
        expect((await b.pending()).count).toBe(2);
    });
});
