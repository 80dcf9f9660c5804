/**
 * File keys handed to download-link recipients.
 *
 * Links without a password carry the raw keys in the URL fragment (never sent to a server):
 *   'fileId:base64key,fileId:base64key,...'
 *
 * Links with a password carry, per file, 'wrappedKey:ivPlusCiphertext' (spec section 3):
 *   master     = the link password through its KDF parameter block (kdf.ts): argon2id for new
 *                links (scheme 2, 26 bytes), PBKDF2-SHA256 150000 for links made before (scheme 1, 21 bytes)
 *   wrapKey    = HKDF-SHA256(master, info "sealdrop/link-wrap/v1")      (AES-256-GCM)
 *   verifier   = HKDF-SHA256(master, info "sealdrop/link-verifier/v1")  (256 bits)
 *   linkKey    = 32 random bytes, one per link
 *   wrappedKey = base64(kdfParams || iv(12) || AES-GCM(wrapKey, linkKey, aad = kdfParams))
 *   ivPlusCiphertext = base64(iv(12) || AES-GCM(linkKey, fileKey, aad = "sealdrop/link-file-key/v1:" + fileId))
 * The verifier lets a server check the password (it stores only a hash of the verifier) without
 * being able to derive wrapKey: the two HKDF outputs are independent. The KDF runs once per link.
 *
 * A password link made from now on carries its parameter block in its fragment, 'kdf=' + base64url
 * (no padding): the recipient derives only with that block, and refuses (KDF_REFUSED) a server
 * whose block differs. Links made before have no fragment and still open, with the server's block
 * at the default cost or above.
 */
import { decodeBase64, decodeBase64Lenient, encodeBase64 } from './base64.ts';
import type { LinkFragment, LinkKdfParams, LinkPasswordVerifier, LinkWrappedKey } from './branded.ts';
import { concatBytes, randomBytes, utf8, type Bytes } from './bytes.ts';
import { CryptoError, isAuthenticationFailure } from './errors.ts';
import { exportRawFileKey, importRawFileKey } from './file-key.ts';
import {
  ARGON2_PARAMS_LENGTH,
  assertDefaultCost,
  deriveMasterKey,
  encodeKdfParamsBytes,
  hkdfParams,
  KDF_PARAMS_LENGTH,
  kdfParamsLength,
  newArgon2Params,
  parseKdfParams,
  parseKdfParamsBytes,
  type KdfParams,
} from './kdf.ts';
import { IV_LENGTH, KEY_LENGTH, TAG_LENGTH } from './record-format.ts';

const WRAP_INFO = 'sealdrop/link-wrap/v1';
const VERIFIER_INFO = 'sealdrop/link-verifier/v1';
const FILE_KEY_AAD_PREFIX = 'sealdrop/link-file-key/v1:';
/** What follows the parameter block in a wrapped link key: iv || AES-GCM(linkKey) with its tag. */
const SEALED_LINK_KEY_LENGTH = IV_LENGTH + KEY_LENGTH + TAG_LENGTH;
const WRAPPED_FILE_KEY_LENGTH = IV_LENGTH + KEY_LENGTH + TAG_LENGTH;
/** URL-unreserved characters only, so ids need no escaping inside a fragment. */
const FILE_ID_PATTERN = /^[A-Za-z0-9._~-]{1,128}$/;

export interface LinkFileKey {
  readonly fileId: string;
  readonly key: CryptoKey;
}

function assertFileId(fileId: string): void {
  if (typeof fileId !== 'string' || !FILE_ID_PATTERN.test(fileId)) {
    throw new CryptoError('MALFORMED', 'file id in a link must be 1-128 URL-safe characters');
  }
}

// ---- Links without a password: keys in the URL fragment ----

/** SECRET result: put it only in a URL fragment. */
export async function formatLinkFragment(files: readonly LinkFileKey[]): Promise<LinkFragment> {
  if (files.length === 0) throw new CryptoError('MALFORMED', 'a link needs at least one file key');
  const pairs: string[] = [];
  for (const { fileId, key } of files) {
    assertFileId(fileId);
    pairs.push(`${fileId}:${encodeBase64(await exportRawFileKey(key))}`);
  }
  return pairs.join(',') as LinkFragment;
}

