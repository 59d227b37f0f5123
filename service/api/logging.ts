/**
 * The API's request logs (fastify's pino logger), kept off the hot path: at the `info` level (the
 * service's default) no line per request, a `slow request` line for each request answered after
 * `slowRequestMs` (any route, any status), and the errors the error handler logs (5xx, with the
 * request id); at `debug` or `trace` fastify's own `incoming request` / `request completed` pair
 * for every request as well. A request's child logger (its `reqId` binding) is made only when
 * something logs through it: pino's `child` costs the HTTP thread an object graph per request, and
 * at 2,000 requests a second that garbage alone made a young-generation collection every few
 * seconds.
 */
import { FastifyBaseLogger, FastifyInstance, LogController } from 'fastify';
import type { FastifyChildLoggerFactory } from 'fastify/types/logger';

/** SLOW_REQUEST_MS's default: a request answered after this many ms is logged (`slow request`) */
export const SLOW_REQUEST_MS = 1000;

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'];

/** The level of a fastify `logger` option (pino's default: info); undefined when logs are off. */
export function loggerLevel(logger: boolean | Record<string, unknown> | undefined): string | undefined {
    if (!logger) return undefined;
    const level = logger === true ? 'info' : String(logger.level ?? 'info');
    if (level === 'silent') return undefined;
    if (!LEVELS.includes(level)) throw new Error(`log level "${level}": one of silent, ${LEVELS.join(', ')}`);
    return level;
}

type Bindings = Record<string, unknown>;
type LogFn = (...args: unknown[]) => void;

/** A request's logger: the pino child with its bindings, made on its first use. */
class LazyChild {
    private made: FastifyBaseLogger | undefined;
    constructor(
        private readonly parent: FastifyBaseLogger,
        private readonly bindings: Bindings,
        private readonly options: Bindings,
    ) {}
    private get real(): FastifyBaseLogger {
        return (this.made ??= this.parent.child(this.bindings, this.options));
    }
    get level(): string {
        return this.real.level;
    }
    set level(l: string) {
        this.real.level = l;
    }
    isLevelEnabled(l: string): boolean {
        return (this.real as unknown as { isLevelEnabled(l: string): boolean }).isLevelEnabled(l);
    }
    fatal(...a: unknown[]) {
        (this.real.fatal as LogFn)(...a);
    }
    error(...a: unknown[]) {
        (this.real.error as LogFn)(...a);
    }
    warn(...a: unknown[]) {
        (this.real.warn as LogFn)(...a);
    }
    info(...a: unknown[]) {
        (this.real.info as LogFn)(...a);
    }
    debug(...a: unknown[]) {
        (this.real.debug as LogFn)(...a);
    }
    trace(...a: unknown[]) {
        (this.real.trace as LogFn)(...a);
    }
    silent() {}
    child(bindings: Bindings, options?: Bindings): FastifyBaseLogger {
        return this.real.child(bindings, options);
    }
}

/**
 * fastify's log lines without its `incoming request` / `request completed` pair (the per-request
 * lines); the others stay (errors: a response failing, a serializer failing, writeHead failing).
 */
class NoRequestLines extends LogController {
    incomingRequest() {}
    requestCompleted(error: Error | null | undefined, request: unknown, reply: unknown) {
        // a response that failed (its stream errored) is still logged, as `request errored`
        if (error) (super.requestCompleted as (...a: unknown[]) => void)(error, request, reply);
    }
}

/** fastify options of the request logs at this level (`loggerLevel`) */
export function requestLogOptions(level: string | undefined) {
    if (level === undefined) return {}; // logs off: fastify's null logger, no child at all
    return {
        // fastify's line pair per request: only when asked for (debug, trace)
        ...(level === 'debug' || level === 'trace' ? {} : { logController: new NoRequestLines() }),
        childLoggerFactory: ((logger: FastifyBaseLogger, bindings: Bindings, options: unknown) =>
            new LazyChild(
                logger,
                bindings,
                options as Bindings,
            ) as unknown as FastifyBaseLogger) as FastifyChildLoggerFactory,
    };
}

/** The `slow request` line: a request answered after `slowMs` (its route, status and time). */
export function logSlowRequests(app: FastifyInstance, slowMs: number) {
    app.addHook('onResponse', (req, reply, done) => {
        const ms = reply.elapsedTime;
        if (ms >= slowMs)
            req.log.warn(
                {
                    method: req.method,
                    url: req.url,
                    route: req.routeOptions.url,
                    statusCode: reply.statusCode,
                    responseTime: ms,
                },
                'slow request',
            );
        done();
    });
}
