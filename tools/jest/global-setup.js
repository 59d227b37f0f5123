// jest's global setup: brings the build up to date before any spec runs (tools/build.js compiles
// only what changed since the last build), so one spec run after a contract change tests the new code.
const { build } = require('../build');

module.exports = async () => {
    await build({ log: (line) => process.stderr.write(`${line}\n`) });
};
