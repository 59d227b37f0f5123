import hre from 'hardhat';
import { loadFixture, time } from '@nomicfoundation/hardhat-network-helpers';
import { SigningKey, ZeroAddress, computeAddress, concat, id, toBeHex } from 'ethers';
import { as, deployEvmContract } from '../../wrappers/evm/MultiVault';
import { packSignatures, recoverSigner, signDigest } from '../../wrappers/evm/withdrawals';
import { mined, revertReason } from './fixtures';
import { relayKeys } from './withdrawals.fixture';

/**
 * Bridge (evm/Bridge.sol): relay rounds for TVM -> EVM withdrawals. verifySignatures(digest, round,
 * signatures) passes with at least relays * 2 / 3 + 1 signatures of distinct, unbanned relays of the
 * round (signers ascending), before the round's ttl, outside emergency shutdown.
 */
const TTL = 3600;
const DIGEST = id('a withdrawal digest');

async function bridgeFixture() {
    const [deployer, owner, guardian, stranger] = await hre.ethers.getSigners();
    const bridge = await deployEvmContract(hre, 'Bridge', [owner.address, guardian.address, TTL], deployer);
    const keys = relayKeys(7, 'bridge');
    const end = (await time.latest()) + 1000;
    await mined(
        as(bridge, owner).setRoundRelays(
            3,
            keys.map((k) => computeAddress(k.publicKey)),
            end,
        ),
    );
    return { bridge, owner, guardian, stranger, keys, end, o: as(bridge, owner), gd: as(bridge, guardian) };
}

const sigs = (keys: SigningKey[], digest = DIGEST) => packSignatures(keys.map((k) => signDigest(k, digest)));
const addrOf = (k: SigningKey) => computeAddress(k.publicKey);

