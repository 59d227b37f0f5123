/**
 * The trusted key block a LiteClient is deployed from: where a deployer gets it (a lite server, or a
 * file a lite server's `liteServer.getBlock` answer was saved to), what it says (network, seqno,
 * validator set, hashes), and the second source it is compared with (a toncenter v2 endpoint's
 * `lookupBlock`: the same seqno must have the same root hash there).
 *
 * The deployment file keeps the block as served (BOC, base64): LiteClient.createFromKeyBlock reads
 * ConfigParam 34 from it, so nothing is pruned or rebuilt on the way.
 */
import fs from 'fs';
import { createHash } from 'crypto';
import { Cell } from '@ton/core';
import { LiteClient as LiteServerClient, LiteRoundRobinEngine, LiteSingleEngine } from 'ton-lite-client';
import { Functions } from 'ton-lite-client/dist/schema';
import { liteClientConfigFromKeyBlock } from '../../wrappers/LiteClient';

export const MASTERCHAIN_SHARD = '-9223372036854775808';

export interface KeyBlockSummary {
    globalId: number;
    seqno: number;
    /** hex, the block root cell's hash (what validators sign, with the file hash) */
    rootHash: string;
    /** hex, sha256 of the BOC bytes as served (only meaningful for the exact served bytes) */
    fileHash: string;
    epochSince: number;
    epochUntil: number;
    /** main validators (ConfigParam 34's `main`), whose signatures count */
    validators: number;
    totalWeight: bigint;
}

/** Reads a key block BOC (raw block or Merkle proof); throws naming what is wrong. */
export function describeKeyBlock(boc: Buffer): { cell: Cell; summary: KeyBlockSummary } {
    let cell: Cell;
    try {
        cell = Cell.fromBoc(boc)[0];
    } catch (e) {
        throw new Error(`key block: not a BOC (${(e as Error).message})`, { cause: e });
    }
    if (!cell) throw new Error('key block: an empty BOC');
    const root = cell.isExotic && cell.refs.length === 1 ? cell.refs[0] : cell;
    const config = liteClientConfigFromKeyBlock(cell);
    return {
        cell,
        summary: {
            globalId: config.globalId,
            seqno: config.seqNo,
            rootHash: root.hash(0).toString('hex'),
            fileHash: createHash('sha256').update(boc).digest('hex'),
            epochSince: config.epochSince,
            epochUntil: config.epochUntil,
            validators: config.validators.length,
            totalWeight: config.validators.reduce((s, v) => s + v.weight, 0n),
        },
    };
}

/** The summary as the deployer reads it before trusting the block. */
export function formatKeyBlock(s: KeyBlockSummary): string[] {
    const date = (t: number) => new Date(t * 1000).toISOString();
    return [
        `  network:    global id ${s.globalId}`,
        `  key block:  masterchain seqno ${s.seqno}`,
        `  root hash:  ${s.rootHash}`,
        `  file hash:  ${s.fileHash}`,
        `  validators: ${s.validators} (total weight ${s.totalWeight})`,
        `  epoch:      ${date(s.epochSince)} .. ${date(s.epochUntil)}`,
    ];
}

/** block_info fields a lite server's header proof gives: key_block flag, seq_no, prev_key_block_seqno. */
export function blockInfoOf(headerProof: Buffer): { keyBlock: boolean; seqno: number; prevKeyBlockSeqno: number } {
    const c = Cell.fromBoc(headerProof)[0];
    const root = c.isExotic && c.refs.length === 1 ? c.refs[0] : c;
    const info = root.refs[0].beginParse(true);
    if (info.loadUint(32) !== 0x9bc7a987) throw new Error('header proof: BlockInfo is pruned or not a BlockInfo');
    info.skip(32 + 6); // version, not_master .. want_merge
    const keyBlock = info.loadBit();
    info.skip(1 + 8); // vert_seqno_incr, flags
    const seqno = info.loadUint(32);
    info.skip(32); // vert_seq_no
    info.skip(2 + 6 + 32 + 64); // shard_ident$00 shard_pfx_bits:(#<= 60) workchain_id:int32 shard_prefix:uint64
    info.skip(32 + 64 + 64 + 32 + 32 + 32); // gen_utime start_lt end_lt gen_validator_list_hash_short gen_catchain_seqno min_ref_mc_seqno
    return { keyBlock, seqno, prevKeyBlockSeqno: info.loadUint(32) };
}

