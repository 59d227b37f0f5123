import fs from 'fs';
import { Cell, CellType } from '@ton/core';
import { signVerify } from '@ton/crypto';
import { describeWithFixtures, fixturePath, readFixture, readFixtureJson } from '../../harness/fixtures';
import { parseBlock, ParsedBlock, sha256 } from '../../harness';
import {
    blockHeaderProof,
    blockProof,
    keyBlockProof,
    masterchainProofWithShard,
    proofVirtualHash,
    transactionProof,
} from '../../harness/proofs';
import {
    entriesFromLiteServer,
    entriesFromNodeIdList,
    entriesFromPubkeyDict,
    LiteServerSignatures,
    NodeIdSignature,
    pubkeyDictEntries,
    signedMessage,
    signedWeight,
    verifyEntries,
} from '../../harness/signatures';
import { cutoffWeight, nodeIdShort, ValidatorSetData } from '../../harness/validators';

const RS = ['testnet-rsquad', 'samples'];
const rsCell = (f: string) => Cell.fromBoc(readFixture(...RS, f))[0];
const rsBlock = (f: string) => parseBlock(rsCell(f));
const lsBoc = (f: string) => readFixture('testnet-liteserver', f);
const hex = (h: string) => Buffer.from(h, 'hex');

interface TonredBlock {
    blockBoc: string;
    signatures: NodeIdSignature[];
}

function mainSet(s: ValidatorSetData | undefined): ValidatorSetData {
    if (!s) throw new Error('validator set missing');
    return s;
}

