// The login secret as the server keeps it (docs/security.md). Browsers never send the
// login password: they derive an authentication secret from it under the account's KDF parameter
// block (argon2id, docs/format.md "Login key derivation") and the server stores argon2id of that
// secret. An account made before keeps argon2id of the password itself until its first sign-in
// upgrades it (`kdfParams` null until then).
import { deriveAccountSecrets, newBoundArgon2Block, NODE_ARGON2_DEFAULT_COST, normaliseAccountName, readArgon2Block, type NodeArgon2Params } from '../crypto/index.ts';
import type { LoginSecret, User } from '../db/repositories/index.ts';
import { hashPassword, verifyPassword } from './passwords.ts';

/** The stored form of an authentication secret: argon2id, as login passwords were hashed before. */
export function hashAuthSecret(authSecret: string): Promise<string> {
  return hashPassword(authSecret);
}

/**
 * What the admin CLI does with a new password (create-user, reset-password): a fresh parameter
 * block bound to the account's name, the authentication secret derived from it exactly as the
 * browser derives it, and its hash. `cost` is for tests; accounts get the default cost.
 */
export async function loginSecretForPassword(password: string, username: string, cost?: Omit<NodeArgon2Params, 'salt' | 'boundName'>): Promise<LoginSecret> {
  const kdfParams = cost ? newBoundArgon2Block(username, undefined, cost) : newBoundArgon2Block(username);
  const { authSecret, wrappingKey } = deriveAccountSecrets(password, kdfParams);
  wrappingKey.fill(0);
  return { kdfParams, passwordHash: await hashAuthSecret(authSecret) };
}

/** False for accounts not yet upgraded (their hash is of the password, which is not sent any more). */
export function usesAuthSecret(account: Pick<User, 'kdfParams'>): boolean {
  return account.kdfParams !== null;
}

/**
 * Whether `authSecret` signs in as `account`; with no account (or one not yet upgraded) it spends
 * the same time and answers false, so the answer's timing tells nothing about which names exist.
 */
export function authSecretMatches(account: Pick<User, 'kdfParams' | 'passwordHash'> | undefined, authSecret: string): Promise<boolean> {
  return verifyPassword(account && usesAuthSecret(account) ? account.passwordHash : undefined, authSecret);
}

/**
 * Whether a client-chosen parameter block may become an account's: scheme 3 (bound to a name) at
 * exactly the default cost, and with `username`, bound to that account's name. A cheaper block
 * would weaken the account against a copy of the database; any other cost would set the account's
 * pre-login answer apart from the stand-ins given for unknown names; a block bound to another name
 * would not sign in (the browser refuses it).
 */
export function isNewAccountKdfParams(text: string, username?: string): boolean {
  try {
    const { memoryKiB, passes, lanes, boundName } = readArgon2Block(Buffer.from(text, 'base64'));
    const atDefaultCost = memoryKiB === NODE_ARGON2_DEFAULT_COST.memoryKiB && passes === NODE_ARGON2_DEFAULT_COST.passes && lanes === NODE_ARGON2_DEFAULT_COST.lanes;
    return atDefaultCost && boundName !== undefined && (username === undefined || boundName === normaliseAccountName(username));
  } catch {
    return false;
  }
}

/** Whether the account's block is bound to its name (scheme 3); false before its move. */
export function hasBoundKdfParams(user: User): boolean {
  if (user.kdfParams === null) return false;
  try {
    return readArgon2Block(Buffer.from(user.kdfParams, 'base64')).boundName !== undefined;
  } catch {
    return false;
  }
}
