import fs from 'fs';
import path from 'path';
import { Cell } from '@ton/core';

const BUILD_DIR = path.resolve(__dirname, '..', 'build');
const codes = new Map<string, Cell>();

/**
 * A contract's code as the build made it: `build/<name>.compiled.json`, written by `npm run build`
 * (tools/build.js), which jest runs before any test, so it is always the code of today's sources.
 * The Tact wrappers (`build/<Name>/tact_<Name>.ts`) come from the same build. Tests never compile.
 */
export function compiledCode(name: string): Cell {
    let code = codes.get(name);
    if (!code) {
        const file = path.join(BUILD_DIR, `${name}.compiled.json`);
        if (!fs.existsSync(file)) {
            throw new Error(`build/${name}.compiled.json is missing: run \`npm run build\``);
        }
        code = Cell.fromHex(JSON.parse(fs.readFileSync(file, 'utf8')).hex);
        codes.set(name, code);
    }
    return code;
}
