/**
 * The client library: what every party of the bridge (tests, scripts, operators, the API, a dApp)
 * computes the same way. Imports wrappers and core libraries only, never the simulator (harness/).
 */
export * from './tvmTvmEvents';
export * from './transferId';
export * from './proofPayload';
export * from './userTransfers';
export * from './evmEventData';
export * from './toncenterV2';
export * from './tvmEvmEvents';
export * from './signatures';
export * from './tvmEvmRelay';
