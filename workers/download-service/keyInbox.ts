/**
 * Receives the file keys of one download on the port the crypto worker posts them into (workers/
 * pool.ts sendFileKeys): one message { keys: [{ id, key }] }. Only CryptoKeys are accepted.
 */
import type { FileKeysMessage } from '../pool-types.ts';

export function receiveFileKeys(port: MessagePort, timeoutMs: number): Promise<Map<string, CryptoKey>> {
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