describe('Bridge (relay rounds, TVM -> EVM signatures)', () => {
    describe('rounds', () => {
        it('should store a round: relays ascending, end, ttl = end + roundTtl, required = relays * 2 / 3 + 1', async () => {
            const { bridge, keys, end } = await loadFixture(bridgeFixture);
            const r = await bridge.rounds(3);
            expect(Number(r.end)).toBe(end);
            expect(Number(r.ttl)).toBe(end + TTL);
            expect(Number(r.requiredSignatures)).toBe(5);
            expect(Number(r.relayCount)).toBe(7);
            const relays: string[] = await bridge.roundRelays(3);
            expect(relays).toEqual(keys.map(addrOf).sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1)));
            for (const k of keys) expect(await bridge.isRelay(3, addrOf(k))).toBe(true);
            expect(await bridge.isRelay(2, addrOf(keys[0]))).toBe(false);
            expect(await bridge.isRelay(3, ZeroAddress)).toBe(false);
            expect(Number(await bridge.lastRound())).toBe(3);
            expect((await bridge.roundNumbers()).map(Number)).toEqual([3]);
            // one relay: one signature required; 256 relays: 171
            const { o } = await loadFixture(bridgeFixture);
            await mined(o.setRoundRelays(4, [addrOf(keys[0])], end));
            expect(Number((await bridge.rounds(4)).requiredSignatures)).toBe(1);
        });

        it('should refuse a bad round: not the owner, not above the last, no relays or more than 256, a zero or duplicate relay, an end in the past', async () => {
            const { bridge, o, stranger, keys, end } = await loadFixture(bridgeFixture);
            const relays = keys.map(addrOf);
            expect(await revertReason(as(bridge, stranger).setRoundRelays(4, relays, end))).toBe(
                'Bridge: caller is not the owner',
            );
            expect(await revertReason(o.setRoundRelays(3, relays, end))).toBe('Bridge: round not above the last one');
            expect(await revertReason(o.setRoundRelays(2, relays, end))).toBe('Bridge: round not above the last one');
            expect(await revertReason(o.setRoundRelays(4, [], end))).toBe('Bridge: 1 to 256 relays');
            const many = Array.from({ length: 257 }, (_, i) => toBeHex(i + 1, 20));
            expect(await revertReason(o.setRoundRelays(4, many, end))).toBe('Bridge: 1 to 256 relays');
            expect(await revertReason(o.setRoundRelays(4, [...relays, ZeroAddress], end))).toBe('Bridge: zero relay');
            expect(await revertReason(o.setRoundRelays(4, [...relays, relays[2]], end))).toBe(
                'Bridge: duplicate relay',
            );
            expect(await revertReason(o.setRoundRelays(4, relays, (await time.latest()) - 1))).toBe(
                'Bridge: round end in the past',
            );
            // 256 relays are fine; gaps in round numbers too
            await mined(
                o.setRoundRelays(
                    10,
                    Array.from({ length: 256 }, (_, i) => toBeHex(i + 1, 20)),
                    end,
                ),
            );
            expect(Number((await bridge.rounds(10)).requiredSignatures)).toBe(171);
        });

        it('should apply a new roundTtl to rounds set later only', async () => {
            const { bridge, o, stranger, keys, end } = await loadFixture(bridgeFixture);
            expect(await revertReason(as(bridge, stranger).setRoundTtl(5))).toBe('Bridge: caller is not the owner');
            await mined(o.setRoundTtl(5));
            await mined(o.setRoundRelays(4, keys.map(addrOf), end));
            expect(Number((await bridge.rounds(3)).ttl)).toBe(end + TTL);
            expect(Number((await bridge.rounds(4)).ttl)).toBe(end + 5);
        });
    });

    describe('verifySignatures', () => {
        it('should pass with the required signatures of the round, and with all of them', async () => {
            const { bridge, keys } = await loadFixture(bridgeFixture);
            await bridge.verifySignatures(DIGEST, 3, sigs(keys.slice(0, 5)));
            await bridge.verifySignatures(DIGEST, 3, sigs(keys));
        });

        it('should refuse too few signatures: "Bridge: not enough signatures"', async () => {
            const { bridge, keys } = await loadFixture(bridgeFixture);
            expect(await revertReason(bridge.verifySignatures(DIGEST, 3, sigs(keys.slice(0, 4))))).toBe(
                'Bridge: not enough signatures',
            );
            expect(await revertReason(bridge.verifySignatures(DIGEST, 3, '0x'))).toBe('Bridge: not enough signatures');
        });

        it('should not count non-relays, signatures of another digest, or a past round\'s keys: "Bridge: not enough relay signatures"', async () => {
            const { bridge, o, keys, end } = await loadFixture(bridgeFixture);
            const strangers = relayKeys(3, 'strangers');
            expect(
                await revertReason(bridge.verifySignatures(DIGEST, 3, sigs([...keys.slice(0, 4), ...strangers]))),
            ).toBe('Bridge: not enough relay signatures');
            // signatures of another digest recover to other addresses (ordered by what they recover to)
            const other = keys
                .map((k) => signDigest(k, id('another')))
                .map((x) => ({ ...x, signer: recoverSigner(DIGEST, x) }));
            expect(await revertReason(bridge.verifySignatures(DIGEST, 3, packSignatures(other)))).toBe(
                'Bridge: not enough relay signatures',
            );
            // round 4 has new relays: round 3's keys do not count for an event of round 4
            const next = relayKeys(7, 'next');
            await mined(o.setRoundRelays(4, next.map(addrOf), end + 100));
            expect(await revertReason(bridge.verifySignatures(DIGEST, 4, sigs(keys)))).toBe(
                'Bridge: not enough relay signatures',
            );
            await bridge.verifySignatures(DIGEST, 4, sigs(next.slice(0, 5)));
            // round 3 is still valid for its own events (its ttl has not passed)
            await bridge.verifySignatures(DIGEST, 3, sigs(keys.slice(0, 5)));
        });

        it('should count a relay once: signers must be strictly ascending', async () => {
            const { bridge, keys } = await loadFixture(bridgeFixture);
            const five = keys.slice(0, 5).map((k) => signDigest(k, DIGEST));
            const sorted = [...five].sort((a, b) => (BigInt(a.signer) < BigInt(b.signer) ? -1 : 1));
            const pack = (xs: typeof five) => concat(xs.map((x) => concat([x.r, x.s, toBeHex(x.v, 1)])));
            // a duplicate (the same relay twice)
            expect(
                await revertReason(
                    bridge.verifySignatures(DIGEST, 3, pack([sorted[0], sorted[0], ...sorted.slice(1)])),
                ),
            ).toBe('Bridge: signers not ascending');
            // out of order
            expect(await revertReason(bridge.verifySignatures(DIGEST, 3, pack([...sorted].reverse())))).toBe(
                'Bridge: signers not ascending',
            );
        });

        it('should refuse an invalid signature, a malformed list, an unknown round', async () => {
            const { bridge, keys } = await loadFixture(bridgeFixture);
            const good = keys.slice(0, 5).map((k) => signDigest(k, DIGEST));
            const bad = { ...good[0], v: 29 };
            const pack = (xs: typeof good) => concat(xs.map((x) => concat([x.r, x.s, toBeHex(x.v, 1)])));
            expect(await revertReason(bridge.verifySignatures(DIGEST, 3, pack([bad, ...good.slice(1)])))).toBe(
                'Bridge: invalid signature',
            );
            expect(await revertReason(bridge.verifySignatures(DIGEST, 3, sigs(keys) + '00'))).toBe(
                'Bridge: malformed signatures',
            );
            expect(await revertReason(bridge.verifySignatures(DIGEST, 9, sigs(keys)))).toBe('Bridge: unknown round');
        });

        it('should refuse a round whose ttl has passed: "Bridge: round expired"', async () => {
            const { bridge, keys, end } = await loadFixture(bridgeFixture);
            await time.increaseTo(end + TTL);
            await bridge.verifySignatures(DIGEST, 3, sigs(keys));
            await time.increaseTo(end + TTL + 1);
            expect(await revertReason(bridge.verifySignatures(DIGEST, 3, sigs(keys)))).toBe('Bridge: round expired');
        });
    });

    describe('emergency and bans', () => {
        it('should fail every verification in emergency shutdown: on by the guardian or the owner, off by the owner only', async () => {
            const { bridge, o, gd, stranger, keys } = await loadFixture(bridgeFixture);
            expect(await revertReason(as(bridge, stranger).setEmergencyShutdown(true))).toBe(
                'Bridge: caller is not guardian or owner',
            );
            await mined(gd.setEmergencyShutdown(true));
            expect(await revertReason(bridge.verifySignatures(DIGEST, 3, sigs(keys)))).toBe(
                'Bridge: emergency shutdown',
            );
            expect(await revertReason(gd.setEmergencyShutdown(false))).toBe('Bridge: caller is not the owner');
            await mined(o.setEmergencyShutdown(false));
            await bridge.verifySignatures(DIGEST, 3, sigs(keys));
        });

        it('should not count a banned relay in any round alive or set later (required unchanged); only the owner unbans', async () => {
            const { bridge, o, gd, stranger, keys, end } = await loadFixture(bridgeFixture);
            const five = keys.slice(0, 5);
            expect(await revertReason(as(bridge, stranger).banRelays([addrOf(five[0])]))).toBe(
                'Bridge: caller is not guardian or owner',
            );
            await mined(gd.banRelays([addrOf(five[0])]));
            expect(await bridge.isBanned(addrOf(five[0]))).toBe(true);
            expect(await bridge.isRelay(3, addrOf(five[0]))).toBe(false);
            expect(await revertReason(bridge.verifySignatures(DIGEST, 3, sigs(five)))).toBe(
                'Bridge: not enough relay signatures',
            );
            // the others still make it: 5 of the 6 unbanned
            await bridge.verifySignatures(DIGEST, 3, sigs(keys.slice(1, 6)));
            expect(Number((await bridge.rounds(3)).requiredSignatures)).toBe(5);
            // a round set later with the banned relay: masked at once
            await mined(o.setRoundRelays(4, keys.map(addrOf), end + 10));
            expect(await bridge.isRelay(4, addrOf(five[0]))).toBe(false);
            expect(await revertReason(bridge.verifySignatures(DIGEST, 4, sigs(five)))).toBe(
                'Bridge: not enough relay signatures',
            );
            // unban: owner only
            expect(await revertReason(gd.unbanRelays([addrOf(five[0])]))).toBe('Bridge: caller is not the owner');
            await mined(o.unbanRelays([addrOf(five[0])]));
            await bridge.verifySignatures(DIGEST, 3, sigs(five));
            await bridge.verifySignatures(DIGEST, 4, sigs(five));
        });
    });

    describe('roles', () => {
        it('should move ownership in two steps and set the guardian (owner only, not zero)', async () => {
            const { bridge, o, stranger, guardian } = await loadFixture(bridgeFixture);
            expect(await revertReason(as(bridge, stranger).transferOwnership(stranger.address))).toBe(
                'Bridge: caller is not the owner',
            );
            await mined(o.transferOwnership(stranger.address));
            expect(await revertReason(as(bridge, guardian).acceptOwnership())).toBe(
                'Bridge: caller is not the pending owner',
            );
            await mined(as(bridge, stranger).acceptOwnership());
            expect(await bridge.owner()).toBe(stranger.address);
            expect(await revertReason(o.setGuardian(stranger.address))).toBe('Bridge: caller is not the owner');
            expect(await revertReason(as(bridge, stranger).setGuardian(ZeroAddress))).toBe('Bridge: zero address');
            await mined(as(bridge, stranger).setGuardian(stranger.address));
            expect(await bridge.guardian()).toBe(stranger.address);
        });

        it('should refuse zero addresses at deployment', async () => {
            const [deployer, owner] = await hre.ethers.getSigners();
            expect(
                await revertReason(deployEvmContract(hre, 'Bridge', [ZeroAddress, owner.address, TTL], deployer)),
            ).toBe('Bridge: zero address');
            expect(
                await revertReason(deployEvmContract(hre, 'Bridge', [owner.address, ZeroAddress, TTL], deployer)),
            ).toBe('Bridge: zero address');
        });
    });
});
