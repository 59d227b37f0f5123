/**
 * lib/tvmEvmRelay.ts without networks: the JSON a TVM to EVM relay serves reads back to the same
 * withdrawal (and digest), a wrong field is named, and a wallet collecting signatures from relays
 * over HTTP keeps only what checks: a relay lying about its signature, one that signed another
 * round, one that has not signed, one that is down are all left out and named.
 */
import http from 'http';
import { AddressInfo } from 'net';
import { Address } from '@ton/core';
import { SigningKey, Wallet, computeAddress, id } from 'ethers';
import { FoundTvmEvmEvent } from '../lib/tvmEvmEvents';
import {
    collectSignatures,
    signWithdrawal,
    withdrawalFromJson,
    withdrawalJson,
    withdrawalSignatureJson,
    WithdrawalSignatureJson,
} from '../lib/tvmEvmRelay';
import { WithdrawalKind, withdrawalDigest } from '../wrappers/evm/withdrawals';

const CHAIN = 31337;
const VAULT = Wallet.createRandom().address;
const keys = [0, 1, 2, 3, 4].map((i) => new SigningKey(id(`lib spec relay ${i}`)));
const proxy = Address.parse('0:' + '5e'.repeat(32));

function found(kind: WithdrawalKind, amount = 1_000n): FoundTvmEvmEvent {
    const common = {
        evmChainId: BigInt(CHAIN),
        amount,
        recipient: Wallet.createRandom().address,
        callback: '0x0000000000000000000000000000000000000000',
        sender: Address.parse('0:' + '11'.repeat(32)),
        remainingGasTo: Address.parse('0:' + '11'.repeat(32)),
        payload: '0xbeef',
    };
    return {
        proxy,
        transactionHash: BigInt(id(`tx ${kind} ${amount}`)),
        lt: 42n,
        event:
            kind === WithdrawalKind.Native
                ? {
                      kind,
                      ...common,
                      token: { root: Address.parse('0:' + '77'.repeat(32)), name: 'Tok', symbol: 'TK', decimals: 9 },
                  }
                : { kind, ...common, token: { evmToken: Wallet.createRandom().address } },
    };
}

const served = (key: SigningKey, f: FoundTvmEvmEvent, round = 1) =>
    withdrawalSignatureJson(signWithdrawal(f, round, CHAIN, VAULT, [key]), {
        chainId: CHAIN,
        vault: VAULT,
        signedAt: new Date(),
    });

describe('lib/tvmEvmRelay: the relays JSON and a wallet collecting signatures', () => {
    it('reads a served withdrawal back to the same struct and digest, both kinds', () => {
        for (const kind of [WithdrawalKind.Native, WithdrawalKind.Alien]) {
            const s = signWithdrawal(found(kind), 3, CHAIN, VAULT, [keys[0]]);
            const j = JSON.parse(JSON.stringify(withdrawalJson(s.withdrawal)));
            const back = withdrawalFromJson(kind === WithdrawalKind.Native ? 'Native' : 'Alien', j);
            expect(back).toEqual(s.withdrawal);
            expect(withdrawalDigest(CHAIN, VAULT, back)).toBe(s.digest);
        }
    });

    it('names the wrong field of a withdrawal', () => {
        const j = withdrawalJson(signWithdrawal(found(WithdrawalKind.Alien), 1, CHAIN, VAULT, [keys[0]]).withdrawal);
        const bad: [Record<string, unknown>, RegExp][] = [
            [{ amount: '1.5' }, /^withdrawal\.amount: an integer/],
            [{ amount: (1n << 128n).toString() }, /^withdrawal\.amount: out of range/],
            [{ recipient: '0x12' }, /^withdrawal\.recipient: an EVM address/],
            [{ token: undefined }, /^withdrawal\.token: an EVM address/],
            [{ eventWid: 300 }, /^withdrawal\.eventWid: out of range/],
            [{ payload: 'zz' }, /^withdrawal\.payload: 0x-hex/],
        ];
        for (const [patch, error] of bad) expect(() => withdrawalFromJson('Alien', { ...j, ...patch })).toThrow(error);
        expect(() => withdrawalFromJson('Native', j)).toThrow(/^withdrawal\.tokenWid/);
    });

    it('collects from relays over HTTP only what checks, and names every relay left out', async () => {
        const f = found(WithdrawalKind.Native, 5_000n);
        const answers: ((res: http.ServerResponse) => void)[] = [
            ...[0, 1, 2].map((i) => (res: http.ServerResponse) => json(res, 200, served(keys[i], f))),
            // a relay claiming a signature over another amount: its signer does not recover
            (res) => {
                const j = served(keys[3], f);
                const other = served(keys[3], { ...f, event: { ...f.event, amount: 9_999n } });
                json(res, 200, { ...j, signature: other.signature });
            },
            // a relay that signed in another round: another digest
            (res) => json(res, 200, served(keys[4], f, 2)),
            (res) => json(res, 404, { ok: false, error: 'id: this relay has signed no withdrawal', code: 404 }),
        ];
        const servers = await Promise.all(answers.map(serve));
        const down = await serve(() => undefined);
        await new Promise((r) => down.server.close(r));
        try {
            const urls = [...servers.map((s) => s.url), down.url];
            const txId = '0x' + f.transactionHash.toString(16).padStart(64, '0');
            const c = (await collectSignatures(urls, txId, { chainId: CHAIN, vault: VAULT, timeoutMs: 2000 }))!;
            expect(c.signatures.map((s) => s.signer).sort()).toEqual(
                [0, 1, 2].map((i) => computeAddress(keys[i].publicKey)).sort(),
            );
            expect(c.withdrawal.amount).toBe(5_000n);
            expect(c.withdrawal.round).toBe(1);
            const failed = Object.fromEntries(c.failed.map((x) => [x.url, x.reason]));
            expect(Object.keys(failed).sort()).toEqual(urls.slice(3).sort());
            expect(failed[urls[3]]).toMatch(/is not .*'s over the withdrawal/);
            expect(failed[urls[4]]).toMatch(/signed another digest/);
            expect(failed[urls[5]]).toMatch(/signed no withdrawal/);
        } finally {
            await Promise.all(servers.map((s) => new Promise((r) => s.server.close(r))));
        }
    });
});

function json(res: http.ServerResponse, status: number, body: WithdrawalSignatureJson | Record<string, unknown>) {
    const ok = status === 200;
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(ok ? { ok, result: body } : body));
}

async function serve(answer: (res: http.ServerResponse) => void): Promise<{ server: http.Server; url: string }> {
    const server = http.createServer((_req, res) => answer(res));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}
