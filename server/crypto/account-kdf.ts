/**
 * Scheme 2 of docs/format.md ("KDF parameter block", "Login key derivation") with node:crypto and
 * @node-rs/argon2, independent of crypto/ (hash-wasm + WebCrypto): the reference in tests, the
 * admin CLI's derivation (create-user, reset-password derive exactly as the browser does) and the
 * offline recover command's.
 */
import { hkdfSync, randomBytes } from 'node:crypto';
import { OfflineCryptoError, strictBase64 } from './errors.ts';
import { argon2Master, kdfBlock, normaliseAccountName, readKdfBlock, SCHEME_ARGON2ID, SCHEME_ARGON2ID_BOUND, SCHEME_PBKDF2, type NodeArgon2Params } from './kdf-params.ts';

/** The default cost of everything new; must equal crypto/kdf.ts ARGON2_DEFAULT_COST (a test checks). */
export const NODE_ARGON2_DEFAULT_COST = { memoryKiB: 65_536, passes: 3, lanes: 1 } as const;

/** HKDF labels under the account's master secret (docs/format.md). */
export const ACCOUNT_HKDF_INFO = { auth: 'sealdrop/auth/v1', privateKeyWrap: 'sealdrop/private-key-wrap/v1' } as const;

/** A scheme-3 block when `params.boundName` is set, scheme 2 otherwise. */
export function argon2Block(params: NodeArgon2Params): Buffer {
  return kdfBlock({ scheme: params.boundName === undefined ? SCHEME_ARGON2ID : SCHEME_ARGON2ID_BOUND, ...params });
}

/** A fresh scheme-3 block bound to `username` (lower-cased): what accounts are given now. */
export function newBoundArgon2Block(username: string, salt: Buffer = randomBytes(16), cost: Omit<NodeArgon2Params, 'salt' | 'boundName'> = NODE_ARGON2_DEFAULT_COST): string {
  return argon2Block({ ...cost, salt, boundName: normaliseAccountName(username) }).toString('base64');
}

/** A fresh unbound scheme-2 block (random salt) at the default cost, or at `cost`: old-format fixtures and tests. */
export function newArgon2Block(salt: Buffer = randomBytes(16), cost: Omit<NodeArgon2Params, 'salt'> = NODE_ARGON2_DEFAULT_COST): string {
  return argon2Block({ ...cost, salt }).toString('base64');
}

/**
 * Reads an argon2id block, scheme 3 (bound; `boundName` set) or 2; same bounds as the browser's
 * (19 MiB..256 MiB, 2..10 passes, 1..4 lanes).
 */
export function readArgon2Block(bytes: Buffer): NodeArgon2Params {
  const params = readKdfBlock(bytes);
  if (params.scheme === SCHEME_PBKDF2) throw new OfflineCryptoError('UNSUPPORTED_VERSION', 'not an argon2id (scheme 3 or 2) parameter block');
  const { memoryKiB, passes, lanes, salt, boundName } = params;
  return boundName === undefined ? { memoryKiB, passes, lanes, salt } : { memoryKiB, passes, lanes, salt, boundName };
}

export const hkdf32 = (master: Buffer, info: string): Buffer => Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), info, 32));

export interface NodeAccountSecrets {
  /** base64, what the client sends instead of the password. */
  authSecret: string;
  /** Raw AES-256-GCM key for the private key. */
  wrappingKey: Buffer;
}

/** The name comes from a scheme-3 block itself, so the offline tools need no name typed. */
export function deriveAccountSecrets(password: string, kdfParams: string): NodeAccountSecrets {
  const master = argon2Master(password, readArgon2Block(strictBase64(kdfParams, 'account KDF parameters')));
  try {
    return {
      authSecret: hkdf32(master, ACCOUNT_HKDF_INFO.auth).toString('base64'),
      wrappingKey: hkdf32(master, ACCOUNT_HKDF_INFO.privateKeyWrap),
    };
  } finally {
    master.fill(0);
  }
}
