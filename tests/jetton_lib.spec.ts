import fs from 'fs';
import path from 'path';
import { build, createVirtualFileSystem, Logger, LogLevel, stdLibFiles } from '@tact-lang/compiler';
import { Blockchain, SandboxContract, TreasuryContract } from '@ton/sandbox';
import { Address, Cell, contractAddress, toNano, TupleBuilder } from '@ton/core';
import '@ton/test-utils';
import { buildOnchainMetadata, JettonMinter, parseOnchainMetadata } from '../wrappers/JettonMinter';
import { JettonWallet } from '../wrappers/JettonWallet';

/**
 * contracts/jetton/lib.tact: the helpers other Tact contracts (the alien proxy) use to address and
 * deploy jettons from stored code, run in a probe contract compiled here, in memory, and compared
 * with the jetton contracts' own state inits and with the TypeScript metadata reader.
 */
const LONG_NAME = 'Wrapped '.repeat(20) + 'Token'; // longer than one cell: snake continuation

const PROBE = `
import "./contracts/jetton/lib";

contract JettonLibProbe() {
    receive() {}

    get fun wallet_address(walletCode: Cell, owner: Address, minter: Address): Address {
        return contractAddress(jettonWalletStateInit(walletCode, owner, minter));
    }

    get fun minter_address(minterCode: Cell, walletCode: Cell, owner: Address, content: Cell): Address {
        return contractAddress(jettonMinterStateInit(minterCode, walletCode, owner, content));
    }

    get fun content_short(): Cell {
        return jettonOnchainContent("Wrapped Ether", "WETH", 18);
    }

    get fun content_long(): Cell {
        return jettonOnchainContent("${LONG_NAME}", "W", 0);
    }
}
`;

async function compileProbe(): Promise<Cell> {
    const root = path.resolve(__dirname, '..');
    const files: Record<string, string> = {
        'probe.tact': Buffer.from(PROBE).toString('base64'),
    };
    for (const f of fs.readdirSync(path.join(root, 'contracts', 'jetton'))) {
        if (f.endsWith('.tact')) {
            files[`contracts/jetton/${f}`] = fs
                .readFileSync(path.join(root, 'contracts', 'jetton', f))
                .toString('base64');
        }
    }
    const project = createVirtualFileSystem('/', files, false);
    const res = await build({
        config: { name: 'probe', path: 'probe.tact', output: 'out' },
        project,
        stdlib: createVirtualFileSystem('@stdlib', stdLibFiles),
        logger: new Logger(LogLevel.ERROR),
    });
    if (!res.ok) throw new Error('probe did not compile');
    const boc = Object.keys(files).find((k) => k.endsWith('.code.boc'));
    return Cell.fromBoc(Buffer.from(files[boc!], 'base64'))[0];
}

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
        const code = await compileProbe();
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