/**
 * Parses a fragment (with or without the leading '#'); every pair must be valid, so a link that
 * was cut or mangled when copied fails as a whole with MALFORMED instead of losing files silently.
 */
export async function parseLinkFragment(fragment: string): Promise<Map<string, CryptoKey>> {
  const text = fragment.startsWith('#') ? fragment.slice(1) : fragment;
  if (text.trim() === '') throw new CryptoError('MALFORMED', 'the link holds no decryption keys');
  const keys = new Map<string, CryptoKey>();
  for (const pair of text.split(',')) {
    const separator = pair.indexOf(':');
    if (separator <= 0) throw new CryptoError('MALFORMED', 'a link key pair is not fileId:key');
    const fileId = pair.slice(0, separator);
    assertFileId(fileId);
    if (keys.has(fileId)) throw new CryptoError('MALFORMED', 'a file id appears twice in the link');
    const raw = decodeBase64Lenient(decodeURIComponentStrict(pair.slice(separator + 1)), 'link key');
    keys.set(fileId, await importRawFileKey(raw));
  }
  return keys;
}

function decodeURIComponentStrict(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch (error) {
    throw new CryptoError('MALFORMED', 'link key has broken percent-encoding', { cause: error });
  }
}

// ---- Links with a password ----

export interface LinkPasswordProtection {
  /** Not secret: the recipient needs it to derive the verifier before the server releases keys. */
  readonly kdfParams: LinkKdfParams;
  /** SECRET: send to the server, which stores only a hash of it. */
  readonly verifier: LinkPasswordVerifier;
  /** The create-link payload's reencrypted_keys_json: file id -> 'wrappedKey:ivPlusCiphertext'. */
  readonly reencryptedKeys: Record<string, LinkWrappedKey>;
}

interface LinkSecrets {
  readonly wrapKey: CryptoKey;
  readonly verifier: LinkPasswordVerifier;
}

async function deriveLinkSecrets(password: string, params: KdfParams): Promise<LinkSecrets> {
  const master = await deriveMasterKey(password, params);
  const [wrapKey, verifierBits] = await Promise.all([
    crypto.subtle.deriveKey(hkdfParams(WRAP_INFO), master, { name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']),
    crypto.subtle.deriveBits(hkdfParams(VERIFIER_INFO), master, 256),
  ]);
  return { wrapKey, verifier: encodeBase64(new Uint8Array(verifierBits)) as string as LinkPasswordVerifier };
}

/** New links are scheme 2 (argon2id, the default cost); `params` is for tests and old-scheme fixtures. */
export async function protectLinkKeys(
  password: string,
  files: readonly LinkFileKey[],
  params: KdfParams = newArgon2Params(),
): Promise<LinkPasswordProtection> {
  if (files.length === 0) throw new CryptoError('MALFORMED', 'a link needs at least one file key');
  const paramsBytes = encodeKdfParamsBytes(params);
  const { wrapKey, verifier } = await deriveLinkSecrets(password, params);
  const linkKeyRaw = randomBytes(KEY_LENGTH);
  const linkKey = await crypto.subtle.importKey('raw', linkKeyRaw, 'AES-GCM', false, ['encrypt']);
  const wrappedKey = encodeBase64(
    concatBytes([paramsBytes, ...(await sealWithIv(wrapKey, linkKeyRaw, paramsBytes))]),
  );
  linkKeyRaw.fill(0);
  const reencryptedKeys: Record<string, LinkWrappedKey> = {};
  for (const { fileId, key } of files) {
    assertFileId(fileId);
    const raw = await exportRawFileKey(key);
    const sealed = concatBytes(await sealWithIv(linkKey, raw, utf8(FILE_KEY_AAD_PREFIX + fileId)));
    raw.fill(0);
    reencryptedKeys[fileId] = `${wrappedKey}:${encodeBase64(sealed)}` as LinkWrappedKey;
  }
  return { kdfParams: encodeBase64(paramsBytes) as string as LinkKdfParams, verifier, reencryptedKeys };
}

async function sealWithIv(key: CryptoKey, plaintext: Bytes, aad: Bytes): Promise<[Bytes, Bytes]> {
  const iv = randomBytes(IV_LENGTH);
  const ciphertext = await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: aad }, key, plaintext);
  return [iv, new Uint8Array(ciphertext)];
}

