#!/usr/bin/env node
// Merges bench/results/*.json (written by the tests/bench specs) into bench/gas-report.{md,json}.
const fs = require('fs');
const path = require('path');

/** Writes the report; returns how many sections and rows it holds. */
function writeReport() {
    const dir = path.join(__dirname, 'results');
    const sections = fs.existsSync(dir)
        ? fs
              .readdirSync(dir)
              .filter((f) => f.endsWith('.json'))
              .sort()
              .map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')))
        : [];
    if (sections.length === 0) throw new Error('no bench results: run `npm run bench`');
    fs.writeFileSync(path.join(__dirname, 'gas-report.json'), JSON.stringify({ sections }, null, 2) + '\n');
    let md = '# Gas report\n\nWritten by `npm run bench`; review its diff like code.\n';
    for (const s of sections) {
        md += `\n## ${s.section}\n\n| path | gas | notes |\n|---|---:|---|\n`;
        for (const r of s.rows) md += `| ${r.path} | ${r.gas.toLocaleString('en-US')} | ${r.notes ?? ''} |\n`;
    }
    fs.writeFileSync(path.join(__dirname, 'gas-report.md'), md);
    return { sections: sections.length, rows: sections.reduce((n, s) => n + s.rows.length, 0) };
}

module.exports = { writeReport };

if (require.main === module) {
    try {
        const { sections, rows } = writeReport();
        console.log(`bench: ${rows} rows in ${sections} sections -> bench/gas-report.md, bench/gas-report.json`);
    } catch (e) {
        console.error(e.message);
        process.exit(1);
    }
}
