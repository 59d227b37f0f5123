import type { HardhatRuntimeEnvironment } from 'hardhat/types';
import { Contract, ContractFactory, ContractRunner, Interface, Signer } from 'ethers';

/**
 * Deployment and call helpers for the Solidity MultiVault (evm/MultiVault.sol). Contracts come back as
 * untyped ethers v6 `Contract`s built from the Hardhat artifacts (no generated typings needed).
 */

export type EvmContractName =
    | 'MultiVault'
    | 'MultiVaultHarness'
    | 'MultiVaultToken'
    | 'TestWETH'
    | 'TestERC20'
    | 'FeeOnTransferToken'
    | 'InflatingToken'
    | 'ShrinkingToken'
    | 'DoubleDepositor'
    | 'RouterDepositor'
    | 'Bytes32MetaToken'
    | 'BadMetaToken'
    | 'ReentrantToken'
    | 'MultiVaultWithdrawals'
    | 'Bridge'
    | 'TestWithdrawalCallback'
    | 'GasCurrencyRefuser';

export async function deployEvmContract(
    hre: HardhatRuntimeEnvironment,
    name: EvmContractName,
    args: unknown[],
    deployer: Signer,
): Promise<Contract> {
    const artifact = await hre.artifacts.readArtifact(name);
    const factory = new ContractFactory(artifact.abi, artifact.bytecode, deployer);
    const contract = await factory.deploy(...args);
    await contract.waitForDeployment();
    return contract as unknown as Contract;
}

/** An already deployed contract by artifact name. */
export async function evmContractAt(
    hre: HardhatRuntimeEnvironment,
    name: EvmContractName,
    address: string,
    runner: ContractRunner,
): Promise<Contract> {
    const artifact = await hre.artifacts.readArtifact(name);
    return new Contract(address, artifact.abi, runner);
}

/**
 * The MultiVault's whole ABI: its own (deposits, governance) and that of its withdrawals part
 * (evm/MultiVaultWithdrawals.sol), which it runs at its own address for every other call.
 */
export async function multiVaultAbi(
    hre: HardhatRuntimeEnvironment,
    name: 'MultiVault' | 'MultiVaultHarness' = 'MultiVault',
) {
    return mergeMultiVaultAbi(
        (await hre.artifacts.readArtifact(name)).abi,
        (await hre.artifacts.readArtifact('MultiVaultWithdrawals')).abi,
    );
}

type AbiFragment = { type: string; name?: string; inputs?: { type: string }[] };

/**
 * The vault's own ABI (`own`) and its withdrawals part's (`part`) as one: the part's fragments the
 * vault does not declare itself (same kind, name and input types), without its constructor.
 */
export function mergeMultiVaultAbi(own: AbiFragment[], part: AbiFragment[]): AbiFragment[] {
    const key = (f: AbiFragment) => `${f.type}:${f.name ?? ''}(${(f.inputs ?? []).map((i) => i.type).join(',')})`;
    const seen = new Set(own.map(key));
    return [...own, ...part.filter((f) => f.type !== 'constructor' && !seen.has(key(f)))];
}

export async function multiVaultInterface(hre: HardhatRuntimeEnvironment): Promise<Interface> {
    return new Interface(await multiVaultAbi(hre));
}

export interface MultiVaultConfig {
    governance: string;
    guardian: string;
    weth: string;
    /** global_id of the TVM network the vault's deposits go to (default -239, the sandbox's) */
    tvmGlobalId?: number;
    /** deploy the test-only MultiVaultHarness (adds `testMintNative`); never outside tests */
    harness?: boolean;
}

/** Deploys the MultiVault (it deploys its withdrawals part); the contract comes with its whole ABI. */
export async function deployMultiVault(
    hre: HardhatRuntimeEnvironment,
    deployer: Signer,
    config: MultiVaultConfig,
): Promise<Contract> {
    const name = config.harness ? 'MultiVaultHarness' : 'MultiVault';
    const vault = await deployEvmContract(
        hre,
        name,
        [config.governance, config.guardian, config.weth, config.tvmGlobalId ?? -239],
        deployer,
    );
    return new Contract(await vault.getAddress(), await multiVaultAbi(hre, name), deployer);
}

export async function deployWeth(hre: HardhatRuntimeEnvironment, deployer: Signer): Promise<Contract> {
    return deployEvmContract(hre, 'TestWETH', [], deployer);
}

export async function deployTestToken(
    hre: HardhatRuntimeEnvironment,
    deployer: Signer,
    name = 'Test Token',
    symbol = 'TST',
    decimals = 18,
): Promise<Contract> {
    return deployEvmContract(hre, 'TestERC20', [name, symbol, decimals], deployer);
}

/** A TVM address `wid:hex` split into the (wid, account id) pair the vault takes. */
export interface TvmRecipient {
    wid: number;
    addr: bigint;
}

export function parseTvmAddress(address: string): TvmRecipient {
    const m = /^(-?\d+):([0-9a-fA-F]{64})$/.exec(address);
    if (!m) throw new Error(`not a raw TVM address: ${address}`);
    const wid = Number(m[1]);
    if (wid < -128 || wid > 127) throw new Error(`workchain out of int8: ${address}`);
    return { wid, addr: BigInt('0x' + m[2]) };
}

/** `IMultiVault.DepositParams`, in the tuple order of the ABI. */
export interface DepositParams {
    recipientWid: number;
    recipientAddr: bigint;
    token: string;
    amount: bigint;
    expectedGas: bigint;
    payload: string;
}

/** `IMultiVault.DepositNativeTokenParams`: the deposited amount is msg.value - creditGas. */
export interface DepositNativeTokenParams {
    recipientWid: number;
    recipientAddr: bigint;
    creditGas: bigint;
    expectedGas: bigint;
    payload: string;
}

export function depositParams(
    recipient: TvmRecipient,
    token: string,
    amount: bigint,
    opts: { expectedGas?: bigint; payload?: string } = {},
): DepositParams {
    return {
        recipientWid: recipient.wid,
        recipientAddr: recipient.addr,
        token,
        amount,
        expectedGas: opts.expectedGas ?? 0n,
        payload: opts.payload ?? '0x',
    };
}

export function depositNativeTokenParams(
    recipient: TvmRecipient,
    opts: { creditGas?: bigint; expectedGas?: bigint; payload?: string } = {},
): DepositNativeTokenParams {
    return {
        recipientWid: recipient.wid,
        recipientAddr: recipient.addr,
        creditGas: opts.creditGas ?? 0n,
        expectedGas: opts.expectedGas ?? 0n,
        payload: opts.payload ?? '0x',
    };
}

/** Contract `c` with another runner (ethers' `connect` loses the method typing). */
export function as(c: Contract, runner: ContractRunner): Contract {
    return c.connect(runner) as Contract;
}
