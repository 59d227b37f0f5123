// Failure messages that show TON values as a reader knows them (setupFilesAfterEnv). jest prints
// an Address, a Cell or a Buffer inside toEqual / toStrictEqual / toMatchObject / toBe as its raw
// fields (hundreds of lines of byte arrays). When such an assertion fails and either side holds
// one, the message is made again from readable stand-ins: `Address(EQ...)`, `Cell(x{...})` with
// its tree, `Slice(...)`, `Buffer(<hex>)`. Whether it passes is decided on the real values, by
// jest's own matcher. (@ton/test-utils' toHaveTransaction, toEqualAddress and toEqualCell already
// print readably.)
const { Address, Builder, Cell, Slice } = require('@ton/core');

const MATCHERS = ['toEqual', 'toStrictEqual', 'toMatchObject', 'toBe'];

function isTon(value) {
    return (
        value instanceof Address ||
        value instanceof Cell ||
        value instanceof Slice ||
        value instanceof Builder ||
        Buffer.isBuffer(value)
    );
}

/** The same value with every TON object (at any depth) replaced by its readable stand-in. */
function readable(value, seen = new Map()) {
    if (value instanceof Address) return `Address(${value.toString()})`;
    if (value instanceof Cell) return `Cell(${value.toString()})`;
    if (value instanceof Slice) return `Slice(${value.toString()})`;
    if (value instanceof Builder) return `Builder(${value.toString()})`;
    if (Buffer.isBuffer(value)) return `Buffer(${value.toString('hex')})`;
    if (value === null || typeof value !== 'object') return value;
    if (seen.has(value)) return seen.get(value);
    if (Array.isArray(value)) {
        const out = [];
        seen.set(value, out);
        for (const item of value) out.push(readable(item, seen));
        return out;
    }
    if (value instanceof Map) {
        const out = new Map();
        seen.set(value, out);
        for (const [k, v] of value) out.set(readable(k, seen), readable(v, seen));
        return out;
    }
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) return value; // asymmetric matchers, class instances
    const out = {};
    seen.set(value, out);
    for (const key of Object.keys(value)) out[key] = readable(value[key], seen);
    return out;
}

function holdsTon(value, seen = new Set()) {
    if (isTon(value)) return true;
    if (value === null || typeof value !== 'object' || seen.has(value)) return false;
    seen.add(value);
    const items = value instanceof Map ? [...value.entries()].flat() : Object.values(value);
    return items.some((item) => holdsTon(item, seen));
}

const builtins = globalThis[Symbol.for('$$jest-matchers-object')]?.matchers;
if (builtins) {
    const wrapped = {};
    for (const name of MATCHERS) {
        const original = builtins[name];
        if (!original) continue;
        wrapped[name] = function (received, expected, ...rest) {
            const result = original.call(this, received, expected, ...rest);
            if (result.pass !== this.isNot) return result; // the assertion holds
            if (!holdsTon(received) && !holdsTon(expected)) return result;
            const shown = original.call(this, readable(received), readable(expected), ...rest);
            return shown.pass === result.pass ? { ...result, message: shown.message } : result;
        };
    }
    expect.extend(wrapped);
}
