/**
 * TransactionChecker on a synthetic chain (harness/chain.ts): real sandbox transactions placed in
 * masterchain and basechain blocks, signed by a synthetic validator set that a real LiteClient holds.
 */
import { Blockchain, internal, SandboxContract, SendMessageResult, TreasuryContract } from '@ton/sandbox';
import { Address, beginCell, Cell, Dictionary, toNano } from '@ton/core';
import { compiledCode } from '../wrappers/compiled';
import '@ton/test-utils';
import { makeValidatorSet, ValidatorSet } from '../harness/validators';
import { SyntheticChain } from '../harness/chain';
import {
    buildBlockInfo,
    buildMasterchainBlock,
    buildShardBlock,
    buildShardDescr,
    buildStateUpdate,
    BuiltBlock,
} from '../harness/blocks';
import { blockHeaderProof, buildMerkleProof, masterchainProofWithShard, transactionProof } from '../harness/proofs';
import { buildSignaturesCell, signBlock } from '../harness/signatures';
import { sha256 } from '../harness/validators';
import { keepTxCells } from '../harness/checkerRequests';
import { LiteClient } from '../wrappers/LiteClient';
import {
    checkerValidatorSet,
    checkerWorldOnce,
    CheckerWorld,
    GLOBAL_ID,
    sandboxTransactions,
    T0,
} from './transaction_checker.fixture';
import { TransactionChecker, tcRequiredValue } from '../wrappers/TransactionChecker';
import { Errors, Op } from '../wrappers/constants';
import {
    contractDataHex,
    flipByte,
    junkTree,
    replaceAt,
    requestFwdFee,
    tcSeenFwdFee,
} from './transaction_checker.util';

function currentBlock(proof: Cell, signatures: Cell): Cell {
    return TransactionChecker.currentBlockCell(proof, signatures);
}

