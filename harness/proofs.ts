/** The Merkle proof builders live in lib/blockProofs.ts (the operators use them too). */
export * from '../lib/blockProofs';
