import { Blockchain, SandboxContract, TreasuryContract } from '@ton/sandbox';
import { Address, beginCell, Transaction } from '@ton/core';
import { flattenTransaction } from '@ton/test-utils';
import '@ton/test-utils';
import { benchBlockchain, GasSection } from '../../harness/bench';
import { JettonMinter } from '../../wrappers/JettonMinter';
import { JettonWallet } from '../../wrappers/JettonWallet';
import { Op } from '../../wrappers/constants';

/**
 * Gas of the jetton's paths (contracts/jetton): each row is one transaction's compute gas; notes give
 * the fees of the whole chain of messages (sum of total_fees of the jetton's transactions, nanoton).
 * The constants in contracts/jetton/gas.tact are pinned by tests/jetton.spec.ts ('gas constants').
 */
const section = new GasSection('Jetton (TEP-74, Tact)');

function gasUsed(tx: Transaction): number {
    if (tx.description.type !== 'generic' || tx.description.computePhase.type !== 'vm')
        throw new Error('no compute phase');
    return Number(tx.description.computePhase.gasUsed);
}

function txOf(txs: Transaction[], to: Address, op?: number): Transaction {
    const found = txs.filter((tx) => {
        const f = flattenTransaction(tx);
        return f.to?.equals(to) && (op === undefined || f.op === op);
    });
    if (found.length !== 1) throw new Error(`expected one transaction to ${to}, found ${found.length}`);
    return found[0];
}

/** total fees of the transactions on the given contracts */
function fees(txs: Transaction[], on: Address[]): bigint {
    return txs
        .filter((tx) => on.some((a) => flattenTransaction(tx).on?.equals(a)))
        .reduce((sum, tx) => sum + tx.totalFees.coins, 0n);
}

describe('bench: jetton', () => {
    let blockchain: Blockchain;
    let owner: SandboxContract<TreasuryContract>;
    let alice: SandboxContract<TreasuryContract>;
    let bob: SandboxContract<TreasuryContract>;
    let minter: SandboxContract<JettonMinter>;
    const walletOf = async (who: Address) =>
        blockchain.openContract(await JettonWallet.createFromOwner(who, minter.address));
    const payload = beginCell().storeUint(0xabcdef, 64).endCell();

    beforeAll(async () => {
        blockchain = await benchBlockchain();
        owner = await blockchain.treasury('owner');
        alice = await blockchain.treasury('alice');
        bob = await blockchain.treasury('bob');
        minter = blockchain.openContract(
            await JettonMinter.createFromConfig({
                owner: owner.address,
                content: { name: 'Bench', symbol: 'BNC', decimals: 9 },
            }),
        );
        await minter.sendDeploy(owner.getSender());
    });

    afterAll(() => section.write());

    it('mint', async () => {
        const aliceWallet = await walletOf(alice.address);
        const first = await minter.sendMint(owner.getSender(), {
            to: alice.address,
            amount: 1000n,
            responseDestination: owner.address,
        });
        const all = [minter.address, aliceWallet.address];
        section.record({
            path: 'JettonMinter.mint',
            gas: gasUsed(txOf(first.transactions, minter.address)),
            notes: `chain fees ${fees(first.transactions, all)} (new wallet)`,
        });
        section.record({
            path: 'JettonWallet.internal_transfer (mint, deploys the wallet, excesses)',
            gas: gasUsed(txOf(first.transactions, aliceWallet.address)),
        });
        const again = await minter.sendMint(owner.getSender(), {
            to: alice.address,
            amount: 1000n,
            responseDestination: owner.address,
            forwardTonAmount: 1n,
            forwardPayload: payload,
        });
        section.record({
            path: 'JettonMinter.mint (forward payload)',
            gas: gasUsed(txOf(again.transactions, minter.address)),
            notes: `chain fees ${fees(again.transactions, all)}`,
        });
        section.record({
            path: 'JettonWallet.internal_transfer (mint, notification + excesses)',
            gas: gasUsed(txOf(again.transactions, aliceWallet.address)),
        });
    });

    it('transfer', async () => {
        const aliceWallet = await walletOf(alice.address);
        const bobWallet = await walletOf(bob.address);
        const all = [aliceWallet.address, bobWallet.address];
        const first = await aliceWallet.sendTransfer(alice.getSender(), {
            to: bob.address,
            amount: 10n,
            responseDestination: alice.address,
            forwardTonAmount: 1n,
            forwardPayload: payload,
        });
        section.record({
            path: 'JettonWallet.transfer (forward payload)',
            gas: gasUsed(txOf(first.transactions, aliceWallet.address)),
            notes: `chain fees ${fees(first.transactions, all)} (new receiver wallet)`,
        });
        section.record({
            path: 'JettonWallet.internal_transfer (deploys, notification + excesses)',
            gas: gasUsed(txOf(first.transactions, bobWallet.address)),
        });
        const plain = await aliceWallet.sendTransfer(alice.getSender(), { to: bob.address, amount: 10n });
        section.record({
            path: 'JettonWallet.transfer (plain)',
            gas: gasUsed(txOf(plain.transactions, aliceWallet.address)),
            notes: `chain fees ${fees(plain.transactions, all)}`,
        });
        section.record({
            path: 'JettonWallet.internal_transfer (plain)',
            gas: gasUsed(txOf(plain.transactions, bobWallet.address)),
        });
    });

    it('burn', async () => {
        const aliceWallet = await walletOf(alice.address);
        const all = [aliceWallet.address, minter.address];
        const plain = await aliceWallet.sendBurn(alice.getSender(), { amount: 5n, responseDestination: alice.address });
        section.record({
            path: 'JettonWallet.burn (plain)',
            gas: gasUsed(txOf(plain.transactions, aliceWallet.address)),
            notes: `chain fees ${fees(plain.transactions, all)}`,
        });
        section.record({
            path: 'JettonMinter.burn_notification (excesses)',
            gas: gasUsed(txOf(plain.transactions, minter.address)),
        });
        const bridge = await aliceWallet.sendBurn(alice.getSender(), {
            amount: 5n,
            responseDestination: alice.address,
            customPayload: payload,
        });
        expect(bridge.transactions).toHaveTransaction({
            from: minter.address,
            to: owner.address,
            op: Op.jetton.acceptTokensBurn,
        });
        section.record({
            path: 'JettonWallet.burn (custom payload)',
            gas: gasUsed(txOf(bridge.transactions, aliceWallet.address)),
            notes: `chain fees ${fees(bridge.transactions, all)}`,
        });
        section.record({
            path: 'JettonMinter.burn_notification (accept_tokens_burn to owner)',
            gas: gasUsed(txOf(bridge.transactions, minter.address)),
        });
    });

    it('provide_wallet_address', async () => {
        const res = await minter.sendProvideWalletAddress(bob.getSender(), alice.address, true);
        section.record({
            path: 'JettonMinter.provide_wallet_address (include_address)',
            gas: gasUsed(txOf(res.transactions, minter.address)),
        });
    });
});
