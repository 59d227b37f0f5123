/**
 * The local TVM network's toncenter v2 endpoint, driven by the unmodified @ton/ton TonClient and a
 * standard v4 wallet as any TON application would, plus the explorer's /traces/<hash>, the proof of a
 * sealed transaction, and garbage of every kind (the process must answer each with an error and go on).
 * And the local network's accounts: what blueprint's mnemonic wallet derives from their words.
 */
import http from 'http';
import { Address, beginCell, Cell, internal, SendMode, toNano } from '@ton/core';
import { TonClient, WalletContractV4 } from '@ton/ton';
import { TvmNode } from '../../service/localnet/tvmNode';
import { mnemonicToPrivateKey } from '@ton/crypto';
import { deterministicMnemonic, LOCALNET_MNEMONICS, tvmAccount } from '../../service/localnet/accounts';
import { serveTonCenter, TonCenterServer } from '../../service/localnet/toncenter';
import { provenFromProofData, TraceJson, transferIdFromTrace, traceTransactions } from '../../lib';
import { describeKeyBlock, lookupMasterchainBlock } from '../../lib/deploy/keyBlock';
import { LiteClient } from '../../wrappers/LiteClient';
import { compiledCode } from '../../wrappers/compiled';
import { accountShardPrefix, inSealedBlock } from '../../lib/toncenterV2';

interface KeyBlockJson {
    seqno: number;
    utime_since: number;
    file_hash: string;
    block: string;
    proof: string;
    signatures: string;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers of any shape, checked field by field
type Json = any;
function raw(url: string, method: string, path: string, body?: string): Promise<{ status: number; json: Json }> {
    return new Promise((resolve, reject) => {
        const req = http.request(url + path, { method, headers: { 'content-type': 'application/json' } }, (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c) => chunks.push(c));
            res.on('end', () => {
                const text = Buffer.concat(chunks).toString('utf8');
                let json: Json;
                try {
                    json = JSON.parse(text);
                } catch {
                    json = text;
                }
                resolve({ status: res.statusCode ?? 0, json });
            });
        });
        req.on('error', reject);
        if (body !== undefined) req.write(body);
        req.end();
    });
}

