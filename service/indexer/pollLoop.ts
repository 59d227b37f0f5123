/**
 * The indexers' loop: one pass, then a pause of `intervalMs` that `stop()` cuts short. A failed pass
 * is logged and the next one runs; `stop()` waits for the pass under way (its database transaction
 * commits or rolls back whole).
 */
export class PollLoop {
    private running = false;
    private loop?: Promise<void>;
    private wake?: () => void;

    constructor(
        private readonly pass: () => Promise<unknown>,
        private readonly onError: (e: Error) => void,
    ) {}

    start(intervalMs: number) {
        if (this.running) return;
        this.running = true;
        this.loop = (async () => {
            while (this.running) {
                try {
                    await this.pass();
                } catch (e) {
                    this.onError(e as Error);
                }
                if (!this.running) break;
                await new Promise<void>((r) => {
                    const t = setTimeout(r, intervalMs);
                    this.wake = () => {
                        clearTimeout(t);
                        r();
                    };
                });
            }
        })();
    }

    async stop() {
        this.running = false;
        this.wake?.();
        await this.loop;
    }
}
