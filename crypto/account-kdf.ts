/**
 * Zero-knowledge sign-in (docs/format.md, "Login key derivation"): the login password never leaves
 * the browser. From it and the account's scheme-2 parameter block:
 *   master        = argon2id(UTF-8 password, salt, m, t, p) -> 32 bytes
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
  KDF_SCHEME_ARGON2ID,
  newArgon2Params,
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

/** A fresh scheme-2 parameter block (random salt, the default cost) for a new or re-keyed account. */
export function newAccountKdfParams(): AccountKdfParams {
  return encodeKdfParams(newArgon2Params()) as string as AccountKdfParams;
}

/**
 * Reads an account's parameter block: only scheme 2 is accepted for logins (MALFORMED otherwise),
 * and only at the default cost or above (KDF_REFUSED): the block comes from the server's pre-login.
 */
export function parseAccountKdfParams(text: string): Argon2Params {
  const params = parseKdfParams(text, undefined, 'account KDF parameters');
  if (params.scheme !== KDF_SCHEME_ARGON2ID) {
    throw new CryptoError('MALFORMED', 'account KDF parameters must be scheme 2 (argon2id)');
  }
  assertDefaultCost(params, 'account KDF parameters');
  return params;
}

/** One argon2id run, then both purpose values. */
export async function deriveAccountSecrets(password: string, kdfParams: string): Promise<AccountSecrets> {
  const master = await deriveMasterKey(password, parseAccountKdfParams(kdfParams));
  const [authBits, wrappingKey] = await Promise.all([
    crypto.subtle.deriveBits(hkdfParams(HKDF_INFO.auth), master, AUTH_SECRET_LENGTH * 8),
    wrappingKeyFromMaster(master, ['encrypt', 'decrypt']),
  ]);
  return { authSecret: encodeBase64(new Uint8Array(authBits)) as string as AuthSecret, wrappingKey };
}
