/**
 * The trusted key block a deployer records (lib/deploy/keyBlock.ts), on real testnet key blocks as a
 * lite server serves them: what the deployer is shown (network, seqno, hashes, validators), the
 * header fields the lite-server fetch walks (prev_key_block_seqno), the file forms it accepts, and
 * a LiteClient deployed from the recorded block.
 */
import fs from 'fs';
import os from 'os';
import path from 'path';
import { Blockchain } from '@ton/sandbox';
import { Cell, toNano } from '@ton/core';
import '@ton/test-utils';
import { describeWithFixtures, fixturePath, readFixture } from '../harness/fixtures';
import { blockInfoOf, describeKeyBlock, formatKeyBlock, loadKeyBlock } from '../lib/deploy/keyBlock';
import { LiteClient } from '../wrappers/LiteClient';
import { compiledCode } from '../wrappers/compiled';

describeWithFixtures('trusted key block: real testnet key blocks as a lite server serves them', () => {
    const file = fixturePath('testnet-liteserver', 'testnet-27683262-key.block');

    it('should describe the block: global id, seqno, the file hash the validators signed, the set', () => {
        const { summary } = describeKeyBlock(readFixture('testnet-liteserver', 'testnet-27683262-key.block'));
        expect(summary.globalId).toBe(-3);
        expect(summary.seqno).toBe(27683262);
        // fixtures README: 2_keyblock_36's file hash
        expect(summary.fileHash.toUpperCase()).toBe('510B82A02A38EB105346E75DDC11B355F52A7C711561D1F58CA953DA4B7FBD53');
        expect(summary.validators).toBeGreaterThan(0);
        expect(summary.totalWeight).toBeGreaterThan(0n);
        expect(summary.epochUntil).toBeGreaterThan(summary.epochSince);
        expect(formatKeyBlock(summary).join('\n')).toMatch(/masterchain seqno 27683262/);
    });

    it('should read key_block and prev_key_block_seqno from a block header (what the lite-server fetch walks)', () => {
        const key = blockInfoOf(readFixture('testnet-liteserver', 'testnet-27683262-key.block'));
        expect(key).toMatchObject({ keyBlock: true, seqno: 27683262, prevKeyBlockSeqno: 27678205 });
        const plain = blockInfoOf(readFixture('testnet-liteserver', 'testnet-27683263.block'));
        expect(plain).toMatchObject({ keyBlock: false, seqno: 27683263, prevKeyBlockSeqno: 27683262 });
    });

    it('should accept the block as raw bytes, base64 or hex, and refuse what is not a key block', async () => {
        const bytes = fs.readFileSync(file);
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keyblock-'));
        try {
            fs.writeFileSync(path.join(dir, 'b64'), bytes.toString('base64') + '\n');
            fs.writeFileSync(path.join(dir, 'hex'), bytes.toString('hex'));
            expect(await loadKeyBlock(file)).toEqual(bytes);
            expect(await loadKeyBlock(path.join(dir, 'b64'))).toEqual(bytes);
            expect(await loadKeyBlock(path.join(dir, 'hex'))).toEqual(bytes);
            await expect(loadKeyBlock(path.join(dir, 'absent'))).rejects.toThrow(/no such file/);
        } finally {
            fs.rmSync(dir, { recursive: true, force: true });
        }
        expect(() => describeKeyBlock(readFixture('testnet-liteserver', 'testnet-27683263.block'))).toThrow(
            /not a key block/,
        );
        expect(() => describeKeyBlock(Buffer.from('not a boc'))).toThrow(/not a BOC/);
    });

    it('should deploy a LiteClient from the recorded block that holds its validator set', async () => {
        const bytes = readFixture('testnet-liteserver', 'testnet-27683262-key.block');
        const recorded = bytes.toString('base64'); // what trustedKeyBlock writes into the deployment file
        const { summary } = describeKeyBlock(bytes);
        const blockchain = await Blockchain.create();
        const deployer = await blockchain.treasury('deployer');
        const lc = blockchain.openContract(
            LiteClient.createFromKeyBlock(Cell.fromBase64(recorded), compiledCode('LiteClient')),
        );
        const r = await lc.sendDeploy(deployer.getSender(), toNano('1'));
        expect(r.transactions).toHaveTransaction({ to: lc.address, deploy: true, success: true });
        expect(await lc.getCurrentEpochSince()).toBe(summary.epochSince);
        expect(await lc.getCurrentSeqNo()).toBe(summary.seqno);
    });
});
