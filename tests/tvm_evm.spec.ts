/**
 * TVM -> EVM, the TVM side (contracts/bridge/tvm_evm.tact, tvm_evm.tlb): what the proxies refuse (the
 * tokens back with the code, nothing emitted), what a stranger can do (list a chain: 132; emit the
 * same event body from its own contract: the relays take the listed proxies' events only), the op
 * codes, and the gas constants GAS_NATIVE_LOCK_EVM / GAS_ALIEN_BURN_EVM pinned to what they measure.
 */
import '@ton/test-utils';
import fs from 'fs';
import path from 'path';
import { Address, beginCell, Cell, toNano } from '@ton/core';
import { SandboxContract } from '@ton/sandbox';
import { JettonWallet } from '../wrappers/JettonWallet';
import { Errors, Op } from '../wrappers/constants';
import { ProxyMessages } from '../wrappers/ProxyMultiVaultNative';
import { transferPayloadCell } from '../wrappers/ProxyMultiVaultNative';
import { TestEventEmitter, storeTestEmit } from '../build/TestEventEmitter/tact_TestEventEmitter';
import { bytesToSnake, decodeTvmEvmEvent, snakeToBytes, tvmEvmPayloadCell } from '../lib/tvmEvmEvents';
import { EvmRelayService } from '../harness/evm/relay';
import { depositErc20, evmFee, tvmFee } from './evm_tvm.util';
import { exitCode, gasUsed, refundCodeTo, txOf } from './proxy.util';
import { BURN_VALUE, LOCK_FORWARD_TON, tvmEvmSetup, TvmEvmSetup, USER_NATIVE } from './tvm_evm.util';

jest.setTimeout(180_000);

const EXCESSES = 0xd53276db;

/** An EVM alien token on TVM (one ERC-20 deposit per setup: the EVM relays read every deposit log). */
const evmTokens = new WeakMap<
    TvmEvmSetup,
    Promise<{ minter: Address; minted: bigint; wallet: SandboxContract<JettonWallet> }>
>();
function withEvmToken(s: TvmEvmSetup) {
    if (!evmTokens.has(s)) evmTokens.set(s, firstEvmToken(s));
    return evmTokens.get(s)!;
}

async function firstEvmToken(s: TvmEvmSetup, amount = 5_000_000n) {
    await depositErc20(s, amount);
    await new EvmRelayService(s.evm, s.blockchain, s.alienConfiguration, s.relays, s.relayer).poll();
    const minter = (await s.proxies.alien.getEvmMinter(BigInt(s.evm.chainId), BigInt(s.evm.tokenAddress)))!;
    const bridged = amount - evmFee(amount);
    return { minter, minted: bridged - tvmFee(s, bridged), wallet: await s.walletOf(minter) };
}

/** Two full cells of bytes: the gas tests' worst payload. */
const LONG_PAYLOAD = '0x' + 'ab'.repeat(254);

