/**
 * Password-based key derivation parameters, stored next to the data they protect so the work
 * factor can be raised later without breaking existing data (docs/format.md, "KDF parameter block").
 *
 * Scheme 1 (21 bytes): 1 || iterations u32 BE || salt (16)                     PBKDF2-HMAC-SHA256
 * Scheme 2 (26 bytes): 2 || memory KiB u32 BE || passes u32 BE || lanes u8 || salt (16)   argon2id
 * Scheme 3 (27+ bytes): scheme 2's fields with first byte 3, then the account name it is bound to
 *   (UTF-8, lower-cased); argon2id's salt is SHA-256 of a label, that name and the salt, so a
 *   server that hands every account the same salt still gets a different derivation per name.
 * A bare 16-byte salt (the spec's original kdfSalt) is also read, as scheme 1 with the default
 * iteration count of the purpose it protects. Everything new is written as scheme 2.
 */
import { argon2id } from 'hash-wasm';
import { decodeBase64, encodeBase64 } from './base64.ts';
import type { Base64 } from './branded.ts';
import { randomBytes, utf8, type Bytes } from './bytes.ts';
import { CryptoError } from './errors.ts';

export const KDF_SCHEME_PBKDF2_SHA256 = 1;
export const KDF_SCHEME_ARGON2ID = 2;
/** argon2id with the salt bound to the account name carried in the block: accounts only. */
export const KDF_SCHEME_ARGON2ID_BOUND = 3;
/** The longest bound name in bytes: a sign-in name is at most 128 characters of UTF-8. */
export const KDF_BOUND_NAME_MAX_BYTES = 512;
/** Label of the bound salt: SHA-256(label || 0x00 || name || 0x00 || salt). */
export const ACCOUNT_SALT_LABEL = 'sealdrop/account-salt/v1';
export const KDF_SALT_LENGTH = 16;
/** Length of a scheme-1 block. */
export const KDF_PARAMS_LENGTH = 1 + 4 + KDF_SALT_LENGTH;
export const ARGON2_PARAMS_LENGTH = 1 + 4 + 4 + 1 + KDF_SALT_LENGTH;
/** Spec section 9: the key that wraps the private key (scheme 1, still read). */
export const PRIVATE_KEY_KDF_ITERATIONS = 250_000;
/** Spec section 9: the "second derived key", used for download-link passwords (scheme 1, still read). */
export const LINK_KDF_ITERATIONS = 150_000;
/** Bounds on stored iteration counts: a floor against downgraded data, a ceiling against denial of service. */
export const MIN_KDF_ITERATIONS = 100_000;
export const MAX_KDF_ITERATIONS = 10_000_000;

/**
 * Scheme 2's cost for everything new (login, private key, link passwords): 64 MiB, 3 passes,
 * 1 lane, chosen by `npm run bench:kdf` (figures in docs/security.md, "Measured KDF cost").
 */
export const ARGON2_DEFAULT_COST = { memoryKiB: 65_536, passes: 3, lanes: 1 } as const;
/**
 * Bounds on stored argon2id parameters: the floor refuses data downgraded below the login hash
 * the server used before (19 MiB, 2 passes); the ceiling keeps a hostile block from exhausting a
 * browser tab (256 MiB) or hanging it (10 passes).
 */
export const ARGON2_LIMITS = { minMemoryKiB: 19_456, maxMemoryKiB: 262_144, minPasses: 2, maxPasses: 10, maxLanes: 4 } as const;
/**
 * What a client derives anything with: nothing below the default cost, whatever a server answers.
 * A block from the server is not trusted: a cheaper one would make the verifier or authentication
 * secret this client sends a cheap offline oracle for the password. Scheme 1 (links made before
 * scheme 2 only) keeps its own default, 150,000 iterations.
 */
export function assertDefaultCost(params: KdfParams, what: string): void {
  const weak =
    params.scheme !== KDF_SCHEME_PBKDF2_SHA256
      ? params.memoryKiB < ARGON2_DEFAULT_COST.memoryKiB || params.passes < ARGON2_DEFAULT_COST.passes
      : params.iterations < LINK_KDF_ITERATIONS;
  if (weak) throw new CryptoError('KDF_REFUSED', `${what} are cheaper than the default cost`);
}

/** Length of the argon2id output (the master secret), in bytes. */
export const MASTER_SECRET_LENGTH = 32;

