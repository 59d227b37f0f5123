import hre from 'hardhat';
import '@ton/test-utils';
import { Address, beginCell, Cell } from '@ton/core';
import { SendMessageResult } from '@ton/sandbox';
import { AbiCoder, Contract, EventFragment, Interface, TransactionReceipt } from 'ethers';
import {
    bytesCell,
    convertEventData,
    decodeEventAbi,
    DEFAULT_EVM_FLAGS,
    describeFlags,
    encodeEventAbi,
    eventAbiOf,
    EvmFlags,
    readSnakeBytes,
    snakeBytes,
} from '../harness/evm/eventData';
import { evmTvmSetup, tvmRecipient } from '../harness/evm/fixture';
import { EvmRelayService } from '../harness/evm/relay';
import { OpEvm } from '../wrappers/constants';
import {
    parseAlienTransfer,
    parseNativeTransfer,
    parseOnEvmEventConfirmedExtended,
} from '../wrappers/EvmTvmEventConfiguration';
import { depositParams } from '../wrappers/evm/MultiVault';

const coder = AbiCoder.defaultAbiCoder();

function event(sig: string): EventFragment {
    return EventFragment.from(sig);
}

async function mined(tx: Promise<{ wait(): Promise<TransactionReceipt | null> }>): Promise<TransactionReceipt> {
    const r = await (await tx).wait();
    if (!r) throw new Error('no receipt');
    return r;
}

