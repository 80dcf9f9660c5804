// The server sets a page-readable `csrftoken` cookie; every state-changing request must echo it in
// the `x-csrftoken` header (docs/api.md, Conventions).

export const CSRF_COOKIE = 'csrftoken';
export const CSRF_HEADER = 'x-csrftoken';

const MUTATING_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function isMutatingMethod(method: string | undefined): boolean {
  return MUTATING_METHODS.has((method ?? 'GET').toUpperCase());
}

/** Reads one cookie's value from a `document.cookie` string; null when absent. */
export function readCookie(cookieString: string, name: string): string | null {
  for (const part of cookieString.split(';')) {
    const separator = part.indexOf('=');
    if (separator < 0) continue;
    if (part.slice(0, separator).trim() !== name) continue;
    const raw = part.slice(separator + 1).trim();
    try {
      return decodeURIComponent(raw);
    } catch {
      return raw;
    }
  }
  return null;
}

export function readCsrfToken(cookieString: string = globalThis.document?.cookie ?? ''): string | null {
  return readCookie(cookieString, CSRF_COOKIE);
}
