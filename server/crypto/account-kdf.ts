/**
 * Scheme 2 of docs/format.md ("KDF parameter block", "Login key derivation") with node:crypto and
 * @node-rs/argon2, independent of crypto/ (hash-wasm + WebCrypto): the reference in tests, the
 * admin CLI's derivation (create-user, reset-password derive exactly as the browser does) and the
 * offline recover command's.
 */
import { hkdfSync, randomBytes } from 'node:crypto';
import { OfflineCryptoError, strictBase64 } from './errors.ts';
import { argon2Master, kdfBlock, readKdfBlock, SCHEME_ARGON2ID, type NodeArgon2Params } from './kdf-params.ts';

/** The default cost of everything new; must equal crypto/kdf.ts ARGON2_DEFAULT_COST (a test checks). */
export const NODE_ARGON2_DEFAULT_COST = { memoryKiB: 65_536, passes: 3, lanes: 1 } as const;

/** HKDF labels under the account's master secret (docs/format.md). */
export const ACCOUNT_HKDF_INFO = { auth: 'sealdrop/auth/v1', privateKeyWrap: 'sealdrop/private-key-wrap/v1' } as const;

export function argon2Block(params: NodeArgon2Params): Buffer {
  return kdfBlock({ scheme: SCHEME_ARGON2ID, ...params });
}

/** A fresh scheme-2 block (random salt) at the default cost, or at `cost` (tests use the minimum). */
export function newArgon2Block(salt: Buffer = randomBytes(16), cost: Omit<NodeArgon2Params, 'salt'> = NODE_ARGON2_DEFAULT_COST): string {
  return argon2Block({ ...cost, salt }).toString('base64');
}

/** Reads a scheme-2 block; same bounds as the browser's (19 MiB..256 MiB, 2..10 passes, 1..4 lanes). */
export function readArgon2Block(bytes: Buffer): NodeArgon2Params {
  const params = readKdfBlock(bytes);
  if (params.scheme !== SCHEME_ARGON2ID) throw new OfflineCryptoError('UNSUPPORTED_VERSION', 'not an argon2id (scheme 2) parameter block');
  return { memoryKiB: params.memoryKiB, passes: params.passes, lanes: params.lanes, salt: params.salt };
}

export const hkdf32 = (master: Buffer, info: string): Buffer => Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), info, 32));

export interface NodeAccountSecrets {
  /** base64, what the client sends instead of the password. */
  authSecret: string;
  /** Raw AES-256-GCM key for the private key. */
  wrappingKey: Buffer;
}

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
