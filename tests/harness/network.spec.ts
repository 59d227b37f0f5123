/**
 * harness/network.ts, harness/transfer.ts, harness/actors.ts (SyncService) with real contracts only:
 * two simulated networks (-239 and 2000), a jetton on A, a LiteClient + TransactionChecker of A on
 * B, a minimal emitter standing in for a proxy (contracts/test/notification_emitter.fc: it answers
 * a jetton transfer notification with an external outbound message), the Transfer ID found from
 * the wallet transaction, its proof checked by B's TransactionChecker, and the sync service
 * following A's validator rotation.
 */
import { Address, beginCell, Cell, contractAddress, toNano } from '@ton/core';
import { SandboxContract, TreasuryContract } from '@ton/sandbox';
import { compiledCode } from '../../wrappers/compiled';
import '@ton/test-utils';
import { MAINNET_GLOBAL_ID, proofDataCell, readTxMessages, SECOND_GLOBAL_ID, TvmNetwork } from '../../harness/network';
import {
    buildProofPayload,
    buildTvmTvmEvent,
    decodeTvmTvmEvent,
    DEPLOY_EVENT_ABI,
    findTransferId,
    TvmTvmEventData,
} from '../../harness/transfer';
import { SyncService } from '../../harness/actors';
import { LiteClient } from '../../wrappers/LiteClient';
import { TransactionChecker } from '../../wrappers/TransactionChecker';
import { JettonMinter } from '../../wrappers/JettonMinter';
import { JettonWallet } from '../../wrappers/JettonWallet';
import { Op } from '../../wrappers/constants';

