/**
 * The API's own errors (an HTTP status, the request field at fault and the rule it broke) and the
 * address rules every endpoint applies.
 */
import { Address } from '@ton/core';

export class ApiError extends Error {
    constructor(
        readonly statusCode: number,
        readonly field: string | null,
        readonly rule: string | null,
        message?: string,
        readonly code = statusCode === 400 ? 'BAD_REQUEST' : statusCode === 502 ? 'NETWORK_ERROR' : 'INTERNAL',
    ) {
        super(message ?? (field ? `${field}: ${rule}` : (rule ?? 'error')));
    }
}

/** A TVM address in raw form `0:<hex>`, from raw or user-friendly input; ApiError naming `field` otherwise. */
export function tvmAddress(field: string, s: string): string {
    if (/^-?\d+:[0-9a-fA-F]{64}$/.test(s) || /^[A-Za-z0-9+/_-]{48}$/.test(s)) {
        try {
            return Address.parse(s).toRawString();
        } catch {
            // falls through
        }
    }
    throw new ApiError(400, field, 'a TVM address (0:<64 hex> or user-friendly)');
}

export function evmAddress(field: string, s: string): string {
    if (/^0x[0-9a-fA-F]{40}$/.test(s)) return s.toLowerCase();
    throw new ApiError(400, field, 'an EVM address (0x<40 hex>)');
}
