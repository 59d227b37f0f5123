import fs from 'fs';
import path from 'path';
import type { HardhatRuntimeEnvironment } from 'hardhat/types';
import { Blockchain } from '@ton/sandbox';
import { pinEvmClock } from './evm/clock';

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

/**
 * The clock of the bench's sandboxes. A sandbox without `now` runs on the wall clock, and the
 * storage fee of each transaction then depends on the seconds that passed since the account's last
 * one: the fee notes of the report moved by a few nanoton from run to run.
 */
export const BENCH_NOW = 1_750_000_000;

/** A sandbox for the bench: its clock stands at BENCH_NOW. */
export async function benchBlockchain(): Promise<Blockchain> {
    const blockchain = await Blockchain.create();
    blockchain.now = BENCH_NOW;
    return blockchain;
}

/**
 * The bench's Hardhat network, for a bench spec's first beforeAll: started again from its genesis
 * (nothing of an earlier spec in the same process) on a clock that stands at BENCH_NOW and moves one
 * second a block (./evm/clock.ts). On the wall clock, the block hashes that EVM Events carry to TVM
 * moved the withdrawals' signatures, and with their zero bytes the gas, by a few dozen from run to run.
 */
export function benchEvm(hre: HardhatRuntimeEnvironment): Promise<void> {
    return pinEvmClock(hre, BENCH_NOW);
}

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
