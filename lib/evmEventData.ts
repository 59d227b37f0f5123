import { Address, beginCell, Builder, Cell } from '@ton/core';
import { AbiCoder, EventFragment, Interface, JsonFragment, ParamType, Result, getBytes } from 'ethers';

/**
 * THE converter from EVM log data to the TVM cell `eventData` of EventVoteData (spec: "EventVoteData":
 * "log data converted to a TVM cell, using the event ABI read from the EventConfiguration and the
 * configuration flags"). Relays (credit mode), users (non-credit mode) and tests all use this one.
 *
 * Conversion, parameter by parameter, in ABI order (contracts/bridge/evm.tlb, "event_data"):
 *
 * | EVM type                                  | TVM                                                      |
 * |-------------------------------------------|----------------------------------------------------------|
 * | uintN (uint = uint256)                    | uintN                                                    |
 * | intN                                      | intN                                                     |
 * | address                                   | uint160                                                  |
 * | bool                                      | 1 bit                                                    |
 * | bytesN (fixed)                            | 8N bits                                                  |
 * | string                                    | ^Cell: snake string (127 bytes a cell, continued in ref 0)|
 * | bytes                                     | ^Cell: with BytesAsBoc the root of the BOC the bytes hold (empty bytes: an empty cell); else the bytes as a snake |
 * | int8 X_wid, uint256 X_addr (adjacent)     | with AddressPairs: MsgAddressInt (addr_std X_wid:X_addr); else int8, uint256 |
 * | arrays, tuples, anything else             | refused (throws)                                         |
 *
 * Packing: values go into the current cell in order; when one does not fit (bits over 1023, or
 * references over 3, the fourth being kept for the continuation), writing goes on in a new cell
 * referenced as the LAST reference of the current one.
 */

/** Conversion flags of an EvmTvmEventConfiguration (the `flags` uint8). */
export enum EvmFlags {
    /** int8 X_wid + uint256 X_addr -> MsgAddressInt */
    AddressPairs = 1,
    /** bytes hold a BOC: converted to its root cell (else a snake of the bytes) */
    BytesAsBoc = 2,
}

/** The flags the bridge's configurations use: both. */
export const DEFAULT_EVM_FLAGS = EvmFlags.AddressPairs | EvmFlags.BytesAsBoc;

/** `flags` readable: "address_pairs|bytes_as_boc", "none" for 0. */
export function describeFlags(flags: number): string {
    const out: string[] = [];
    if (flags & EvmFlags.AddressPairs) out.push('address_pairs');
    if (flags & EvmFlags.BytesAsBoc) out.push('bytes_as_boc');
    if (flags & ~3) out.push(`unknown(0x${(flags & ~3).toString(16)})`);
    return out.length ? out.join('|') : 'none';
}

// ------------------------------------------------------------------ eventABI (base64 JSON)

/** The configuration's `eventABI`: base64 of the JSON ABI of one EVM event. */
export function encodeEventAbi(fragment: EventFragment): string {
    return Buffer.from(fragment.format('json')).toString('base64');
}

/** The event fragment an `eventABI` holds (a JSON object, or a one-element array). */
export function decodeEventAbi(eventABI: string): EventFragment {
    const json = JSON.parse(Buffer.from(eventABI, 'base64').toString('utf8')) as JsonFragment | JsonFragment[];
    const iface = new Interface(Array.isArray(json) ? json : [json]);
    const events: EventFragment[] = [];
    iface.forEachEvent((e) => events.push(e));
    if (events.length !== 1) throw new Error(`eventABI must hold exactly one event, found ${events.length}`);
    return events[0];
}

/** The event named `name` of a contract ABI (e.g. the MultiVault's), as an `eventABI` string. */
export function eventAbiOf(abi: Interface, name: string): string {
    const fragment = abi.getEvent(name);
    if (!fragment) throw new Error(`ABI has no event ${name}`);
    return encodeEventAbi(fragment);
}

// ------------------------------------------------------------------ cells

/** A byte string as a snake cell (127 bytes a cell, the rest in reference 0). */
export function snakeBytes(bytes: Uint8Array): Cell {
    const chunk = 127;
    let tail: Cell | null = null;
    const parts: Uint8Array[] = [];
    for (let i = 0; i < bytes.length; i += chunk) parts.push(bytes.subarray(i, i + chunk));
    for (let i = parts.length - 1; i >= 0; i--) {
        const b: Builder = beginCell().storeBuffer(Buffer.from(parts[i]));
        if (tail) b.storeRef(tail);
        tail = b.endCell();
    }
    return tail ?? beginCell().endCell();
}

