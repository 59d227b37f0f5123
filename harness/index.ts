export * from './validators';
export * from './tlb';
export * from './blocks';
export * from './signatures';
export * from './proofs';
export * from './chain';