describe('harness: TVM networks, Transfer ID, proofs, sync', () => {
    let A: TvmNetwork;
    let B: TvmNetwork;
    let lcCode: Cell;
    let tcCode: Cell;
    let emitterCode: Cell;
    let userA: SandboxContract<TreasuryContract>;
    let adminA: SandboxContract<TreasuryContract>;
    let payerB: SandboxContract<TreasuryContract>;
    let minter: SandboxContract<JettonMinter>;
    let emitter: Address;
    let liteClientB: SandboxContract<LiteClient>;
    let checkerB: SandboxContract<TransactionChecker>;

    beforeAll(async () => {
        lcCode = compiledCode('LiteClient');
        tcCode = compiledCode('TransactionChecker');
        emitterCode = compiledCode('TestNotificationEmitter');
        A = await TvmNetwork.create({ globalId: MAINNET_GLOBAL_ID, name: 'A' });
        B = await TvmNetwork.create({ globalId: SECOND_GLOBAL_ID, name: 'B', validators: 20 });
        userA = await A.treasury('user');
        adminA = await A.treasury('admin');
        payerB = await B.treasury('payer');
        minter = A.blockchain.openContract(
            await JettonMinter.createFromConfig({
                owner: adminA.address,
                content: { name: 'Test', symbol: 'TST', decimals: 9 },
            }),
        );
        await minter.sendMint(adminA.getSender(), { to: userA.address, amount: 1_000_000n });
        const init = { code: emitterCode, data: beginCell().storeUint(7, 32).endCell() };
        emitter = contractAddress(0, init);
        await A.blockchain.sendMessage({
            info: {
                type: 'internal',
                src: adminA.address,
                dest: emitter,
                value: { coins: toNano('1') },
                bounce: false,
                bounced: false,
                ihrDisabled: true,
                ihrFee: 0n,
                forwardFee: 0n,
                createdAt: 0,
                createdLt: 0n,
            },
            init,
            body: Cell.EMPTY,
        });
        // A's LiteClient + TransactionChecker on B
        liteClientB = B.blockchain.openContract(LiteClient.createFromKeyBlock(A.chain.genesisKeyBlock().proof, lcCode));
        await liteClientB.sendDeploy(payerB.getSender(), toNano('1'));
        checkerB = B.blockchain.openContract(
            TransactionChecker.createFromConfig({ liteClient: liteClientB.address }, tcCode),
        );
        await checkerB.sendDeploy(payerB.getSender(), toNano('1'));
    });

    it('each network has its own global id in ConfigParam 19, its own validators and clock', async () => {
        expect(A.configGlobalId()).toBe(-239);
        expect(B.configGlobalId()).toBe(2000);
        expect(A.chain.globalId).toBe(-239);
        expect(A.chain.current.validators).toHaveLength(100);
        expect(A.chain.current.main).toBeGreaterThan(20);
        expect(B.chain.current.validators).toHaveLength(20);
        expect(A.chain.current.validators[0].publicKey.equals(B.chain.current.validators[0].publicKey)).toBe(false);
        expect(await liteClientB.getGlobalId()).toBe(-239);
        const t = A.now;
        A.advanceTime(30);
        expect(A.now).toBe(t + 30);
        expect(B.now).toBe(t);
        B.advanceTime(30);
    });

    async function sendToEmitter(eventBody: Cell) {
        const wallet = A.blockchain.openContract(await JettonWallet.createFromOwner(userA.address, minter.address));
        return wallet.sendTransfer(userA.getSender(), {
            to: emitter,
            amount: 1000n,
            responseDestination: userA.address,
            forwardTonAmount: toNano('0.1'),
            forwardPayload: eventBody,
        });
    }

    function sampleEvent(): TvmTvmEventData {
        return {
            tokenType: 'Native',
            destinationChainId: SECOND_GLOBAL_ID,
            amount: 1000n,
            recipient: userA.address,
            value: toNano('0.5'),
            expectedGas: toNano('0.1'),
            token: minter.address,
            nativeProxyWallet: emitter,
            name: 'Test',
            symbol: 'TST',
            decimals: 9,
            sender: userA.address,
            remainingGasTo: userA.address,
            payload: beginCell().storeUint(42, 8).endCell(),
        };
    }

    it('records every transaction, indexes by hash and by inbound message hash, walks the trace', async () => {
        const before = A.transactions.length;
        const r = await sendToEmitter(buildTvmTvmEvent(sampleEvent()));
        expect(A.transactions.length).toBe(before + r.transactions.length);
        const root = r.transactions[0];
        expect(root.inMessage!.info.type).toBe('external-in');
        expect(A.findTransaction(root.hash())).toBe(root);
        const inMsg = readTxMessages(root.raw).inMsg!;
        expect(A.findByInMessageHash(inMsg.hash())).toBe(root);
        const trace = A.trace(root);
        expect(new Set(trace.map((t) => t.hash().toString('hex')))).toEqual(
            new Set(r.transactions.map((t) => t.hash().toString('hex'))),
        );
    });

    it('finds the Transfer ID from the wallet transaction and from the external message hash', async () => {
        const event = sampleEvent();
        const r = await sendToEmitter(buildTvmTvmEvent(event));
        const proxyTx = r.transactions.find((t) => t.inMessage?.info.dest?.toString() === emitter.toString())!;
        expect(proxyTx.externals).toHaveLength(1);
        const byTx = findTransferId(A, r.transactions[0].hash(), emitter);
        const byMsg = findTransferId(A, readTxMessages(r.transactions[0].raw).inMsg!.hash().toString('hex'), emitter);
        expect(byTx.transferIdHex).toBe(proxyTx.hash().toString('hex'));
        expect(byMsg.transferIdHex).toBe(byTx.transferIdHex);
        expect(byTx.transferIdHex).not.toBe(r.transactions[0].hash().toString('hex'));
        expect(byTx.outMessageIndex).toBe(0);
        const [, ext] = [...proxyTx.outMessages][0];
        expect(ext.info.type).toBe('external-out');
        expect(byTx.messageHash.equals(readTxMessages(proxyTx.raw).outMsgs.get(0)!.hash())).toBe(true);
        const decoded = decodeTvmTvmEvent(byTx.eventBody);
        expect(decoded.payload!.equals(event.payload!)).toBe(true);
        expect(buildTvmTvmEvent(decoded).equals(buildTvmTvmEvent(event))).toBe(true);
        expect(
            decoded.recipient.equals(event.recipient) && decoded.amount === event.amount && decoded.name === 'Test',
        ).toBe(true);
        // another account, or an unknown start: no transfer
        expect(() => findTransferId(A, r.transactions[0].hash(), minter.address)).toThrow(/no transaction of/);
        expect(() => findTransferId(A, Buffer.alloc(32, 1), emitter)).toThrow(/no transaction or message/);
    });

    it("builds proofPayload; B's TransactionChecker accepts the proxy transaction of A", async () => {
        const event = sampleEvent();
        const r = await sendToEmitter(buildTvmTvmEvent(event));
        const found = findTransferId(A, r.transactions[0].hash(), emitter);
        const configuration = payerB.address; // any address: abiTx only carries it
        const built = buildProofPayload(A, found, { configuration, attachedValue: toNano('2'), queryId: 5n });
        const p = built.payload;
        expect(p.messageHash).toBe(found.messageHash.toString('hex'));
        expect(p.outMessageIndex).toBe(found.outMessageIndex);
        expect(p.event).toMatchObject({
            tokenType: 'Native',
            chainId: 2000,
            amount: '1000',
            value: toNano('0.5').toString(),
            decimals: 9,
            name: 'Test',
            symbol: 'TST',
            nativeProxyWallet: emitter.toRawString(),
        });
        expect(p.abiTx!.executionAddress).toBe(configuration.toRawString());
        expect(p.abiTx!.attachedValue).toBe(toNano('2').toString());
        expect(p.abiTx!.abiMethod).toBe('deployEvent');
        expect(JSON.parse(p.abiTx!.abi)).toEqual(JSON.parse(DEPLOY_EVENT_ABI));
        // the body: deploy_tvm_event#7f4a8d16 query_id msg_hash out_msg_index remaining_gas_to proof
        const s = Cell.fromBase64(p.abiTx!.tx).beginParse();
        expect(s.loadUint(32)).toBe(Op.bridge.deployTvmEvent);
        expect(s.loadUintBig(64)).toBe(5n);
        expect(s.loadUintBig(256)).toBe(BigInt('0x' + p.messageHash));
        expect(s.loadUint(16)).toBe(found.outMessageIndex);
        expect(s.loadAddress().equals(event.remainingGasTo)).toBe(true);
        const proof = s.loadRef();
        expect(
            proof.equals(proofDataCell(built.proven.transaction, built.proven.txProof, built.proven.currentBlock)),
        ).toBe(true);
        expect(Cell.fromBase64(p.txBlockProof).equals(built.proven.currentBlock)).toBe(true);
        expect(built.proven.transaction.hash().equals(found.transferId)).toBe(true);
        // the proof checks on the other network
        const c = await checkerB.sendCheckTransaction(payerB.getSender(), {
            transaction: built.proven.transaction,
            proof: built.proven.txProof,
            currentBlock: built.proven.currentBlock,
            value: toNano('1'),
        });
        expect(c.transactions).toHaveTransaction({
            from: checkerB.address,
            to: payerB.address,
            op: Op.transactionChecker.transactionChecked,
        });
    });

    it('proves a plain jetton transfer transaction of A on B (basechain shard block)', async () => {
        const wallet = A.blockchain.openContract(await JettonWallet.createFromOwner(userA.address, minter.address));
        const r = await wallet.sendTransfer(userA.getSender(), { to: adminA.address, amount: 5n });
        const tx = r.transactions.find((t) => t.inMessage?.info.dest?.toString() === wallet.address.toString())!;
        const p = A.proveTransaction(tx);
        expect(p.location!.holder.workchain).toBe(0);
        const c = await checkerB.sendCheckTransaction(payerB.getSender(), {
            transaction: p.transaction,
            proof: p.txProof,
            currentBlock: p.currentBlock,
            value: toNano('1'),
        });
        expect(c.transactions).toHaveTransaction({
            from: checkerB.address,
            to: payerB.address,
            op: Op.transactionChecker.transactionChecked,
        });
    });

    it('sync service: after A rotates its validators, B rejects new proofs until the LiteClient is synced', async () => {
        const snap = [A.snapshot(), B.snapshot()];
        const sync = new SyncService(A, B, liteClientB.address, payerB);
        expect(await sync.step()).toHaveLength(0);
        const oldSeqno = await liteClientB.getCurrentSeqNo();
        A.rotateValidators(undefined, { announce: true });
        expect(sync.behind).toBe(2);
        const wallet = A.blockchain.openContract(await JettonWallet.createFromOwner(userA.address, minter.address));
        const r = await wallet.sendTransfer(userA.getSender(), { to: adminA.address, amount: 5n });
        const p = A.proveTransaction(r.transactions[1]);
        const check = () =>
            checkerB.sendCheckTransaction(payerB.getSender(), {
                transaction: p.transaction,
                proof: p.txProof,
                currentBlock: p.currentBlock,
                value: toNano('1'),
            });
        let c = await check();
        expect(c.transactions).toHaveTransaction({
            from: checkerB.address,
            to: payerB.address,
            op: Op.transactionChecker.transactionCheckFailed,
        });
        const steps = await sync.step();
        expect(steps).toHaveLength(1); // the announcing key block is skipped
        expect(await liteClientB.getCurrentSeqNo()).toBeGreaterThan(oldSeqno);
        expect(await liteClientB.getCurrentEpochSince()).toBe(A.chain.current.utimeSince);
        c = await check();
        expect(c.transactions).toHaveTransaction({
            from: checkerB.address,
            to: payerB.address,
            op: Op.transactionChecker.transactionChecked,
        });
        // snapshots restore both the sandbox and the synthetic chain
        await A.loadFrom(snap[0]);
        await B.loadFrom(snap[1]);
        expect(A.chain.keyBlocks).toHaveLength(0);
        expect(await liteClientB.getCurrentSeqNo()).toBe(oldSeqno);
        expect(A.findTransaction(r.transactions[0].hash())).toBeUndefined();
    });
});
