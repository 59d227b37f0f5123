/**
 * The sizes and seeds of the randomized specs, from the environment: a bad value stops the run with
 * its name instead of silently running nothing (Number('abc') is NaN, and `run < NaN` never runs).
 */

/** A non-negative integer setting, `dflt` when unset or empty. */
export function envInt(name: string, dflt: number): number {
    const v = process.env[name];
    if (v === undefined || v === '') return dflt;
    const n = Number(v);
    if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got ${v}`);
    return n;
}

/** A seed setting: `dflt` when unset, a fresh one (printed by the spec's title) for `random`. */
export function envSeed(name: string, dflt: string): string {
    const v = process.env[name];
    if (!v) return dflt;
    if (v === 'random') return `r${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
    return v;
}
