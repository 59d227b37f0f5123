/**
 * What the operators read from a TVM network through its toncenter v2 endpoint: the LiteClient's
 * view, an Event's address and status, a network's key blocks (the local network's HTTP feed or a
 * real network's lite servers), and the proof of a transaction from a Proof API.
 */
import { Address, Cell, Transaction, TupleItem } from '@ton/core';
import { TonClient } from '@ton/ton';
import { v2Provider } from '../../lib/toncenterV2';
import { LiteClientReader, packSignatures, ProofSource, VerifierView, verifierView } from '../../lib/proofSource';
import { LiteClient } from '../../wrappers/LiteClient';
import { signVerify } from '@ton/crypto';

/** The LiteClient at `address` read through toncenter (struct getters through v2Provider). */
export function liteClientOn(
    client: TonClient,
    address: Address,
): LiteClientReader & { getCurrentSeqNo(): Promise<number> } {
    const lc = LiteClient.createFromAddress(address);
    const p = () => v2Provider(client, address);
    return {
        getCurrentSeqNo: () => lc.getCurrentSeqNo(p()),
        getCurrentEpochSince: () => lc.getCurrentEpochSince(p()),
        getCurrentValidatorsSet: () => lc.getCurrentValidatorsSet(p()),
        getVerifiedBlocks: () => lc.getVerifiedBlocks(p()),
    };
}

export async function runGetter(client: TonClient, address: Address, method: string, args: TupleItem[] = []) {
    return (await v2Provider(client, address).get(method, args)).stack;
}

/** The account's transactions after lt `after` (all of them, paging 100 at a time), oldest first. */
export async function transactionsAfter(client: TonClient, address: Address, after: bigint): Promise<Transaction[]> {
    const txs: Transaction[] = [];
    let page = await client.getTransactions(address, { limit: 100, to_lt: after.toString(), archival: true });
    txs.push(...page);
    while (page.length === 100) {
        const last = page[page.length - 1];
        page = (
            await client.getTransactions(address, {
                limit: 100,
                lt: last.lt.toString(),
                hash: last.hash().toString('base64'),
                to_lt: after.toString(),
                archival: true,
            })
        ).slice(1);
        txs.push(...page);
    }
    return txs.sort((a, b) => (a.lt < b.lt ? -1 : a.lt > b.lt ? 1 : 0));
}

/** Whether the account is deployed (active). */
export async function isActive(client: TonClient, address: Address): Promise<boolean> {
    return (await client.getContractState(address)).state === 'active';
}

/** The address of the Event of a message hash on a configuration (its deriveEventAddress). */
export async function eventAddressOf(
    client: TonClient,
    configuration: Address,
    messageHash: Buffer | bigint,
): Promise<Address> {
    const h = typeof messageHash === 'bigint' ? messageHash : BigInt('0x' + messageHash.toString('hex'));
    return (await runGetter(client, configuration, 'deriveEventAddress', [{ type: 'int', value: h }])).readAddress();
}

/** An Event's status (null: not deployed). */
export async function eventStatusAt(client: TonClient, address: Address): Promise<number | null> {
    if (!(await isActive(client, address))) return null;
    return (await runGetter(client, address, 'getStatus')).readNumber();
}

/** The Event of a message hash on a configuration, and its status (null: not deployed). */
export async function eventOf(
    client: TonClient,
    configuration: Address,
    messageHash: Buffer | bigint,
): Promise<{ address: Address; status: number | null }> {
    const address = await eventAddressOf(client, configuration, messageHash);
    return { address, status: await eventStatusAt(client, address) };
}

/** A wallet's seqno (any wallet with the `seqno` get method; 0 while it is not deployed). */
export async function walletSeqnoOf(client: TonClient, address: Address): Promise<number> {
    if (!(await isActive(client, address))) return 0;
    return (await runGetter(client, address, 'seqno')).readNumber();
}

// ---------------------------------------------------------------- key blocks

export interface FeedKeyBlock {
    seqno: number;
    /** utime_since of the set it installs */
    installsEpoch: number;
    /** what new_key_block takes: BlockInfo and ConfigParams 32 / 34 / 36 */
    proof: Cell;
    /** the signatures, packed for the set the LiteClient holds */
    signatures(view: VerifierView): Cell;
}

export interface KeyBlockFeed {
    /** key blocks after masterchain seqno `after`, oldest first */
    keyBlocksAfter(after: number): Promise<FeedKeyBlock[]>;
}

