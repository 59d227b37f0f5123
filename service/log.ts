/**
 * Structured logs: one JSON object a line on stdout ({ time, level, msg, ...fields }), what the
 * indexers and the API write. `LOG_LEVEL=silent` turns them off.
 */
export type Logger = (msg: string, fields?: Record<string, unknown>) => void;

export function jsonLogger(service: string, out: (line: string) => void = (l) => process.stdout.write(l)): Logger {
    if (process.env.LOG_LEVEL === 'silent') return () => undefined;
    return (msg, fields = {}) => {
        const level = /error|fail/.test(msg) ? 'error' : 'info';
        out(JSON.stringify({ time: new Date().toISOString(), level, service, msg, ...fields }) + '\n');
    };
}