/** Reads a snake back into bytes. */
export function readSnakeBytes(cell: Cell): Buffer {
    const out: Buffer[] = [];
    let c: Cell | null = cell;
    while (c) {
        const s = c.beginParse();
        out.push(s.loadBuffer(s.remainingBits / 8));
        c = s.remainingRefs ? s.loadRef() : null;
    }
    return Buffer.concat(out);
}

/** `bytes` converted: the BOC's root (BytesAsBoc; empty bytes: an empty cell) or a snake. */
export function bytesCell(bytes: Uint8Array, flags: number): Cell {
    if (flags & EvmFlags.BytesAsBoc) {
        if (bytes.length === 0) return beginCell().endCell();
        const roots = Cell.fromBoc(Buffer.from(bytes));
        if (roots.length !== 1) throw new Error(`bytes: a BOC with one root expected, found ${roots.length}`);
        return roots[0];
    }
    return snakeBytes(bytes);
}

interface Item {
    bits: number;
    refs: number;
    write(b: Builder): void;
}

/** Packs items by the continuation rule (at most 3 value references a cell, the 4th is the next cell). */
export function packItems(items: Item[]): Cell {
    const cells: Item[][] = [[]];
    let bits = 0;
    let refs = 0;
    for (const it of items) {
        if (bits + it.bits > 1023 || refs + it.refs > 3) {
            cells.push([]);
            bits = 0;
            refs = 0;
        }
        cells[cells.length - 1].push(it);
        bits += it.bits;
        refs += it.refs;
    }
    let next: Cell | null = null;
    for (let i = cells.length - 1; i >= 0; i--) {
        const b = beginCell();
        for (const it of cells[i]) it.write(b);
        if (next) b.storeRef(next);
        next = b.endCell();
    }
    return next!;
}

function uintBits(type: string): number {
    const m = /^u?int(\d*)$/.exec(type);
    if (!m) throw new Error(`not an integer type: ${type}`);
    return m[1] ? Number(m[1]) : 256;
}

/** The items of decoded ABI values, by the table above. */
export function abiItems(params: ReadonlyArray<ParamType>, values: Result | unknown[], flags: number): Item[] {
    const items: Item[] = [];
    for (let i = 0; i < params.length; i++) {
        const p = params[i];
        const v = values[i];
        const next = params[i + 1];
        if (
            flags & EvmFlags.AddressPairs &&
            p.type === 'int8' &&
            p.name.endsWith('_wid') &&
            next?.type === 'uint256' &&
            next.name === p.name.slice(0, -4) + '_addr'
        ) {
            const wid = Number(v);
            const hash = Buffer.from((values[i + 1] as bigint).toString(16).padStart(64, '0'), 'hex');
            const address = new Address(wid, hash);
            items.push({ bits: 267, refs: 0, write: (b) => b.storeAddress(address) });
            i++;
            continue;
        }
        const t = p.type;
        if (/^uint\d*$/.test(t)) {
            const n = uintBits(t);
            items.push({ bits: n, refs: 0, write: (b) => b.storeUint(v as bigint, n) });
        } else if (/^int\d*$/.test(t)) {
            const n = uintBits(t);
            items.push({ bits: n, refs: 0, write: (b) => b.storeInt(v as bigint, n) });
        } else if (t === 'address') {
            items.push({ bits: 160, refs: 0, write: (b) => b.storeUint(BigInt(v as string), 160) });
        } else if (t === 'bool') {
            items.push({ bits: 1, refs: 0, write: (b) => b.storeBit(v as boolean) });
        } else if (/^bytes\d+$/.test(t)) {
            const buf = Buffer.from(getBytes(v as string));
            items.push({ bits: buf.length * 8, refs: 0, write: (b) => b.storeBuffer(buf) });
        } else if (t === 'string') {
            const cell = snakeBytes(Buffer.from(v as string, 'utf8'));
            items.push({ bits: 0, refs: 1, write: (b) => b.storeRef(cell) });
        } else if (t === 'bytes') {
            const cell = bytesCell(getBytes(v as string), flags);
            items.push({ bits: 0, refs: 1, write: (b) => b.storeRef(cell) });
        } else {
            throw new Error(`eventData: ABI type ${t} (${p.name}) is not supported`);
        }
    }
    return items;
}

/** eventData of a log: its ABI-encoded `data` decoded by `event` and converted by `flags`. */
export function convertEventData(event: EventFragment | string, data: string, flags: number): Cell {
    const fragment = typeof event === 'string' ? decodeEventAbi(event) : event;
    if (fragment.inputs.some((p) => p.indexed)) throw new Error('eventData: indexed parameters are not supported');
    const values = AbiCoder.defaultAbiCoder().decode(fragment.inputs, data);
    return packItems(abiItems(fragment.inputs, values, flags));
}
