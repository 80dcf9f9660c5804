/**
 * The KDF parameter block of docs/format.md ("KDF parameter block") with node:crypto and
 * @node-rs/argon2, independent of crypto/kdf.ts: read, written and turned into a 32-byte master
 * secret. Scheme 1 is PBKDF2-HMAC-SHA256 (21 bytes), scheme 2 argon2id (26 bytes), scheme 3 argon2id
 * bound to an account name (scheme 2's 26 bytes, first byte 3, then the lower-cased name in UTF-8;
 * argon2id's salt is SHA-256("sealdrop/account-salt/v1" || 0 || name || 0 || salt)); a bare 16-byte
 * salt is the spec's first form of scheme 1, read only where a purpose gives its iteration count.
 */
import { createHash, pbkdf2Sync } from 'node:crypto';
import { hashRawSync } from '@node-rs/argon2';
import { OfflineCryptoError } from './errors.ts';

export const SCHEME_PBKDF2 = 1;
export const SCHEME_ARGON2ID = 2;
export const SCHEME_ARGON2ID_BOUND = 3;
const BOUND_NAME_MAX_BYTES = 512;
const ACCOUNT_SALT_LABEL = 'sealdrop/account-salt/v1';
const SALT_LENGTH = 16;
const PBKDF2_BLOCK_LENGTH = 1 + 4 + SALT_LENGTH;
const ARGON2_BLOCK_LENGTH = 1 + 4 + 4 + 1 + SALT_LENGTH;
const ARGON2ID = 2; // Algorithm.Argon2id; the package declares it as a const enum.
const MASTER_LENGTH = 32;

export interface NodePbkdf2Params {
  scheme: typeof SCHEME_PBKDF2;
  iterations: number;
  salt: Buffer;
}

export interface NodeArgon2Params {
  memoryKiB: number;
  passes: number;
  lanes: number;
  salt: Buffer;
  /** Scheme 3 only: the lower-cased account name the salt is bound to. */
  boundName?: string;
}

export type NodeKdfParams = NodePbkdf2Params | (NodeArgon2Params & { scheme: typeof SCHEME_ARGON2ID | typeof SCHEME_ARGON2ID_BOUND });

/** The server's case-insensitive name match (lower-cased), as bound into scheme-3 blocks. */
export const normaliseAccountName = (name: string): string => name.toLowerCase();

/** The length of a block whose first byte is `scheme`; undefined for a scheme this code does not know. */
export function kdfBlockLength(scheme: number | undefined): number | undefined {
  if (scheme === SCHEME_PBKDF2) return PBKDF2_BLOCK_LENGTH;
  if (scheme === SCHEME_ARGON2ID) return ARGON2_BLOCK_LENGTH;
  return undefined;
}

export function kdfBlock(params: NodeKdfParams): Buffer {
  if (params.scheme === SCHEME_PBKDF2) {
    const out = Buffer.alloc(PBKDF2_BLOCK_LENGTH);
    out[0] = SCHEME_PBKDF2;
    out.writeUInt32BE(params.iterations, 1);
    params.salt.copy(out, 5);
    return out;
  }
  const name = params.scheme === SCHEME_ARGON2ID_BOUND ? Buffer.from(checkBoundName(params.boundName), 'utf8') : Buffer.alloc(0);
  const out = Buffer.alloc(ARGON2_BLOCK_LENGTH + name.length);
  out[0] = params.scheme;
  out.writeUInt32BE(params.memoryKiB, 1);
  out.writeUInt32BE(params.passes, 5);
  out[9] = params.lanes;
  params.salt.copy(out, 10);
  name.copy(out, ARGON2_BLOCK_LENGTH);
  return out;
}

function checkBoundName(name: string | undefined): string {
  const length = name === undefined ? 0 : Buffer.byteLength(name, 'utf8');
  if (name === undefined || length === 0 || length > BOUND_NAME_MAX_BYTES || name.includes('\0') || name !== normaliseAccountName(name)) {
    throw new OfflineCryptoError('MALFORMED', 'a bound KDF block needs a lower-case account name of 1..512 bytes without NUL');
  }
  return name;
}

/** Scheme 3's argon2id salt: SHA-256(label || 0x00 || name || 0x00 || salt). */
export function boundArgon2Salt(name: string, salt: Buffer): Buffer {
  return createHash('sha256').update(ACCOUNT_SALT_LABEL).update(Buffer.of(0)).update(name, 'utf8').update(Buffer.of(0)).update(salt).digest();
}

