/**
 * POST /v2/payload/build: the source transaction of a transfer, built from what the contracts on the
 * chain say (the token's registration in its proxy, the destination proxy's fee, the user's token
 * wallet), never from a copy of them:
 *
 * - TVM to TVM, a token registered in the source native proxy: a TEP-74 `transfer` of the user's
 *   jetton wallet to the native proxy with the transfer payload (lock; minted as Alien on the other
 *   side); an alien token of the source alien proxy whose base is on the destination: a TEP-74
 *   `burn` with the transfer payload (unlocked as Native on the other side).
 * - EVM to TVM, an ERC-20 (locked, minted as Alien on TVM): `deposit` calldata (approve first); the
 *   wrapped gas currency: `depositByNativeToken` when the native balance covers the amount (no
 *   approval, value = amount + credit gas), else `deposit` of the wrapped token.
 *
 * tokenAmount = what the recipient gets: amount less the destination proxy's fee (amount * numerator
 * / denominator, rounded down, as proxy_common.tact `takeFee`); EVM to TVM also less the MultiVault's
 * deposit fee (ceil(amount * bps / 10000), MultiVault.sol `_settle`).
 */
import { Address, beginCell, Cell, toNano } from '@ton/core';
import { TonClient } from '@ton/ton';
import { Interface } from 'ethers';
import { Deployment } from '../../lib/deploy/deployment';
import { multiVaultInterface } from '../../lib/deploy/tvm';
import { runGetMethodV2, v2Provider } from '../../lib/toncenterV2';
import { burnTransferBody, lockTransferBody, lockValue } from '../../lib/userTransfers';
import { ProxyMultiVaultNative } from '../../wrappers/ProxyMultiVaultNative';
import { ProxyMultiVaultAlien } from '../../wrappers/ProxyMultiVaultAlien';
import { Op } from '../../wrappers/constants';
import { ApiError, evmAddress, tvmAddress } from './errors';

/** expected_gas of a credit-mode TVM transfer: the credit backend delivers events with expected_gas > 0. */
export const CREDIT_EXPECTED_GAS = toNano('0.1');
/** forward_ton_amount of a lock: the proxy's work and the event's value (tests/localnet/e2e.spec.ts). */
export const LOCK_FORWARD_TON = toNano('0.5');
/** value attached to a burn: the wallet, the minter, the proxy and the event (tests/evm_tvm.e2e.spec.ts). */
export const BURN_VALUE = toNano('0.5');
/** gas units of a MultiVault deposit, first of its token (bench/gas-report.md: 164,687) with a margin. */
export const EVM_DEPOSIT_GAS = 180_000n;
const MAX_AMOUNT = 1n << 128n;

export interface PayloadRequestBody {
    fromChainId: number;
    toChainId: number;
    tokenAddress: string;
    recipientAddress: string;
    amount: string;
    senderAddress: string;
    useCredit?: boolean;
    remainingGasTo?: string;
    payload?: string;
    callback?: Record<string, unknown>;
    evmChainId?: number;
    tokenBalance?: { nativeTokenAmount?: string; wrappedNativeTokenAmount?: string };
}

export interface PayloadContext {
    deployment: Deployment;
    /** credit gas in wei attached to an EVM deposit in credit mode (default 0) */
    evmCreditValueWei?: bigint;
}

const clients = new Map<string, TonClient>();
function client(endpoint: string): TonClient {
    let c = clients.get(endpoint);
    if (!c) clients.set(endpoint, (c = new TonClient({ endpoint })));
    return c;
}

async function evmCall(endpoint: string, to: string, data: string): Promise<string> {
    const r = await fetch(endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_call', params: [{ to, data }, 'latest'] }),
    });
    const b = (await r.json()) as { result?: string; error?: { message: string } };
    if (b.error || !b.result)
        throw new ApiError(502, 'tokenAddress', `the EVM node: ${b.error?.message ?? 'no result'}`);
    return b.result;
}

