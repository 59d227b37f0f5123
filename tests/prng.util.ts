/**
 * A small seeded generator (mulberry32) for the randomized specs: the same seed draws the same
 * values on every run and machine, so a failing seed can be replayed.
 */
export function prng(seed: number) {
    let a = seed >>> 0;
    const next = () => {
        a = (a + 0x6d2b79f5) >>> 0;
        let t = a;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    return {
        /** uniform in [0, 1) */
        next,
        /** an integer in [0, n) */
        int: (n: number) => Math.floor(next() * n),
        pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)],
        /** true with probability p */
        chance: (p: number) => next() < p,
        /** each element kept with probability 1/2 */
        some: <T>(xs: readonly T[]) => xs.filter(() => next() < 0.5),
    };
}
export type Prng = ReturnType<typeof prng>;

/** A seed string (MERGE_SEED=m13, ...) as prng()'s 32-bit seed: its FNV-1a hash. */
export function seedOf(s: string): number {
    let h = 0x811c9dc5;
    for (const c of Buffer.from(s, 'utf8')) h = Math.imul(h ^ c, 0x01000193) >>> 0;
    return h;
}
