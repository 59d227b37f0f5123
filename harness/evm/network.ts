import type { HardhatRuntimeEnvironment } from 'hardhat/types';
import { Contract, Interface, JsonRpcProvider, Signer, TransactionReceipt } from 'ethers';

/** A Hardhat signer (has `address`). */
export type EvmSigner = Awaited<ReturnType<HardhatRuntimeEnvironment['ethers']['getSigners']>>[number];
import { deployMultiVault, deployTestToken, deployWeth, multiVaultInterface } from '../../wrappers/evm/MultiVault';

/**
 * The EVM network of the harness: Hardhat's in-process network (jest imports `hre` from 'hardhat'),
 * with a MultiVault (the test harness variant, which can mint representation tokens), WETH and an
 * ERC-20 held by `user`. Relays and users read it through `provider` only, as they would a node.
 */
export class EvmNetwork {
    private constructor(
        readonly hre: HardhatRuntimeEnvironment,
        readonly provider: JsonRpcProvider | import('ethers').Provider,
        readonly chainId: number,
        readonly vault: Contract,
        readonly vaultAddress: string,
        readonly weth: Contract,
        readonly token: Contract,
        readonly tokenAddress: string,
        readonly iface: Interface,
        readonly signers: {
            deployer: EvmSigner;
            governance: EvmSigner;
            guardian: EvmSigner;
            user: EvmSigner;
            other: EvmSigner;
        },
    ) {}

    /** tvmGlobalId: the TVM network the vault's deposits go to (default -239, the sandbox's) */
    static async create(
        hre: HardhatRuntimeEnvironment,
        tokenBalance = 10n ** 15n,
        o: { tvmGlobalId?: number } = {},
    ): Promise<EvmNetwork> {
        const [deployer, governance, guardian, user, other] = await hre.ethers.getSigners();
        const weth = await deployWeth(hre, deployer);
        const vault = await deployMultiVault(hre, deployer, {
            governance: governance.address,
            guardian: guardian.address,
            weth: await weth.getAddress(),
            tvmGlobalId: o.tvmGlobalId,
            harness: true,
        });
        const token = await deployTestToken(hre, deployer, 'Test Token', 'TST', 6);
        await (await token.getFunction('mint')(user.address, tokenBalance)).wait();
        const network = await hre.ethers.provider.getNetwork();
        return new EvmNetwork(
            hre,
            hre.ethers.provider,
            Number(network.chainId),
            vault,
            await vault.getAddress(),
            weth,
            token,
            await token.getAddress(),
            await multiVaultInterface(hre),
            { deployer, governance, guardian, user, other },
        );
    }

    /** Mines `n` empty blocks (to reach a configuration's eventBlocksToConfirm). */
    async mine(n: number): Promise<void> {
        await this.hre.network.provider.send('hardhat_mine', ['0x' + n.toString(16)]);
    }

    async blockNumber(): Promise<number> {
        return this.provider.getBlockNumber();
    }

    async receipt(txHash: string): Promise<TransactionReceipt> {
        const r = await this.provider.getTransactionReceipt(txHash);
        if (!r) throw new Error(`no receipt for ${txHash}`);
        return r;
    }

    /** A contract of the vault's ABI run by `signer`. */
    vaultAs(signer: Signer): Contract {
        return this.vault.connect(signer) as Contract;
    }
}