function amountOf(field: string, s: string | undefined): bigint {
    if (s === undefined) throw new ApiError(400, field, 'required');
    if (!/^[0-9]{1,40}$/.test(s)) throw new ApiError(400, field, 'an integer string (minimal units)');
    const v = BigInt(s);
    if (v >= MAX_AMOUNT) throw new ApiError(400, field, 'below 2^128');
    return v;
}

function payloadCell(s: string | undefined): Cell | null {
    if (s === undefined || s === '') return null;
    try {
        return Cell.fromBase64(s);
    } catch {
        throw new ApiError(400, 'payload', 'a BOC, base64');
    }
}

const TEP74_TRANSFER_ABI = JSON.stringify({
    name: 'transfer',
    tlb: 'transfer#0f8a7ea5 query_id:uint64 amount:Coins destination:MsgAddress response_destination:MsgAddress custom_payload:(Maybe ^Cell) forward_ton_amount:Coins forward_payload:(Either Cell ^Cell) = InternalMsgBody',
    op: Op.jetton.transfer,
});
const TEP74_BURN_ABI = JSON.stringify({
    name: 'burn',
    tlb: 'burn#595f07bc query_id:uint64 amount:Coins response_destination:MsgAddress custom_payload:(Maybe ^Cell) = InternalMsgBody',
    op: Op.jetton.burn,
});