export interface Pbkdf2Params {
  readonly scheme: typeof KDF_SCHEME_PBKDF2_SHA256;
  readonly iterations: number;
  readonly salt: Bytes;
}

export interface UnboundArgon2Params {
  readonly scheme: typeof KDF_SCHEME_ARGON2ID;
  readonly memoryKiB: number;
  readonly passes: number;
  readonly lanes: number;
  readonly salt: Bytes;
}

/** Scheme 3: `salt` is the block's own; argon2id runs on boundArgon2Salt(name, salt). */
export interface BoundArgon2Params extends Omit<UnboundArgon2Params, 'scheme'> {
  readonly scheme: typeof KDF_SCHEME_ARGON2ID_BOUND;
  /** The lower-cased account name (normaliseAccountName). Not secret. */
  readonly name: string;
}

export type Argon2Params = UnboundArgon2Params | BoundArgon2Params;

export type KdfParams = Pbkdf2Params | Argon2Params;

/** Account names are matched case-insensitively by the server (lower-cased), so they are bound so. */
export function normaliseAccountName(name: string): string {
  return name.toLowerCase();
}

/** Scheme-1 parameters with a fresh salt (tests and fixtures of the old format only). */
export function newKdfParams(iterations: number): Pbkdf2Params {
  assertIterations(iterations);
  return { scheme: KDF_SCHEME_PBKDF2_SHA256, iterations, salt: randomBytes(KDF_SALT_LENGTH) };
}

/** Scheme-2 parameters with a fresh salt: what everything new is protected with. */
export function newArgon2Params(cost: { memoryKiB: number; passes: number; lanes: number } = ARGON2_DEFAULT_COST): UnboundArgon2Params {
  const params: UnboundArgon2Params = { scheme: KDF_SCHEME_ARGON2ID, ...cost, salt: randomBytes(KDF_SALT_LENGTH) };
  assertArgon2(params);
  return params;
}

/** Scheme-3 parameters with a fresh salt, bound to `name`: what accounts are protected with. */
export function newBoundArgon2Params(name: string, cost: { memoryKiB: number; passes: number; lanes: number } = ARGON2_DEFAULT_COST): BoundArgon2Params {
  const params: BoundArgon2Params = { ...newArgon2Params(cost), scheme: KDF_SCHEME_ARGON2ID_BOUND, name: normaliseAccountName(name) };
  assertBoundName(params.name);
  return params;
}

function assertBoundName(name: string): void {
  const bytes = utf8(name).length;
  if (bytes === 0 || bytes > KDF_BOUND_NAME_MAX_BYTES || name.includes('\0') || name !== normaliseAccountName(name)) {
    throw new CryptoError('MALFORMED', 'the account name of a bound KDF block must be 1..512 bytes, lower-case, without NUL');
  }
}

function assertIterations(iterations: number): void {
  if (!Number.isInteger(iterations) || iterations < MIN_KDF_ITERATIONS || iterations > MAX_KDF_ITERATIONS) {
    throw new CryptoError('MALFORMED', `KDF iteration count ${iterations} is outside ${MIN_KDF_ITERATIONS}..${MAX_KDF_ITERATIONS}`);
  }
}

function assertArgon2({ memoryKiB, passes, lanes }: Pick<Argon2Params, 'memoryKiB' | 'passes' | 'lanes'>): void {
  const within = (value: number, min: number, max: number) => Number.isInteger(value) && value >= min && value <= max;
  if (
    !within(memoryKiB, ARGON2_LIMITS.minMemoryKiB, ARGON2_LIMITS.maxMemoryKiB) ||
    !within(passes, ARGON2_LIMITS.minPasses, ARGON2_LIMITS.maxPasses) ||
    !within(lanes, 1, ARGON2_LIMITS.maxLanes) ||
    memoryKiB < 8 * lanes
  ) {
    throw new CryptoError('MALFORMED', `argon2id parameters m=${memoryKiB} t=${passes} p=${lanes} are outside the accepted range`);
  }
}

/** The length of a parameter block of the given scheme (its first byte); undefined for unknown schemes. */
export function kdfParamsLength(scheme: number | undefined): number | undefined {
  if (scheme === KDF_SCHEME_PBKDF2_SHA256) return KDF_PARAMS_LENGTH;
  if (scheme === KDF_SCHEME_ARGON2ID) return ARGON2_PARAMS_LENGTH;
  return undefined;
}

