/**
 * `until` for the specs that drive service processes: as tests/until.util.ts (`f` until it returns
 * something truthy; errors count as "not yet"; after `ms` a failure naming what it waited for and
 * the last error), but `f` runs again as soon as one of the spec's processes writes a log line, not
 * only every `everyMs`: the processes log what they did (a vote sent, an Event decided, a signature
 * recorded, a transfer delivered, a key block sent), and a wait for its effect then ends at that
 * line instead of up to half a second later. Lines are announced with `logged()` (ServiceProcess
 * does it for each line; a spec forwards the lines of processes it did not start).
 */

const wakers = new Set<() => void>();
let lines = 0;

/** A process wrote a log line: the waits check their conditions again. */
export function logged(): void {
    lines++;
    for (const wake of [...wakers]) wake();
}

/** the lines of one burst (several processes answering the same event) wake a wait once */
const BURST_MS = 10;

/** Resolves at the next logged line (after a short burst window) or after `ms`, whichever is first. */
function nextLineOr(ms: number): Promise<void> {
    return new Promise((resolve) => {
        let burst: NodeJS.Timeout | undefined;
        const done = () => {
            clearTimeout(timer);
            clearTimeout(burst);
            wakers.delete(wake);
            resolve();
        };
        const wake = () => (burst ??= setTimeout(done, BURST_MS));
        const timer = setTimeout(done, ms);
        wakers.add(wake);
    });
}

export async function until<T>(
    what: string,
    f: () => Promise<T | undefined | null | false>,
    ms = 120_000,
    everyMs = 500,
): Promise<T> {
    const end = Date.now() + ms;
    let last: unknown;
    while (Date.now() < end) {
        const seen = lines;
        try {
            const v = await f();
            if (v) return v;
        } catch (e) {
            last = e;
        }
        // a line written while `f` ran: look again after its burst
        const wait = lines !== seen ? BURST_MS : everyMs;
        await nextLineOr(Math.max(0, Math.min(wait, end - Date.now())));
    }
    throw new Error(`timed out waiting for ${what}${last ? `: ${(last as Error).message}` : ''}`);
}
