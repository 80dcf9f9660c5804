// The wrapped file keys of a password-protected link (`reencrypted_keys_json`): a JSON object
// mapping each file id of the link to 'wrappedKey:ivPlusCiphertext' (two base64 parts; spec
// section 3). The server cannot open them (the wrapping key is derived from the link password in
// the browser and never sent); it only checks their shape and that they cover exactly the link's
// files, and hands them back after the password check. A new link's keys must carry a scheme-2
// (argon2id) parameter block: scheme 1 (PBKDF2) is still read for links made before, never
// accepted for a new one, so a client cannot be talked into making a cheaply attackable link.
import { kdfBlockLength, SCHEME_ARGON2ID, SCHEME_PBKDF2 } from '../crypto/index.ts';

const BASE64 = '[A-Za-z0-9+/_-]+={0,2}';
const WRAPPED_KEY = new RegExp(`^${BASE64}:${BASE64}$`);
export const MAX_WRAPPED_KEY_LENGTH = 4096;

export type LinkKeys = Record<string, string>;

export type LinkKeysResult = { ok: true; keys: LinkKeys } | { ok: false; message: string };

/** iv (12) || AES-GCM(link key) with its tag: what follows the parameter block in a wrapped link key. */
const SEALED_LINK_KEY_LENGTH = 12 + 32 + 16;

/** Why a new link's wrapped key is refused for its parameter block, or null when it is scheme 2. */
function kdfBlockProblem(value: string, fileId: string): string | null {
  const wrapped = Buffer.from(value.split(':')[0]!, 'base64');
  if (wrapped[0] === SCHEME_PBKDF2) return `Key of file ${fileId} uses KDF scheme 1 (PBKDF2), which new links may not use: use scheme 2 (argon2id)`;
  if (wrapped[0] !== SCHEME_ARGON2ID || wrapped.length !== kdfBlockLength(SCHEME_ARGON2ID)! + SEALED_LINK_KEY_LENGTH) {
    return `Key of file ${fileId} must start with a scheme-2 (argon2id) KDF parameter block`;
  }
  return null;
}

/** Parses and checks the keys for the link's `fileIds`. */
export function parseLinkKeys(json: string, fileIds: readonly number[]): LinkKeysResult {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return { ok: false, message: 'Must be a JSON object mapping file ids to keys' };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return { ok: false, message: 'Must be a JSON object mapping file ids to keys' };
  }
  const entries = Object.entries(parsed as Record<string, unknown>);
  const wanted = new Set(fileIds.map(String));
  const keys: LinkKeys = {};
  for (const [fileId, value] of entries) {
    if (!wanted.has(fileId)) return { ok: false, message: `Key given for a file that is not in the link: ${fileId}` };
    if (typeof value !== 'string' || value.length > MAX_WRAPPED_KEY_LENGTH || !WRAPPED_KEY.test(value)) {
      return { ok: false, message: `Key of file ${fileId} must be 'wrappedKey:ivPlusCiphertext' in base64` };
    }
    const problem = kdfBlockProblem(value, fileId);
    if (problem !== null) return { ok: false, message: problem };
    keys[fileId] = value;
  }
  const missing = fileIds.find((id) => !(String(id) in keys));
  if (missing !== undefined) return { ok: false, message: `Missing key for file ${missing}` };
  return { ok: true, keys };
}

/** The stored keys of the files still in the link (files deleted since creation drop out). */
export function keysForFiles(storedJson: string, fileIds: readonly number[]): LinkKeys {
  const stored = JSON.parse(storedJson) as LinkKeys;
  const keys: LinkKeys = {};
  for (const id of fileIds) {
    const value = stored[String(id)];
    if (typeof value === 'string') keys[String(id)] = value;
  }
  return keys;
}

/**
 * The link's KDF parameter block (scheme, cost and salt; base64), read from the start of its
 * stored wrapped key: 21 bytes for scheme 1 (PBKDF2, links made before zero-knowledge sign-in), 26 for scheme 2
 * (argon2id), as its first byte says (docs/format.md). Not secret: the recipient's browser needs it
 * to derive the password verifier before verify-password releases the keys. null when the stored
 * keys carry no block this server knows.
 */
export function linkKdfParams(storedJson: string): string | null {
  const first = Object.values(JSON.parse(storedJson) as LinkKeys)[0];
  const wrappedKey = typeof first === 'string' ? first.split(':')[0] : undefined;
  if (!wrappedKey) return null;
  const bytes = Buffer.from(wrappedKey, 'base64');
  const blockLength = kdfBlockLength(bytes[0]);
  return blockLength !== undefined && bytes.length > blockLength ? bytes.subarray(0, blockLength).toString('base64') : null;
}
