/**
 * Content-Disposition for a file the service worker hands to the download manager (RFC 6266 with
 * the RFC 5987 `filename*` parameter): an ASCII stand-in for old parsers plus the exact UTF-8 name.
 */

// RFC 5987 attr-char: everything else is percent-encoded.
const ATTR_CHAR = /[A-Za-z0-9!#$&+\-.^_`|~]/;

function encodeRfc5987(value: string): string {
  let out = '';
  for (const char of value) {
    if (ATTR_CHAR.test(char)) out += char;
    else for (const byte of new TextEncoder().encode(char)) out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** A name the download manager can save: no path separators, no control characters, never empty. */
export function safeFileName(name: string): string {
  // eslint-disable-next-line no-control-regex
  const cleaned = name.normalize('NFC').replace(/[\u0000-\u001f\u007f]/g, '').replace(/[/\\]/g, '_').trim();
  return cleaned === '' || cleaned === '.' || cleaned === '..' ? 'download' : cleaned;
}

function asciiStandIn(name: string): string {
  const ascii = name.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').replace(/[^\x20-\x7e]|["\\%]/g, '_');
  return ascii.trim() === '' ? 'download' : ascii;
}

export function contentDisposition(name: string): string {
  const safe = safeFileName(name);
  return `attachment; filename="${asciiStandIn(safe)}"; filename*=UTF-8''${encodeRfc5987(safe)}`;
}