/** The verifier for a password, given the link's KDF parameters (from creation or from the server). */
export async function deriveLinkPasswordVerifier(password: string, kdfParams: string): Promise<LinkPasswordVerifier> {
  const params = parseKdfParams(kdfParams, undefined, 'link KDF parameters');
  assertDefaultCost(params, 'link KDF parameters');
  return (await deriveLinkSecrets(password, params)).verifier;
}

interface ParsedLinkWrappedKey {
  readonly wrappedKey: string;
  readonly sealedFileKey: Bytes;
}

function parseLinkWrappedKey(value: string): ParsedLinkWrappedKey {
  const parts = typeof value === 'string' ? value.split(':') : [];
  if (parts.length !== 2) throw new CryptoError('MALFORMED', "link key is not 'wrappedKey:ivPlusCiphertext'");
  const sealedFileKey = decodeBase64(parts[1]!, 'link file key');
  if (sealedFileKey.length !== WRAPPED_FILE_KEY_LENGTH) {
    throw new CryptoError('MALFORMED', `link file key must be ${WRAPPED_FILE_KEY_LENGTH} bytes, got ${sealedFileKey.length}`);
  }
  return { wrappedKey: parts[0]!, sealedFileKey };
}

/**
 * Splits a wrapped link key into its parameter block (whose length its first byte gives) and the
 * sealed link key; UNSUPPORTED_VERSION for an unknown scheme, MALFORMED for a wrong length.
 */
function splitWrappedLinkKey(wrappedKeyBase64: string): { paramsBytes: Bytes; params: KdfParams; sealed: Bytes } {
  const wrapped = decodeBase64(wrappedKeyBase64, 'link wrapped key');
  const paramsLength = kdfParamsLength(wrapped[0]);
  if (paramsLength === undefined) {
    // The length of a known block with an unknown first byte is a newer scheme; anything else is damage.
    const known = [KDF_PARAMS_LENGTH, ARGON2_PARAMS_LENGTH].some((length) => wrapped.length === length + SEALED_LINK_KEY_LENGTH);
    if (known) throw new CryptoError('UNSUPPORTED_VERSION', `link wrapped key uses unknown KDF scheme ${wrapped[0]}`);
    throw new CryptoError('MALFORMED', 'link wrapped key has the wrong length');
  }
  if (wrapped.length !== paramsLength + SEALED_LINK_KEY_LENGTH) {
    throw new CryptoError('MALFORMED', `link wrapped key must be ${paramsLength + SEALED_LINK_KEY_LENGTH} bytes, got ${wrapped.length}`);
  }
  const paramsBytes = wrapped.subarray(0, paramsLength);
  const params = parseKdfParamsBytes(paramsBytes, undefined, 'link KDF parameters');
  assertDefaultCost(params, 'link KDF parameters');
  return { paramsBytes, params, sealed: wrapped.subarray(paramsLength) };
}

/** The KDF parameters carried by a link's wrapped keys (all files of a link share them). */
export function linkKdfParamsOf(value: string): LinkKdfParams {
  return encodeBase64(splitWrappedLinkKey(parseLinkWrappedKey(value).wrappedKey).paramsBytes) as string as LinkKdfParams;
}

/**
 * Opens the reencrypted keys of a password-protected link: WRONG_PASSWORD when the password does
 * not open the link key, INTEGRITY when a file's sealed key was altered or moved to another id.
 */