/** Whether `length` bytes can be a block of `scheme` (scheme 3 has a name of variable length). */
function fitsScheme(scheme: number | undefined, length: number): boolean {
  if (scheme === KDF_SCHEME_ARGON2ID_BOUND) return length > ARGON2_PARAMS_LENGTH && length <= ARGON2_PARAMS_LENGTH + KDF_BOUND_NAME_MAX_BYTES;
  return length === kdfParamsLength(scheme);
}

export function encodeKdfParamsBytes(params: KdfParams): Bytes {
  if (params.scheme === KDF_SCHEME_PBKDF2_SHA256) {
    const out = new Uint8Array(KDF_PARAMS_LENGTH);
    out[0] = params.scheme;
    new DataView(out.buffer).setUint32(1, params.iterations, false);
    out.set(params.salt, 5);
    return out;
  }
  const name = params.scheme === KDF_SCHEME_ARGON2ID_BOUND ? utf8(params.name) : new Uint8Array(0);
  const out = new Uint8Array(ARGON2_PARAMS_LENGTH + name.length);
  const view = new DataView(out.buffer);
  out[0] = params.scheme;
  view.setUint32(1, params.memoryKiB, false);
  view.setUint32(5, params.passes, false);
  out[9] = params.lanes;
  out.set(params.salt, 10);
  out.set(name, ARGON2_PARAMS_LENGTH);
  return out;
}

export function encodeKdfParams(params: KdfParams): Base64 {
  return encodeBase64(encodeKdfParamsBytes(params));
}

export function parseKdfParamsBytes(bytes: Uint8Array, legacyIterations: number | undefined, what: string): KdfParams {
  if (bytes.length === KDF_SALT_LENGTH && legacyIterations !== undefined) {
    return { scheme: KDF_SCHEME_PBKDF2_SHA256, iterations: legacyIterations, salt: new Uint8Array(bytes) };
  }
  const known = bytes[0] === KDF_SCHEME_ARGON2ID_BOUND || kdfParamsLength(bytes[0]) !== undefined;
  if (!fitsScheme(bytes[0], bytes.length)) {
    // A block of a known length with an unknown first byte is a newer scheme; anything else is damage.
    if (!known && (bytes.length === KDF_PARAMS_LENGTH || bytes.length === ARGON2_PARAMS_LENGTH)) {
      throw new CryptoError('UNSUPPORTED_VERSION', `${what} uses unknown KDF scheme ${bytes[0]}`);
    }
    throw new CryptoError('MALFORMED', `${what} has the wrong length for its scheme (${bytes.length} bytes)`);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes[0] === KDF_SCHEME_PBKDF2_SHA256) {
    const iterations = view.getUint32(1, false);
    assertIterations(iterations);
    return { scheme: KDF_SCHEME_PBKDF2_SHA256, iterations, salt: new Uint8Array(bytes.subarray(5)) };
  }
  const params: UnboundArgon2Params = {
    scheme: KDF_SCHEME_ARGON2ID,
    memoryKiB: view.getUint32(1, false),
    passes: view.getUint32(5, false),
    lanes: bytes[9]!,
    salt: new Uint8Array(bytes.subarray(10, ARGON2_PARAMS_LENGTH)),
  };
  assertArgon2(params);
  if (bytes[0] !== KDF_SCHEME_ARGON2ID_BOUND) return params;
  let name: string;
  try {
    name = new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(ARGON2_PARAMS_LENGTH));
  } catch {
    throw new CryptoError('MALFORMED', `${what} binds a name that is not UTF-8`);
  }
  assertBoundName(name);
  return { ...params, scheme: KDF_SCHEME_ARGON2ID_BOUND, name };
}

/** Parses a base64 parameter block; `legacyIterations` enables the bare-salt form. */
export function parseKdfParams(text: string, legacyIterations: number | undefined, what: string): KdfParams {
  return parseKdfParamsBytes(decodeBase64(text, what), legacyIterations, what);
}

function assertPassword(password: string): void {
  if (typeof password !== 'string' || password.length === 0) {
    throw new CryptoError('MALFORMED', 'password must be a non-empty string');
  }
}

