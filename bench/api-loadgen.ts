/**
 * The load generator of `npm run bench:api`, run as its own process: keep-alive HTTP/1.1 over plain
 * sockets, requests serialized before the clock starts, every answer checked (status 200 and an
 * expected piece of body), latencies kept whole and sorted (exact percentiles, microseconds).
 *
 * Two modes:
 * - `rate` (open loop): requests are due at a fixed rate whatever the server does; a request's
 *   latency runs from when it was due (so a stalled server is charged for the requests it delayed),
 *   over as many connections as the due requests need (up to `connections`);
 * - `max` (closed loop): `connections` connections each send the next request as soon as the
 *   previous answer is in; the throughput is the server's at saturation.
 *
 * Input: a JSON file named by argv[2]: { host, port, path, bodies: string[], mode, rate?,
 * connections, seconds, warmupSeconds, expect }. Output: one JSON line on stdout.
 */
import fs from 'fs';
import net from 'net';

interface Job {
    host: string;
    port: number;
    path: string;
    bodies: string[];
    mode: 'rate' | 'max';
    rate?: number;
    connections: number;
    seconds: number;
    warmupSeconds: number;
    expect: string;
}

const job = JSON.parse(fs.readFileSync(process.argv[2], 'utf8')) as Job;
const requests = job.bodies.map((b) =>
    Buffer.from(
        `POST ${job.path} HTTP/1.1\r\nhost: ${job.host}:${job.port}\r\ncontent-type: application/json\r\n` +
            `content-length: ${Buffer.byteLength(b)}\r\nconnection: keep-alive\r\n\r\n${b}`,
    ),
);
const now = () => Number(process.hrtime.bigint()) / 1e3; // µs

let next = 0;
const latencies: number[] = [];
let errors = 0;
/** every good answer, warm-up included (the CPU figures divide by it) */
let answeredAll = 0;
let firstError = '';
let measuring = false;
let done = false;

class Conn {
    private socket: net.Socket;
    private buf: Buffer = Buffer.alloc(0);
    private due = 0;
    busy = false;

    constructor(
        private readonly onIdle: (c: Conn) => void,
        onReady: (c: Conn) => void,
    ) {
        this.socket = net.connect(job.port, job.host, () => onReady(this));
        this.socket.setNoDelay(true);
        this.socket.on('data', (d: Buffer) => this.data(d));
        this.socket.on('error', (e) => fail(`socket: ${e.message}`));
    }

    send(due: number) {
        this.busy = true;
        this.due = due;
        this.socket.write(requests[next++ % requests.length]);
    }

    private data(d: Buffer) {
        this.buf = this.buf.length ? Buffer.concat([this.buf, d]) : d;
        const head = this.buf.indexOf('\r\n\r\n');
        if (head < 0) return;
        const header = this.buf.subarray(0, head).toString('latin1');
        const m = /\r\ncontent-length: *(\d+)/i.exec(header);
        if (!m) return fail(`an answer without content-length: ${header.slice(0, 200)}`);
        const end = head + 4 + Number(m[1]);
        if (this.buf.length < end) return;
        const status = header.slice(9, 12);
        const body = this.buf.subarray(head + 4, end).toString('utf8');
        this.buf = this.buf.subarray(end);
        if (status === '200') answeredAll++;
        if (measuring) {
            if (status !== '200' || !body.includes(job.expect)) {
                errors++;
                firstError ||= `${status} ${body.slice(0, 300)}`;
            } else latencies.push(now() - this.due);
        }
        this.busy = false;
        this.onIdle(this);
    }

    close() {
        this.socket.destroy();
    }
}

function fail(msg: string) {
    if (done) return;
    process.stderr.write(`loadgen: ${msg}\n`);
    process.exit(2);
}

function percentile(sorted: number[], p: number) {
    if (!sorted.length) return NaN;
    return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function main() {
    const conns: Conn[] = [];
    const idle: Conn[] = [];
    const t0 = now();
    const warmEnd = t0 + job.warmupSeconds * 1e6;
    const end = warmEnd + job.seconds * 1e6;
    let startMeasure = 0;
    const cpu0 = process.cpuUsage();
    await new Promise<void>((finish) => {
        const clock = setInterval(() => {
            const t = now();
            if (!measuring && t >= warmEnd) {
                measuring = true;
                startMeasure = t;
            }
            if (t >= end) {
                done = true;
                clearInterval(clock);
                finish();
            }
        }, 5);
        if (job.mode === 'max') {
            const again = (c: Conn) => {
                if (!done) c.send(now());
            };
            for (let i = 0; i < job.connections; i++) conns.push(new Conn(again, again));
            return;
        }
        // open loop: request k is due at t0 + k / rate; a timer (1 ms) and every answer dispatch them
        const interval = 1e6 / job.rate!;
        let issued = 0;
        let opening = 0;
        const backlog: number[] = [];
        const dispatch = () => {
            if (done) return;
            const t = now();
            while (t0 + issued * interval <= t) backlog.push(t0 + issued++ * interval);
            while (backlog.length && idle.length) idle.pop()!.send(backlog.shift()!);
            // one more connection at a time, only while requests wait and every connection is busy
            if (backlog.length && opening === 0 && conns.length < job.connections) {
                opening++;
                conns.push(
                    new Conn(
                        (c) => {
                            idle.push(c);
                            dispatch();
                        },
                        (c) => {
                            opening--;
                            idle.push(c);
                            dispatch();
                        },
                    ),
                );
            }
        };
        const pump = () => {
            dispatch();
            if (!done) setTimeout(pump, 1);
        };
        pump();
    });
    const cpu = process.cpuUsage(cpu0);
    const seconds = (now() - startMeasure) / 1e6;
    for (const c of conns) c.close();
    latencies.sort((a, b) => a - b);
    const ms = (us: number) => Math.round(us) / 1000;
    process.stdout.write(
        JSON.stringify({
            mode: job.mode,
            rate: job.rate ?? null,
            connectionsUsed: conns.length,
            seconds,
            requests: latencies.length,
            answeredAll,
            errors,
            firstError,
            rps: latencies.length / seconds,
            p50: ms(percentile(latencies, 50)),
            p90: ms(percentile(latencies, 90)),
            p99: ms(percentile(latencies, 99)),
            max: ms(latencies[latencies.length - 1] ?? NaN),
            cpuMs: (cpu.user + cpu.system) / 1000,
        }) + '\n',
    );
    process.exit(0);
}

main().catch((e) => fail((e as Error).stack ?? String(e)));
