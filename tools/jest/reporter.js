// jest's default reporter, quieter: one line per spec file (PASS / FAIL and its time), the
// failures, and the summary (jest's 'summary' reporter, configured beside it). What a spec prints
// with console.log / console.info / console.debug is shown only when that spec fails;
// console.warn and console.error are always shown (a skipped spec says why). JEST_CONSOLE=all
// shows everything, as jest's own reporter would.
const { DefaultReporter } = require('@jest/reporters');

const ALWAYS = new Set(['warn', 'error']);

class QuietReporter extends DefaultReporter {
    printTestFileHeader(testPath, config, result) {
        const failed = result.numFailingTests > 0 || result.testExecError != null;
        if (result.console && !failed && process.env.JEST_CONSOLE !== 'all') {
            const kept = result.console.filter((entry) => ALWAYS.has(entry.type));
            result = { ...result, console: kept.length ? kept : undefined };
        }
        super.printTestFileHeader(testPath, config, result);
    }
}

module.exports = QuietReporter;
