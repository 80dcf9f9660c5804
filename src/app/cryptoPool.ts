// The app's one crypto worker pool. Keys live in its workers and are named by handles that only
// this pool knows, so everything that unlocks, unwraps, sends or releases keys (keys, files,
// links, recipient, upload) must use this one instance. There is exactly one way to reach it: the
// entry (src/main.tsx) makes it with lazyCryptoPool() and AppProviders hands it down; React code
// reads it with useCryptoPool(), and code outside React receives it as a parameter from its
// caller. Tests pass their own pool (e.g. src/app/testing/testCryptoPool.ts) the same way.

import { createContext, useContext } from 'react';
import { CryptoPool } from '../../workers/index.ts';

/** The pool, created with its workers on the first call (a screen that never needs them starts none). */
export type CryptoPoolSource = () => CryptoPool;

export function lazyCryptoPool(create: () => CryptoPool = () => CryptoPool.create()): CryptoPoolSource {
  let pool: CryptoPool | null = null;
  return () => (pool ??= create());
}

const CryptoPoolContext = createContext<CryptoPoolSource | null>(null);

/** Used once, by AppProviders. */
export const CryptoPoolProvider = CryptoPoolContext.Provider;

export function useCryptoPool(): CryptoPoolSource {
  const source = useContext(CryptoPoolContext);
  if (!source) throw new Error('useCryptoPool needs AppProviders (src/app/AppProviders.tsx) above it');
  return source;
}
