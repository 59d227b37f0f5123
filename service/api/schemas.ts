/**
 * The JSON schemas of the /v2 interface (spec: "Resources and their fields", "Endpoints"): fastify
 * validates requests and serialises responses with them, @fastify/swagger writes the OpenAPI
 * document from them, and the tests check every response against them. Extensions beyond the spec
 * are marked "(extension)" and never change a spec field.
 */
import { SEARCH_COUNT_CAP } from '../storage/store';

const CAP = SEARCH_COUNT_CAP.toLocaleString('en-US');

const str = (description?: string) => ({ type: 'string', ...(description ? { description } : {}) }) as const;
const nstr = (description?: string) => ({ type: ['string', 'null'], ...(description ? { description } : {}) }) as const;
const num = (description?: string) => ({ type: 'integer', ...(description ? { description } : {}) }) as const;
const obj = (
    properties: Record<string, unknown>,
    required = Object.keys(properties),
    extra: Record<string, unknown> = {},
) => ({
    type: 'object',
    additionalProperties: false,
    properties,
    required,
    ...extra,
});

/** Largest `limit` of /transfers/search (the spec leaves the maximum open). */
export const MAX_SEARCH_LIMIT = 100;
/** Largest `offset` of /transfers/search. */
export const MAX_SEARCH_OFFSET = 1_000_000;
/** At most 7 addresses (spec: Limits). */
export const MAX_USER_ADDRESSES = 7;

export const HEX64 = '^[0-9a-fA-F]{64}$';
export const EVM_HASH = '^0x[0-9a-fA-F]{64}$';
export const EVM_ADDRESS = '^0x[0-9a-fA-F]{40}$';
export const UINT_STRING = '^[0-9]+$';

const chainId = { type: 'integer', minimum: -2147483648, maximum: 4294967295 } as const;
const status = { type: 'string', enum: ['Pending', 'Completed', 'Failed'] } as const;
const tokenType = { type: 'string', enum: ['Native', 'Alien'] } as const;

export const ErrorBody = {
    $id: 'ErrorBody',
    ...obj(
        {
            statusCode: num('HTTP status'),
            error: str('HTTP reason phrase'),
            code: str('machine-readable: BAD_REQUEST, STORAGE_UNAVAILABLE, NOT_FOUND, INTERNAL'),
            message: str('the field and the rule, readable'),
            field: nstr('the request field at fault (JSON path inside the body, e.g. "tvmTvm.dappChainId")'),
            rule: nstr('the rule it broke'),
            requestId: str('id of the request (also in the logs)'),
        },
        ['statusCode', 'error', 'code', 'message', 'field', 'rule', 'requestId'],
    ),
};

// ------------------------------------------------------------------ transfer records

export const TvmTvmOutgoing = obj({
    tokenType,
    chainId: num(),
    userAddress: str('sender'),
    tokenAddress: str(),
    proxyAddress: str(),
    volumeExec: str('amount, human-readable'),
    volumeUsdtExec: str('amount in a stablecoin equivalent ("0" where no price is known)'),
    feeVolumeExec: str('fee charged ("0" until known)'),
    messageHash: str('event message hash'),
    transactionHash: str('equals the Transfer ID'),
});

export const TvmTvmIncoming = obj({
    tokenType: { type: ['string', 'null'], enum: ['Native', 'Alien', null] },
    chainId: num(),
    userAddress: str('recipient'),
    tokenAddress: str('"" until completed'),
    proxyAddress: str('"" until completed'),
    volumeExec: str('"0" until completed'),
    volumeUsdtExec: str('"0" until completed'),
    feeVolumeExec: nstr(),
    messageHash: str('"" until completed'),
    transactionHash: nstr('delivery transaction hash; null until completed'),
});

export const TvmTvmRecord = obj({
    transferStatus: status,
    timestampCreatedAt: num(),
    outgoing: TvmTvmOutgoing,
    incoming: TvmTvmIncoming,
});

export const EvmTvmRecord = obj({
    transferStatus: status,
    timestampCreatedAt: num(),
    outgoing: obj({
        chainId: num(),
        userAddress: str(),
        tokenAddress: str(),
        volumeExec: str(),
        volumeUsdtExec: str(),
        feeVolumeExec: str(),
        transactionHash: str(),
    }),
    incoming: obj({
        tokenType,
        contractAddress: str('the Event contract'),
        chainId: num(),
        userAddress: str(),
        tokenAddress: str(),
        proxyAddress: str(),
    }),
});

