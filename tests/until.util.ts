/**
 * Polls `f` every half second until it returns something truthy, and returns that. Errors thrown by
 * `f` count as "not yet"; after `ms` it fails naming what it waited for and the last error. For the
 * specs that drive real processes and timers (the local network, the operators, the API's indexers).
 */
export async function until<T>(what: string, f: () => Promise<T | undefined | null | false>, ms = 120_000): Promise<T> {
    const end = Date.now() + ms;
    let last: unknown;
    while (Date.now() < end) {
        try {
            const v = await f();
            if (v) return v;
        } catch (e) {
            last = e;
        }
        await new Promise((r) => setTimeout(r, 500));
    }
    throw new Error(`timed out waiting for ${what}${last ? `: ${(last as Error).message}` : ''}`);
}
