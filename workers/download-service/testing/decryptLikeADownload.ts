/**
 * Decrypts a ciphertext stream exactly as a user's download does, for tests and the Chromium
 * vectors: the pool posts the file key over a MessagePort (pool.sendFileKeys, as it does to the
 * service worker), the key inbox receives it, and the service worker's own decrypting stream turns
 * ciphertext into plaintext. Only the service worker's fetch and download-manager ends are left out.
 */
import type { CryptoPool } from '../../pool.ts';
import type { FileKeyHandle } from '../../pool-types.ts';
import { ciphertextPieces } from '../ciphertextPieces.ts';
import { createDecryptingStream } from '../decryptingStream.ts';
import { receiveFileKeys } from '../keyInbox.ts';

const KEY_WAIT_MS = 30_000;

export async function decryptLikeADownload(
  pool: CryptoPool,
  key: FileKeyHandle,
  iv: string,
  plainSize: number,
  ciphertext: ReadableStream<Uint8Array>,
): Promise<ReadableStream<Uint8Array>> {
  const { port1, port2 } = new MessageChannel();
  const received = receiveFileKeys(port1, KEY_WAIT_MS);
  try {
    await pool.sendFileKeys([key], port2);
  } catch (error) {
    port1.close();
    // The inbox still waits for its own time limit; nobody reads its answer any more, so its
    // rejection must not surface later as an unhandled one in whichever test runs then.
    received.catch(() => undefined);
    await ciphertext.cancel(error).catch(() => undefined);
    throw error;
  }
  const cryptoKey = (await received).get(key.id);
  if (!cryptoKey) throw new Error('the pool sent no key for this handle');
  return createDecryptingStream(ciphertextPieces(ciphertext), { key: cryptoKey, iv, plainSize });
}
