/** Shared fixtures for the suites that call the CryptoPool with in-process workers. */
import { randomBytes } from 'node:crypto';
import { afterEach } from 'vitest';
import { wrapFileKey } from '../../server/crypto/index.ts';
import { CryptoPool, type PrivateKeyHandle } from '../../workers/index.ts';
import { inProcessWorker } from '../../workers/testing/inProcessWorker.ts';

/**
 * A maker of two-worker pools for this file, each ended after its test: a test that stands for two
 * browsers makes two. Call at the top level of the test file (it registers an afterEach).
 */
export function inProcessPools(): () => CryptoPool {
  const pools: CryptoPool[] = [];
  afterEach(() => {
    for (const pool of pools.splice(0)) pool.terminate();
  });
  return () => {
    const pool = CryptoPool.create({ size: 2, createWorker: inProcessWorker });
    pools.push(pool);
    return pool;
  };
}

/** Whether `handle` is the private key of `spki`: it opens a file key wrapped for that public key (read back through a link fragment). */
export async function opensFileKeysOf(pool: CryptoPool, handle: PrivateKeyHandle, spki: string): Promise<boolean> {
  const raw = randomBytes(32);
  const fileKey = await pool.unwrapFileKey(handle, wrapFileKey(spki, raw));
  return (await pool.formatLinkFragment([{ fileId: 'f', key: fileKey }])) === `f:${raw.toString('base64')}`;
}