export async function openLinkKeys(
  password: string,
  reencryptedKeys: Readonly<Record<string, string>>,
): Promise<Map<string, CryptoKey>> {
  const entries = Object.entries(reencryptedKeys);
  if (entries.length === 0) throw new CryptoError('MALFORMED', 'the link holds no decryption keys');
  const linkKeys = new Map<string, CryptoKey>();
  const out = new Map<string, CryptoKey>();
  for (const [fileId, value] of entries) {
    assertFileId(fileId);
    const { wrappedKey, sealedFileKey } = parseLinkWrappedKey(value);
    let linkKey = linkKeys.get(wrappedKey);
    if (!linkKey) {
      linkKey = await openLinkKey(password, wrappedKey);
      linkKeys.set(wrappedKey, linkKey);
    }
    let raw: Bytes;
    try {
      raw = new Uint8Array(
        await crypto.subtle.decrypt(
          { name: 'AES-GCM', iv: sealedFileKey.subarray(0, IV_LENGTH), additionalData: utf8(FILE_KEY_AAD_PREFIX + fileId) },
          linkKey,
          sealedFileKey.subarray(IV_LENGTH),
        ),
      );
    } catch (error) {
      if (isAuthenticationFailure(error)) {
        throw new CryptoError('INTEGRITY', 'a link file key failed authentication', { cause: error });
      }
      throw error;
    }
    out.set(fileId, await importRawFileKey(raw));
    raw.fill(0);
  }
  return out;
}

async function openLinkKey(password: string, wrappedKeyBase64: string): Promise<CryptoKey> {
  const { paramsBytes, params, sealed } = splitWrappedLinkKey(wrappedKeyBase64);
  const { wrapKey } = await deriveLinkSecrets(password, params);
  let raw: ArrayBuffer;
  try {
    raw = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: sealed.subarray(0, IV_LENGTH), additionalData: paramsBytes }, wrapKey, sealed.subarray(IV_LENGTH));
  } catch (error) {
    if (isAuthenticationFailure(error)) {
      throw new CryptoError('WRONG_PASSWORD', 'the link password does not open its keys', { cause: error });
    }
    throw error;
  }
  const key = await crypto.subtle.importKey('raw', raw, 'AES-GCM', false, ['decrypt']);
  new Uint8Array(raw).fill(0);
  return key;
}

// ---- The parameter pin of a password link ----

const PIN_PREFIX = 'kdf=';

/** SECRET-free, but only the recipient holds it: the fragment of a password link, its block pinned. */
export function formatLinkKdfPin(kdfParams: string): LinkFragment {
  const block = decodeBase64(kdfParams, 'link KDF parameters');
  parseKdfParamsBytes(block, undefined, 'link KDF parameters');
  return `${PIN_PREFIX}${encodeBase64(block).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')}` as LinkFragment;
}

/**
 * The block a password link's fragment pins (bytes); null when the fragment holds none (a link made
 * before pins). MALFORMED for a fragment that is not a pin.
 */
export function parseLinkKdfPin(fragment: string | null): Bytes | null {
  const text = fragment === null ? '' : fragment.replace(/^#/, '');
  if (text.trim() === '') return null;
  if (!text.startsWith(PIN_PREFIX)) throw new CryptoError('MALFORMED', "a password link's fragment is not 'kdf=' and its parameters");
  const block = decodeBase64Lenient(decodeURIComponentStrict(text.slice(PIN_PREFIX.length)), 'link KDF parameters');
  parseKdfParamsBytes(block, undefined, 'link KDF parameters');
  return block;
}

function sameBytes(a: Bytes, b: Bytes): boolean {
  return a.length === b.length && a.every((byte, index) => byte === b[index]);
}

/**
 * Before anything is derived: the server's block must be the pinned one (when there is a pin) and
 * at the default cost or above; KDF_REFUSED otherwise.
 */
export function checkServerLinkKdfParams(serverKdfParams: string, pin: Bytes | null): void {
  const block = decodeBase64(serverKdfParams, 'link KDF parameters');
  if (pin !== null && !sameBytes(block, pin)) throw new CryptoError('KDF_REFUSED', "the server's link KDF parameters are not the ones the link pins");
  assertDefaultCost(parseKdfParamsBytes(block, undefined, 'link KDF parameters'), 'link KDF parameters');
}

/** The same for every wrapped key the server released: each carries its block, which must be the pinned one. */
export function checkReleasedLinkKeys(reencryptedKeys: Readonly<Record<string, string>>, pin: Bytes | null): void {
  for (const value of Object.values(reencryptedKeys)) checkServerLinkKdfParams(linkKdfParamsOf(value), pin);
}
