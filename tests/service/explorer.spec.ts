/**
 * The explorer page (GET /explorer) in a real browser: headless Chromium (Debian's package) driven
 * by playwright-core against the API on PGlite. Search by address lists the transfers; a click shows
 * a transfer's timeline on both networks and its next action; a Transfer ID opens it directly; a TVM
 * to EVM transfer by its EVM recipient or its withdrawal id; bad input shows the API's rule.
 */
import fs from 'fs';
import os from 'os';
import path from 'path';
import { chromium, BrowserContext, Page } from 'playwright-core';
import { FastifyInstance } from 'fastify';
import { Db } from '../../service/storage/db';
import { buildApi } from '../../service/api/app';
import { insertTransfers } from '../../service/storage/store';
import { applyWithdrawalSteps } from '../../service/storage/withdrawals';
import { deployment, EVM, evmAddr, fill, hash, tvmEvmTransfer, USERS } from './fixtures';
import { listen } from './http';
import { openMigratedPglite } from './pglite';

jest.setTimeout(120_000);

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const present = fs.existsSync(CHROMIUM);
if (!present && process.env.CI === 'true')
    throw new Error(`CI=true and no Chromium at ${CHROMIUM} (apt-get install chromium)`);
if (!present) process.stderr.write(`[explorer] no Chromium at ${CHROMIUM}: the browser spec is skipped\n`);
const maybe = present ? describe : describe.skip;

maybe('the explorer page in headless Chromium', () => {
    let db: Db;
    let api: FastifyInstance;
    let base: string;
    let browser: BrowserContext;
    let page: Page;
    let data: Awaited<ReturnType<typeof fill>>;
    let profile: string;
    const toEvm = tvmEvmTransfer(0);

    beforeAll(async () => {
        db = await openMigratedPglite();
        data = await fill(db);
        // a TVM to EVM transfer whose withdrawal waits for the withdraw guardian (over the limit)
        await insertTransfers(db, [toEvm]);
        await applyWithdrawalSteps(db, [
            {
                chainId: EVM,
                vault: deployment.evm!.multiVault!,
                tx: '0x' + hash('explorer save'),
                block: 10,
                logIndex: 0,
                at: toEvm.createdAt + 30,
                kind: 'Created',
                withdrawalId: toEvm.linkKey.slice(3),
                recipient: toEvm.recipient,
                pendingId: 0n,
                token: evmAddr('representation'),
                amount: BigInt(toEvm.amount),
                approveStatus: 1,
                bounty: 0n,
            },
        ]);
        api = await buildApi({ db, deployment });
        base = await listen(api);
        profile = fs.mkdtempSync(path.join(os.tmpdir(), 'explorer-chromium-'));
        // an empty profile of its own (launchPersistentContext's user data dir)
        browser = await chromium.launchPersistentContext(profile, {
            executablePath: CHROMIUM,
            headless: true,
            args: [
                '--no-sandbox',
                '--disable-gpu',
                '--no-first-run',
                '--disable-background-networking',
                '--disable-component-update',
                '--disable-sync',
            ],
        });
        page = await browser.newPage();
    });

    afterAll(async () => {
        await browser?.close();
        await api?.close();
        await db?.close();
        if (profile) fs.rmSync(profile, { recursive: true, force: true });
    });

    async function search(q: string) {
        await page.goto(`${base}/explorer`);
        await page.fill('#q', q);
        await page.click('button[type=submit]');
    }

    it("lists an address's transfers; a click shows the timeline on both networks and that nothing is left to do", async () => {
        await search(USERS[1]);
        await page.waitForSelector('#list:not([hidden]) tr.row');
        const ids = await page.$$eval('#list tr.row td:last-child', (tds) => tds.map((td) => td.textContent));
        const want = [
            ...data.tvm.filter((t) => t.sender === USERS[1] || t.recipient === USERS[1]),
            ...data.evm.filter((t) => t.recipient === USERS[1] && ['0', '1'].includes(t.linkKey.split(':')[2])),
        ]
            .sort((a, b) => b.createdAt - a.createdAt)
            .map((t) => t.transferId);
        expect(ids).toEqual(want);
        // transfer 0 (USERS[0] -> USERS[1]) is the oldest: the last row
        await page.click(`#list tr.row:has-text("${data.tvm[0].transferId}")`);
        await page.waitForSelector('#transfer:not([hidden])');
        expect(await page.textContent('#status')).toBe('Completed');
        const steps = await page.$$eval('#timeline li', (lis) => lis.map((li) => li.textContent ?? ''));
        expect(steps.map((s) => s.replace(/^\S+ \S+ {2}/, ''))).toEqual([
            `chain -239  Sent  ${data.tvm[0].transferId}`,
            expect.stringMatching(/^chain 2000 {2}Event deployed {2}[0-9a-f]{64}$/),
            'chain 2000  Event Confirmed',
            expect.stringMatching(/^chain 2000 {2}Delivered {2}[0-9a-f]{64}$/),
        ]);
        expect(await page.textContent('#next')).toBe('nothing: delivered');
    });

    it('opens a Transfer ID directly: a transfer over the daily limit waits for the limit approver', async () => {
        await search(data.tvm[1].transferId.toUpperCase());
        await page.waitForSelector('#transfer:not([hidden])');
        expect(await page.textContent('#status')).toBe('Pending');
        expect(await page.textContent('#eventStatus')).toBe('(Event: LimitReached)');
        const next = await page.$$eval('#next li', (lis) => lis.map((li) => li.textContent ?? ''));
        expect(next[0]).toMatch(/^wait for the limit approver \(limitApprover\): /);
        expect(next[1]).toMatch(/^retry \(sender, recipient or initializer\)/);
    });

    it('a TVM to EVM transfer: listed for its EVM recipient, opened by its withdrawal id, the withdraw guardian next', async () => {
        await search(toEvm.recipient);
        await page.waitForSelector('#list:not([hidden]) tr.row');
        const cells = await page.$$eval('#list tr.row td', (tds) => tds.map((td) => td.textContent));
        expect(cells[1]).toBe('TvmToEvm');
        expect(cells[6]).toBe(toEvm.transferId);
        await search(toEvm.linkKey.slice(3));
        await page.waitForSelector('#transfer:not([hidden])');
        expect(await page.textContent('#tid')).toBe(toEvm.transferId);
        expect(await page.textContent('#status')).toBe('Pending');
        expect(await page.textContent('#eventStatus')).toBe('(Withdrawal: Pending, Required)');
        const steps = await page.$$eval('#timeline li', (lis) => lis.map((li) => li.textContent ?? ''));
        expect(steps.map((s) => s.replace(/^\S+ \S+ {2}/, ''))).toEqual([
            `chain -239  Sent  ${toEvm.transferId}`,
            `chain ${EVM}  Withdrawal pending  0x${hash('explorer save')}`,
        ]);
        expect(await page.textContent('#next')).toMatch(/^wait for the withdraw guardian \(withdrawGuardian\): /);
    });

    it('shows the rule of a refused search, and an unknown Transfer ID as not found', async () => {
        await search('not-an-address');
        await page.waitForSelector('#error:not(:empty)');
        expect(await page.textContent('#error')).toBe(
            'userAddresses[0]: a TVM address (0:<64 hex> or user-friendly) or an EVM address (0x<40 hex>)',
        );
        await search('ab'.repeat(32));
        await page.waitForSelector('#error:not(:empty)');
        expect(await page.textContent('#error')).toBe(`no transfer ${'ab'.repeat(32)}`);
    });
});