describe('TransactionChecker (synthetic chain)', () => {
    let tcCode: Cell;
    let txs: Cell[];
    let set: ValidatorSet;
    /** the LiteClient and the checker deployed once, restored for each test (checkerWorldOnce) */
    let world: () => Promise<CheckerWorld>;

    beforeAll(async () => {
        tcCode = compiledCode('TransactionChecker');
        txs = await sandboxTransactions(6);
        set = checkerValidatorSet('tc');
        world = checkerWorldOnce(set);
    });

    let blockchain: Blockchain;
    let chain: SyntheticChain;
    let user: SandboxContract<TreasuryContract>;
    let liteClient: SandboxContract<LiteClient>;
    let checker: SandboxContract<TransactionChecker>;

    beforeEach(async () => {
        ({ blockchain, chain, liteClient, checker, initialData } = await world());
        user = await blockchain.treasury('user');
    });

    let initialData: string;
    /** the checker's persistent data (hex BOC): the LiteClient's address, nothing per request */
    const checkerData = () => contractDataHex(blockchain, checker.address);

    async function check(transaction: Cell, proof: Cell, current: Cell, value = toNano('1')) {
        return checker.sendCheckTransaction(user.getSender(), { transaction, proof, currentBlock: current, value });
    }

    function expectRejected(r: SendMessageResult, exitCode: number) {
        expect(r.transactions).toHaveTransaction({
            from: user.address,
            to: checker.address,
            op: Op.transactionChecker.checkTransaction,
            success: false,
            exitCode,
        });
        expect(r.transactions).not.toHaveTransaction({ from: checker.address, to: liteClient.address });
        // the failed check bounces the value back to the sender
        expect(r.transactions).toHaveTransaction({ from: checker.address, to: user.address, inMessageBounced: true });
    }

    function expectAccepted(r: SendMessageResult, transaction: Cell) {
        expect(r.transactions).toHaveTransaction({
            from: user.address,
            to: checker.address,
            op: Op.transactionChecker.checkTransaction,
            success: true,
            outMessagesCount: 1,
        });
        expect(r.transactions).toHaveTransaction({
            from: checker.address,
            to: liteClient.address,
            op: Op.liteClient.checkBlock,
            success: true,
        });
        expect(r.transactions).toHaveTransaction({
            from: liteClient.address,
            to: checker.address,
            op: Op.liteClient.correct,
            success: true,
        });
        expect(r.transactions).toHaveTransaction({
            from: checker.address,
            to: user.address,
            op: Op.transactionChecker.transactionChecked,
            body: TransactionChecker.transactionCheckedMessage(transaction),
        });
    }

    // ------------------------------------------------------------ accepted

    it('accepts a masterchain transaction end to end and returns the remaining value', async () => {
        const b = chain.blockWithTransactions([txs[0]]);
        const sent = toNano('1');
        const r = await check(b.transaction, b.txProof, b.currentBlock, sent);
        expectAccepted(r, b.transaction);
        const reply = r.transactions.find(
            (t) =>
                t.inMessage?.info.src?.toString() === checker.address.toString() &&
                t.inMessage?.info.dest?.toString() === user.address.toString(),
        )!;
        const back = reply.inMessage!.info.type === 'internal' ? reply.inMessage!.info.value.coins : 0n;
        // gas of the three contract transactions and forward fees stay well below 0.2 TON
        expect(back).toBeGreaterThan(sent - toNano('0.2'));
        // nothing is stored per request
        expect(await checkerData()).toEqual(initialData);
    });

    it('accepts a basechain transaction (shard block registered in the signed masterchain block)', async () => {
        const b = chain.blockWithTransactions([txs[1]], { shard: true });
        expect(b.shardBlock).toBeDefined();
        const r = await check(b.transaction, b.txProof, b.currentBlock);
        expectAccepted(r, b.transaction);
    });

    it('accepts every transaction of a block with several accounts and transactions', async () => {
        const b = chain.blockWithTransactions(txs.slice(0, 6));
        for (const t of b.transactions) {
            const r = await check(t.transaction, t.proof, b.currentBlock);
            expectAccepted(r, t.transaction);
        }
        const s = chain.blockWithTransactions(txs.slice(0, 6), { shard: true });
        for (const t of s.transactions) {
            const r = await check(t.transaction, t.proof, s.currentBlock);
            expectAccepted(r, t.transaction);
        }
        expect(await checkerData()).toEqual(initialData);
    });

    it('accepts a proof that keeps the Transaction cell itself', async () => {
        const b = chain.blockWithTransactions([txs[2]], { keepTransactionCell: true });
        const r = await check(b.transaction, b.txProof, b.currentBlock);
        expectAccepted(r, b.transaction);
    });

    it('accepts proofs that keep state_update as the Merkle update it is', async () => {
        const b = chain.blockWithTransactions([txs[0]]);
        const root = b.mcBlock.cell;
        const txProof = buildMerkleProof(root, {
            cells: [root, ...keepTxCells(root, b.transaction)],
            full: [root.refs[0], root.refs[2]],
        });
        const blockProof = buildMerkleProof(root, { full: [root.refs[0], root.refs[2]] });
        const r = await check(b.transaction, txProof, currentBlock(blockProof, b.signatures));
        expectAccepted(r, b.transaction);
    });

    it('walks a split workchain: BinTree forks down to the shard of the transaction (shard_descr_new#a)', async () => {
        const { txProofs, mcProof, signatures, tx, leftTx } = splitShardSetup(chain, set, txs);
        // right shard (prefix 1): accepted
        let r = await check(tx, txProofs.right, currentBlock(mcProof.right, signatures));
        expectAccepted(r, tx);
        // left shard (prefix 0, shard_descr#b): accepted
        r = await check(leftTx, txProofs.left, currentBlock(mcProof.left, signatures));
        expectAccepted(r, leftTx);
        // the right shard's proof with the masterchain proof that keeps only the left ShardDescr: 204
        r = await check(tx, txProofs.right, currentBlock(mcProof.left, signatures));
        expectRejected(r, Errors.transactionChecker.blockNotLinked);
        // a shard block that claims the left shard, whose ShardDescr names another root hash: 204
        r = await check(tx, txProofs.wrongShard, currentBlock(mcProof.right, signatures));
        expectRejected(r, Errors.transactionChecker.blockNotLinked);
    });

    // ------------------------------------------------------------ Merkle proof errors

    it('101: proof or block is an ordinary cell', async () => {
        const b = chain.blockWithTransactions([txs[0]]);
        // the whole block as an ordinary cell (a proof's inner root has level 1 and cannot be a message root)
        let r = await check(b.transaction, b.mcBlock.cell, b.currentBlock);
        expectRejected(r, Errors.merkle.notExotic);
        r = await check(b.transaction, b.txProof, currentBlock(b.mcBlock.cell, b.signatures));
        expectRejected(r, Errors.merkle.notExotic);
    });

    it('102: proof or block is an exotic cell that is not a Merkle proof (a Merkle update)', async () => {
        const b = chain.blockWithTransactions([txs[0]]);
        const update = buildStateUpdate(beginCell().storeUint(1, 8).endCell(), beginCell().storeUint(2, 8).endCell());
        let r = await check(b.transaction, update, b.currentBlock);
        expectRejected(r, Errors.merkle.notMerkleProof);
        r = await check(b.transaction, b.txProof, currentBlock(update, b.signatures));
        expectRejected(r, Errors.merkle.notMerkleProof);
    });

    it('103: a block whose state_update is kept but is not a Merkle update', async () => {
        const b = chain.blockWithTransactions([txs[0]]);
        // the signed block with an ordinary cell in place of state_update
        const ordinary = beginCell().storeUint(0x72, 8).storeUint(0, 256).endCell();
        const root1 = replaceAt(b.mcBlock.cell, [2], () => ordinary);
        let r = await check(
            b.transaction,
            b.txProof,
            currentBlock(buildMerkleProof(root1, { full: [root1.refs[0], ordinary] }), b.signatures),
        );
        expectRejected(r, Errors.merkle.notMerkleUpdate);
        // ... or a Merkle proof (exotic type 3) in its place
        const proofCell = blockHeaderProof(b.mcBlock);
        const root2 = replaceAt(b.mcBlock.cell, [2], () => proofCell);
        r = await check(
            b.transaction,
            b.txProof,
            currentBlock(buildMerkleProof(root2, { full: [root2.refs[0], proofCell] }), b.signatures),
        );
        expectRejected(r, Errors.merkle.notMerkleUpdate);
        // the same in the transaction proof
        const root3 = replaceAt(b.mcBlock.cell, [2], () => ordinary);
        const txProof = buildMerkleProof(root3, {
            cells: [root3, ...keepTxCells(root3, b.transaction)],
            full: [root3.refs[0], ordinary],
        });
        r = await check(b.transaction, txProof, b.currentBlock);
        expectRejected(r, Errors.merkle.notMerkleUpdate);
    });

    // ------------------------------------------------------------ TransactionChecker errors

    it('200: the transaction is not in the block', async () => {
        const b = chain.blockWithTransactions([txs[0]]);
        const r = await check(txs[3], b.txProof, b.currentBlock);
        expectRejected(r, Errors.transactionChecker.transactionNotFound);
    });

    it('200: the transaction is in the block, but its path is pruned in this proof', async () => {
        const b = chain.blockWithTransactions(txs.slice(0, 4));
        const other = b.transactions[3];
        const r = await check(other.transaction, b.transactions[0].proof, b.currentBlock);
        expectRejected(r, Errors.transactionChecker.transactionNotFound);
    });

    it('200: the transaction argument is not a Transaction', async () => {
        const b = chain.blockWithTransactions([txs[0]]);
        const r = await check(beginCell().storeUint(0, 32).endCell(), b.txProof, b.currentBlock);
        expectRejected(r, Errors.transactionChecker.transactionNotFound);
    });

    it('201: same account and lt, other contents', async () => {
        const b = chain.blockWithTransactions([txs[0]]);
        const forged = flipByte(b.transaction, 60); // inside prev_trans_hash
        const r = await check(forged, b.txProof, b.currentBlock);
        expectRejected(r, Errors.transactionChecker.invalidTransactionHash);
    });

    it('202: the block sent for signature checking is a shard block', async () => {
        const b = chain.blockWithTransactions([txs[0]], { shard: true });
        const shardHeader = blockHeaderProof(b.shardBlock!);
        const sigs = buildSignaturesCell(b.shardBlock!.fileHash, signBlock(b.shardBlock!, set));
        const r = await check(b.transaction, b.txProof, currentBlock(shardHeader, sigs));
        expectRejected(r, Errors.transactionChecker.blockNotMasterchain);
    });

    it('202: the block sent for signature checking has its BlockInfo pruned', async () => {
        const b = chain.blockWithTransactions([txs[0]]);
        const root = b.mcBlock.cell;
        const r = await check(b.transaction, b.txProof, currentBlock(buildMerkleProof(root, {}), b.signatures));
        expectRejected(r, Errors.transactionChecker.blockNotMasterchain);
    });

    it('203: correct or check_block_failed from anyone but the LiteClient (a context naming the forger)', async () => {
        const b = chain.blockWithTransactions([txs[0]]);
        const forger = await blockchain.treasury('forger');
        const context = beginCell().storeAddress(forger.address).storeRef(b.transaction).endCell();
        for (const body of [
            beginCell()
                .storeUint(Op.liteClient.correct, 32)
                .storeUint(0, 64)
                .storeBuffer(b.mcBlock.rootHash, 32)
                .storeRef(context)
                .endCell(),
            beginCell()
                .storeUint(Op.liteClient.checkBlockFailed, 32)
                .storeUint(0, 64)
                .storeUint(Errors.liteClient.invalidSignature, 16)
                .storeRef(context)
                .endCell(),
        ]) {
            const r = await forger.send({ to: checker.address, value: toNano('0.1'), body });
            expect(r.transactions).toHaveTransaction({
                from: forger.address,
                to: checker.address,
                success: false,
                exitCode: Errors.transactionChecker.senderNotLiteClient,
            });
            expect(r.transactions).not.toHaveTransaction({ from: checker.address, inMessageBounced: false });
        }
    });

    it('203: a forged correct while a check is in flight changes nothing; the real answer still arrives', async () => {
        const b = chain.blockWithTransactions([txs[0]]);
        const forger = await blockchain.treasury('forger');
        // stop after the check_transaction transaction: check_block is in flight, nothing is stored
        const it = await blockchain.sendMessageIter(
            internal({
                from: user.address,
                to: checker.address,
                value: toNano('1'),
                body: TransactionChecker.checkTransactionMessage(b.transaction, b.txProof, b.currentBlock),
            }),
        );
        const first = await it.next();
        expect(first.done).toBe(false);
        expect(await checkerData()).toEqual(initialData);
        const body = beginCell()
            .storeUint(Op.liteClient.correct, 32)
            .storeUint(0, 64)
            .storeBuffer(b.mcBlock.rootHash, 32)
            .storeRef(beginCell().storeAddress(forger.address).storeRef(b.transaction).endCell())
            .endCell();
        // the forged correct is rejected; sending it also runs the queued messages of the real flow
        const forged = await forger.send({ to: checker.address, value: toNano('0.1'), body });
        expect(forged.transactions).toHaveTransaction({
            from: forger.address,
            to: checker.address,
            success: false,
            exitCode: Errors.transactionChecker.senderNotLiteClient,
        });
        const all = [...forged.transactions];
        for (let n = await it.next(); !n.done; n = await it.next()) all.push(n.value);
        expect(all).toHaveTransaction({
            from: liteClient.address,
            to: checker.address,
            op: Op.liteClient.correct,
            success: true,
        });
        expect(all).toHaveTransaction({
            from: checker.address,
            to: user.address,
            op: Op.transactionChecker.transactionChecked,
        });
        // the forger gets its own bounce only
        expect(all).not.toHaveTransaction({ from: checker.address, to: forger.address, inMessageBounced: false });
    });

    // ------------------------------------------------------------ tying the proof to the signed block

    it('rejects a forged transaction proof (a block built around another transaction) with a genuinely signed block: 204', async () => {
        const genuine = chain.blockWithTransactions([txs[0]]);
        // the forger builds an unsigned block around a transaction that never happened on this chain
        const forgedBlock = buildMasterchainBlock({
            globalId: GLOBAL_ID,
            seqno: genuine.mcBlock.seqno,
            genUtime: genuine.mcBlock.genUtime,
            transactions: [txs[4]],
        });
        const forgedProof = transactionProof(forgedBlock, txs[4]);
        const r = await check(txs[4], forgedProof, genuine.currentBlock);
        expectRejected(r, Errors.transactionChecker.blockNotLinked);
    });

    it('rejects a forged shard block with a genuinely signed masterchain block: 204', async () => {
        const genuine = chain.blockWithTransactions([txs[0]], { shard: true });
        const forgedShard = buildShardBlock({
            globalId: GLOBAL_ID,
            seqno: genuine.shardBlock!.seqno,
            genUtime: genuine.shardBlock!.genUtime,
            transactions: [txs[4]],
        });
        const r = await check(txs[4], transactionProof(forgedShard, txs[4]), genuine.currentBlock);
        expectRejected(r, Errors.transactionChecker.blockNotLinked);
    });

    it('rejects a genuine shard transaction with a signed masterchain block that does not register its shard block: 204', async () => {
        const b = chain.blockWithTransactions([txs[0]], { shard: true });
        const later = chain.blockWithTransactions([txs[1]], { shard: true });
        let r = await check(b.transaction, b.txProof, later.currentBlock);
        expectRejected(r, Errors.transactionChecker.blockNotLinked);
        // a masterchain block without shard_hashes kept in its proof
        const empty = chain.emptyBlock();
        r = await check(b.transaction, b.txProof, currentBlock(empty.proof, empty.signatures));
        expectRejected(r, Errors.transactionChecker.blockNotLinked);
        // the right masterchain block, but its proof keeps only the header
        r = await check(b.transaction, b.txProof, currentBlock(blockHeaderProof(b.mcBlock), b.signatures));
        expectRejected(r, Errors.transactionChecker.blockNotLinked);
    });

    it('rejects a shard transaction proof whose BlockInfo is pruned: 204', async () => {
        const b = chain.blockWithTransactions([txs[0]], { shard: true });
        const root = b.shardBlock!.cell;
        const noInfo = buildMerkleProof(root, { cells: [root, ...keepTxCells(root, b.transaction)] });
        const r = await check(b.transaction, noInfo, b.currentBlock);
        expectRejected(r, Errors.transactionChecker.blockNotLinked);
    });

    it('208: a transaction of workchain 1, its shard block listed in a genuinely signed masterchain block', async () => {
        const b = chain.blockWithTransactions([txs[0]], { shard: true });
        const wc1 = buildShardBlock({
            globalId: GLOBAL_ID,
            workchain: 1,
            seqno: 7000,
            genUtime: b.mcBlock.genUtime,
            transactions: [txs[1]],
        });
        const mc = buildMasterchainBlock({
            globalId: GLOBAL_ID,
            seqno: b.mcBlock.seqno + 1,
            genUtime: b.mcBlock.genUtime + 1,
            shardBlocks: [b.shardBlock!, wc1],
            prevKeyBlockSeqno: chain.lastKeyBlock!.seqno,
        });
        const sigs = buildSignaturesCell(mc.fileHash, signBlock(mc, set));
        const r = await check(
            txs[1],
            transactionProof(wc1, txs[1]),
            currentBlock(masterchainProofWithShard(mc, wc1), sigs),
        );
        expectRejected(r, Errors.transactionChecker.notBasechain);
        // the basechain's shard block of the same signed block passes
        const ok = await check(
            b.transaction,
            transactionProof(b.shardBlock!, b.transaction),
            currentBlock(masterchainProofWithShard(mc, b.shardBlock!), sigs),
        );
        expectAccepted(ok, b.transaction);
        // the same signed block proven down to workchain 1 only: the basechain's entry of
        // shard_hashes is a pruned branch of the proof, so the lookup cannot show it (204)
        const r2 = await check(
            b.transaction,
            transactionProof(b.shardBlock!, b.transaction),
            currentBlock(masterchainProofWithShard(mc, wc1), sigs),
        );
        expectRejected(r2, Errors.transactionChecker.blockNotLinked);
    });

    it('209: a request that does not parse as its layout says (a missing reference, a short cell)', async () => {
        const b = chain.blockWithTransactions([txs[0]]);
        const bodies = [
            // check_transaction with the transaction only
            beginCell()
                .storeUint(Op.transactionChecker.checkTransaction, 32)
                .storeUint(1, 64)
                .storeRef(b.transaction)
                .endCell(),
            // current_block with the block proof only (no signatures)
            TransactionChecker.checkTransactionMessage(
                b.transaction,
                b.txProof,
                beginCell().storeRef(b.blockProof).endCell(),
                1n,
            ),
        ];
        for (const body of bodies) {
            const r = await user.send({ to: checker.address, value: toNano('1'), body });
            expectRejected(r, Errors.transactionChecker.malformedRequest);
        }
    });

    // ------------------------------------------------------------ LiteClient rejections

    it('a LiteClient rejection (signed weight below the cutoff) reaches the sender as transaction_check_failed', async () => {
        // 4 of 7 equal weights < 2/3
        const b = chain.blockWithTransactions([txs[0]], { signers: [0, 1, 2, 3] });
        const r = await check(b.transaction, b.txProof, b.currentBlock);
        // the LiteClient answers the refusal with its code instead of throwing
        expect(r.transactions).toHaveTransaction({
            from: checker.address,
            to: liteClient.address,
            op: Op.liteClient.checkBlock,
            success: true,
        });
        expect(r.transactions).toHaveTransaction({
            from: liteClient.address,
            to: checker.address,
            op: Op.liteClient.checkBlockFailed,
            success: true,
        });
        expect(r.transactions).toHaveTransaction({
            from: checker.address,
            to: user.address,
            op: Op.transactionChecker.transactionCheckFailed,
            body: TransactionChecker.transactionCheckFailedMessage(
                b.transaction,
                0n,
                Errors.liteClient.weightBelowCutoff,
            ),
            success: true,
        });
        expect(r.transactions).not.toHaveTransaction({ op: Op.transactionChecker.transactionChecked });
        expect(await checkerData()).toEqual(initialData);
    });

    it('a block signed by another set is rejected by the LiteClient: transaction_check_failed', async () => {
        const other = makeValidatorSet({ size: 7, seed: 'other', utimeSince: T0, utimeUntil: T0 + 1_000_000 });
        const b = chain.blockWithTransactions([txs[0]], { shard: true, signWith: other });
        const r = await check(b.transaction, b.txProof, b.currentBlock);
        expect(r.transactions).toHaveTransaction({
            from: checker.address,
            to: user.address,
            op: Op.transactionChecker.transactionCheckFailed,
            body: TransactionChecker.transactionCheckFailedMessage(
                b.transaction,
                0n,
                Errors.liteClient.invalidSignature,
            ),
        });
    });

    it('a block of another network is refused by the LiteClient: transaction_check_failed with 117', async () => {
        const foreign = new SyntheticChain({ globalId: GLOBAL_ID + 1, validators: set, startUtime: T0 + 10 });
        foreign.genesisKeyBlock();
        const b = foreign.blockWithTransactions([txs[0]], { shard: true });
        const r = await check(b.transaction, b.txProof, b.currentBlock, toNano('1'));
        expect(r.transactions).toHaveTransaction({
            from: checker.address,
            to: user.address,
            op: Op.transactionChecker.transactionCheckFailed,
            body: TransactionChecker.transactionCheckFailedMessage(b.transaction, 0n, Errors.liteClient.wrongGlobalId),
        });
    });

    it('a signature set that cannot be read (cell underflow in the LiteClient) is answered as 114', async () => {
        const b = chain.blockWithTransactions([txs[0]]);
        // block_signatures$_ file_hash:bits256 first:(Maybe ^SigNode): 8 bits only
        const broken = beginCell().storeUint(0, 8).endCell();
        const r = await check(b.transaction, b.txProof, currentBlock(b.blockProof, broken));
        expect(r.transactions).toHaveTransaction({
            from: checker.address,
            to: user.address,
            op: Op.transactionChecker.transactionCheckFailed,
            body: TransactionChecker.transactionCheckFailedMessage(
                b.transaction,
                0n,
                Errors.liteClient.invalidSignature,
            ),
        });
    });

    it('a LiteClient address without a contract: the bounce is ignored (it cannot name the sender) and nothing is stored', async () => {
        const nowhere = await blockchain.treasury('nowhere-owner');
        const lone = blockchain.openContract(
            TransactionChecker.createFromConfig({ liteClient: new Address(0, sha256(Buffer.from('nobody'))) }, tcCode),
        );
        await lone.sendDeploy(nowhere.getSender(), toNano('1'));
        const b = chain.blockWithTransactions([txs[0]]);
        const r = await lone.sendCheckTransaction(user.getSender(), {
            transaction: b.transaction,
            proof: b.txProof,
            currentBlock: b.currentBlock,
            value: toNano('1'),
        });
        expect(r.transactions).toHaveTransaction({
            to: lone.address,
            inMessageBounced: true,
            success: true,
            outMessagesCount: 0,
        });
        expect(r.transactions).not.toHaveTransaction({ from: lone.address, to: user.address });
        const st = (await blockchain.getContract(lone.address)).accountState;
        expect(
            st?.type === 'active' &&
                st.state.data!.equals(
                    TransactionChecker.createFromConfig(
                        { liteClient: new Address(0, sha256(Buffer.from('nobody'))) },
                        tcCode,
                    ).init!.data,
                ),
        ).toBe(true);
    });

    // ------------------------------------------------------------ value, getters, ops

    it('206: less than the fixed part plus three forward fees of the request; the value comes back', async () => {
        const b = chain.blockWithTransactions([txs[0]]);
        // the request's full forward fee, as its sender paid it
        const probe = await check(b.transaction, b.txProof, b.currentBlock, toNano('1'));
        const fee = requestFwdFee(probe, user.address);
        const required = tcRequiredValue(tcSeenFwdFee(fee));
        const before = await user.getBalance();
        const r = await check(b.transaction, b.txProof, b.currentBlock, required - 1n);
        expectRejected(r, Errors.transactionChecker.notEnoughValue);
        // the bounce brings back all but the checker's gas and the two forward fees
        expect(before - (await user.getBalance())).toBeLessThan(toNano('0.03'));
        const ok = await check(b.transaction, b.txProof, b.currentBlock, required);
        expectAccepted(ok, b.transaction);
    });

    it('206: a request grown with junk cells needs proportionally more', async () => {
        const b = chain.blockWithTransactions([txs[0]]);
        // 300 junk cells beside the signature list (a reference of BlockSignatures the LiteClient does not read)
        const junk = junkTree(300, 'junk-206');
        const withJunk = beginCell()
            .storeRef(b.blockProof)
            .storeRef(beginCell().storeSlice(b.signatures.beginParse()).storeRef(junk).endCell())
            .endCell();
        const small = requestFwdFee(await check(b.transaction, b.txProof, b.currentBlock, toNano('1')), user.address);
        const probe = await check(b.transaction, b.txProof, withJunk, toNano('3'));
        const big = requestFwdFee(probe, user.address);
        expect(big).toBeGreaterThan(small * 5n);
        let r = await check(b.transaction, b.txProof, withJunk, tcRequiredValue(tcSeenFwdFee(small)));
        expectRejected(r, Errors.transactionChecker.notEnoughValue);
        r = await check(b.transaction, b.txProof, withJunk, tcRequiredValue(tcSeenFwdFee(big)));
        expectAccepted(r, b.transaction);
    });

    it('get-methods: lite client address', async () => {
        expect((await checker.getLiteClient()).equals(liteClient.address)).toBe(true);
    });

    it('unknown op: 0xffff; a plain transfer is accepted', async () => {
        let r = await user.send({
            to: checker.address,
            value: toNano('0.1'),
            body: beginCell().storeUint(0x12345678, 32).endCell(),
        });
        expect(r.transactions).toHaveTransaction({
            from: user.address,
            to: checker.address,
            success: false,
            exitCode: Errors.common.wrongOp,
        });
        r = await user.send({ to: checker.address, value: toNano('0.1') });
        expect(r.transactions).toHaveTransaction({ from: user.address, to: checker.address, success: true });
    });
});

