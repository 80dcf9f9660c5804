// The file keys of a download link (docs/format.md, "Links without a password", "Links with a
// password"): from the URL fragment, read as leniently as the browser reads it (a leading '#',
// the URL-safe alphabet, missing padding, percent-encoding) but refused as a whole when any pair
// is damaged or repeated; or, for a password link, opened with the password after the server
// checked its verifier. The parameter block decides the KDF: scheme 1 (PBKDF2) or 2 (argon2id).
// The block comes from the server, so it is used only at the default cost or above, and, when the
// link's fragment pins one ('kdf=' + base64url, links made from now on), only if it is that one:
// otherwise KDF_REFUSED before the password is used or anything is sent.
import {
  kdfBlockLength,
  linkVerifier,
  NODE_ARGON2_DEFAULT_COST,
  OfflineCryptoError,
  openLinkKeysEach,
  readKdfBlock,
  SCHEME_PBKDF2,
} from '../../server/crypto/index.ts';
import { verifyLinkPasswordResponse } from '../../contract/download-links.ts';
import type { ApiSession } from '../shared/api-session.ts';
import { ApiRequestError, GateRefusedError, LinkUnusableError } from '../shared/errors.ts';
import { withRetries } from '../shared/retry.ts';

const FILE_ID = /^[A-Za-z0-9._~-]{1,128}$/;

function keyBytes(text: string): Buffer | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(text);
  } catch {
    return null;
  }
  const standard = decoded.replace(/-/g, '+').replace(/_/g, '/');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(standard)) return null;
  const unpadded = standard.replace(/=+$/, '');
  if (unpadded.length % 4 === 1) return null;
  const bytes = Buffer.from(unpadded, 'base64');
  // Canonical: the bytes encode back to the same characters (no stray bits in the last one).
  if (bytes.toString('base64').replace(/=+$/, '') !== unpadded) return null;
  return bytes;
}

/** fileId -> raw key from a fragment; LinkUnusableError KEYS_MALFORMED when any pair is damaged. */
export function keysFromFragment(fragment: string): Map<string, Buffer> {
  const text = fragment.replace(/^#/, '');
  const refuse = (why: string) => new LinkUnusableError('KEYS_MALFORMED', `The link's keys are damaged (${why}): copy the whole link again.`);
  if (text.trim() === '') throw refuse('there are none after the #');
  const keys = new Map<string, Buffer>();
  for (const pair of text.split(',')) {
    const at = pair.indexOf(':');
    const fileId = pair.slice(0, at);
    if (at <= 0 || !FILE_ID.test(fileId)) throw refuse('a pair is not fileId:key');
    if (keys.has(fileId)) throw refuse(`file ${fileId} appears twice`);
    const key = keyBytes(pair.slice(at + 1));
    if (key === null || key.length !== 32) throw refuse(`the key of file ${fileId} is not 32 bytes of base64`);
    keys.set(fileId, key);
  }
  return keys;
}

/** Scheme 1's own default for links (the browser's LINK_KDF_ITERATIONS). */
const LINK_PBKDF2_DEFAULT_ITERATIONS = 150_000;
const PIN_PREFIX = 'kdf=';
const refused = (why: string) =>
  new LinkUnusableError('KDF_REFUSED', `The link's password protection was changed on the way to you (${why}): the password was not used and nothing was sent. Ask the sender for a new link.`);

/** The block a password link's fragment pins; null for a link made before pins (no fragment). */
export function pinOfFragment(fragment: string): Buffer | null {
  const text = fragment.replace(/^#/, '');
  if (text.trim() === '') return null;
  const block = text.startsWith(PIN_PREFIX) ? keyBytes(text.slice(PIN_PREFIX.length)) : null;
  if (block === null || kdfBlockLength(block[0]) !== block.length) {
    throw new LinkUnusableError('KEYS_MALFORMED', "The link's fragment is not its password protection ('kdf=...'): copy the whole link again.");
  }
  return block;
}

/** Refuses a block other than the pinned one, or one below the default cost, before any derivation. */
function checkBlock(block: Buffer, pin: Buffer | null): void {
  if (pin !== null && !block.equals(pin)) throw refused('its parameters are not the ones the link pins');
  let params;
  try {
    params = readKdfBlock(block);
  } catch (error) {
    throw new LinkUnusableError('KEYS_MALFORMED', `The link's KDF parameters cannot be used (${error instanceof OfflineCryptoError ? error.code : 'error'}).`, { cause: error });
  }
  const weak =
    params.scheme === SCHEME_PBKDF2
      ? params.iterations < LINK_PBKDF2_DEFAULT_ITERATIONS
      : params.memoryKiB < NODE_ARGON2_DEFAULT_COST.memoryKiB || params.passes < NODE_ARGON2_DEFAULT_COST.passes;
  if (weak) throw refused('its parameters are cheaper than the default cost');
}

/** The parameter block at the start of a released wrapped key (undefined when it has none this code knows). */
function blockOfReleasedKey(value: string): Buffer | undefined {
  const wrapped = Buffer.from(value.split(':')[0] ?? '', 'base64');
  const length = kdfBlockLength(wrapped[0]);
  return length === undefined || wrapped.length <= length ? undefined : wrapped.subarray(0, length);
}

/**
 * Checks the password with the server (which sees only the verifier) and opens the keys it hands
 * back. Per file: the raw key, or the error that file's key failed with. `pin`: the block the
 * link's fragment pins, null for a link made before pins.
 */
export async function keysWithPassword(
  session: ApiSession,
  linkToken: string,
  kdfParams: string | undefined,
  pin: Buffer | null,
  password: string,
  signal: AbortSignal,
): Promise<Map<string, Buffer | OfflineCryptoError>> {
  if (kdfParams === undefined) throw new LinkUnusableError('UNEXPECTED_ANSWER', 'The server did not send the link\'s KDF parameters.');
  checkBlock(Buffer.from(kdfParams, 'base64'), pin);
  let verifier: string;
  try {
    verifier = linkVerifier(password, kdfParams);
  } catch (error) {
    throw new LinkUnusableError('KEYS_MALFORMED', `The link's KDF parameters cannot be used (${error instanceof OfflineCryptoError ? error.code : 'error'}).`, { cause: error });
  }
  let answer;
  try {
    answer = await withRetries(
      () => session.json(verifyLinkPasswordResponse, { method: 'POST', path: `/api/download/${linkToken}/verify-password`, json: { password: verifier }, signal }),
      { signal },
    );
  } catch (error) {
    if (error instanceof ApiRequestError && (error.code === 'INCORRECT_PASSWORD' || error.code === 'RATE_LIMITED')) {
      const wait = error.retryAfterSeconds === null ? '' : ` (try again in ${Math.ceil(error.retryAfterSeconds / 60)} min)`;
      throw new GateRefusedError(error.code, `${error.detail}${wait}`);
    }
    throw error;
  }
  for (const value of Object.values(answer.reencrypted_keys)) {
    const block = blockOfReleasedKey(value);
    if (block !== undefined) checkBlock(block, pin);
  }
  try {
    return openLinkKeysEach(password, answer.reencrypted_keys);
  } catch (error) {
    // The server accepted the verifier but the keys do not open with the password: they were altered.
    if (error instanceof OfflineCryptoError) throw new LinkUnusableError('KEYS_MALFORMED', `The link's keys do not open with this password (${error.code}).`, { cause: error });
    throw error;
  }
}
