// The app's one crypto worker pool, created on first use. Keys live in its workers and are named
// by handles that only this pool knows, so everything that unlocks, unwraps or uses keys (keys,
// files, links) must go through this instance.

import { CryptoPool } from '../../workers/index.ts';

let pool: CryptoPool | null = null;

export function sharedCryptoPool(): CryptoPool {
  pool ??= CryptoPool.create();
  return pool;
}
