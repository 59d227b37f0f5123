/**
 * The prepared statements a PostgreSQL server runs outside transactions (a status lookup, a search's
 * page of rows, an indexer's cursor read) go over a few connections in pipeline mode: each statement
 * is written at once behind those still under way (Bind, Describe, Execute, Sync: its own implicit
 * transaction and its own failure) and the answers come back in order. A burst of status lookups
 * wakes one server process that answers them in one go, where a pool of connections that each run
 * one statement at a time wakes as many server processes, which then compete for the cores with the
 * API's own process (bench/api-report.md: "Where the PostgreSQL status tail came from").
 *
 * A connection that fails (the server stopped, the network lost) fails the statements written to it
 * and is dropped; the next statement opens a new one, so the service recovers without a restart.
 * A connection with no statement under way does not keep the process alive.
 */
import type { Client, ClientConfig, QueryConfig, QueryResult } from 'pg';

interface Refable {
    ref(): void;
    unref(): void;
}

export class PgPipelines {
    private clients: (Client | undefined)[];
    private opening: (Promise<Client> | undefined)[];
    /** statements written to each connection and not answered yet */
    private inflight: number[];
    private closed = false;

    constructor(
        private readonly config: ClientConfig,
        readonly size: number,
        /** whether a failure means the connection is gone (it is then closed and replaced) */
        private readonly lost: (e: unknown) => boolean,
    ) {
        this.clients = new Array<Client | undefined>(size).fill(undefined);
        this.opening = new Array<Promise<Client> | undefined>(size).fill(undefined);
        this.inflight = new Array<number>(size).fill(0);
    }

    private open(i: number): Promise<Client> {
        const pending = this.opening[i];
        if (pending) return pending;
        const p = (async () => {
            const { Client: PgClient } = require('pg') as typeof import('pg');
            const c = new PgClient({ ...this.config, pipeline: true } as ClientConfig);
            // a lost connection fails what was written to it (its callers answer 503) and is replaced
            const drop = () => {
                if (this.clients[i] === c) this.clients[i] = undefined;
            };
            c.on('error', drop);
            c.on('end', drop);
            try {
                await c.connect();
            } catch (e) {
                c.end().catch(() => undefined);
                throw e;
            }
            if (this.closed) {
                await c.end().catch(() => undefined);
                throw new Error('Cannot use a pool after calling end on the pool');
            }
            this.clients[i] = c;
            return c;
        })();
        this.opening[i] = p;
        const done = () => {
            if (this.opening[i] === p) this.opening[i] = undefined;
        };
        p.then(done, done);
        return p;
    }

    /** Runs a statement on the connection with the fewest statements under way. */
    async query(q: QueryConfig): Promise<QueryResult> {
        if (this.closed) throw new Error('Cannot use a pool after calling end on the pool');
        let i = 0;
        for (let j = 1; j < this.size; j++) if (this.inflight[j] < this.inflight[i]) i = j;
        this.inflight[i]++;
        let c: Client | undefined;
        try {
            c = this.clients[i] ?? (await this.open(i));
            (c as unknown as Refable).ref();
            return await c.query(q);
        } catch (e) {
            // the server ended the session or the socket failed: the statements behind it go to a new one
            if (c && this.clients[i] === c && this.lost(e)) {
                this.clients[i] = undefined;
                c.end().catch(() => undefined);
            }
            throw e;
        } finally {
            // an idle connection does not keep the process alive (as the pool's idle ones do not for
            // long: they close after 10 s)
            if (--this.inflight[i] === 0 && c && this.clients[i] === c) (c as unknown as Refable).unref();
        }
    }

    async end() {
        this.closed = true;
        const all = [...this.clients, ...(await Promise.all(this.opening.map((p) => p?.catch(() => undefined))))];
        this.clients.fill(undefined);
        // an idle connection is unref'd: ref it while it ends, or the process could leave the event
        // loop (exit 0) halfway through a clean stop, before the stop's last steps ran
        await Promise.all(
            [...new Set(all)].map((c) => {
                if (!c) return undefined;
                (c as unknown as Refable).ref();
                return c.end().catch(() => undefined);
            }),
        );
    }
}
