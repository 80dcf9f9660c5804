/**
 * Keys live in the worker; the main thread only ever holds an id. A CryptoKey can move between
 * workers of the pool over a MessagePort (structured clone keeps it non-extractable when it was),
 * never through the main thread.
 */
import { CryptoError } from '../crypto/index.ts';

export type KeyKind = 'file' | 'private';

interface StoredKey {
  readonly kind: KeyKind;
  readonly key: CryptoKey;
}

interface KeyTransferMessage {
  readonly id: string;
  readonly kind: KeyKind;
  readonly key: CryptoKey;
}

export class KeyStore {
  private readonly keys = new Map<string, StoredKey>();

  add(kind: KeyKind, key: CryptoKey, id: string = crypto.randomUUID()): string {
    this.keys.set(id, { kind, key });
    return id;
  }

  get(id: string, kind: KeyKind): CryptoKey {
    const stored = this.keys.get(id);
    if (!stored || stored.kind !== kind) throw new CryptoError('UNKNOWN_KEY', `no ${kind} key with this handle in this worker`);
    return stored.key;
  }

  delete(id: string): void {
    this.keys.delete(id);
  }

  /** Sends one key to another worker over a port given by the pool. */
  send(id: string, port: MessagePort): void {
    const stored = this.keys.get(id);
    if (!stored) throw new CryptoError('UNKNOWN_KEY', 'no key with this handle in this worker');
    const message: KeyTransferMessage = { id, kind: stored.kind, key: stored.key };
    port.postMessage(message);
    port.close();
  }

  /** Receives the key sent by `send` on the other end of the pool's channel. */
  receive(port: MessagePort): Promise<void> {
    return new Promise((resolve, reject) => {
      port.onmessage = (event: MessageEvent<KeyTransferMessage>) => {
        const { id, kind, key } = event.data;
        port.close();
        if (!(key instanceof CryptoKey)) {
          reject(new CryptoError('WORKER_FAILED', 'key transfer between workers did not carry a key'));
          return;
        }
        this.add(kind, key, id);
        resolve();
      };
      port.onmessageerror = () => reject(new CryptoError('WORKER_FAILED', 'key transfer between workers failed'));
    });
  }
}
