/**
 * testSequencer: the longest spec files first, so that the two workers finish together instead of
 * one running a long spec alone at the end. Jest orders by the durations it recorded in its cache on
 * this machine; a fresh clone has no cache and jest falls back to file size, which says little here
 * (tests/model.spec.ts is a short file and one of the longest runs). Where the cache has no duration,
 * this takes the one in durations.json (seconds per spec, from a full run on 2 cores); a spec in
 * neither runs first, as jest runs any spec it has no time for.
 */
'use strict';
const path = require('path');
const Sequencer = require('@jest/test-sequencer').default;
const durations = require('./durations.json');

class LongestFirst extends Sequencer {
    time(test) {
        const cached = super.time(test);
        if (cached !== undefined) return cached;
        const seconds = durations[path.relative(test.context.config.rootDir, test.path).split(path.sep).join('/')];
        return seconds === undefined ? undefined : seconds * 1000;
    }
}

module.exports = LongestFirst;