/**
 * (not in the spec, which shows no TvmEvm record) A TVM to EVM transfer: the TVM to TVM record's
 * fields, the incoming side being the MultiVault's withdrawal (`incoming.withdrawalId` instead of
 * `incoming.messageHash`).
 */
export const TvmEvmRecord = obj({
    transferStatus: status,
    timestampCreatedAt: num(),
    outgoing: TvmTvmOutgoing,
    incoming: obj({
        tokenType,
        chainId: num('EVM chain id'),
        userAddress: str('recipient (0x, lowercase)'),
        tokenAddress: str('the EVM token paid; "" until completed'),
        proxyAddress: str('the MultiVault; "" until completed'),
        volumeExec: str('paid to the recipient (a filler\'s bounty excluded); "0" until completed'),
        volumeUsdtExec: str('"0" until completed'),
        feeVolumeExec: nstr("the MultiVault's withdrawal fee; null until the withdrawal is saved"),
        withdrawalId: str('the MultiVault withdrawal id: keccak256(abi.encode(int8 wid, uint256 Transfer ID))'),
        transactionHash: nstr('the EVM transaction that paid the recipient; null until completed'),
    }),
});

/** (not in the spec) `notInstantTransfer` of a TVM to EVM transfer whose withdrawal went pending. */
export const NotInstantTransfer = {
    type: ['object', 'null'],
    additionalProperties: false,
    description:
        'TVM to EVM only: the pending withdrawal (over a limit, or short of liquidity); null for every other transfer',
    required: ['pendingWithdrawalId', 'tokenAddress', 'amount', 'bounty', 'approveStatus'],
    properties: {
        pendingWithdrawalId: obj({ recipient: str(), id: str('per-recipient number, decimal') }),
        tokenAddress: str(),
        amount: str('still owed (integer string, after the withdrawal fee)'),
        bounty: str('what a filling depositor keeps (integer string)'),
        approveStatus: { type: 'string', enum: ['NotRequired', 'Required', 'Approved', 'Rejected'] },
    },
};

const ProofPayloadSchema = {
    type: ['object', 'null'],
    additionalProperties: false,
    required: ['txBlockProof', 'txProof', 'messageHash', 'outMessageIndex', 'event', 'abiTx'],
    properties: {
        txBlockProof: str(),
        txProof: str(),
        messageHash: str(),
        outMessageIndex: num(),
        event: obj({
            tokenType,
            chainId: num(),
            token: str(),
            amount: str(),
            recipient: str(),
            value: str(),
            expectedGas: str(),
            remainingGasTo: str(),
            sender: str(),
            payload: str(),
            nativeProxyWallet: nstr(),
            name: nstr(),
            symbol: nstr(),
            decimals: { type: ['integer', 'null'] },
        }),
        abiTx: {
            type: ['object', 'null'],
            additionalProperties: false,
            required: ['tx', 'executionAddress', 'attachedValue', 'abiMethod', 'abi', 'params'],
            properties: {
                tx: str(),
                executionAddress: str(),
                attachedValue: str(),
                abiMethod: str(),
                abi: str(),
                params: str(),
            },
        },
    },
};

/** (extension) why a transfer waits and what to do next */
export const Details = {
    type: ['object', 'null'],
    additionalProperties: false,
    description:
        '(extension) the Event contract, its on-chain status, its last error code, the next actions and the timeline',
    required: ['eventContract', 'eventStatus', 'eventStatusCode', 'lastErrorCode', 'nextActions', 'timeline'],
    properties: {
        timeline: {
            type: 'array',
            description: 'what happened, in order, on both networks (at: unix time, null where unknown)',
            items: obj({ at: { type: ['integer', 'null'] }, chainId: num(), step: str(), transaction: nstr() }),
        },
        eventContract: nstr('the Event contract (null until deployed)'),
        eventStatus: nstr(
            'Initializing, Pending, Confirmed, Rejected, Cancelled, LimitReached, LiquidityRequested, LiquidityProvided, Verified',
        ),
        eventStatusCode: { type: ['integer', 'null'] },
        lastErrorCode: num('error code of the last failed delivery (0: none)'),
        nextActions: {
            type: 'array',
            items: obj({ action: str(), caller: str(), note: str() }),
        },
        withdrawal: obj(
            {
                withdrawalId: str(),
                state: { type: 'string', enum: ['NotSaved', 'Pending', 'Paid', 'Rejected', 'Cancelled'] },
                approveStatus: {
                    type: ['string', 'null'],
                    enum: ['NotRequired', 'Required', 'Approved', 'Rejected', null],
                },
                pendingId: nstr(),
                owed: str(),
                bounty: str(),
                paidAmount: str(),
                paidBy: { type: ['string', 'null'], enum: ['Withdrawal', 'Approval', 'Force', 'Fill', null] },
                filler: nstr('the depositor who filled it'),
                cancelledAmount: str(),
                returnTransfer: nstr('cancelled back to TVM: the EVM to TVM Transfer ID (transactionHashEvm)'),
                signatureUrls: {
                    type: 'array',
                    items: str(),
                    description:
                        "where each relay serves its signature of the withdrawal (GET; the deployment's evm.relayEndpoints)",
                },
            },
            undefined,
            { description: 'TVM to EVM only: the MultiVault withdrawal' },
        ),
    },
};

