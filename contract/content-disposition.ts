// Content-Disposition of a download (RFC 6266): `filename*` carries the exact UTF-8 name (RFC 8187
// percent-encoding) and `filename` an ASCII stand-in for clients that ignore the former. Part of
// the wire contract: the server sends it with every ciphertext and export response, and the
// service worker with every decrypted download, so both build it here.

// Characters RFC 8187's attr-char allows unencoded; everything else is percent-encoded.
const ATTR_CHAR = /[A-Za-z0-9!#$&+.^_`|~-]/;

function encodeExtValue(value: string): string {
  const utf8 = new TextEncoder();
  let out = '';
  for (const char of value) {
    if (ATTR_CHAR.test(char)) out += char;
    else for (const byte of utf8.encode(char)) out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/**
 * The name reduced to printable ASCII for the quoted `filename`: accents dropped, anything else
 * outside ASCII, the quote and the backslash (which would end the quoted string) and `%` (some
 * clients percent-decode this parameter, which would turn "%2F" into a slash) become "_".
 */
export function asciiFallbackName(name: string): string {
  const ascii = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]|["\\%]/g, '_')
    .trim();
  return ascii === '' ? 'download' : ascii;
}

/** The header for a file saved under `filename`, kept as it is apart from control characters. */
export function attachmentDisposition(filename: string): string {
  // Control characters have no place in a file name and would break the header.
  // eslint-disable-next-line no-control-regex
  const clean = filename.replace(/[\u0000-\u001f\u007f]/g, '_');
  return `attachment; filename="${asciiFallbackName(clean)}"; filename*=UTF-8''${encodeExtValue(clean)}`;
}

/**
 * A name a download manager can save as one file: no path separators, no control characters,
 * never empty, "." or "..". The browser names every decrypted download with it, since the name
 * comes from an uploader and a separator must not make the browser suggest a directory.
 */
export function safeFileName(name: string): string {
  // eslint-disable-next-line no-control-regex
  const cleaned = name.normalize('NFC').replace(/[\u0000-\u001f\u007f]/g, '').replace(/[/\\]/g, '_').trim();
  return cleaned === '' || cleaned === '.' || cleaned === '..' ? 'download' : cleaned;
}

/** The header of a decrypted download in the browser: the uploader's name made safe to save. */
export function safeAttachmentDisposition(name: string): string {
  return attachmentDisposition(safeFileName(name));
}