interface GlobalConfig {
    liteservers: { ip: number; port: number; id: { key: string } }[];
}

function ipOf(n: number): string {
    const u = n >>> 0;
    return [u >>> 24, (u >>> 16) & 255, (u >>> 8) & 255, u & 255].join('.');
}

/** A global config (`https://ton.org/testnet-global.config.json` or a file) as lite server engines. */
export async function liteServersOf(source: string): Promise<LiteSingleEngine[]> {
    const text = /^https?:\/\//.test(source) ? await (await fetch(source)).text() : fs.readFileSync(source, 'utf8');
    const config = JSON.parse(text) as GlobalConfig;
    if (!Array.isArray(config.liteservers) || config.liteservers.length === 0)
        throw new Error(`${source}: no liteservers in this global config`);
    return config.liteservers.map(
        (ls) =>
            new LiteSingleEngine({
                host: `tcp://${ipOf(ls.ip)}:${ls.port}`,
                publicKey: Buffer.from(ls.id.key, 'base64'),
            }),
    );
}

/**
 * The newest key block of the network a global config names, as its lite servers serve it: the last
 * masterchain block's header gives prev_key_block_seqno (or the block is a key block itself).
 */
export async function fetchLastKeyBlock(globalConfig: string): Promise<Buffer> {
    const engine = new LiteRoundRobinEngine(await liteServersOf(globalConfig));
    try {
        const client = new LiteServerClient({ engine });
        const last = (await client.getMasterchainInfo()).last;
        const header = await client.getBlockHeader({ ...last, shard: String(last.shard) });
        const info = blockInfoOf(header.headerProof);
        const seqno = info.keyBlock ? info.seqno : info.prevKeyBlockSeqno;
        const id = (await client.lookupBlockByID({ workchain: -1, shard: MASTERCHAIN_SHARD, seqno })).id;
        const block = await engine.query(Functions.liteServer_getBlock, { kind: 'liteServer.getBlock', id });
        const rootHash = Cell.fromBoc(block.data)[0].hash(0);
        if (!rootHash.equals(id.rootHash))
            throw new Error(
                `lite server: block ${seqno} has root hash ${rootHash.toString('hex')}, its id says ${id.rootHash.toString('hex')}`,
            );
        return block.data;
    } finally {
        engine.close();
    }
}

/** A key block from a file (raw BOC bytes, or base64 / hex text of them) or from a global config's lite servers. */
export async function loadKeyBlock(source: string): Promise<Buffer> {
    if (/^https?:\/\//.test(source) || /\.config\.json$/.test(source)) return fetchLastKeyBlock(source);
    if (!fs.existsSync(source)) throw new Error(`${source}: no such file (a key block BOC, or a global config)`);
    const bytes = fs.readFileSync(source);
    const text = bytes.toString('utf8').trim();
    if (/^[0-9a-fA-F]+$/.test(text) && text.length % 2 === 0) return Buffer.from(text, 'hex');
    if (/^[A-Za-z0-9+/=\s]+$/.test(text) && !bytes.subarray(0, 4).equals(Buffer.from('b5ee9c72', 'hex')))
        return Buffer.from(text, 'base64');
    return bytes;
}

/**
 * The second source: the masterchain block `seqno` as a toncenter v2 endpoint knows it
 * (`lookupBlock`). Returns its root and file hashes (hex).
 */
export async function lookupMasterchainBlock(
    endpoint: string,
    seqno: number,
    apiKey?: string,
): Promise<{ rootHash: string; fileHash: string }> {
    const r = await fetch(endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(apiKey ? { 'x-api-key': apiKey } : {}) },
        body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'lookupBlock',
            params: { workchain: -1, shard: MASTERCHAIN_SHARD, seqno },
        }),
    });
    const body = (await r.json()) as { ok: boolean; result?: { root_hash: string; file_hash: string }; error?: string };
    if (!body.ok || !body.result) throw new Error(`${endpoint} lookupBlock ${seqno}: ${body.error ?? r.status}`);
    const hex = (b64: string) => Buffer.from(b64, 'base64').toString('hex');
    return { rootHash: hex(body.result.root_hash), fileHash: hex(body.result.file_hash) };
}