describe('eventData: EVM log data -> TVM cell', () => {
    describe('types', () => {
        it('should convert integers, address, bool and fixed bytes to their bit widths', () => {
            const e = event(
                'event T(uint8 a, uint256 b, int16 c, address d, bool e, bytes4 f, uint g, int h, uint256 i)',
            );
            const addr = '0x00000000000000000000000000000000000000ab';
            const data = coder.encode(e.inputs, [255, 2n ** 255n, -3, addr, true, '0xdeadbeef', 7n, -1n, 9n]);
            const s = convertEventData(e, data, 0).beginParse();
            expect(s.loadUint(8)).toBe(255);
            expect(s.loadUintBig(256)).toBe(2n ** 255n);
            // 8 + 256 + 16 + 160 + 1 + 32 + 256 + 256 = 985 bits; i (256 more) does not fit: next cell
            expect(s.loadInt(16)).toBe(-3);
            expect(s.loadUintBig(160)).toBe(0xabn);
            expect(s.loadBit()).toBe(true);
            expect(s.loadBuffer(4).toString('hex')).toBe('deadbeef');
            expect(s.loadUintBig(256)).toBe(7n);
            expect(s.loadIntBig(256)).toBe(-1n);
            expect(s.remainingBits).toBe(0);
            expect(s.remainingRefs).toBe(1);
            const n = s.loadRef().beginParse();
            expect(n.loadUintBig(256)).toBe(9n);
            expect(n.remainingBits).toBe(0);
        });

        it('should convert string to a snake reference (127 bytes a cell) and bytes to a snake, or to the root of its BOC', () => {
            const e = event('event T(string s, bytes b)');
            const long = 'x'.repeat(300);
            const boc = beginCell().storeUint(0xabcd, 16).storeRef(beginCell().storeUint(1, 1)).endCell();
            const bocHex = '0x' + boc.toBoc().toString('hex');
            const data = coder.encode(e.inputs, [long, bocHex]);

            const plain = convertEventData(e, data, 0).beginParse();
            const str = plain.loadRef();
            expect(readSnakeBytes(str).toString()).toBe(long);
            expect(str.bits.length).toBe(127 * 8);
            expect(str.refs[0].refs[0].bits.length).toBe((300 - 254) * 8);
            expect(readSnakeBytes(plain.loadRef()).equals(boc.toBoc())).toBe(true);

            const asBoc = convertEventData(e, data, EvmFlags.BytesAsBoc).beginParse();
            asBoc.loadRef();
            expect(asBoc.loadRef().equals(boc)).toBe(true);
            // empty bytes: an empty cell either way
            const empty = coder.encode(e.inputs, ['', '0x']);
            for (const f of [0, EvmFlags.BytesAsBoc]) {
                const s = convertEventData(e, empty, f).beginParse();
                expect(s.loadRef().equals(beginCell().endCell())).toBe(true);
                expect(s.loadRef().equals(beginCell().endCell())).toBe(true);
            }
            expect(() => bytesCell(Buffer.from('not a boc'), EvmFlags.BytesAsBoc)).toThrow();
            expect(snakeBytes(Buffer.alloc(0)).equals(beginCell().endCell())).toBe(true);
        });

        it('should merge int8 X_wid + uint256 X_addr into MsgAddressInt only with AddressPairs, and only for such pairs', () => {
            const e = event('event T(int8 recipient_wid, uint256 recipient_addr, int8 other_wid, uint256 wrong_addr)');
            const data = coder.encode(e.inputs, [-1, 0x1234n, 0, 5n]);
            const withPairs = convertEventData(e, data, EvmFlags.AddressPairs).beginParse();
            expect(withPairs.loadAddress().equals(Address.parse('-1:' + '1234'.padStart(64, '0')))).toBe(true);
            expect(withPairs.loadInt(8)).toBe(0); // names do not pair: left as they are
            expect(withPairs.loadUintBig(256)).toBe(5n);
            const without = convertEventData(e, data, 0).beginParse();
            expect(without.loadInt(8)).toBe(-1);
            expect(without.loadUintBig(256)).toBe(0x1234n);
        });

        it('should refuse types it does not convert and indexed parameters', () => {
            expect(() =>
                convertEventData(event('event T(uint256[] a)'), coder.encode(['uint256[]'], [[1n]]), 0),
            ).toThrow(/not supported/);
            expect(() => convertEventData(event('event T(uint256 indexed a)'), '0x', 0)).toThrow(/indexed/);
        });
    });

    describe('packing', () => {
        it('should continue in a new cell, referenced last, when bits or references run out', () => {
            const e = event('event T(string a, string b, string c, string d, uint8 x)');
            const data = coder.encode(e.inputs, ['a', 'b', 'c', 'd', 9]);
            const root = convertEventData(e, data, 0);
            expect(root.refs).toHaveLength(4);
            expect(root.bits.length).toBe(0);
            const next = root.refs[3].beginParse();
            expect(readSnakeBytes(next.loadRef()).toString()).toBe('d');
            expect(next.loadUint(8)).toBe(9);
        });
    });

    describe('eventABI and flags', () => {
        it('should carry the event ABI as base64 JSON and read it back', async () => {
            const iface = new Interface((await hre.artifacts.readArtifact('MultiVault')).abi);
            const abi = eventAbiOf(iface, 'AlienTransfer');
            expect(JSON.parse(Buffer.from(abi, 'base64').toString()).name).toBe('AlienTransfer');
            const back = decodeEventAbi(abi);
            expect(back.format('sighash')).toBe(iface.getEvent('AlienTransfer')!.format('sighash'));
            expect(decodeEventAbi(encodeEventAbi(back)).topicHash).toBe(back.topicHash);
        });

        it('should describe flags readably', () => {
            expect(describeFlags(0)).toBe('none');
            expect(describeFlags(DEFAULT_EVM_FLAGS)).toBe('address_pairs|bytes_as_boc');
            expect(describeFlags(EvmFlags.BytesAsBoc)).toBe('bytes_as_boc');
            expect(describeFlags(8)).toBe('unknown(0x8)');
        });
    });

    describe('the contracts read every flags combination (evm.tlb layouts)', () => {
        const PAYLOAD_CELL = beginCell().storeUint(0xbeef, 16).endCell();
        const PAYLOAD = '0x' + PAYLOAD_CELL.toBoc().toString('hex');
        for (const flags of [0, 1, 2, 3]) {
            it(`should decode AlienTransfer and NativeTransfer with flags ${describeFlags(flags)}`, async () => {
                const s = await evmTvmSetup(hre, { flags });
                const user = s.evm.signers.user;
                // alien: an ERC-20 lock
                await mined((s.evm.token.connect(user) as Contract).getFunction('approve')(s.evm.vaultAddress, 300n));
                await mined(
                    s.evm.vaultAs(user).getFunction('deposit')(
                        depositParams(tvmRecipient(s.recipient.address), s.evm.tokenAddress, 300n, {
                            expectedGas: 4n,
                            payload: PAYLOAD,
                        }),
                        { value: 3n },
                    ),
                );
                // native: a representation burned
                const root = { wid: -1, addr: 0x77n };
                const { governance } = s.evm.signers;
                await mined(
                    s.evm.vaultAs(governance).getFunction('deployNativeToken')(root.wid, root.addr, 'N', 'N', 9),
                );
                const token: string = await s.evm.vault.getFunction('predictNativeTokenAddress')(root.wid, root.addr);
                await mined(s.evm.vaultAs(governance).getFunction('testMintNative')(token, user.address, 1000n));
                await mined(
                    s.evm.vaultAs(user).getFunction('deposit')(
                        depositParams(tvmRecipient(s.recipient.address), token, 200n, {
                            expectedGas: 6n,
                            payload: PAYLOAD,
                        }),
                    ),
                );
                await s.evm.mine(2);

                const expectPayload = (c: Cell | null) => {
                    if (flags & EvmFlags.BytesAsBoc) expect(c!.equals(PAYLOAD_CELL)).toBe(true);
                    else expect(readSnakeBytes(c!).equals(PAYLOAD_CELL.toBoc())).toBe(true);
                };
                const forwarded = (r: SendMessageResult) => {
                    const bodies = r.transactions.map((t) => t.inMessage?.body).filter((b): b is Cell => !!b);
                    const b = bodies.find(
                        (x) => x.bits.length >= 32 && x.beginParse().loadUint(32) === OpEvm.onEvmEventConfirmedExtended,
                    );
                    return parseOnEvmEventConfirmedExtended(b!);
                };

                const [a] = await new EvmRelayService(
                    s.evm,
                    s.blockchain,
                    s.alienConfiguration,
                    s.relays,
                    s.relayer,
                ).poll();
                const alien = parseAlienTransfer(forwarded(a.votes[a.votes.length - 1]).transfer);
                expect(alien).toMatchObject({
                    amount: 300n,
                    value: 3n,
                    expectedGas: 4n,
                    name: 'Test Token',
                    symbol: 'TST',
                    decimals: 6,
                });
                expect(alien.recipient.equals(s.recipient.address)).toBe(true);
                expectPayload(alien.payload);

                const [n] = await new EvmRelayService(
                    s.evm,
                    s.blockchain,
                    s.nativeConfiguration,
                    s.relays,
                    s.relayer,
                ).poll();
                const native = parseNativeTransfer(forwarded(n.votes[n.votes.length - 1]).transfer);
                expect(native).toMatchObject({ amount: 200n, value: 0n, expectedGas: 6n });
                expect(native.token.equals(Address.parse('-1:' + '77'.padStart(64, '0')))).toBe(true);
                expectPayload(native.payload);
            });
        }
    });
});