// ------------------------------------------------------------------ /transfers/status

export const StatusRequest = {
    type: 'object',
    additionalProperties: false,
    minProperties: 1,
    maxProperties: 1,
    description: 'exactly one of tvmTvm, evmTvm and tvmEvm',
    properties: {
        tvmTvm: obj(
            {
                outgoingTransactionHash: {
                    type: 'string',
                    pattern: HEX64,
                    description: 'Transfer ID (hex, 64 characters)',
                },
                dappChainId: { ...chainId, description: 'chain id of the source network' },
                timestampCreatedFrom: { type: ['integer', 'null'] },
            },
            ['outgoingTransactionHash', 'dappChainId'],
        ),
        evmTvm: obj(
            {
                transactionHashEvm: { type: 'string', pattern: EVM_HASH, description: 'EVM deposit transaction hash' },
                dappChainId: { ...chainId, description: 'destination TVM chain id' },
                timestampCreatedFrom: { type: 'integer' },
            },
            ['transactionHashEvm', 'dappChainId'],
        ),
        tvmEvm: obj(
            {
                outgoingTransactionHash: {
                    type: 'string',
                    pattern: HEX64,
                    description: 'Transfer ID (hex, 64 characters); or withdrawalId',
                },
                withdrawalId: {
                    type: 'string',
                    pattern: EVM_HASH,
                    description: "the MultiVault's withdrawal id (0x hex); or outgoingTransactionHash",
                },
                dappChainId: { ...chainId, description: 'chain id of the source TVM network' },
                timestampCreatedFrom: { type: ['integer', 'null'] },
            },
            ['dappChainId'],
            {
                description:
                    '(not in the spec) a TVM to EVM transfer: exactly one of outgoingTransactionHash, withdrawalId',
            },
        ),
    },
};

export const StatusResponse = {
    type: 'object',
    additionalProperties: false,
    description: 'the status envelope; all four spec fields null when the transfer is unknown',
    required: ['transfer', 'updatedAt', 'notInstantTransfer', 'proofPayload'],
    properties: {
        transfer: {
            type: ['object', 'null'],
            additionalProperties: false,
            properties: { tvmTvm: TvmTvmRecord, evmTvm: EvmTvmRecord, tvmEvm: TvmEvmRecord },
        },
        updatedAt: { type: ['integer', 'null'] },
        notInstantTransfer: NotInstantTransfer,
        proofPayload: ProofPayloadSchema,
        details: Details,
    },
};

// ------------------------------------------------------------------ /transfers/search

const strings = (items: Record<string, unknown>, maxItems?: number) => ({
    type: 'array',
    items,
    ...(maxItems ? { maxItems } : {}),
});

export const SearchRequest = obj(
    {
        userAddresses: strings({ type: 'string' }, MAX_USER_ADDRESSES),
        transferKinds: strings({ type: 'string', enum: ['TvmToTvm', 'EvmToTvm', 'TvmToEvm'] }),
        statuses: strings(status),
        fromTvmChainId: chainId,
        toTvmChainId: chainId,
        fromEvmChainId: chainId,
        toEvmChainId: { ...chainId, description: '(not in the spec) destination EVM chain id: TVM to EVM transfers' },
        evmUserAddress: { type: 'string', pattern: EVM_ADDRESS },
        tvmUserAddress: { type: 'string' },
        createdAtGe: { type: 'integer' },
        createdAtLe: { type: 'integer' },
        ordering: { type: 'string', enum: ['CreatedAtAscending', 'CreatedAtDescending'] },
        limit: { type: 'integer', minimum: 1, maximum: MAX_SEARCH_LIMIT },
        offset: { type: 'integer', minimum: 0, maximum: MAX_SEARCH_OFFSET },
        isNeedTotalCount: { type: 'boolean' },
    },
    ['limit', 'offset', 'isNeedTotalCount'],
);

