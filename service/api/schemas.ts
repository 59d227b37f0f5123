/**
 * The JSON schemas of the /v2 interface (spec: "Resources and their fields", "Endpoints"): fastify
 * validates requests and serialises responses with them, @fastify/swagger writes the OpenAPI
 * document from them, and the tests check every response against them. Extensions beyond the spec
 * are marked "(extension)" and never change a spec field.
 */

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
    description: '(extension) the Event contract, its on-chain status, its last error code and the next actions',
    required: ['eventContract', 'eventStatus', 'eventStatusCode', 'lastErrorCode', 'nextActions'],
    properties: {
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
    },
};

// ------------------------------------------------------------------ /transfers/status

export const StatusRequest = {
    type: 'object',
    additionalProperties: false,
    minProperties: 1,
    maxProperties: 1,
    description: 'exactly one of tvmTvm and evmTvm',
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
            properties: { tvmTvm: TvmTvmRecord, evmTvm: EvmTvmRecord },
        },
        updatedAt: { type: ['integer', 'null'] },
        notInstantTransfer: { type: 'null' },
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
        transferKinds: strings({ type: 'string', enum: ['TvmToTvm', 'EvmToTvm'] }),
        statuses: strings(status),
        fromTvmChainId: chainId,
        toTvmChainId: chainId,
        fromEvmChainId: chainId,
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
            properties: { tvmTvm: TvmTvmRecord, evmTvm: EvmTvmRecord },
        },
    },
    totalCount: num('the number of matching transfers (0 when isNeedTotalCount is false)'),
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