function checkArgon2(params: NodeArgon2Params): void {
  const ok =
    params.memoryKiB >= 19_456 &&
    params.memoryKiB <= 262_144 &&
    params.passes >= 2 &&
    params.passes <= 10 &&
    params.lanes >= 1 &&
    params.lanes <= 4 &&
    params.memoryKiB >= 8 * params.lanes;
  if (!ok) throw new OfflineCryptoError('MALFORMED', 'argon2id parameters out of range');
}

/**
 * Reads a block with the browser's bounds (PBKDF2 100000..10000000 iterations; argon2id
 * 19 MiB..256 MiB, 2..10 passes, 1..4 lanes). `legacyIterations` enables the bare 16-byte salt.
 */
export function readKdfBlock(bytes: Buffer, legacyIterations?: number): NodeKdfParams {
  if (bytes.length === SALT_LENGTH && legacyIterations !== undefined) {
    return { scheme: SCHEME_PBKDF2, iterations: legacyIterations, salt: bytes };
  }
  if (bytes[0] === SCHEME_ARGON2ID_BOUND) return readBoundBlock(bytes);
  const expected = kdfBlockLength(bytes[0]);
  if (expected === undefined) {
    if (bytes.length === PBKDF2_BLOCK_LENGTH || bytes.length === ARGON2_BLOCK_LENGTH) throw new OfflineCryptoError('UNSUPPORTED_VERSION', 'unknown KDF scheme');
    throw new OfflineCryptoError('MALFORMED', 'KDF parameters have the wrong length');
  }
  if (bytes.length !== expected) throw new OfflineCryptoError('MALFORMED', 'KDF parameters have the wrong length');
  if (bytes[0] === SCHEME_PBKDF2) {
    const iterations = bytes.readUInt32BE(1);
    if (iterations < 100_000 || iterations > 10_000_000) throw new OfflineCryptoError('MALFORMED', 'KDF iterations out of range');
    return { scheme: SCHEME_PBKDF2, iterations, salt: bytes.subarray(5) };
  }
  const params = { memoryKiB: bytes.readUInt32BE(1), passes: bytes.readUInt32BE(5), lanes: bytes[9]!, salt: bytes.subarray(10) };
  checkArgon2(params);
  return { scheme: SCHEME_ARGON2ID, ...params };
}

function readBoundBlock(bytes: Buffer): NodeKdfParams {
  if (bytes.length <= ARGON2_BLOCK_LENGTH || bytes.length > ARGON2_BLOCK_LENGTH + BOUND_NAME_MAX_BYTES) {
    throw new OfflineCryptoError('MALFORMED', 'KDF parameters have the wrong length');
  }
  let name: string;
  try {
    name = new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(ARGON2_BLOCK_LENGTH));
  } catch {
    throw new OfflineCryptoError('MALFORMED', 'the bound account name is not UTF-8');
  }
  const params = { memoryKiB: bytes.readUInt32BE(1), passes: bytes.readUInt32BE(5), lanes: bytes[9]!, salt: bytes.subarray(10, ARGON2_BLOCK_LENGTH), boundName: checkBoundName(name) };
  checkArgon2(params);
  return { scheme: SCHEME_ARGON2ID_BOUND, ...params };
}

/**
 * argon2id (version 0x13) of the UTF-8 password: 32 bytes, no secret key, no associated data; the
 * salt is the block's own (scheme 2) or bound to its account name (scheme 3, `boundName` set).
 */
export function argon2Master(password: string, params: NodeArgon2Params): Buffer {
  checkArgon2(params);
  return hashRawSync(Buffer.from(password, 'utf8'), {
    algorithm: ARGON2ID,
    memoryCost: params.memoryKiB,
    timeCost: params.passes,
    parallelism: params.lanes,
    outputLen: MASTER_LENGTH,
    salt: params.boundName === undefined ? params.salt : boundArgon2Salt(params.boundName, params.salt),
  });
}

/** The block's 32-byte master secret of `password`: PBKDF2-HMAC-SHA256 (scheme 1) or argon2id (scheme 2). */
export function kdfMaster(password: string, params: NodeKdfParams): Buffer {
  if (params.scheme === SCHEME_PBKDF2) return pbkdf2Sync(Buffer.from(password, 'utf8'), params.salt, params.iterations, MASTER_LENGTH, 'sha256');
  return argon2Master(password, params);
}
