// What the keys feature asks of cryptography (keyOperations.ts picks the implementation).
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
