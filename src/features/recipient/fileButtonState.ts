// The per-file button of the public page (spec section 2): Starting..., Downloading...,
// Decrypting..., then Done! or Failed, which reset to the idle label after 3 s. Decryption runs
// while the bytes arrive (record by record in the service worker), so 'Decrypting...' is the
// last stretch: every byte is in and the final record is being authenticated and written.

import { textsOf } from '../../i18n/language.ts';
import { fileButtonMessages } from './messages.ts';

export type FileButtonStatus = 'idle' | 'starting' | 'downloading' | 'decrypting' | 'done' | 'failed';

/** The button's label by status, read in the current language when used. */
export const FILE_BUTTON_LABELS: { readonly [Status in FileButtonStatus]: string } = textsOf(fileButtonMessages);

/** The status while a download runs, from the plaintext bytes written so far. */
export function statusForProgress(bytes: number, totalBytes: number): FileButtonStatus {
  if (totalBytes > 0 && bytes >= totalBytes) return 'decrypting';
  return bytes > 0 ? 'downloading' : 'starting';
}

/** A download may start from idle or after its outcome was shown; never twice at once. */
export function isBusy(status: FileButtonStatus): boolean {
  return status === 'starting' || status === 'downloading' || status === 'decrypting';
}

export function progressPercent(bytes: number, totalBytes: number): number | null {
  if (totalBytes <= 0) return null;
  return Math.min(100, Math.floor((bytes / totalBytes) * 100));
}
