// The keys feature's one door to cryptography. UI code never calls crypto.subtle (style rule 1):
// every operation here runs in the crypto worker pool, and the decrypted private key stays inside
// a worker; this thread only ever holds its handle id. Passwords pass through to the worker and
// are not kept.
//
// The implementation is replaceable for jsdom component tests (no Workers there); the app always
// uses the pool-backed one from poolKeyOperations.ts, loaded on first use (it brings the workers).

import type { KeyOperations } from './keyOperationTypes.ts';

export type { GeneratedKeyPairData, KeyOperations } from './keyOperationTypes.ts';

let current: KeyOperations | null = null;

/** Tests: use another implementation until the returned function is called. */
export function installKeyOperations(operations: KeyOperations): () => void {
  const previous = current;
  current = operations;
  return () => {
    current = previous;
  };
}

export async function keyOperations(): Promise<KeyOperations> {
  if (current) return current;
  const { poolKeyOperations } = await import('./poolKeyOperations.ts');
  current ??= poolKeyOperations;
  return current;
}