describe('local TVM network: toncenter v2 endpoint', () => {
    let node: TvmNode;
    let server: TonCenterServer;
    let client: TonClient;
    let wallet: WalletContractV4;
    let secretKey: Buffer;
    /** a kept-alive connection left idle from the start of the file (the keep-alive test below) */
    const idle = new http.Agent({ keepAlive: true, maxSockets: 1 });
    let idleFirst: { reused: boolean; status: number; at: number };

    /** GET /health through `agent`: whether it went on a reused socket, the status, when it ended. */
    const health = (agent: http.Agent) =>
        new Promise<{ reused: boolean; status: number; at: number }>((resolve, reject) => {
            const req = http.get(`${server.url}/health`, { agent }, (res) => {
                res.resume();
                res.on('end', () => resolve({ reused: req.reusedSocket, status: res.statusCode ?? 0, at: Date.now() }));
            });
            req.on('error', reject);
        });

    beforeAll(async () => {
        node = await TvmNode.create({ globalId: 2000, name: 'T', validators: 8 });
        server = await serveTonCenter(node);
        client = new TonClient({ endpoint: server.jsonRpc });
        const account = await tvmAccount('toncenter.spec');
        secretKey = account.keys.secretKey;
        wallet = account.v4;
        await node.exclusive(() => node.fund(wallet.address, toNano('100')));
        // its first request; nothing else uses this agent, so its socket stays idle until that test
        idleFirst = await health(idle);
    });

    afterAll(async () => {
        idle.destroy();
        node.stop();
        await server.close();
    });

    it('should serve a standard wallet through TonClient: state, get methods, sendBoc, transactions, fees', async () => {
        const w = client.open(wallet);
        expect(await client.getBalance(wallet.address)).toBe(toNano('100'));
        expect((await client.getContractState(wallet.address)).state).toBe('uninitialized');
        const other = Address.parse('0:' + 'ab'.repeat(32));
        const transfer = w.createTransfer({
            seqno: 0,
            secretKey,
            sendMode: SendMode.PAY_GAS_SEPARATELY,
            messages: [internal({ to: other, value: toNano('1'), bounce: false, body: 'hi' })],
        });
        const fee = await client.estimateExternalMessageFee(wallet.address, {
            body: transfer,
            initCode: wallet.init.code,
            initData: wallet.init.data,
            ignoreSignature: true,
        });
        expect(fee.source_fees.gas_fee).toBeGreaterThan(0);
        await w.sendTransfer({
            seqno: 0,
            secretKey,
            sendMode: SendMode.PAY_GAS_SEPARATELY,
            messages: [internal({ to: other, value: toNano('1'), bounce: false, body: 'hi' })],
        });
        expect(await w.getSeqno()).toBe(1);
        expect(await client.isContractDeployed(wallet.address)).toBe(true);
        expect(await client.getBalance(other)).toBe(toNano('1'));
        const txs = await client.getTransactions(wallet.address, { limit: 5 });
        expect(txs.length).toBe(2); // the faucet's funding, then the transfer
        expect(txs[0].inMessage?.info.type).toBe('external-in');
        const info = await client.getMasterchainInfo();
        expect(info.latestSeqno).toBeGreaterThan(0);
        const located = await client.tryLocateResultTx(
            wallet.address,
            other,
            (txs[0].outMessages.get(0)!.info as { createdLt: bigint }).createdLt.toString(),
        );
        expect(located.inMessage?.info.dest?.toString()).toBe(other.toString());
        // a refused external message is an error for the client, not a crash
        await expect(
            w.sendTransfer({ seqno: 0, secretKey, messages: [internal({ to: other, value: 1n })] }),
        ).rejects.toThrow();
    });

    it('should serve the trace of a wallet transaction and prove its transactions once sealed', async () => {
        const txs = await client.getTransactions(wallet.address, { limit: 1 });
        const hash = txs[0].hash().toString('hex');
        const r = await raw(server.url, 'GET', `/traces/${hash}`);
        expect(r.status).toBe(200);
        const trace = r.json as TraceJson;
        expect(trace.transaction.hash).toBe(hash);
        expect([...traceTransactions(trace)].length).toBe(2);
        // the same trace by the base64 hash, and by a child's hash
        const child = trace.children[0].transaction;
        expect(
            (await raw(server.url, 'GET', `/traces/${encodeURIComponent(txs[0].hash().toString('base64'))}`)).json
                .transaction.hash,
        ).toBe(hash);
        expect((await raw(server.url, 'GET', `/traces/${child.hash}`)).json.transaction.hash).toBe(hash);
        expect(() => transferIdFromTrace(trace, Address.parse(child.account.address))).toThrow(/no transaction/);

        const path = `/v1/proof_chain/${child.account.address}/${child.lt}`;
        const before = await raw(server.url, 'GET', path);
        expect(before.status).toBe(404);
        expect(before.json.error).toMatch(/not sealed/);
        // lookupBlock by lt (what a relay asks before it takes a transaction) finds no block yet
        const account = Address.parse(child.account.address);
        const lookup = () =>
            raw(
                server.url,
                'GET',
                `/api/v2/lookupBlock?workchain=0&shard=${accountShardPrefix(account)}&lt=${child.lt}`,
            );
        expect((await lookup()).status).toBe(404);
        expect((await lookup()).json.error).toMatch(/^lt: no sealed block/);
        expect(await inSealedBlock(client, account, BigInt(child.lt))).toBe(false);
        await node.exclusive(() => node.seal());
        const after = await raw(server.url, 'GET', path);
        expect(after.status).toBe(200);
        const block = (await lookup()).json.result;
        expect([block.workchain, block.seqno > 0]).toEqual([0, true]);
        expect(await inSealedBlock(client, account, BigInt(child.lt))).toBe(true);
        const proven = provenFromProofData(Cell.fromBase64(after.json.result.boc));
        expect(proven.transaction.hash().toString('hex')).toBe(child.hash);
    });

    it('should serve key blocks and their signatures so that a sync service out of process keeps a LiteClient current', async () => {
        const first = (await raw(server.url, 'GET', '/v1/key_blocks')).json.result as KeyBlockJson[];
        expect(first.length).toBe(1); // the genesis key block: what a LiteClient following this network starts from
        const genesis = first[0];
        // the block as a lite server serves it: file hash = sha256 of the bytes, the root hash lookupBlock confirms
        const { summary } = describeKeyBlock(Buffer.from(genesis.block, 'base64'));
        expect(summary).toMatchObject({ globalId: 2000, seqno: genesis.seqno, epochSince: genesis.utime_since });
        expect(Buffer.from(summary.fileHash, 'hex').toString('base64')).toBe(genesis.file_hash);
        expect(await lookupMasterchainBlock(server.jsonRpc, genesis.seqno)).toEqual({
            rootHash: summary.rootHash,
            fileHash: summary.fileHash,
        });

        // a LiteClient deployed from it through TonClient and the wallet, as the deploy scripts do
        const w = client.open(wallet);
        const sender = w.sender(secretKey);
        const lc = client.open(
            LiteClient.createFromKeyBlock(Cell.fromBase64(genesis.block), compiledCode('LiteClient')),
        );
        await lc.sendDeploy(sender, toNano('1'));
        expect(await lc.getCurrentEpochSince()).toBe(genesis.utime_since);

        // two epochs pass; the sync service reads the new key blocks over HTTP and sends each one
        await node.exclusive(() => node.rotate());
        await node.exclusive(() => node.rotate());
        const fresh = (await raw(server.url, 'GET', `/v1/key_blocks?after_seqno=${genesis.seqno}`)).json
            .result as KeyBlockJson[];
        expect(fresh.map((k) => k.seqno)).toEqual([...fresh.map((k) => k.seqno)].sort((a, b) => a - b));
        expect(fresh.length).toBe(2);
        for (const k of fresh) {
            await lc.sendNewKeyBlock(sender, {
                value: toNano('1'),
                queryId: k.seqno,
                block: Cell.fromBase64(k.proof),
                signatures: Cell.fromBase64(k.signatures),
            });
            expect(await lc.getCurrentEpochSince()).toBe(k.utime_since);
        }
        expect((await raw(server.url, 'GET', `/v1/key_blocks?after_seqno=${fresh[1].seqno}`)).json.result).toEqual([]);
        // lookupBlock keeps the key blocks; a block it does not keep is a 404 naming the rule
        const gone = await raw(
            server.url,
            'POST',
            '/jsonRPC',
            JSON.stringify({ id: 1, method: 'lookupBlock', params: { workchain: -1, seqno: fresh[1].seqno + 100000 } }),
        );
        expect(gone.status).toBe(404);
        expect(gone.json.error).toMatch(/not kept/);
    });

    it('should keep an idle kept-alive connection open longer than clients do (no reset of a reused socket)', async () => {
        // Node's default server keep-alive is 5 s: a socket idle past it is closed by the server, and a
        // client sending on it at that moment gets ECONNRESET. Idle for 6 s (since beforeAll: the tests
        // above ran meanwhile, the rest of the 6 s is waited here), the next request still goes on the
        // same socket.
        expect({ reused: idleFirst.reused, status: idleFirst.status }).toEqual({ reused: false, status: 200 });
        const rest = idleFirst.at + 6_000 - Date.now();
        if (rest > 0) await new Promise((r) => setTimeout(r, rest));
        const next = await health(idle);
        expect(next.at - idleFirst.at).toBeGreaterThanOrEqual(6_000);
        expect({ reused: next.reused, status: next.status }).toEqual({ reused: true, status: 200 });
        // and under a burst of parallel kept-alive requests, none is reset
        const burst = new http.Agent({ keepAlive: true, maxSockets: 16 });
        try {
            const statuses = await Promise.all(
                Array.from(
                    { length: 200 },
                    () =>
                        new Promise<number>((resolve, reject) => {
                            const req = http.get(`${server.url}/health`, { agent: burst }, (res) => {
                                res.resume();
                                res.on('end', () => resolve(res.statusCode ?? 0));
                            });
                            req.on('error', reject);
                        }),
                ),
            );
            expect(statuses.every((s) => s === 200)).toBe(true);
        } finally {
            burst.destroy();
        }
    });

    it('should answer garbage with JSON-RPC errors naming the problem, and keep serving', async () => {
        const cases: [string, string, string | undefined, number, RegExp][] = [
            ['POST', '/jsonRPC', 'not json', 400, /not valid JSON/],
            ['POST', '/jsonRPC', '[1,2]', 400, /JSON-RPC object/],
            ['POST', '/jsonRPC', '{"method":"nope"}', 404, /unknown method/],
            ['POST', '/jsonRPC', '{"method":"__proto__"}', 404, /unknown method/],
            ['POST', '/jsonRPC', '{"method":"getAddressInformation","params":{}}', 422, /address: required/],
            [
                'POST',
                '/jsonRPC',
                '{"method":"getAddressInformation","params":{"address":"xyz"}}',
                422,
                /invalid address/,
            ],
            ['POST', '/jsonRPC', '{"method":"getAddressInformation","params":[1]}', 422, /params/],
            ['POST', '/jsonRPC', '{"method":"sendBoc","params":{"boc":"!!!"}}', 422, /boc/],
            [
                'POST',
                '/jsonRPC',
                `{"method":"sendBoc","params":{"boc":"${beginCell().storeUint(1, 8).endCell().toBoc().toString('base64')}"}}`,
                400,
                /message/,
            ],
            [
                'POST',
                '/jsonRPC',
                `{"method":"runGetMethod","params":{"address":"${wallet.address.toRawString()}","method":"seqno","stack":[["num","zz"]]}}`,
                422,
                /stack\[0\]/,
            ],
            [
                'POST',
                '/jsonRPC',
                `{"method":"getTransactions","params":{"address":"${wallet.address.toRawString()}","limit":-4}}`,
                422,
                /limit/,
            ],
            [
                'POST',
                '/jsonRPC',
                `{"method":"getTransactions","params":{"address":"${wallet.address.toRawString()}","hash":"nothash"}}`,
                422,
                /hash/,
            ],
            ['GET', '/traces/00', undefined, 422, /hash/],
            ['GET', '/traces/' + '0'.repeat(64), undefined, 404, /no transaction/],
            ['GET', '/v1/proof_chain/zz/1', undefined, 422, /address/],
            ['GET', '/v1/key_blocks?after_seqno=x', undefined, 422, /after_seqno/],
            ['GET', '/v1/key_blocks?limit=1000', undefined, 422, /limit/],
            ['POST', '/jsonRPC', '{"method":"lookupBlock","params":{"workchain":0,"seqno":1}}', 422, /workchain/],
            ['POST', '/jsonRPC', '{"method":"lookupBlock","params":{"workchain":-1}}', 422, /seqno: required/],
            ['POST', '/jsonRPC', '{"method":"lookupBlock","params":{"workchain":0,"lt":"x"}}', 422, /^lt: /],
            ['POST', '/jsonRPC', '{"method":"lookupBlock","params":{"lt":"5"}}', 422, /^workchain: required/],
            [
                'POST',
                '/jsonRPC',
                '{"method":"lookupBlock","params":{"workchain":0,"shard":"zz","lt":"5"}}',
                422,
                /^shard: /,
            ],
            ['GET', '/nowhere', undefined, 404, /not found/],
            ['PUT', '/jsonRPC', '{}', 405, /only GET and POST/],
        ];
        for (const [method, path, body, status, error] of cases) {
            const r = await raw(server.url, method, path, body);
            expect({ path, body, status: r.status }).toEqual({ path, body, status });
            expect(r.json.ok).toBe(false);
            expect(r.json.error).toMatch(error);
        }
        // random bytes, then a body over the limit
        for (let i = 0; i < 20; i++) {
            const junk = Buffer.from(Array.from({ length: 64 }, (_, j) => (i * 31 + j * 7) % 256)).toString('latin1');
            expect((await raw(server.url, 'POST', '/jsonRPC', junk)).json.ok).toBe(false);
        }
        const big = await raw(server.url, 'POST', '/jsonRPC', 'x'.repeat(3 * 1024 * 1024)).catch(() => ({
            status: 413,
        }));
        expect(big.status).toBe(413);
        // still serving
        expect(await client.getBalance(wallet.address)).toBeGreaterThan(0n);
        expect((await raw(server.url, 'GET', '/health')).json.ok).toBe(true);
    });
});

describe('the local network accounts', () => {
    it('are deterministicMnemonic of their names, with the keys @ton/crypto derives from the words', async () => {
        for (const [name, words] of Object.entries(LOCALNET_MNEMONICS))
            expect({ name, words: (await deterministicMnemonic(name)).join(' ') }).toEqual({ name, words });
        // tvmAccount's key pair (Node's ed25519) is mnemonicToPrivateKey's (tweetnacl), as blueprint derives it
        for (const seed of ['deployer', 'toncenter.spec']) {
            const a = await tvmAccount(seed);
            expect(a.keys).toEqual(await mnemonicToPrivateKey(a.mnemonic));
        }
    });
});
