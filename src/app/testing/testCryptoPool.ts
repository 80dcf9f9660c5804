// The crypto pool for jsdom tests, handed to the app the way src/main.tsx hands over the real one
// (renderWithProviders / renderAppAt `cryptoPool`, or a parameter): a real CryptoPool whose workers
// run in this process (workers/testing/inProcessWorker.ts), since jsdom has no Worker. Terminate it
// after the test.
import { CryptoPool } from '../../../workers/index.ts';
import { inProcessWorker } from '../../../workers/testing/inProcessWorker.ts';
import type { CryptoPoolSource } from '../cryptoPool.ts';

export function inProcessCryptoPool(): CryptoPool {
  return CryptoPool.create({ size: 2, createWorker: inProcessWorker });
}

/** The default of the render helpers: a test that reaches the pool without giving one fails saying so. */
export const noCryptoPool: CryptoPoolSource = () => {
  throw new Error('This test reached the crypto pool without giving one: pass cryptoPool (src/app/testing/testCryptoPool.ts).');
};