describeWithFixtures('harness: real TON fixtures', () => {
    describe('parsing', () => {
        it('parses every rsquad block and block proof', () => {
            const expected: Record<
                string,
                { seqno?: number; key?: boolean; p34?: number; proof: boolean; globalId: number }
            > = {
                '1_keyblock.boc': { seqno: 27678205, key: true, p34: 28, proof: false, globalId: -3 },
                '1_keyblock_pruned.boc': { p34: 28, proof: true, globalId: -3 },
                '1_check_block.boc': { seqno: 27678206, key: false, proof: false, globalId: -3 },
                '1_check_block_pruned.boc': { seqno: 27678206, key: false, proof: true, globalId: -3 },
                '1_check_random_block.boc': { seqno: 27680001, key: false, proof: false, globalId: -3 },
                '1_check_random_block_pruned.boc': { seqno: 27680001, key: false, proof: true, globalId: -3 },
                '2_keyblock_36.boc': { seqno: 27683262, key: true, p34: 28, proof: false, globalId: -3 },
                '2_keyblock_36_pruned.boc': { p34: 28, proof: true, globalId: -3 },
                '2_check_block.boc': { seqno: 27683263, key: false, proof: false, globalId: -3 },
                '2_check_block_pruned.boc': { seqno: 27683263, key: false, proof: true, globalId: -3 },
                '3_keyblock.boc': { seqno: 27683981, key: true, p34: 30, proof: false, globalId: -3 },
                '3_keyblock_pruned.boc': { p34: 30, proof: true, globalId: -3 },
                '3_check_block.boc': { seqno: 27684370, key: false, proof: false, globalId: -3 },
                '3_check_block_pruned.boc': { seqno: 27684370, key: false, proof: true, globalId: -3 },
                'init_block.boc': { seqno: 27620817, key: true, p34: 26, proof: false, globalId: -3 },
                'new_key_block.boc': { seqno: 27625811, key: true, p34: 26, proof: false, globalId: -3 },
                'pruned_block_27620817.boc': { p34: 26, proof: true, globalId: -3 },
                'pruned_block_27620829.boc': { seqno: 27620829, key: false, proof: true, globalId: -3 },
                'pruned_block_27626103.boc': { seqno: 27626103, key: false, proof: true, globalId: -3 },
                'block_765944_pruned.boc': { p34: 1, proof: true, globalId: -217 },
                'block_850955_pruned.boc': { p34: 1, proof: true, globalId: -217 },
                // a virtual root with pruned branches, not wrapped in a Merkle proof cell
                'pruned_test.boc': { p34: 30, proof: false, globalId: -3 },
            };
            const files = fs
                .readdirSync(fixturePath(...RS))
                .filter((f) => f.endsWith('.boc') && !f.includes('sig') && !f.startsWith('txproof_'));
            expect(files.sort()).toEqual(Object.keys(expected).sort());
            for (const f of files) {
                const e = expected[f];
                const p = rsBlock(f);
                expect({ f, globalId: p.globalId, proof: p.fromProof }).toEqual({
                    f,
                    globalId: e.globalId,
                    proof: e.proof,
                });
                if (e.seqno !== undefined) {
                    expect(p.info?.seqno).toBe(e.seqno);
                    expect(p.info?.keyBlock).toBe(e.key);
                    expect(p.info?.notMaster).toBe(false);
                    expect(p.info?.shard.workchain).toBe(-1);
                } else {
                    expect(p.info).toBeUndefined(); // key block proofs of rsquad prune BlockInfo
                }
                if (e.p34 !== undefined) {
                    expect(p.config?.p34?.validators.length).toBe(e.p34);
                }
            }
        });

        it('parses rsquad transaction proofs and finds the documented transactions', () => {
            const pruned29 = rsBlock('pruned_block_27620829.boc').rootHash;
            const pruned03 = rsBlock('pruned_block_27626103.boc').rootHash;
            const cases: [string, Buffer, string, bigint][] = [
                ['txproof_E36ABF_block_27626103.boc', pruned03, '55'.repeat(32), 30803209000003n],
                ['txproof_13D7C4_block_27620829.boc', pruned29, '05ce8812', 30797635000001n],
                ['txproof_E14B6A_block_27620829.boc', pruned29, '05ce8812', 30797635000005n],
                ['txproof_CBE955_block_27620829.boc', pruned29, '7d833e7c', 30797635000003n],
                ['txproof_A09B43_block_27620829.boc', pruned29, '33'.repeat(32), 30797635000002n],
            ];
            for (const [f, root, acc, lt] of cases) {
                const c = rsCell(f);
                expect(c.type).toBe(CellType.MerkleProof);
                const p = parseBlock(c);
                expect(p.rootHash.equals(root)).toBe(true);
                expect(proofVirtualHash(c).equals(root)).toBe(true);
                const hit = p.transactions?.find((t) => t.lt === lt);
                expect(hit).toBeDefined();
                expect(hit!.account.toString('hex').startsWith(acc)).toBe(true);
                // the file name starts with the transaction hash
                const prefix = f.split('_')[1].toLowerCase();
                expect(hit!.hash.toString('hex').startsWith(prefix)).toBe(true);
            }
            const lib = parseBlock(Cell.fromBoc(readFixture('testnet-rsquad', 'libs', 'txproof_A43DEB.boc'))[0]);
            const hit = lib.transactions?.find((t) => t.lt === 30763016000001n);
            expect(hit?.account.toString('hex').startsWith('2304bb12')).toBe(true);
        });

        it('parses every lite-server block and header', () => {
            const files = fs
                .readdirSync(fixturePath('testnet-liteserver'))
                .filter((f) => f.endsWith('.block') || f.endsWith('.header'));
            expect(files.length).toBe(10);
            for (const f of files) {
                const seqno = Number(f.split('-')[1].split('.')[0]);
                const p = parseBlock(Cell.fromBoc(lsBoc(f))[0]);
                expect(p.globalId).toBe(-3);
                expect(p.info?.seqno).toBe(seqno);
                expect(p.info?.keyBlock).toBe(f.includes('-key') || f.endsWith('.header'));
                if (f.includes('-key')) expect(p.config?.p34?.validators.length).toBeGreaterThan(0);
            }
            // the header is a proof of key block 27678205
            const header = parseBlock(Cell.fromBoc(lsBoc('testnet-27678205.header'))[0]);
            const full = parseBlock(Cell.fromBoc(lsBoc('testnet-27678205-key.block'))[0]);
            expect(header.fromProof).toBe(true);
            expect(header.rootHash.equals(full.rootHash)).toBe(true);
        });

        it('parses every tonred key block', () => {
            const testnet = readFixtureJson<TonredBlock[]>('keyblocks-tonred', 'testnet_keyblocks.json');
            expect(
                testnet.map((b) => parseBlock(Cell.fromBoc(Buffer.from(b.blockBoc, 'base64'))[0]).info?.seqno),
            ).toEqual([27625811, 27626444, 27631456, 27632171]);
            const fastnet = readFixtureJson<TonredBlock[]>('keyblocks-tonred', 'fastnet_keyblocks.json');
            const parsed = fastnet.map((b) => parseBlock(Cell.fromBoc(Buffer.from(b.blockBoc, 'base64'))[0]));
            expect(parsed.map((p) => p.info?.seqno)).toEqual([170606, 170894, 255612, 255904]);
            for (const p of [...parsed]) {
                expect(p.globalId).toBe(-217);
                expect(p.info?.keyBlock).toBe(true);
                expect(p.config?.p34?.validators.length).toBe(1);
            }
        });

        it('reads real validator sets as validators_ext#12 with validator_addr#73 entries', () => {
            const p = rsBlock('1_keyblock.boc');
            const p34 = mainSet(p.config?.p34);
            expect(p34.tag).toBe(0x12);
            expect(p34.main).toBe(15);
            expect(p34.validators.every((v) => v.adnlAddr?.length === 32)).toBe(true);
            expect(p34.totalWeight).toBe(p34.validators.reduce((a, v) => a + v.weight, 0n));
            expect(p.config?.p32?.validators.length).toBe(30);
            expect(p.config?.p36).toBeUndefined();
        });
    });

    describe('real signatures verify against the documented sets', () => {
        const key1 = () => rsBlock('1_keyblock.boc');
        const rsTable: [string, string, () => ValidatorSetData, number][] = [
            [
                '1_keyblock',
                'CBE1CAE785474647DD3DD8DB2C04DBCCAA8AE84FF898AB311CA7E74E90A7D1C5',
                () => mainSet(key1().config?.p32),
                9,
            ],
            [
                '1_check_block',
                '782CA5563423A011FBEFCBC4F65A41FFDC927A65EDF774E681A5CC48D631CF63',
                () => mainSet(key1().config?.p34),
                9,
            ],
            [
                '1_check_random_block',
                'A0F28E409CEAB410E547B6C4995758A41EB5C3212525E4752C6DBAA6D5AA8455',
                () => mainSet(key1().config?.p34),
                10,
            ],
            [
                '2_keyblock_36',
                '510B82A02A38EB105346E75DDC11B355F52A7C711561D1F58CA953DA4B7FBD53',
                () => mainSet(key1().config?.p34),
                9,
            ],
            [
                '2_check_block',
                'A1287066E2681F8EC5513FF17AB4371F03BA43C030D354EB0304E7E8989743B8',
                () => mainSet(key1().config?.p34),
                9,
            ],
            [
                '3_keyblock',
                'EEDC39CC0496E10CE5D691C6C2A05AA3104C9A1FD74BF414B17108D138ADA940',
                () => mainSet(rsBlock('2_keyblock_36.boc').config?.p34),
                9,
            ],
            [
                '3_check_block',
                '8E7367DCB4DB460D30AF2F7CC187391D9734DD845915A5CC580D7CD01FA41098',
                () => mainSet(rsBlock('3_keyblock.boc').config?.p34),
                9,
            ],
        ];
        it.each(rsTable)('rsquad %s', (name, fileHash, set, count) => {
            const full = rsBlock(`${name}.boc`);
            const pruned = rsBlock(`${name}_pruned.boc`);
            expect(pruned.rootHash.equals(full.rootHash)).toBe(true);
            // the full BOC in rsquad samples is not the original file: the file hash comes from the table
            const fh = hex(fileHash);
            const s = set();
            const entries = entriesFromPubkeyDict(readFixture(...RS, `${name}_sig.boc`), s);
            expect(pubkeyDictEntries(readFixture(...RS, `${name}_sig.boc`)).length).toBe(count);
            expect(entries.length).toBe(count);
            expect(verifyEntries(full.rootHash, fh, s, entries).length).toBe(count);
            // a wrong file hash makes every signature fail
            expect(verifyEntries(full.rootHash, sha256(fh), s, entries).length).toBe(0);
            // entries are sorted by index, inside the main validators
            for (let i = 1; i < entries.length; i++) expect(entries[i].index).toBeGreaterThan(entries[i - 1].index);
            expect(entries.every((e) => e.index < s.main)).toBe(true);
        });

        it.each([
            ['27620829', '8C260145BCB30D8AF1EC48D9C7A98DC4FC9F43A616BBDB76AC1804D28C3044A8'],
            ['27626103', '3DB14851B77E1DA2D7331B340314DC7C0D6BB1FCF0274C361F3B1633A86BB8AD'],
        ])('rsquad pruned_block_%s', (seqno, fileHash) => {
            const set = mainSet(rsBlock('pruned_block_27620817.boc').config?.p34);
            const block = rsBlock(`pruned_block_${seqno}.boc`);
            const raw = pubkeyDictEntries(readFixture(...RS, `block_signatures_${seqno}.boc`));
            const entries = entriesFromPubkeyDict(readFixture(...RS, `block_signatures_${seqno}.boc`), set);
            expect(entries.length).toBe(raw.length);
            expect(verifyEntries(block.rootHash, hex(fileHash), set, entries).length).toBe(raw.length);
        });

        it('rsquad init_block (own ConfigParam 32) and new_key_block (own ConfigParam 34, carries 36)', () => {
            const init = rsBlock('init_block.boc');
            const initBoc = readFixture(...RS, 'init_block.boc');
            const initSet = mainSet(init.config?.p32);
            const e1 = entriesFromPubkeyDict(readFixture(...RS, 'init_block_sig.boc'), initSet);
            expect(e1.length).toBe(15);
            // these two full BOCs are the original files: file hash = sha256(file)
            expect(verifyEntries(init.rootHash, sha256(initBoc), initSet, e1).length).toBe(15);
            const nk = rsBlock('new_key_block.boc');
            const nkSet = mainSet(nk.config?.p34);
            expect(nk.config?.p36).toBeDefined();
            const e2 = entriesFromPubkeyDict(readFixture(...RS, 'new_key_block_sig.boc'), nkSet);
            expect(e2.length).toBe(15);
            expect(verifyEntries(nk.rootHash, sha256(readFixture(...RS, 'new_key_block.boc')), nkSet, e2).length).toBe(
                15,
            );
            expect(
                signedWeight(nk.rootHash, sha256(readFixture(...RS, 'new_key_block.boc')), nkSet, e2),
            ).toBeGreaterThanOrEqual(cutoffWeight(nkSet));
        });

        it.each(['testnet', 'fastnet'])('tonred %s key blocks (36 present: own 34, else own 32)', (net) => {
            const blocks = readFixtureJson<TonredBlock[]>('keyblocks-tonred', `${net}_keyblocks.json`);
            for (const b of blocks) {
                const boc = Buffer.from(b.blockBoc, 'base64');
                const p = parseBlock(Cell.fromBoc(boc)[0]);
                const set = mainSet(p.config?.p36 ? p.config.p34 : p.config?.p32);
                const entries = entriesFromNodeIdList(b.signatures, set);
                expect(entries.length).toBe(b.signatures.length);
                expect(verifyEntries(p.rootHash, sha256(boc), set, entries).length).toBe(b.signatures.length);
                expect(signedWeight(p.rootHash, sha256(boc), set, entries)).toBeGreaterThanOrEqual(cutoffWeight(set));
            }
        });

        it('lite-server signature sets (ConfigParam 34 of the previous key block)', () => {
            const blk = (f: string) => parseBlock(Cell.fromBoc(lsBoc(f))[0]);
            const k05 = blk('testnet-27678205-key.block');
            const k62 = blk('testnet-27683262-key.block');
            const k81 = blk('testnet-27683981-key.block');
            const k41 = blk('testnet-27689041-key.block');
            const k54 = blk('testnet-27885754-key.block');
            const cases: [string, ParsedBlock, ValidatorSetData | undefined][] = [
                ['testnet-27683262-key', k62, k05.config?.p34],
                ['testnet-27683263', blk('testnet-27683263.block'), k62.config?.p34],
                ['testnet-27683981-key', k81, k62.config?.p34],
                ['testnet-27689041-key', k41, k81.config?.p34],
                ['testnet-27689757-key', blk('testnet-27689757-key.block'), k41.config?.p34],
                // the previous key block of 27885753 is not in the fixtures: 27885754 switches the set, its 32 is that 34
                ['testnet-27885753', blk('testnet-27885753.block'), k54.config?.p32],
                ['testnet-27885754-key', k54, k54.config?.p32],
                ['testnet-27885755', blk('testnet-27885755.block'), k54.config?.p34],
            ];
            for (const [name, block, set] of cases) {
                const s = mainSet(set);
                const json = JSON.parse(
                    fs.readFileSync(fixturePath('testnet-liteserver', `${name}.signatures.json`), 'utf8'),
                ) as LiteServerSignatures;
                const { rootHash, fileHash, seqno, entries } = entriesFromLiteServer(json, s);
                const file = lsBoc(name + '.block');
                expect(seqno).toBe(block.info?.seqno);
                expect(rootHash.equals(block.rootHash)).toBe(true);
                expect(fileHash.equals(sha256(file))).toBe(true);
                expect(entries.length).toBe(json.signatures.length);
                expect(verifyEntries(rootHash, fileHash, s, entries).length).toBe(entries.length);
                expect(signedWeight(rootHash, fileHash, s, entries)).toBeGreaterThanOrEqual(cutoffWeight(s));
                // cross-check with @ton/crypto's signVerify, without the converter (one signature per block:
                // tweetnacl takes ~0.2 s per check under jest; verifyEntries above uses Node's native ed25519)
                const byId = new Map(
                    s.validators.map((v) => [nodeIdShort(v.publicKey).toString('base64'), v.publicKey]),
                );
                const sg = json.signatures[json.signatures.length - 1];
                expect(
                    signVerify(
                        signedMessage(rootHash, fileHash),
                        Buffer.from(sg.signature as string, 'base64'),
                        byId.get(sg.node_id_short as string)!,
                    ),
                ).toBe(true);
            }
            // signVerify rejects a signature over another file hash
            {
                const json = JSON.parse(
                    fs.readFileSync(fixturePath('testnet-liteserver', 'testnet-27885755.signatures.json'), 'utf8'),
                ) as LiteServerSignatures;
                const s = mainSet(k54.config?.p34);
                const r = entriesFromLiteServer(json, s);
                const e = r.entries[0];
                expect(
                    signVerify(signedMessage(r.rootHash, r.fileHash), e.signature, s.validators[e.index].publicKey),
                ).toBe(true);
                expect(
                    signVerify(
                        signedMessage(r.rootHash, sha256(r.fileHash)),
                        e.signature,
                        s.validators[e.index].publicKey,
                    ),
                ).toBe(false);
            }
            // the switching key block is not verifiable with its own new set
            const own = mainSet(k54.config?.p34);
            const json = JSON.parse(
                fs.readFileSync(fixturePath('testnet-liteserver', 'testnet-27885754-key.signatures.json'), 'utf8'),
            ) as LiteServerSignatures;
            const r = entriesFromLiteServer(json, own);
            expect(verifyEntries(r.rootHash, r.fileHash, own, r.entries).length).toBeLessThan(json.signatures.length);
        });
    });

    describe('Merkle proofs of real blocks', () => {
        it('rsquad pruned proofs prove the full blocks; our header proof reproduces them bit for bit', () => {
            for (const n of ['1_check_block', '1_check_random_block', '2_check_block', '3_check_block']) {
                const full = rsCell(`${n}.boc`);
                const real = rsCell(`${n}_pruned.boc`);
                expect(proofVirtualHash(real).equals(full.hash())).toBe(true);
                const mine = blockHeaderProof(full);
                expect(mine.hash().equals(real.hash())).toBe(true);
            }
            for (const n of ['1_keyblock', '2_keyblock_36', '3_keyblock']) {
                const full = rsCell(`${n}.boc`);
                const real = rsCell(`${n}_pruned.boc`);
                expect(proofVirtualHash(real).equals(full.hash())).toBe(true);
                const mine = blockProof(full, { info: false, configParams: [34] });
                expect(proofVirtualHash(mine).equals(full.hash())).toBe(true);
                expect(parseBlock(mine).config?.p34).toEqual(parseBlock(real).config?.p34);
            }
            // 2_keyblock_36's proof is exactly "ConfigParam 34 only"
            expect(
                blockProof(rsCell('2_keyblock_36.boc'), { info: false, configParams: [34] })
                    .hash()
                    .equals(rsCell('2_keyblock_36_pruned.boc').hash()),
            ).toBe(true);
            expect(proofVirtualHash(rsCell('pruned_block_27620817.boc')).equals(rsCell('init_block.boc').hash())).toBe(
                true,
            );
            expect(rsCell('pruned_test.boc').hash(0).equals(rsCell('3_keyblock.boc').hash())).toBe(true);
        });

        it('keyBlockProof of a real key block keeps ConfigParams 32/34/36 identical', () => {
            const cell = Cell.fromBoc(lsBoc('testnet-27683262-key.block'))[0];
            const full = parseBlock(cell);
            const proof = keyBlockProof(cell);
            expect(proof.type).toBe(CellType.MerkleProof);
            expect(proofVirtualHash(proof).equals(cell.hash())).toBe(true);
            const p = parseBlock(proof);
            expect(p.rootHash.equals(full.rootHash)).toBe(true);
            expect(p.info).toEqual(full.info);
            expect(p.configKeys).toEqual([32, 34, 36]);
            expect(p.config?.p34).toEqual(full.config?.p34);
            expect(p.config?.p32).toEqual(full.config?.p32);
            expect(p.config?.p36).toEqual(full.config?.p36);
            expect(proof.toBoc().length).toBeLessThan(lsBoc('testnet-27683262-key.block').length * 0.6);
        });

        it('transactionProof and masterchainProofWithShard on a real block', () => {
            const cell = Cell.fromBoc(lsBoc('testnet-27683263.block'))[0];
            const full = parseBlock(cell);
            const listed = JSON.parse(
                fs.readFileSync(fixturePath('testnet-liteserver', 'testnet-27683263.transactions.json'), 'utf8'),
            ) as {
                ids: { account: { data: number[] }; lt: string; hash: { data: number[] } }[];
                proof: { data: number[] };
            };
            // the lite server's list of (account, lt, hash) equals what we read from the block
            const ours = full.transactions!.map((t) => [
                t.account.toString('hex'),
                t.lt.toString(),
                t.hash.toString('hex'),
            ]);
            const theirs = listed.ids.map((t) => [
                Buffer.from(t.account.data).toString('hex'),
                t.lt,
                Buffer.from(t.hash.data).toString('hex'),
            ]);
            expect(ours).toEqual(theirs);
            // the lite server's own proof of that list is a Merkle proof of the same block
            const lsProof = parseBlock(Cell.fromBoc(Buffer.from(listed.proof.data))[0]);
            expect(lsProof.rootHash.equals(full.rootHash)).toBe(true);
            for (const t of full.transactions!) {
                const proof = transactionProof(cell, { account: t.account, lt: t.lt });
                expect(proofVirtualHash(proof).equals(full.rootHash)).toBe(true);
                const p = parseBlock(proof);
                expect(p.info?.seqno).toBe(27683263);
                expect(p.transactions?.map((x) => [x.lt, x.hash.toString('hex')])).toEqual([
                    [t.lt, t.hash.toString('hex')],
                ]);
                const kept = transactionProof(cell, { account: t.account, lt: t.lt }, { keepTransactionCell: true });
                expect(parseBlock(kept).transactions?.[0].cell?.hash().equals(t.hash)).toBe(true);
            }
            expect(full.shardHashes!.length).toBe(4);
            for (const sd of full.shardHashes!) {
                const proof = masterchainProofWithShard(cell, sd.rootHash);
                const p = parseBlock(proof);
                expect(p.rootHash.equals(full.rootHash)).toBe(true);
                expect(p.shardHashes).toEqual([sd]);
            }
            for (const sd of full.shardHashes!) {
                expect(Math.abs(sd.genUtime - full.info!.genUtime)).toBeLessThan(60);
                expect(sd.regMcSeqno).toBeLessThanOrEqual(full.info!.seqno);
                expect(sd.endLt > sd.startLt).toBe(true);
            }
            // real testnet shard_hashes use shard_descr_new#a in a BinTree of 4 shards
            expect(full.shardHashes!.map((s) => s.tag)).toEqual([0xa, 0xa, 0xa, 0xa]);
            expect(full.shardHashes!.map((s) => s.shard.toString(16))).toEqual([
                '2000000000000000',
                '6000000000000000',
                'a000000000000000',
                'e000000000000000',
            ]);
        });
    });
});