export async function buildPayload(o: PayloadContext, b: PayloadRequestBody) {
    const d = o.deployment;
    const tvmKeys = Object.keys(d.tvm);
    const tvmOf = (id: number) => tvmKeys.find((k) => d.tvm[k].globalId === id);
    const fromTvm = tvmOf(b.fromChainId);
    const toTvm = tvmOf(b.toChainId);
    const fromEvm = d.evm && d.evm.chainId === b.fromChainId;
    const known = [...tvmKeys.map((k) => d.tvm[k].globalId), ...(d.evm ? [d.evm.chainId] : [])];
    if (!fromTvm && !fromEvm)
        throw new ApiError(400, 'fromChainId', `unknown chain id ${b.fromChainId}: one of ${known.join(', ')}`);
    if (!toTvm)
        throw new ApiError(
            400,
            'toChainId',
            `unknown TVM chain id ${b.toChainId}: one of ${tvmKeys.map((k) => d.tvm[k].globalId).join(', ')}`,
        );
    if (b.fromChainId === b.toChainId) throw new ApiError(400, 'toChainId', 'differs from fromChainId');
    const amount = amountOf('amount', b.amount);
    if (amount === 0n) throw new ApiError(400, 'amount', 'greater than 0');
    if (b.callback && Object.keys(b.callback).length)
        throw new ApiError(400, 'callback', 'not supported: the MultiVault calls nothing after completion');
    const recipient = Address.parse(tvmAddress('recipientAddress', b.recipientAddress));
    const dst = d.tvm[toTvm];
    const endpointOf = (e: { endpoint?: string }, chain: number) => {
        if (!e.endpoint)
            throw new ApiError(
                503,
                null,
                `the endpoint of network ${chain} is not configured`,
                undefined,
                'NETWORK_UNAVAILABLE',
            );
        return client(e.endpoint);
    };

    if (fromTvm) {
        if (b.evmChainId !== undefined) throw new ApiError(400, 'evmChainId', 'EVM to TVM only');
        if (b.tokenBalance !== undefined)
            throw new ApiError(400, 'tokenBalance', 'EVM to TVM only (the wrapped gas currency)');
        if (b.remainingGasTo === undefined) throw new ApiError(400, 'remainingGasTo', 'required for TVM to TVM');
        const token = Address.parse(tvmAddress('tokenAddress', b.tokenAddress));
        const sender = Address.parse(tvmAddress('senderAddress', b.senderAddress));
        const remainingGasTo = Address.parse(tvmAddress('remainingGasTo', b.remainingGasTo));
        const payload = payloadCell(b.payload);
        const src = d.tvm[fromTvm];
        const srcClient = endpointOf(src, b.fromChainId);
        const c = src.contracts;
        const useCredit = b.useCredit ?? true;
        const expectedGas = useCredit ? CREDIT_EXPECTED_GAS : 0n;
        const nativeProxy = Address.parse(c.nativeProxy!);
        const alienProxy = Address.parse(c.alienProxy!);
        const dstClient = endpointOf(dst, b.toChainId);
        const native = await ProxyMultiVaultNative.createFromAddress(nativeProxy).getNativeToken(
            v2Provider(srcClient, nativeProxy),
            token,
        );
        const wallet = (
            await runGetMethodV2(srcClient, token, 'get_wallet_address', [
                { type: 'slice', cell: beginCell().storeAddress(sender).endCell() },
            ])
        ).readAddress();
        const args = { destinationChainId: b.toChainId, recipient, expectedGas, remainingGasTo, payload };
        let target: Address;
        let targetProxy: Address;
        let targetConfiguration: string | undefined;
        let sourceProxy: Address;
        let tx: Cell;
        let attached: bigint;
        let abiMethod: string;
        let abi: string;
        let params: Record<string, unknown>;
        if (native) {
            // lock: minted on the destination by its alien proxy
            targetProxy = Address.parse(dst.contracts.alienProxy!);
            target = await ProxyMultiVaultAlien.createFromAddress(targetProxy).getAlienTokenAddress(
                v2Provider(dstClient, targetProxy),
                BigInt(b.fromChainId),
                token,
                native.name,
                native.symbol,
                native.decimals,
            );
            targetConfiguration = dst.contracts.alienConfiguration;
            sourceProxy = nativeProxy;
            const lock = { wallet, nativeProxy, amount, forwardTonAmount: LOCK_FORWARD_TON, ...args };
            tx = lockTransferBody(lock);
            attached = lockValue(lock);
            abiMethod = 'transfer';
            abi = TEP74_TRANSFER_ABI;
            params = {
                query_id: '0',
                amount: amount.toString(),
                destination: nativeProxy.toRawString(),
                response_destination: remainingGasTo.toRawString(),
                custom_payload: null,
                forward_ton_amount: LOCK_FORWARD_TON.toString(),
                forward_payload: {
                    destination_chain_id: b.toChainId,
                    recipient: recipient.toRawString(),
                    expected_gas: expectedGas.toString(),
                    remaining_gas_to: remainingGasTo.toRawString(),
                    payload: b.payload ?? null,
                },
            };
        } else {
            const alien = await ProxyMultiVaultAlien.createFromAddress(alienProxy).getAlienToken(
                v2Provider(srcClient, alienProxy),
                token,
            );
            if (!alien)
                throw new ApiError(
                    400,
                    'tokenAddress',
                    `not a token of the bridge on ${b.fromChainId}: neither registered in its native proxy nor minted by its alien proxy`,
                );
            if (Number(alien.baseChainId) !== b.toChainId)
                throw new ApiError(
                    400,
                    'toChainId',
                    `the token's base network is ${alien.baseChainId}: an alien token goes back to its base network only`,
                );
            // burn: unlocked on the destination by its native proxy
            targetProxy = Address.parse(dst.contracts.nativeProxy!);
            target = alien.baseToken;
            targetConfiguration = dst.contracts.nativeConfiguration;
            sourceProxy = alienProxy;
            tx = burnTransferBody({ wallet, amount, value: BURN_VALUE, ...args });
            attached = BURN_VALUE;
            abiMethod = 'burn';
            abi = TEP74_BURN_ABI;
            params = {
                query_id: '0',
                amount: amount.toString(),
                response_destination: remainingGasTo.toRawString(),
                custom_payload: {
                    destination_chain_id: b.toChainId,
                    recipient: recipient.toRawString(),
                    expected_gas: expectedGas.toString(),
                    remaining_gas_to: remainingGasTo.toRawString(),
                    payload: b.payload ?? null,
                },
            };
        }
        const fee = await feeOf(dstClient, targetProxy, target, amount);
        const deployed = (await dstClient.getContractState(target)).state === 'active';
        return {
            transferKind: 'TvmToTvm',
            tokensMeta: {
                targetToken: {
                    tokenType: native ? 'Alien' : 'Native',
                    isDeployed: deployed,
                    address: target.toRawString(),
                },
                sourceTokenType: native ? 'Native' : 'Alien',
            },
            tokenAmount: (amount - fee.amount).toString(),
            feesMeta: {
                amount: fee.amount.toString(),
                numerator: fee.numerator.toString(),
                denominator: fee.denominator.toString(),
            },
            gasEstimateAmount: attached.toString(),
            abiMeta: {
                tx: tx.toBoc().toString('base64'),
                executionAddress: wallet.toRawString(),
                attachedValue: attached.toString(),
                abiMethod,
                abi,
                params: JSON.stringify(params),
            },
            trackingMeta: {
                sourceProxy: sourceProxy.toRawString(),
                sourceConfiguration: null,
                sourceMultivault: null,
                targetProxy: targetProxy.toRawString(),
                targetConfiguration: targetConfiguration ?? null,
                targetMultivault: null,
            },
            payload: null,
        };
    }

    // EVM to TVM
    const evm = d.evm!;
    if (d.tvm[evm.tvm].globalId !== b.toChainId)
        throw new ApiError(
            400,
            'toChainId',
            `the MultiVault of ${evm.chainId} serves TVM network ${d.tvm[evm.tvm].globalId} only`,
        );
    if (b.evmChainId !== undefined && b.evmChainId !== evm.chainId)
        throw new ApiError(400, 'evmChainId', `equals fromChainId (${evm.chainId})`);
    const token = evmAddress('tokenAddress', b.tokenAddress);
    evmAddress('senderAddress', b.senderAddress);
    if (b.remainingGasTo !== undefined) tvmAddress('remainingGasTo', b.remainingGasTo);
    const useCredit = b.useCredit ?? false;
    const iface: Interface = multiVaultInterface();
    if (b.tokenBalance !== undefined && !(evm.weth && token === evm.weth.toLowerCase()))
        throw new ApiError(400, 'tokenBalance', 'only for the wrapped gas currency');
    if (!evm.endpoint || !evm.multiVault)
        throw new ApiError(503, null, 'the EVM network is not configured', undefined, 'NETWORK_UNAVAILABLE');
    const vault = evm.multiVault.toLowerCase();
    const weth = evm.weth?.toLowerCase();
    let payloadHex = '0x';
    if (b.payload) {
        payloadCell(b.payload);
        payloadHex = '0x' + Buffer.from(b.payload, 'base64').toString('hex');
    }
    const creditValue = useCredit ? (o.evmCreditValueWei ?? 0n) : 0n;
    const expectedGas = useCredit ? CREDIT_EXPECTED_GAS : 0n;
    const recipientArgs = {
        recipientWid: recipient.workChain,
        recipientAddr: BigInt('0x' + recipient.hash.toString('hex')),
    };
    let byNative = false;
    if (weth && token === weth) {
        const nat = amountOf('tokenBalance.nativeTokenAmount', b.tokenBalance?.nativeTokenAmount);
        const wrapped = amountOf('tokenBalance.wrappedNativeTokenAmount', b.tokenBalance?.wrappedNativeTokenAmount);
        if (nat >= amount + creditValue) byNative = true;
        else if (wrapped < amount)
            throw new ApiError(
                400,
                'amount',
                'more than either balance (tokenBalance.nativeTokenAmount, tokenBalance.wrappedNativeTokenAmount)',
            );
    } else if (b.tokenBalance !== undefined)
        throw new ApiError(400, 'tokenBalance', 'only for the wrapped gas currency');

    const call = async (data: string) => evmCall(evm.endpoint!, token, data);
    const str = (hex: string) => iface.getAbiCoder().decode(['string'], hex)[0] as string;
    let name: string, symbol: string, decimals: number;
    try {
        name = str(await call('0x06fdde03'));
        symbol = str(await call('0x95d89b41'));
        decimals = Number(BigInt(await call('0x313ce567')));
    } catch (e) {
        if (e instanceof ApiError) throw e;
        throw new ApiError(400, 'tokenAddress', 'an ERC-20 with name, symbol and decimals');
    }
    const bps = BigInt(
        iface.decodeFunctionResult(
            'depositFeeBps',
            await evmCall(evm.endpoint, vault, iface.encodeFunctionData('depositFeeBps', [token])),
        )[0],
    );
    const depositFee = bps === 0n ? 0n : (amount * bps + 9999n) / 10000n;
    const net = amount - depositFee;
    const tvm = d.tvm[evm.tvm];
    const tvmClient = endpointOf(tvm, tvm.globalId);
    const alienProxy = Address.parse(tvm.contracts.alienProxy!);
    const target = await ProxyMultiVaultAlien.createFromAddress(alienProxy).getEvmAlienTokenAddress(
        v2Provider(tvmClient, alienProxy),
        BigInt(evm.chainId),
        BigInt(token),
        name,
        symbol,
        BigInt(decimals),
    );
    const fee = await feeOf(tvmClient, alienProxy, target, net);
    const deployed = (await tvmClient.getContractState(target)).state === 'active';
    let data: string;
    let value: bigint;
    let abiMethod: string;
    let params: Record<string, unknown>;
    if (byNative) {
        const p = { ...recipientArgs, creditGas: creditValue, expectedGas, payload: payloadHex };
        const f = iface.getFunction('depositByNativeToken')!;
        data = iface.encodeFunctionData(f, [p]);
        value = amount + creditValue;
        abiMethod = 'depositByNativeToken';
        params = { d: p };
    } else {
        const p = { ...recipientArgs, token, amount, expectedGas, payload: payloadHex };
        const f = iface.getFunction('deposit((int8,uint256,address,uint256,uint256,bytes))')!;
        data = iface.encodeFunctionData(f, [p]);
        value = creditValue;
        abiMethod = 'deposit';
        params = { d: p };
    }
    const json = (x: unknown) => JSON.stringify(x, (_k, v) => (typeof v === 'bigint' ? v.toString() : v));
    return {
        transferKind: 'EvmToTvm',
        tokensMeta: {
            targetToken: { tokenType: 'Alien', isDeployed: deployed, address: target.toRawString() },
            sourceTokenType: 'Alien',
        },
        tokenAmount: (net - fee.amount).toString(),
        feesMeta: {
            amount: (depositFee + fee.amount).toString(),
            numerator: fee.numerator.toString(),
            denominator: fee.denominator.toString(),
        },
        gasEstimateAmount: EVM_DEPOSIT_GAS.toString(),
        abiMeta: {
            tx: data,
            executionAddress: vault,
            attachedValue: value.toString(),
            abiMethod,
            abi: iface
                .getFunction(
                    abiMethod === 'deposit'
                        ? 'deposit((int8,uint256,address,uint256,uint256,bytes))'
                        : 'depositByNativeToken',
                )!
                .format('json'),
            params: json(params),
        },
        trackingMeta: {
            sourceProxy: null,
            sourceConfiguration: null,
            sourceMultivault: vault,
            targetProxy: alienProxy.toRawString(),
            targetConfiguration: tvm.contracts.evmAlienConfiguration ?? null,
            targetMultivault: null,
        },
        payload: null,
    };
}

/** The destination proxy's fee on `amount` of `token` (its own rate, or the default), as the proxy takes it. */
async function feeOf(c: TonClient, proxy: Address, token: Address, amount: bigint) {
    const f = await ProxyMultiVaultAlien.createFromAddress(proxy).getTokenFee(v2Provider(c, proxy), token);
    const numerator = BigInt(f.numerator);
    const denominator = BigInt(f.denominator);
    return { numerator, denominator, amount: denominator === 0n ? 0n : (amount * numerator) / denominator };
}
