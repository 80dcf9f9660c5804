// The keys feature's one door to cryptography. UI code never calls crypto.subtle (style rule 1):
// every operation here runs in the crypto worker pool, and the decrypted private key stays inside
// a worker; this thread only ever holds its handle id. Passwords pass through to the worker and
// are not kept.
//
// The implementation is replaceable for jsdom component tests (no Workers there); the app always
// uses the pool-backed one from poolKeyOperations.ts, loaded on first use (it brings the workers).

import type { KeyData } from './backupFile.ts';

export interface GeneratedKeyPairData extends KeyData {
  publicKeySpki: string;
}

export interface KeyOperations {
  /** A new RSA-OAEP key pair; the private key comes back only wrapped under `password`. */
  generateKeyPair(password: string): Promise<GeneratedKeyPairData>;
  /** Opens key data with the login password; resolves with the id of the private-key handle. */
  unlockPrivateKey(data: KeyData, password: string): Promise<string>;
  /** The same private key under a new password (password change, restore of an older backup). */
  rewrapPrivateKey(data: KeyData, oldPassword: string, newPassword: string): Promise<KeyData>;
  /** The base64 SPKI public key of a wrapped private key (restore: a backup has no public key). */
  publicKeyOf(data: KeyData, password: string): Promise<string>;
  /** Wipes an unlocked private key from every worker. */
  releasePrivateKey(handleId: string): Promise<void>;
}

let current: KeyOperations | null = null;

/** Tests: use another implementation until the returned function is called. */
export function installKeyOperations(operations: KeyOperations): () => void {
  const previous = current;
  current = operations;
  return () => {
    current = previous;
  };
}

export async function keyOperations(): Promise<KeyOperations> {
  if (current) return current;
  const { poolKeyOperations } = await import('./poolKeyOperations.ts');
  current ??= poolKeyOperations;
  return current;
}