describe('TVM -> EVM: the proxies', () => {
    let s: TvmEvmSetup;
    beforeAll(async () => {
        s = await tvmEvmSetup();
    });

    it('emits TvmEvmNative as the layout says (the payload bytes from a snake), the excesses to remaining_gas_to', async () => {
        const r = await s.lock(
            1_000n,
            tvmEvmPayloadCell(s.toEvm({ payload: LONG_PAYLOAD, callback: s.evm.tokenAddress })),
        );
        const tx = txOf(r.transactions, s.proxies.native.address);
        const ext = [...tx.outMessages.values()].filter((m) => m.info.type === 'external-out');
        expect(ext).toHaveLength(1);
        const e = decodeTvmEvmEvent(ext[0].body);
        expect(e.amount).toBe(1_000n);
        expect(e.evmChainId).toBe(BigInt(s.evm.chainId));
        expect(e.recipient).toBe(s.evm.signers.other.address);
        expect(e.callback).toBe(s.evm.tokenAddress);
        expect(e.payload).toBe(LONG_PAYLOAD);
        expect(e.sender.equals(s.user.address)).toBe(true);
        expect(r.transactions).toHaveTransaction({ from: s.proxies.native.address, to: s.user.address, op: EXCESSES });
        expect(snakeToBytes(bytesToSnake('0x'))).toBe('0x');
        expect(await s.signNow()).toHaveLength(1);
    });

    it('refuses a lock, tokens back with the code and nothing emitted: chain not listed 2705, zero recipient or a payload not of whole bytes 2704, too little value 2713 (recorded: claim_refund sends the code), paused 2702', async () => {
        const before = await s.userNativeWallet.getJettonBalance();
        const liquidity = await s.proxies.native.getLiquidity(s.nativeToken.address);
        const odd = beginCell().storeUint(1, 7).endCell();
        const cases: [string, Cell, bigint, number][] = [
            [
                'chain',
                tvmEvmPayloadCell(s.toEvm({ evmChainId: 1 })),
                LOCK_FORWARD_TON,
                Errors.proxy.wrongOwnerInPayload,
            ],
            [
                'zero recipient',
                tvmEvmPayloadCell(s.toEvm({ recipient: '0x' + '00'.repeat(20) })),
                LOCK_FORWARD_TON,
                Errors.proxy.wrongTokensAmountInPayload,
            ],
            [
                'odd payload',
                tvmEvmPayloadCell(s.toEvm(), odd),
                LOCK_FORWARD_TON,
                Errors.proxy.wrongTokensAmountInPayload,
            ],
            [
                'two refs',
                tvmEvmPayloadCell(s.toEvm(), beginCell().storeRef(Cell.EMPTY).storeRef(Cell.EMPTY).endCell()),
                LOCK_FORWARD_TON,
                Errors.proxy.wrongTokensAmountInPayload,
            ],
            [
                'trailing bits',
                beginCell().storeSlice(tvmEvmPayloadCell(s.toEvm()).beginParse()).storeBit(1).endCell(),
                LOCK_FORWARD_TON,
                Errors.proxy.wrongTokensAmountInPayload,
            ],
        ];
        for (const [what, payload, forward, code] of cases) {
            const r = await s.lock(500n, payload, forward);
            const tx = txOf(r.transactions, s.proxies.native.address);
            expect({ what, exit: exitCode(tx) }).toEqual({ what, exit: 0 });
            expect([...tx.outMessages.values()].some((m) => m.info.type === 'external-out')).toBe(false);
            expect({ what, code: refundCodeTo(r.transactions, s.userNativeWallet.address) }).toEqual({ what, code });
        }
        // too little value for the event (below GAS_NATIVE_LOCK_EVM's fee and the event's): refused
        // with 2713. A lock costs less than sending tokens back (the wallet's own check asks about
        // 0.04 TON more), so below the lock's cost the refund is always recorded: the record keeps
        // the code (refund_code_of) and claim_refund sends it with the tokens (proxy_refund)
        for (const forward of [toNano('0.013'), toNano('0.015')]) {
            const r = await s.lock(500n, tvmEvmPayloadCell(s.toEvm({ payload: LONG_PAYLOAD })), forward);
            const tx = txOf(r.transactions, s.proxies.native.address);
            expect(exitCode(tx)).toBe(0);
            expect(tx.outMessages.size).toBe(0);
        }
        expect(await s.proxies.native.getRefundOf(s.nativeProxyWallet.address, s.user.address)).toBe(1_000n);
        expect(await s.proxies.native.getRefundCodeOf(s.nativeProxyWallet.address, s.user.address)).toBe(
            BigInt(Errors.proxy.lowMsgValue),
        );
        const claim = await s.proxies.native.sendBody(
            s.user.getSender(),
            ProxyMessages.claimRefund(s.nativeProxyWallet.address),
            toNano('0.1'),
        );
        expect(refundCodeTo(claim.transactions, s.userNativeWallet.address)).toBe(Errors.proxy.lowMsgValue);
        expect(await s.proxies.native.getRefundOf(s.nativeProxyWallet.address, s.user.address)).toBe(0n);
        expect(await s.proxies.native.getRefundCodeOf(s.nativeProxyWallet.address, s.user.address)).toBe(0n);
        await s.proxies.native.sendBody(s.proxyOwner.getSender(), ProxyMessages.setPaused(true));
        const r = await s.lock(500n);
        expect(refundCodeTo(r.transactions, s.userNativeWallet.address)).toBe(Errors.proxy.proxyPaused);
        await s.proxies.native.sendBody(s.proxyOwner.getSender(), ProxyMessages.setPaused(false));
        expect(await s.userNativeWallet.getJettonBalance()).toBe(before);
        expect(await s.proxies.native.getLiquidity(s.nativeToken.address)).toBe(liquidity);
        expect(await s.signNow()).toEqual([]);
    });

    it('lets only the owner list an EVM chain (a stranger: 132); removed, locks to it are refused', async () => {
        const stranger = await s.net.treasury('stranger');
        const r = await s.proxies.native.sendBody(stranger.getSender(), ProxyMessages.setTvmEvmChain(5, true));
        expect(r.transactions).toHaveTransaction({ to: s.proxies.native.address, success: false, exitCode: 132 });
        expect(await s.proxies.native.getTvmEvmChain(5n)).toBe(false);
        await s.proxies.native.sendBody(s.proxyOwner.getSender(), ProxyMessages.setTvmEvmChain(5, true));
        expect(await s.proxies.native.getTvmEvmChain(5n)).toBe(true);
        await s.proxies.native.sendBody(s.proxyOwner.getSender(), ProxyMessages.setTvmEvmChain(5, false));
        expect(await s.proxies.native.getTvmEvmChain(5n)).toBe(false);
        const l = await s.lock(1n, tvmEvmPayloadCell(s.toEvm({ evmChainId: 5 })));
        expect(refundCodeTo(l.transactions, s.userNativeWallet.address)).toBe(Errors.proxy.wrongOwnerInPayload);
    });

    it('refuses a burn of an EVM alien token, minted back with the code: another chain or a TVM to TVM payload 2708, malformed 2704, too little value 2713, paused 2702', async () => {
        const { minter, wallet } = await withEvmToken(s);
        const minted = await wallet.getJettonBalance();
        const tvmTvm = transferPayloadCell({
            destinationChainId: 2000,
            recipient: s.recipient.address,
            remainingGasTo: s.recipient.address,
        });
        const cases: [string, Cell, bigint, number][] = [
            ['other chain', tvmEvmPayloadCell(s.toEvm({ evmChainId: 1 })), BURN_VALUE, Errors.proxy.wrongTokenRoot],
            ['tvm payload', tvmTvm, BURN_VALUE, Errors.proxy.wrongTokenRoot],
            [
                'zero recipient',
                tvmEvmPayloadCell(s.toEvm({ recipient: '0x' + '00'.repeat(20) })),
                BURN_VALUE,
                Errors.proxy.wrongTokensAmountInPayload,
            ],
            [
                'odd payload',
                tvmEvmPayloadCell(s.toEvm(), beginCell().storeUint(3, 3).endCell()),
                BURN_VALUE,
                Errors.proxy.wrongTokensAmountInPayload,
            ],
        ];
        for (const [what, payload, value, code] of cases) {
            const r = await s.burn(minter, 100n, payload, s.recipient, value);
            const tx = txOf(r.transactions, s.proxies.alien.address);
            expect({ what, exit: exitCode(tx) }).toEqual({ what, exit: 0 });
            expect([...tx.outMessages.values()].some((m) => m.info.type === 'external-out')).toBe(false);
            expect({ what, code: refundCodeTo(r.transactions, wallet.address) }).toEqual({ what, code });
        }
        await s.proxies.alien.sendBody(s.proxyOwner.getSender(), ProxyMessages.setPaused(true));
        const r = await s.burn(minter, 100n, tvmEvmPayloadCell(s.toEvm()));
        expect(refundCodeTo(r.transactions, wallet.address)).toBe(Errors.proxy.proxyPaused);
        await s.proxies.alien.sendBody(s.proxyOwner.getSender(), ProxyMessages.setPaused(false));
        expect(await wallet.getJettonBalance()).toBe(minted);
        expect(await s.signNow()).toEqual([]);
    });

    it("a stranger's contract emitting the same event body: the relays take the listed proxies' events only", async () => {
        const emitter = s.blockchain.openContract(await TestEventEmitter.fromInit(77n));
        await emitter.send(s.user.getSender(), { value: toNano('0.1') }, null);
        await s.signNow();
        const r = await s.lock(10n);
        const body = [...txOf(r.transactions, s.proxies.native.address).outMessages.values()].find(
            (m) => m.info.type === 'external-out',
        )!.body;
        const signed = await s.signNow();
        expect(signed).toHaveLength(1);
        await s.user.send({
            to: emitter.address,
            value: toNano('0.1'),
            body: beginCell()
                .store(storeTestEmit({ $$type: 'TestEmit', first: null, body }))
                .endCell(),
        });
        expect(await s.signNow()).toEqual([]);
    });

    it('gas constants: TVM to EVM lock and burn with payloads of 2 and 40 full cells, each budget (GAS_..._EVM + cells * GAS_TVM_EVM_PAYLOAD_CELL) within 15% above what it measures; the proxies pay none of it', async () => {
        const src = fs.readFileSync(path.resolve(__dirname, '..', 'contracts', 'bridge', 'tvm_evm.tact'), 'utf8');
        const G: Record<string, number> = {};
        for (const m of src.matchAll(/^const (GAS_\w+): Int = (\d+);/gm)) G[m[1]] = Number(m[2]);
        const { minter } = await withEvmToken(s);
        const balanceOf = async (a: Address) => (await s.blockchain.getContract(a)).balance;
        for (const cells of [2, 40]) {
            // whole cells of 127 bytes (the snake's own cell size)
            const payload = tvmEvmPayloadCell(
                s.toEvm({ payload: '0x' + 'ab'.repeat(127 * cells), callback: s.evm.tokenAddress }),
            );
            const nativeBefore = await balanceOf(s.proxies.native.address);
            const lock = txOf((await s.lock(1_000n, payload)).transactions, s.proxies.native.address);
            const alienBefore = await balanceOf(s.proxies.alien.address);
            const burn = txOf((await s.burn(minter, 1_000n, payload)).transactions, s.proxies.alien.address);
            for (const [name, tx, proxy, before] of [
                ['GAS_NATIVE_LOCK_EVM', lock, s.proxies.native.address, nativeBefore],
                ['GAS_ALIEN_BURN_EVM', burn, s.proxies.alien.address, alienBefore],
            ] as const) {
                expect({ name, cells, exit: exitCode(tx), emitted: tx.outMessages.size > 0 }).toEqual({
                    name,
                    cells,
                    exit: 0,
                    emitted: true,
                });
                const measured = gasUsed(tx);
                const budget = G[name] + cells * G.GAS_TVM_EVM_PAYLOAD_CELL;
                if (process.env.DBG)
                    console.log(`gas ${name} with ${cells} cells: measured ${measured}, budget ${budget}`);
                expect({
                    name,
                    cells,
                    ok: measured <= budget && budget <= Math.ceil(measured * 1.15),
                    measured,
                }).toEqual({ name, cells, ok: true, measured });
                // what the lock or burn cost is paid out of its value, not by the proxy
                expect({ name, cells, paid: (await balanceOf(proxy)) >= before }).toEqual({ name, cells, paid: true });
            }
        }
    });

    it('tvm_evm.tlb: op codes are CRC32 of the scheme lines, as Op.tvmEvm and tvm_evm.tact have them', () => {
        const crc32 = (str: string) => {
            let crc = 0xffffffff;
            for (let n = 0; n < str.length; n++) {
                let c = (crc ^ str.charCodeAt(n)) & 0xff;
                for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
                crc = (crc >>> 8) ^ c;
            }
            return ((crc ^ 0xffffffff) >>> 0) & 0x7fffffff;
        };
        const dir = path.resolve(__dirname, '..', 'contracts', 'bridge');
        const tlb = fs.readFileSync(path.join(dir, 'tvm_evm.tlb'), 'utf8').replace(/\/\/.*$/gm, '');
        const tact = fs.readFileSync(path.join(dir, 'tvm_evm.tact'), 'utf8');
        const ops = new Set<number>(Object.values(Op.tvmEvm));
        let n = 0;
        for (const m of tlb.matchAll(/^(\w+)#([0-9a-f]{8})\s+([^;]*?);/gms)) {
            expect(crc32(`${m[1]} ${m[3].replace(/\s+/g, ' ').trim()}`)).toBe(parseInt(m[2], 16));
            expect(ops.has(parseInt(m[2], 16))).toBe(true);
            expect(tact).toContain(`0x${m[2]};`);
            n++;
        }
        expect(n).toBe(4);
        expect(USER_NATIVE).toBeGreaterThan(0n);
    });
});
