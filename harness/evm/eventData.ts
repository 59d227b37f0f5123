/** Moved to the client library (lib/evmEventData.ts); re-exported for existing imports. */
export * from '../../lib/evmEventData';