export const SearchResponse = obj({
    transfers: {
        type: 'array',
        items: {
            type: 'object',
            additionalProperties: false,
            properties: { tvmTvm: TvmTvmRecord, evmTvm: EvmTvmRecord, tvmEvm: TvmEvmRecord },
        },
    },
    totalCount: num(
        `the number of matching transfers, counted up to ${CAP}: when more match, ${CAP} (0 when isNeedTotalCount is false)`,
    ),
});

// ------------------------------------------------------------------ configurations

export const BridgeConfiguration = obj({
    address: str('EventConfiguration address in TVM'),
    chainId: num('EVM chain id'),
    flags: str("conversion flags (the configuration's uint8, decimal)"),
    eventInitialBalance: str('minimum gas for the Event deployment (nano-units)'),
    meta: obj({ tokenType, direction: { type: 'string', enum: ['ToTvm', 'ToEvm'] } }),
});

export const ConfigurationsResponse = { type: 'array', items: BridgeConfiguration };

export const HealthResponse = obj({
    ok: { type: 'boolean' },
    storage: { type: 'string', enum: ['up', 'down'] },
    kind: str('pglite or postgres'),
    cursors: {
        type: 'array',
        items: obj({ name: str(), value: str(), updatedAt: num() }),
    },
});

// ------------------------------------------------------------------ /payload/build

const address = { type: 'string', minLength: 1, maxLength: 100 } as const;
const uintString = { type: 'string', pattern: UINT_STRING, maxLength: 40 } as const;

export const PayloadRequest = obj(
    {
        fromChainId: { ...chainId, description: 'source chain id' },
        toChainId: { ...chainId, description: 'destination chain id' },
        tokenAddress: { ...address, description: 'token in the source network' },
        recipientAddress: { ...address, description: 'recipient in the destination network' },
        amount: { ...uintString, description: "integer string in the token's minimal units, below 2^128" },
        senderAddress: { ...address, description: 'sender in the source network' },
        useCredit: { type: 'boolean', description: 'default true for TVM to TVM, false for EVM to TVM' },
        remainingGasTo: { ...address, description: 'TVM to TVM: required' },
        payload: { type: 'string', maxLength: 65536, description: 'extra payload, a BOC in base64' },
        callback: { type: 'object', description: 'not supported: must be absent or empty' },
        evmChainId: { ...chainId, description: 'EVM to TVM: the EVM chain id (equals fromChainId)' },
        tokenBalance: obj({ nativeTokenAmount: uintString, wrappedNativeTokenAmount: uintString }, [], {
            description: 'EVM to TVM, the wrapped gas currency: both balances of the sender',
        }),
    },
    ['fromChainId', 'toChainId', 'tokenAddress', 'recipientAddress', 'amount', 'senderAddress'],
);

export const PayloadResponse = obj({
    transferKind: { type: 'string', enum: ['TvmToTvm', 'EvmToTvm'] },
    tokensMeta: obj({
        targetToken: obj({ tokenType, isDeployed: { type: 'boolean' }, address: str() }),
        sourceTokenType: tokenType,
    }),
    tokenAmount: str('what the recipient gets: amount less the fees'),
    feesMeta: obj({ amount: str(), numerator: str(), denominator: str() }),
    gasEstimateAmount: str('TVM: the value attached (nano-units); EVM: gas units'),
    abiMeta: obj({
        tx: str('TVM: the body BOC (base64); EVM: calldata (hex)'),
        executionAddress: str(),
        attachedValue: str(),
        abiMethod: str('TVM: transfer (lock) or burn (alien token); EVM: deposit or depositByNativeToken'),
        abi: str(),
        params: str(),
    }),
    trackingMeta: obj({
        sourceProxy: nstr(),
        sourceConfiguration: nstr(),
        sourceMultivault: nstr(),
        targetProxy: str(),
        targetConfiguration: nstr(),
        targetMultivault: nstr(),
    }),
    payload: { type: 'null' },
});

/** (extension) GET /v2/transfers/status/stream: one of the two Transfer IDs and the chain. */
export const StatusStreamQuery = obj(
    {
        outgoingTransactionHash: { type: 'string', pattern: HEX64 },
        transactionHashEvm: { type: 'string', pattern: EVM_HASH },
        dappChainId: { type: 'string', pattern: '^-?[0-9]{1,10}$' },
    },
    ['dappChainId'],
);