// ---------------------------------------------------------------- helpers

/**
 * A masterchain block whose shard_hashes split workchain 0 in two shards (prefix 0 / prefix 1),
 * each with its own shard block; the transaction sits in the right one (shard 0xC000000000000000).
 */
function splitShardSetup(chain: SyntheticChain, set: ValidatorSet, txs: Cell[]) {
    const tx = txs[0];
    const mk = (shard: bigint, t: Cell) => {
        const sb = buildShardBlock({ globalId: GLOBAL_ID, seqno: 5000, genUtime: T0 + 100, transactions: [t] });
        const info = buildBlockInfo({
            notMaster: true,
            keyBlock: false,
            seqno: 5000,
            shard: { workchain: 0, shard },
            genUtime: T0 + 100,
            startLt: sb.startLt,
            endLt: sb.endLt,
            prevKeyBlockSeqno: 0,
        });
        const cell = replaceAt(sb.cell, [0], () => info);
        const boc = cell.toBoc({ idx: false, crc32: true });
        return { ...sb, cell, boc, rootHash: cell.hash(0), fileHash: sha256(boc), shard } as BuiltBlock;
    };
    const left = mk(0x4000000000000000n, txs[1]);
    const right = mk(0xc000000000000000n, tx);
    // a block holding the transaction that claims the left shard: the left ShardDescr names another root hash
    const wrongShard = mk(0x4000000000000000n, tx);

    const leaf = (sb: BuiltBlock, tag: 0xa | 0xb) =>
        beginCell()
            .storeBit(false)
            .storeBuilder(buildShardDescr(sb, { regMcSeqno: 6000, tag }))
            .endCell();
    // left: shard_descr#b, right: shard_descr_new#a
    const fork = beginCell().storeBit(true).storeRef(leaf(left, 0xb)).storeRef(leaf(right, 0xa)).endCell();
    const dict = Dictionary.empty(Dictionary.Keys.Uint(32), Dictionary.Values.Cell());
    dict.set(0, fork);
    const dictRoot = beginCell().storeDictDirect(dict).endCell();

    // a masterchain block with one (unsplit) shard, then its shard_hashes root replaced
    const unsplit = buildShardBlock({ globalId: GLOBAL_ID, seqno: 5000, genUtime: T0 + 100, transactions: [txs[2]] });
    const base = buildMasterchainBlock({
        globalId: GLOBAL_ID,
        seqno: 6000,
        genUtime: T0 + 101,
        shardBlocks: [unsplit],
        prevKeyBlockSeqno: chain.lastKeyBlock!.seqno,
    });
    const mcCell = replaceAt(base.cell, [3, 3, 0], () => dictRoot);
    const mcBoc = mcCell.toBoc({ idx: false, crc32: true });
    const mc = { rootHash: mcCell.hash(0), fileHash: sha256(mcBoc) };
    const signatures = buildSignaturesCell(mc.fileHash, signBlock(mc, set));
    return {
        tx,
        signatures,
        leftTx: txs[1],
        txProofs: {
            right: transactionProof(right, tx),
            left: transactionProof(left, txs[1]),
            wrongShard: transactionProof(wrongShard, tx),
        },
        mcProof: {
            right: masterchainProofWithShard(mcCell, right.rootHash),
            left: masterchainProofWithShard(mcCell, left.rootHash),
        },
    };
}
