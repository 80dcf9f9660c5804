// Content-Disposition for a download (RFC 6266): `filename*` carries the exact UTF-8 name
// (RFC 8187 percent-encoding) and `filename` an ASCII stand-in for clients that ignore the former.

// Characters RFC 8187's attr-char allows unencoded; everything else is percent-encoded.
const ATTR_CHAR = /[A-Za-z0-9!#$&+.^_`|~-]/;

function encodeExtValue(value: string): string {
  let out = '';
  for (const char of value) {
    if (ATTR_CHAR.test(char)) out += char;
    else for (const byte of Buffer.from(char, 'utf8')) out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** The name reduced to printable ASCII without quote or backslash (which would end the quoted string). */
export function asciiFallbackName(name: string): string {
  const ascii = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]|["\\]/g, '_')
    .trim();
  return ascii === '' ? 'download' : ascii;
}

export function attachmentDisposition(filename: string): string {
  // Control characters have no place in a file name and would break the header.
  const clean = filename.replace(/[\u0000-\u001f\u007f]/g, '_');
  return `attachment; filename="${asciiFallbackName(clean)}"; filename*=UTF-8''${encodeExtValue(clean)}`;
}
