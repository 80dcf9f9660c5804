/**
 * Keys live in the worker; the main thread only ever holds an id. A key can move between workers
 * of the pool over a MessagePort (structured clone keeps a CryptoKey non-extractable when it was),
 * never through the main thread.
 *
 * Four kinds: a file key; an account private key, kept as its RSA-OAEP import, its RSA-PSS
 * import for signing team manifests and its public key (crypto/team-keys.ts); an opened team
 * folder's keys (team-key-ring.ts); and the ECDH key pair of a device-approval request, whose
 * private half is non-extractable (crypto/device-approval.ts).
 *
 * An account key opened by a single-sign-on path (a device, the recovery key, an approval, or a
 * passkey checked against the account's public key) also keeps an extractable copy, `rewrap`, so
 * that a new passkey's copy can be made from the session's key (PasskeyKeySource 'session'). Such
 * an account's page can already re-wrap its key (its device key and copy approve any request), so
 * the copy gives a script in the page nothing new; a key opened with a login password keeps none,
 * as a script would otherwise need that password to re-wrap it.
 */
import { CryptoError, type AccountKeys, type ApprovalRequestKeys } from '../crypto/index.ts';
import type { FolderKeyRing } from './team-key-ring.ts';

export type KeyKind = 'file' | 'private' | 'folder' | 'request';

type StoredKey =
  | { readonly kind: 'file'; readonly key: CryptoKey }
  | { readonly kind: 'private'; readonly account: AccountKeys; readonly rewrap?: CryptoKey }
  | { readonly kind: 'folder'; readonly ring: FolderKeyRing }
  | { readonly kind: 'request'; readonly request: ApprovalRequestKeys };

interface KeyTransferMessage {
  readonly id: string;
  readonly stored: StoredKey;
}

function isStoredKey(value: unknown): value is StoredKey {
  const stored = value as Partial<Record<string, unknown>> | null;
  if (typeof stored !== 'object' || stored === null) return false;
  if (stored.kind === 'file') return stored.key instanceof CryptoKey;
  if (stored.kind === 'private') {
    const account = stored.account as Partial<AccountKeys> | undefined;
    const rewrap = (stored as { rewrap?: unknown }).rewrap;
    return account?.decryptKey instanceof CryptoKey && account.signingKey instanceof CryptoKey && typeof account.keyHash === 'string' && (rewrap === undefined || rewrap instanceof CryptoKey);
  }
  if (stored.kind === 'folder') {
    const ring = stored.ring as Partial<FolderKeyRing> | undefined;
    return ring?.epochKeys instanceof Map && ring.memberKeys instanceof Map && typeof ring.chain === 'object';
  }
  if (stored.kind === 'request') {
    const request = stored.request as Partial<ApprovalRequestKeys> | undefined;
    return request?.privateKey instanceof CryptoKey && typeof request.publicKeySpki === 'string';
  }
  return false;
}

export class KeyStore {
  private readonly keys = new Map<string, StoredKey>();

  add(kind: 'file', key: CryptoKey, id: string = crypto.randomUUID()): string {
    this.keys.set(id, { kind, key });
    return id;
  }

  /** `rewrap`: the extractable private key, kept only for keys of accounts without a password (above). */
  addAccount(account: AccountKeys, rewrap?: CryptoKey, id: string = crypto.randomUUID()): string {
    this.keys.set(id, rewrap ? { kind: 'private', account, rewrap } : { kind: 'private', account });
    return id;
  }

  addFolder(ring: FolderKeyRing, id: string = crypto.randomUUID()): string {
    this.keys.set(id, { kind: 'folder', ring });
    return id;
  }

  addRequest(request: ApprovalRequestKeys, id: string = crypto.randomUUID()): string {
    this.keys.set(id, { kind: 'request', request });
    return id;
  }

  private stored<Kind extends KeyKind>(id: string, kind: Kind): Extract<StoredKey, { kind: Kind }> {
    const stored = this.keys.get(id);
    if (!stored || stored.kind !== kind) throw new CryptoError('UNKNOWN_KEY', `no ${kind} key with this handle in this worker`);
    return stored as Extract<StoredKey, { kind: Kind }>;
  }

  /** A file key, or an account private key's RSA-OAEP import. */
  get(id: string, kind: 'file' | 'private'): CryptoKey {
    return kind === 'file' ? this.stored(id, 'file').key : this.stored(id, 'private').account.decryptKey;
  }

  account(id: string): AccountKeys {
    return this.stored(id, 'private').account;
  }

  /** The extractable copy of an account key opened by a single-sign-on path; UNKNOWN_KEY for any other. */
  rewrappable(id: string): CryptoKey {
    const { rewrap } = this.stored(id, 'private');
    if (!rewrap) throw new CryptoError('UNKNOWN_KEY', 'this private key was not opened by a single-sign-on path and cannot be wrapped again');
    return rewrap;
  }

  folder(id: string): FolderKeyRing {
    return this.stored(id, 'folder').ring;
  }

  request(id: string): ApprovalRequestKeys {
    return this.stored(id, 'request').request;
  }

  delete(id: string): void {
    this.keys.delete(id);
  }

  /** Sends one key to another worker over a port given by the pool. */
  send(id: string, port: MessagePort): void {
    const stored = this.keys.get(id);
    if (!stored) throw new CryptoError('UNKNOWN_KEY', 'no key with this handle in this worker');
    const message: KeyTransferMessage = { id, stored };
    port.postMessage(message);
    port.close();
  }

  /** Receives the key sent by `send` on the other end of the pool's channel. */
  receive(port: MessagePort): Promise<void> {
    return new Promise((resolve, reject) => {
      port.onmessage = (event: MessageEvent<KeyTransferMessage>) => {
        const { id, stored } = event.data;
        port.close();
        if (!isStoredKey(stored)) {
          reject(new CryptoError('WORKER_FAILED', 'key transfer between workers did not carry a key'));
          return;
        }
        this.keys.set(id, stored);
        resolve();
      };
      port.onmessageerror = () => reject(new CryptoError('WORKER_FAILED', 'key transfer between workers failed'));
    });
  }
}
