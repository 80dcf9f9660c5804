/**
 * An account as the code before issue 27 made it, for the upgrade's tests and end-to-end specs:
 * `createUser` stored argon2id of the password itself (server/auth/passwords.ts hashPassword, the
 * same function and cost as then) and no KDF parameter block; the browser stored its public key and
 * its private key wrapped under PBKDF2-SHA256 250000 of the password (scheme 1, the node
 * implementation of that format: server/crypto wrapPrivateKey, checked against the browser's by
 * tests/crypto/keys.test.ts). The sign-in it needs: the password itself, once.
 */
import { hashPassword } from '../../server/auth/passwords.ts';
import { generateRsaKeyPair, wrapPrivateKey, type NodeKeyPair, type StoredKeyData } from '../../server/crypto/index.ts';
import type { Repositories, User } from '../../server/db/repositories/index.ts';

export interface LegacyAccount {
  user: User;
  password: string;
  /** The key pair whose private key the server holds wrapped under scheme 1 (when `withKeyPair`). */
  keyPair: NodeKeyPair | null;
  /** That key data, as stored (and as the old app's backup file held it). */
  keyData: StoredKeyData | null;
}

export async function createLegacyAccount(
  repos: Repositories,
  input: { username: string; password: string; now: number; withKeyPair?: boolean },
): Promise<LegacyAccount> {
  const user = await repos.users.create({
    username: input.username,
    email: null,
    passwordHash: await hashPassword(input.password),
    kdfParams: null,
    now: input.now,
  });
  // Such accounts existed before the server closed the password sign-in (a fresh database starts
  // closed): a database that holds one is one where it is still open.
  await repos.oldSchemeSignIn.reopen();
  if (!input.withKeyPair) return { user, password: input.password, keyPair: null, keyData: null };
  const keyPair = generateRsaKeyPair();
  const keyData = wrapPrivateKey(keyPair.privateKey, input.password);
  await repos.users.setPublicKey(user.id, keyPair.publicKeySpki);
  await repos.users.setEncryptedPrivateKey(user.id, keyData);
  return { user, password: input.password, keyPair, keyData };
}
