/**
 * A durable journal: one JSON record a line, appended and fsync'ed before `append` returns, read
 * back in order on start. A record cut short by a crash (the last line, unterminated or not JSON)
 * is dropped and the file truncated to the last whole record, so what a service wrote before
 * acting is what it finds after a kill -9. Records are small and the file is compacted on open
 * (`compact`: the records the service still needs), so it stays short.
 */
import fs from 'fs';
import path from 'path';

export class Journal<R> {
    private fd: number;

    private constructor(
        readonly file: string,
        readonly records: R[],
    ) {
        this.fd = fs.openSync(file, 'a');
    }

    /** Opens (creating) the journal; `compact`, when given, rewrites it to the records it returns. */
    static open<R>(file: string, compact?: (records: R[]) => R[]): Journal<R> {
        fs.mkdirSync(path.dirname(file), { recursive: true });
        let records: R[] = [];
        if (fs.existsSync(file)) {
            const text = fs.readFileSync(file, 'utf8');
            const lines = text.split('\n');
            // a complete record ends with '\n': the last element is '' or a torn record
            for (const line of lines.slice(0, -1)) {
                if (!line) continue;
                try {
                    records.push(JSON.parse(line) as R);
                } catch {
                    throw new Error(
                        `${file}: a damaged record inside the journal (not the last line): ${line.slice(0, 80)}`,
                    );
                }
            }
        }
        if (compact) {
            records = compact(records);
            const tmp = `${file}.tmp`;
            fs.writeFileSync(tmp, records.map((r) => JSON.stringify(r) + '\n').join(''));
            const fd = fs.openSync(tmp, 'r');
            fs.fsyncSync(fd);
            fs.closeSync(fd);
            fs.renameSync(tmp, file);
        } else if (fs.existsSync(file)) {
            // drop a torn last record: keep the bytes up to the last newline
            const bytes = fs.readFileSync(file);
            const keep = bytes.lastIndexOf(0x0a) + 1;
            if (keep !== bytes.length) fs.truncateSync(file, keep);
        }
        return new Journal<R>(file, records);
    }

    append(r: R): void {
        fs.writeSync(this.fd, JSON.stringify(r) + '\n');
        fs.fsyncSync(this.fd);
        this.records.push(r);
    }

    close(): void {
        fs.closeSync(this.fd);
    }
}

/**
 * A `compact` for a journal of scan cursors and other records: each proxy's last `cursor` record is
 * kept (an earlier one says nothing a later one does not), every other record as it is.
 */
export function lastCursorsOnly<R extends { k: string }>(records: R[]): R[] {
    const isCursor = (r: R): r is R & { k: 'cursor'; proxy: string } => r.k === 'cursor';
    const last = new Map<string, number>();
    records.forEach((r, i) => isCursor(r) && last.set(r.proxy, i));
    return records.filter((r, i) => !isCursor(r) || last.get(r.proxy) === i);
}
