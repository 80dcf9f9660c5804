// How the recipient's browser gets the file keys of a link (docs/format.md, "Download links"):
//   - without a password, from the URL fragment ('fileId:base64key,...'), which is then removed
//     from the address bar so the keys do not linger in history, screenshots or a copied URL;
//   - with a password, by deriving the verifier from the password and the link's KDF parameters,
//     proving it to the server, and opening the wrapped keys it returns with the password. A
//     password link made from now on pins those parameters in its fragment ('kdf=...'): a server
//     block that differs, or any block below the default cost, is refused before the password is
//     used ('kdf-refused'). A link without the pin was made before; it opens, with a note.
// Keys go straight into the crypto pool; this thread only ever holds handles.

import { checkReleasedLinkKeys, checkServerLinkKdfParams, isCryptoError, parseLinkKdfPin } from '../../../crypto/index.ts';
import { UserFacingError } from '../../lib/userFacingError.ts';
import type { CryptoPool, FileKeyHandle } from '../../../workers/index.ts';
import type { SharedFile } from '../../api/linksApi.ts';
import { DOWNLOAD_PAGE_MESSAGES } from '../../lib/userTexts.ts';

export type LinkKeyErrorCode = 'keys-missing' | 'keys-invalid' | 'decryption-failed' | 'kdf-refused';

/** A failure to obtain a link's keys; its message is the spec's text. */
export class LinkKeyError extends UserFacingError<LinkKeyErrorCode> {
  override readonly name = 'LinkKeyError';
}

export type LinkKeys = ReadonlyMap<string, FileKeyHandle>;

/** The fragment of `hash` (location.hash) without '#'; null when there is none. */
export function fragmentOf(hash: string): string | null {
  const text = hash.startsWith('#') ? hash.slice(1) : hash;
  return text.trim() === '' ? null : text;
}

/** Drops the fragment from the address bar without a navigation or a new history entry. */
export function removeFragmentFromAddressBar(location: Location = window.location, history: History = window.history): void {
  if (location.hash === '') return;
  history.replaceState(history.state, '', `${location.pathname}${location.search}`);
}

/**
 * The keys of a link without password from its fragment. A link whose keys name none of its
 * files is as useless as one whose keys cannot be read, so both are 'keys-invalid'.
 */
export async function importFragmentKeys(
  pool: Pick<CryptoPool, 'parseLinkFragment' | 'releaseKeys'>,
  fragment: string | null,
  files: readonly SharedFile[],
): Promise<LinkKeys> {
  if (fragment === null) throw new LinkKeyError('keys-missing', DOWNLOAD_PAGE_MESSAGES.keysMissing);
  let keys: Map<string, FileKeyHandle>;
  try {
    keys = await pool.parseLinkFragment(fragment);
  } catch (error) {
    if (isCryptoError(error, 'MALFORMED')) throw new LinkKeyError('keys-invalid', DOWNLOAD_PAGE_MESSAGES.keysInvalid);
    throw error;
  }
  // (A link whose files were all deleted since has nothing to check the keys against.)
  if (files.length > 0 && !files.some((file) => keys.has(String(file.id)))) {
    await pool.releaseKeys(keys.values());
    throw new LinkKeyError('keys-invalid', DOWNLOAD_PAGE_MESSAGES.keysInvalid);
  }
  return keys;
}

/** Pinned KDF parameters of a password link (bytes), null for a link made before pins. */
export type LinkKdfPin = ReturnType<typeof parseLinkKdfPin>;

function refusedOrRethrow(error: unknown): never {
  if (isCryptoError(error, 'KDF_REFUSED')) throw new LinkKeyError('kdf-refused', DOWNLOAD_PAGE_MESSAGES.kdfRefused);
  if (isCryptoError(error, 'MALFORMED') || isCryptoError(error, 'UNSUPPORTED_VERSION')) {
    throw new LinkKeyError('keys-invalid', DOWNLOAD_PAGE_MESSAGES.keysInvalid);
  }
  throw error;
}

/**
 * A password link's pin from its fragment, checked against the server's block before anything
 * is derived: 'kdf-refused' when they differ or the block is below the default cost.
 */
export function pinnedLinkKdf(fragment: string | null, kdfParams: string | undefined): LinkKdfPin {
  if (!kdfParams) throw new LinkKeyError('keys-invalid', DOWNLOAD_PAGE_MESSAGES.keysInvalid);
  try {
    const pin = parseLinkKdfPin(fragment);
    checkServerLinkKdfParams(kdfParams, pin);
    return pin;
  } catch (error) {
    return refusedOrRethrow(error);
  }
}

/** The keys the server released must carry the pinned block too (checked before they are opened). */
export function checkReleasedKeys(reencryptedKeys: Record<string, string>, pin: LinkKdfPin): void {
  try {
    checkReleasedLinkKeys(reencryptedKeys, pin);
  } catch (error) {
    refusedOrRethrow(error);
  }
}

/** The verifier a password is proved with; needs the link's KDF parameters from its status. */
export async function linkPasswordVerifier(
  pool: Pick<CryptoPool, 'deriveLinkPasswordVerifier'>,
  password: string,
  kdfParams: string | undefined,
): Promise<string> {
  if (!kdfParams) throw new LinkKeyError('keys-invalid', DOWNLOAD_PAGE_MESSAGES.keysInvalid);
  try {
    return await pool.deriveLinkPasswordVerifier(password, kdfParams);
  } catch (error) {
    return refusedOrRethrow(error);
  }
}

/** Opens the wrapped keys the server released after the password check. */
export async function openPasswordKeys(
  pool: Pick<CryptoPool, 'openLinkKeys'>,
  password: string,
  reencryptedKeys: Record<string, string>,
): Promise<LinkKeys> {
  try {
    return await pool.openLinkKeys(password, reencryptedKeys);
  } catch (error) {
    if (isCryptoError(error, 'WRONG_PASSWORD') || isCryptoError(error, 'INTEGRITY')) {
      throw new LinkKeyError('decryption-failed', DOWNLOAD_PAGE_MESSAGES.decryptionFailed);
    }
    return refusedOrRethrow(error);
  }
}