interface KeyBlockJson {
    seqno: number;
    utime_since: number;
    proof: string;
    signatures: string;
}

/** The local network's `GET <base>/v1/key_blocks?after_seqno=&limit=` (signatures already packed for the set before). */
export function httpKeyBlockFeed(base: string): KeyBlockFeed {
    const root = base.replace(/\/jsonRPC$/, '').replace(/\/+$/, '');
    return {
        async keyBlocksAfter(after) {
            const out: FeedKeyBlock[] = [];
            let cursor = after;
            for (;;) {
                const r = await fetch(`${root}/v1/key_blocks?after_seqno=${cursor}&limit=100`);
                const body = (await r.json()) as { ok: boolean; result?: KeyBlockJson[]; error?: string };
                if (!body.ok || !body.result)
                    throw new Error(`${root}/v1/key_blocks: ${body.error ?? `HTTP ${r.status}`}`);
                for (const k of body.result) {
                    const sigs = Cell.fromBase64(k.signatures);
                    out.push({
                        seqno: k.seqno,
                        installsEpoch: k.utime_since,
                        proof: Cell.fromBase64(k.proof),
                        signatures: () => sigs,
                    });
                }
                if (body.result.length < 100) return out;
                cursor = body.result[body.result.length - 1].seqno;
            }
        },
    };
}

/** A real network's key blocks from a proof source (lite servers), signatures packed for the LiteClient's set. */
export function sourceKeyBlockFeed(source: ProofSource): KeyBlockFeed {
    return {
        async keyBlocksAfter(after) {
            return (await source.keyBlocksAfter(after)).map((k) => ({
                seqno: k.block.seqno,
                installsEpoch: k.installsEpoch,
                proof: k.proof,
                signatures: (view: VerifierView) => packSignatures(k.block.fileHash, k.signatures, view),
            }));
        },
    };
}

export { verifierView };

// ---------------------------------------------------------------- proofs

/** `GET <proof api>/v1/proof_chain/<address>/<lt>`: the proof_data cell, or null while its block is not sealed. */
export async function fetchProofData(base: string, account: Address, lt: bigint): Promise<Cell | null> {
    const root = base.replace(/\/jsonRPC$/, '').replace(/\/+$/, '');
    const r = await fetch(`${root}/v1/proof_chain/${account.toRawString()}/${lt}`);
    const body = (await r.json()) as { ok: boolean; result?: { boc: string }; error?: string };
    if (r.status === 404) return null;
    if (!body.ok || !body.result)
        throw new Error(`proof of ${account.toRawString()} lt ${lt}: ${body.error ?? `HTTP ${r.status}`}`);
    return Cell.fromBase64(body.result.boc);
}

/**
 * Whether a LiteClient holding `view` accepts the signed block of a proof_data cell now: the block
 * is recorded as verified, or the signatures that verify against its set (by index, as
 * contracts/verifier.tlb packs them) weigh at least the cutoff (total * 2 / 3 + 1). Checked off
 * chain before paying for a deployment that would be refused.
 */
export function liteClientAccepts(proofData: Cell, view: VerifierView): boolean {
    const currentBlock = proofData.refs[2];
    const blockProof = currentBlock.refs[0];
    const s0 = blockProof.beginParse(true);
    s0.skip(8);
    const rootHash = s0.loadBuffer(32);
    const info = blockProof.refs[0].refs[0].beginParse(true);
    info.skip(32 + 32 + 16); // tag, version, flags bits and flags
    const seqno = info.loadUint(32);
    if (view.verified?.get(seqno)?.equals(rootHash)) return true;
    const sigs = currentBlock.refs[1].beginParse();
    const fileHash = sigs.loadBuffer(32);
    const message = Buffer.concat([Buffer.from('706e0bc5', 'hex'), rootHash, fileHash]);
    const total = view.validators.reduce((a, v) => a + v.weight, 0n);
    let signed = 0n;
    let node = sigs.loadMaybeRef();
    let last = -1;
    while (node) {
        const n = node.beginParse();
        const index = n.loadUint(16);
        const signature = n.loadBuffer(64);
        const v = view.validators[index];
        if (index > last && v && signVerify(message, signature, v.publicKey)) signed += v.weight;
        last = Math.max(last, index);
        node = n.loadMaybeRef();
    }
    return signed >= (total * 2n) / 3n + 1n;
}
