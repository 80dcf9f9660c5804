/**
 * Zero-knowledge sign-in (docs/format.md, "Login key derivation"): the login password never leaves
 * the browser. From it and the account's parameter block (scheme 3, bound to the account name;
 * scheme 2 for accounts not yet moved, until their next sign-in):
 *   master        = argon2id(UTF-8 password, salt (scheme 3: SHA-256(label, name, salt)), m, t, p) -> 32 bytes
 *   authSecret    = HKDF-SHA256(master, salt = empty, info "sealdrop/auth/v1") -> 32 bytes, sent as base64
 *   wrappingKey   = HKDF-SHA256(master, salt = empty, info "sealdrop/private-key-wrap/v1") -> AES-256-GCM
 * The two HKDF outputs are independent, so the authentication secret (which the server sees)
 * tells nothing about the wrapping key (which opens the private key).
 */
import { encodeBase64 } from './base64.ts';
import type { AccountKdfParams, AuthSecret } from './branded.ts';
import { CryptoError } from './errors.ts';
import {
  assertDefaultCost,
  deriveMasterKey,
  encodeKdfParams,
  HKDF_INFO,
  hkdfParams,
  KDF_SCHEME_ARGON2ID_BOUND,
  KDF_SCHEME_PBKDF2_SHA256,
  newBoundArgon2Params,
  normaliseAccountName,
  parseKdfParams,
  wrappingKeyFromMaster,
  type Argon2Params,
} from './kdf.ts';

export const AUTH_SECRET_LENGTH = 32;

export interface AccountSecrets {
  /** SECRET: what the server receives in place of the login password. */
  readonly authSecret: AuthSecret;
  /** Non-extractable AES-256-GCM key (encrypt, decrypt) for the private key. */
  readonly wrappingKey: CryptoKey;
}

/**
 * A fresh scheme-3 parameter block (random salt, the default cost, bound to `username`) for a new,
 * re-keyed, renamed or moved account.
 */
export function newAccountKdfParams(username: string): AccountKdfParams {
  return encodeKdfParams(newBoundArgon2Params(username)) as string as AccountKdfParams;
}

/** Whether a parameter block is bound to an account name (scheme 3); false for anything else or damage. */
export function isBoundAccountKdfParams(text: string): boolean {
  try {
    return parseKdfParams(text, undefined, 'account KDF parameters').scheme === KDF_SCHEME_ARGON2ID_BOUND;
  } catch {
    return false;
  }
}

/**
 * Reads an account's parameter block: argon2id only, scheme 3 (bound) or 2 (accounts not yet
 * moved), MALFORMED otherwise; only at the default cost or above (KDF_REFUSED): the block comes
 * from the server's pre-login. With `username` (the name being signed in with), a block bound to
 * another name is KDF_NAME_MISMATCH: a server handing out one salt for many names would otherwise
 * get one table of guesses for all of them.
 */
export function parseAccountKdfParams(text: string, username?: string): Argon2Params {
  const params = parseKdfParams(text, undefined, 'account KDF parameters');
  if (params.scheme === KDF_SCHEME_PBKDF2_SHA256) {
    throw new CryptoError('MALFORMED', 'account KDF parameters must be argon2id (scheme 3 or 2)');
  }
  assertDefaultCost(params, 'account KDF parameters');
  if (username !== undefined && params.scheme === KDF_SCHEME_ARGON2ID_BOUND && params.name !== normaliseAccountName(username)) {
    throw new CryptoError('KDF_NAME_MISMATCH', 'account KDF parameters are bound to another account name');
  }
  return params;
}

/**
 * One argon2id run, then both purpose values. `username` is the name signed in with (checked
 * against a bound block); undefined only where no name is typed (a key backup's own block).
 */
export async function deriveAccountSecrets(password: string, kdfParams: string, username: string | undefined): Promise<AccountSecrets> {
  const master = await deriveMasterKey(password, parseAccountKdfParams(kdfParams, username));
  const [authBits, wrappingKey] = await Promise.all([
    crypto.subtle.deriveBits(hkdfParams(HKDF_INFO.auth), master, AUTH_SECRET_LENGTH * 8),
    wrappingKeyFromMaster(master, ['encrypt', 'decrypt']),
  ]);
  return { authSecret: encodeBase64(new Uint8Array(authBits)) as string as AuthSecret, wrappingKey };
}
