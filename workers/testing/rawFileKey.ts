// A file key of known bytes in the pool, for tests and the crypto vectors. The page never holds raw
// key bytes except in a link's URL fragment, so that is the door used: the shipped parseLinkFragment.
import { encodeBase64 } from '../../crypto/index.ts';
import type { CryptoPool } from '../pool.ts';
import type { FileKeyHandle } from '../pool-types.ts';

export async function importRawFileKey(pool: CryptoPool, raw: Uint8Array): Promise<FileKeyHandle> {
  const handles = await pool.parseLinkFragment(`1:${encodeURIComponent(encodeBase64(raw))}`);
  return handles.get('1')!;
}
