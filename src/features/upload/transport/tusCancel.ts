// Cancelling a tus upload (tus "termination": DELETE on its URL), best effort: a server that cannot
// be reached now removes it later anyway (the sweep, UPLOAD_ABANDON_HOURS).

import { CSRF_HEADER, readCsrfToken } from '../../../api/csrf.ts';

export async function cancelTusUpload(url: string): Promise<void> {
  const headers: Record<string, string> = { 'Tus-Resumable': '1.0.0' };
  const token = readCsrfToken();
  if (token) headers[CSRF_HEADER] = token;
  try {
    await fetch(url, { method: 'DELETE', headers, credentials: 'same-origin' });
  } catch {
    // Unreachable now: the sweep removes it later.
  }
}
