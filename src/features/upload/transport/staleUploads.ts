// A tus upload cannot continue after the page is reloaded: the file key was made inside a crypto
// worker of the old page and cannot be recreated, so the file starts over with a new key. Its
// partial upload would otherwise wait on the server until the sweep (UPLOAD_ABANDON_HOURS).
// So the page remembers the URL of each unfinished upload in localStorage (the URL names the link
// and an upload id; no key material), and cancels it (tus DELETE) when the same file is sent again.

import { CSRF_HEADER, readCsrfToken } from '../../../api/csrf.ts';
import type { FileIdentity, LeftoverUploads } from '../engine/enginePorts.ts';

const PREFIX = 'sealdrop.tus.';

function storage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

function keyOf(file: FileIdentity): string {
  return `${PREFIX}${JSON.stringify([file.linkToken, file.relativePath, file.name, file.size, file.lastModified])}`;
}

export function rememberUpload(file: FileIdentity, url: string): void {
  try {
    storage()?.setItem(keyOf(file), url);
  } catch {
    // Storage full or forbidden: the sweep will remove the partial upload instead.
  }
}

export function forgetUpload(file: FileIdentity): void {
  storage()?.removeItem(keyOf(file));
}

/** Cancels an unfinished upload of this file left by an earlier page (best effort). */
export async function cancelLeftoverUpload(file: FileIdentity): Promise<void> {
  const url = storage()?.getItem(keyOf(file));
  if (!url) return;
  forgetUpload(file);
  const headers: Record<string, string> = { 'Tus-Resumable': '1.0.0' };
  const token = readCsrfToken();
  if (token) headers[CSRF_HEADER] = token;
  try {
    await fetch(url, { method: 'DELETE', headers, credentials: 'same-origin' });
  } catch {
    // Unreachable now: the sweep removes it later.
  }
}

/** The record the resumable lane keeps, in this tab's localStorage. */
export const localLeftoverUploads: LeftoverUploads = {
  cancelLeftover: cancelLeftoverUpload,
  remember: rememberUpload,
  forget: forgetUpload,
};
