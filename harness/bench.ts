import fs from 'fs';
import path from 'path';

/**
 * Gas measurements for the committed report. Each bench spec records its rows under a section; the
 * rows of a section are written to bench/results/<section>.json and merged by bench/report.js into
 * bench/gas-report.md (readable) and bench/gas-report.json (machine-readable).
 */
export interface GasRow {
    /** contract path, e.g. "LiteClient.check_block (67 signatures)" */
    path: string;
    /** gas used by the transaction (TVM) or by the EVM transaction */
    gas: number;
    /** optional notes: fees in nanoton, ratios, sizes */
    notes?: string;
}

export const BENCH_RESULTS_DIR = path.resolve(__dirname, '..', 'bench', 'results');

export class GasSection {
    private rows: GasRow[] = [];
    constructor(readonly section: string) {}

    record(row: GasRow): void {
        this.rows.push(row);
    }

    write(): void {
        fs.mkdirSync(BENCH_RESULTS_DIR, { recursive: true });
        const file = path.join(BENCH_RESULTS_DIR, `${this.section.replace(/[^A-Za-z0-9_-]+/g, '_')}.json`);
        fs.writeFileSync(file, JSON.stringify({ section: this.section, rows: this.rows }, null, 2) + '\n');
    }
}
