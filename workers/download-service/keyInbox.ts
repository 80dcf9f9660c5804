/**
 * Receives the file keys of one download on the port the crypto worker posts them into (workers/
 * pool.ts sendFileKeys): one message { keys: [{ id, key }] }. Only CryptoKeys are accepted.
 */
import type { FileKeysMessage } from '../pool-types.ts';

/** How long a download waits for its keys from the crypto worker, unless told otherwise. */
export const DEFAULT_KEY_TIMEOUT_MS = 15_000;

export function receiveFileKeys(port: MessagePort, timeoutMs: number = DEFAULT_KEY_TIMEOUT_MS): Promise<Map<string, CryptoKey>> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      port.close();
      reject(new Error('the file keys did not arrive'));
    }, timeoutMs);
    port.onmessage = (event: MessageEvent<FileKeysMessage>) => {
      clearTimeout(timer);
      port.close();
      const keys = new Map<string, CryptoKey>();
      const list = Array.isArray(event.data?.keys) ? event.data.keys : [];
      for (const entry of list) {
        if (typeof entry?.id === 'string' && entry.key instanceof CryptoKey) keys.set(entry.id, entry.key);
      }
      resolve(keys);
    };
    port.onmessageerror = () => {
      clearTimeout(timer);
      port.close();
      reject(new Error('the file keys could not be received'));
    };
    port.start();
  });
}
