// Turns the admin's choices into a create-link request (docs/api.md "Download links"; the key
// scheme is in crypto/link-keys.ts). The selected files' keys are opened inside the crypto pool by
// the team feature's opener (account key or the team folder's epoch keys), then either
//   - formatted as 'fileId:base64key,...' for the URL fragment (no password; nothing goes to the
//     server but the file ids), or
//   - wrapped under a key derived from the link password, and only the derived VERIFIER and the
//     wrapped keys are sent; the password itself never leaves this browser.
// The unwrapped file keys are released from the workers afterwards either way.

import { formatLinkKdfPin, type LinkFragment } from '../../../crypto/index.ts';
import type { CryptoPool, FileKeyHandle, LinkFileKeyHandle } from '../../../workers/index.ts';
import type { CreateDownloadLinkRequest } from '../../api/linksApi.ts';
import type { CreateLinkChoices } from './createLinkForm.ts';
import type { FileKeyOpener } from '../team/index.ts';

/** The part of the pool this module uses (a narrow seam, so tests can run it on the crypto core). */
export type LinkKeyCrypto = Pick<CryptoPool, 'formatLinkFragment' | 'protectLinkKeys' | 'releaseKeys'>;

/** What the link needs of a file record (GET /folders/{id}/files). */
export interface LinkableFile {
  id: number;
  original_filename: string;
  /** The file key wrapped with the owner's account key, or with the team folder's epoch `key_epoch`. */
  encrypted_key: string;
  key_epoch: number | null;
}

export interface PreparedDownloadLink {
  request: CreateDownloadLinkRequest;
  /**
   * Append as '#' + fragment to the link's address: without a password the keys (SECRET), with
   * one the KDF parameter pin (the recipient refuses a server block that differs).
   */
  fragment: LinkFragment | null;
}

const UNWRAP_CONCURRENCY = 8;

/**
 * Unwraps with a few keys in flight. On a failure no further key is started, and the call rejects
 * only once every key in flight has settled, so `into` holds every handle that needs releasing.
 */
async function unwrapAll(openKey: FileKeyOpener, files: readonly LinkableFile[], into: FileKeyHandle[]): Promise<LinkFileKeyHandle[]> {
  const handles: LinkFileKeyHandle[] = new Array(files.length);
  let next = 0;
  let failed = false;
  async function lane(): Promise<void> {
    while (!failed && next < files.length) {
      const index = next++;
      const file = files[index]!;
      try {
        const key = await openKey(file);
        into.push(key);
        handles[index] = { fileId: String(file.id), key };
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  }
  const lanes = await Promise.allSettled(Array.from({ length: Math.min(UNWRAP_CONCURRENCY, files.length) }, lane));
  const rejection = lanes.find((lane): lane is PromiseRejectedResult => lane.status === 'rejected');
  if (rejection) throw rejection.reason;
  return handles;
}

export async function prepareDownloadLink(
  pool: LinkKeyCrypto,
  openKey: FileKeyOpener,
  files: readonly LinkableFile[],
  choices: CreateLinkChoices,
): Promise<PreparedDownloadLink> {
  const unwrapped: FileKeyHandle[] = [];
  try {
    const keys = await unwrapAll(openKey, files, unwrapped);
    const file_ids = files.map((file) => file.id);
    if (choices.password === null) {
      const fragment = await pool.formatLinkFragment(keys);
      return { request: { file_ids, password: null, expiration_date: choices.expirationDate, max_downloads: choices.maxDownloads }, fragment };
    }
    const protection = await pool.protectLinkKeys(choices.password, keys);
    return {
      request: {
        file_ids,
        password: protection.verifier,
        expiration_date: choices.expirationDate,
        max_downloads: choices.maxDownloads,
        reencrypted_keys_json: JSON.stringify(protection.reencryptedKeys),
      },
      fragment: formatLinkKdfPin(protection.kdfParams),
    };
  } finally {
    await pool.releaseKeys(unwrapped);
  }
}

/** The address shown in 'Download Link Ready': the server's full_url plus the fragment (keys, or a password link's pin). */
export function readyLinkUrl(fullUrl: string, fragment: LinkFragment | null): string {
  return fragment === null ? fullUrl : `${fullUrl.split('#')[0]}#${fragment}`;
}
