// setupFiles: the processes the specs start with ts-node (operator services, the API service, the
// local network, blueprint scripts) inherit TS_NODE_PROJECT=tools/jest/ts-node.tsconfig.json, which
// has ts-node transpile with swc (see that file). A TS_NODE_PROJECT already set is kept.
'use strict';
const path = require('path');

process.env.TS_NODE_PROJECT ??= path.join(__dirname, 'ts-node.tsconfig.json');
