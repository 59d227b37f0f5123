/**
 * The API's request logs (fastify's pino logger), kept off the hot path: at the `info` level (the
 * service's default) no line per request, a `slow request` line for each request answered after
 * `slowRequestMs` (any route, any status), and the errors the error handler logs (5xx, with the
 * request id); at `debug` or `trace` fastify's own `incoming request` / `request completed` pair
 * for every request as well. A request's child logger (its `reqId` binding) is made only when
 * something logs through it. With fastify's pair and a pino child per request, the HTTP thread
 * allocated 37.6 KB per /transfers/status request; without them 28 KB, as with the logs off
 * (bench/api-http.ts).
 */
import { FastifyBaseLogger, FastifyReply, FastifyRequest, LogController } from 'fastify';
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
 * lines) unless asked for (`perRequest`); the others stay (errors: a response failing, a serializer
 * failing, writeHead failing). `requestCompleted`, which fastify calls for every finished response
 * anyway, also writes the `slow request` line: no hook of its own per request.
 */
class RequestLines extends LogController {
    constructor(
        private readonly perRequest: boolean,
        private readonly slowMs: number,
    ) {
        super();
    }
    incomingRequest(request: unknown, reply: unknown) {
        if (this.perRequest) (super.incomingRequest as (...a: unknown[]) => void)(request, reply);
    }
    requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
        const ms = reply.elapsedTime;
        if (ms >= this.slowMs)
            request.log.warn(
                {
                    method: request.method,
                    url: request.url,
                    route: request.routeOptions.url,
                    statusCode: reply.statusCode,
                    responseTime: ms,
                },
                'slow request',
            );
        // a response that failed (its stream errored) is logged at any level, as `request errored`
        if (this.perRequest || error) (super.requestCompleted as (...a: unknown[]) => void)(error, request, reply);
    }
}

/**
 * fastify options of the request logs at this level (`loggerLevel`): per-request lines at debug and
 * trace, a `slow request` line past `slowMs`
 */
export function requestLogOptions(level: string | undefined, slowMs = SLOW_REQUEST_MS) {
    if (level === undefined) return {}; // logs off: fastify's null logger, no child at all
    return {
        logController: new RequestLines(level === 'debug' || level === 'trace', slowMs),
        childLoggerFactory: ((logger: FastifyBaseLogger, bindings: Bindings, options: unknown) =>
            new LazyChild(
                logger,
                bindings,
                options as Bindings,
            ) as unknown as FastifyBaseLogger) as FastifyChildLoggerFactory,
    };
}
