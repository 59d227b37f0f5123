import { Blockchain, SandboxContract, TreasuryContract } from '@ton/sandbox';
import { Address, Cell, contractAddress, toNano, TupleBuilder } from '@ton/core';
import '@ton/test-utils';
import { buildOnchainMetadata, JettonMinter, parseOnchainMetadata } from '../wrappers/JettonMinter';
import { JettonWallet } from '../wrappers/JettonWallet';
import { compiledCode } from '../wrappers/compiled';

/**
 * contracts/jetton/lib.tact: the helpers other Tact contracts (the alien proxy) use to address and
 * deploy jettons from stored code, run in a probe contract (contracts/test/jetton_lib_probe.tact)
 * and compared with the jetton contracts' own state inits and with the TypeScript metadata reader.
 */
const LONG_NAME = 'Wrapped '.repeat(20) + 'Token'; // longer than one cell: snake continuation

describe('Jetton lib (contracts/jetton/lib.tact)', () => {
    let blockchain: Blockchain;
    let deployer: SandboxContract<TreasuryContract>;
    let probe: Address;

    const get = async (method: string, build?: (t: TupleBuilder) => void) => {
        const t = new TupleBuilder();
        build?.(t);
        return (await blockchain.runGetMethod(probe, method, t.build())).stackReader;
    };

    beforeAll(async () => {
        blockchain = await Blockchain.create();
        deployer = await blockchain.treasury('deployer');
        const code = compiledCode('TestJettonLibProbe');
        const init = { code, data: new Cell() };
        probe = contractAddress(0, init);
        const res = await deployer.send({ to: probe, value: toNano('1'), init });
        expect(res.transactions).toHaveTransaction({ to: probe, deploy: true, success: true });
    }, 60000);

    it('jettonWalletStateInit should give the wallet address the minter and the wallet give', async () => {
        const owner = deployer.address;
        const minter = blockchain.openContract(
            await JettonMinter.createFromConfig({ owner, content: { name: 'A', symbol: 'A', decimals: 9 } }),
        );
        await minter.sendDeploy(deployer.getSender());
        const walletCode = await JettonWallet.code();
        const r = await get('wallet_address', (t) => {
            t.writeCell(walletCode);
            t.writeAddress(owner);
            t.writeAddress(minter.address);
        });
        const fromLib = r.readAddress();
        expect(fromLib.equals(await minter.getWalletAddress(owner))).toBe(true);
        expect(fromLib.equals((await JettonWallet.createFromOwner(owner, minter.address)).address)).toBe(true);
    });

    it('jettonMinterStateInit should give the minter address of JettonMinter(0, owner, content, walletCode)', async () => {
        const owner = deployer.address;
        const content = buildOnchainMetadata({ name: 'B', symbol: 'B', decimals: 6 });
        const minter = await JettonMinter.createFromConfig({ owner, content });
        const walletCode = await JettonWallet.code();
        const r = await get('minter_address', (t) => {
            t.writeCell(minter.init!.code);
            t.writeCell(walletCode);
            t.writeAddress(owner);
            t.writeCell(content);
        });
        expect(r.readAddress().equals(minter.address)).toBe(true);
    });

    it('jettonOnchainContent should build TEP-64 content the TypeScript reader (and explorers) read', async () => {
        const short = (await get('content_short')).readCell();
        expect(parseOnchainMetadata(short)).toEqual({ name: 'Wrapped Ether', symbol: 'WETH', decimals: '18' });
        expect(short.equals(buildOnchainMetadata({ name: 'Wrapped Ether', symbol: 'WETH', decimals: 18 }))).toBe(true);
        const long = (await get('content_long')).readCell();
        expect(parseOnchainMetadata(long)).toEqual({ name: LONG_NAME, symbol: 'W', decimals: '0' });
    });
});