/**
 * Scheme 2's master secret: argon2id(password as UTF-8, salt, m, t, p) to 32 bytes. SECRET; the
 * caller turns it into purpose keys with HKDF and zeroes it.
 */
export async function deriveArgon2Master(password: string, params: Argon2Params): Promise<Bytes> {
  assertPassword(password);
  assertArgon2(params);
  return (await argon2id({
    password: utf8(password),
    salt: params.scheme === KDF_SCHEME_ARGON2ID_BOUND ? await boundArgon2Salt(params.name, params.salt) : params.salt,
    memorySize: params.memoryKiB,
    iterations: params.passes,
    parallelism: params.lanes,
    hashLength: MASTER_SECRET_LENGTH,
    outputType: 'binary',
  })) as Bytes;
}

/** Scheme 3's argon2id salt: SHA-256("sealdrop/account-salt/v1" || 0x00 || name || 0x00 || salt), 32 bytes. */
export async function boundArgon2Salt(name: string, salt: Bytes): Promise<Bytes> {
  const label = utf8(ACCOUNT_SALT_LABEL);
  const nameBytes = utf8(name);
  const input = new Uint8Array(label.length + 1 + nameBytes.length + 1 + salt.length);
  input.set(label, 0);
  input.set(nameBytes, label.length + 1);
  input.set(salt, label.length + 1 + nameBytes.length + 1);
  return new Uint8Array(await crypto.subtle.digest('SHA-256', input)) as Bytes;
}

async function importPassword(password: string): Promise<CryptoKey> {
  assertPassword(password);
  // The password is used exactly as typed (UTF-8, no normalisation), like the login check itself.
  return crypto.subtle.importKey('raw', utf8(password), 'PBKDF2', false, ['deriveKey', 'deriveBits']);
}

/** HKDF labels (info strings) under a scheme-2 master secret; each yields an independent value. */
export const HKDF_INFO = {
  /** The login's authentication secret: sent to the server, which stores only argon2id of it. */
  auth: 'sealdrop/auth/v1',
  /** The AES-256-GCM key that wraps the private key: never leaves the browser. */
  privateKeyWrap: 'sealdrop/private-key-wrap/v1',
} as const;

/**
 * The private-key wrapping key (non-extractable AES-256-GCM): scheme 1 is PBKDF2 straight to the
 * key; scheme 2 is HKDF-SHA256(argon2id master, info "sealdrop/private-key-wrap/v1").
 */
export async function deriveAesKey(password: string, params: KdfParams, usages: KeyUsage[]): Promise<CryptoKey> {
  if (params.scheme !== KDF_SCHEME_PBKDF2_SHA256) {
    return wrappingKeyFromMaster(await deriveMasterKey(password, params), usages);
  }
  return crypto.subtle.deriveKey(
    { name: 'PBKDF2', hash: 'SHA-256', salt: params.salt, iterations: params.iterations },
    await importPassword(password),
    { name: 'AES-GCM', length: 256 },
    false,
    usages,
  );
}

/** The private-key wrapping key from a scheme-2 master key (HKDF, non-extractable). */
export function wrappingKeyFromMaster(master: CryptoKey, usages: KeyUsage[]): Promise<CryptoKey> {
  return crypto.subtle.deriveKey(hkdfParams(HKDF_INFO.privateKeyWrap), master, { name: 'AES-GCM', length: 256 }, false, usages);
}

/**
 * The password's 256-bit master secret as a non-extractable HKDF key: PBKDF2 for scheme 1,
 * argon2id for scheme 2.
 */
export async function deriveMasterKey(password: string, params: KdfParams): Promise<CryptoKey> {
  let bits: Bytes;
  if (params.scheme !== KDF_SCHEME_PBKDF2_SHA256) {
    bits = await deriveArgon2Master(password, params);
  } else {
    bits = new Uint8Array(
      await crypto.subtle.deriveBits(
        { name: 'PBKDF2', hash: 'SHA-256', salt: params.salt, iterations: params.iterations },
        await importPassword(password),
        256,
      ),
    );
  }
  try {
    return await crypto.subtle.importKey('raw', bits, 'HKDF', false, ['deriveKey', 'deriveBits']);
  } finally {
    bits.fill(0);
  }
}

export function hkdfParams(info: string): HkdfParams {
  return { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(0), info: utf8(info) };
}
