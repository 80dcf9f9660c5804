/**
 * Strict base64 (RFC 4648 section 4, padded, canonical). Stored values and values from servers are
 * decoded strictly so that a damaged value fails loudly with MALFORMED instead of decoding to some
 * other bytes. `decodeBase64Lenient` additionally accepts the URL-safe alphabet and missing
 * padding, for keys that a person copies around inside a URL fragment.
 */
import type { Base64 } from './branded.ts';
import type { Bytes } from './bytes.ts';
import { CryptoError } from './errors.ts';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const DECODE = new Int16Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) DECODE[ALPHABET.charCodeAt(i)] = i;

export function encodeBase64(bytes: Uint8Array): Base64 {
  let out = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out += ALPHABET[n >> 18]! + ALPHABET[(n >> 12) & 63]! + ALPHABET[(n >> 6) & 63]! + ALPHABET[n & 63]!;
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = bytes[i]! << 16;
    out += ALPHABET[n >> 18]! + ALPHABET[(n >> 12) & 63]! + '==';
  } else if (rest === 2) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8);
    out += ALPHABET[n >> 18]! + ALPHABET[(n >> 12) & 63]! + ALPHABET[(n >> 6) & 63]! + '=';
  }
  return out as Base64;
}

/** Decodes canonical padded base64; `what` names the value in the error message. */
export function decodeBase64(text: string, what = 'value'): Bytes {
  if (typeof text !== 'string' || text.length % 4 !== 0) {
    throw new CryptoError('MALFORMED', `${what} is not valid base64 (length)`);
  }
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  const body = text.length - padding;
  const out = new Uint8Array((text.length / 4) * 3 - padding);
  let bits = 0;
  let bitCount = 0;
  let o = 0;
  for (let i = 0; i < body; i++) {
    const code = text.charCodeAt(i);
    const value = code < 128 ? DECODE[code]! : -1;
    if (value < 0) throw new CryptoError('MALFORMED', `${what} is not valid base64 (character)`);
    bits = ((bits << 6) | value) & 0xffffff;
    bitCount += 6;
    if (bitCount >= 8) {
      bitCount -= 8;
      out[o++] = (bits >> bitCount) & 0xff;
    }
  }
  // Canonical form: the unused low bits of the last character must be zero.
  if (bitCount > 0 && (bits & ((1 << bitCount) - 1)) !== 0) {
    throw new CryptoError('MALFORMED', `${what} is not canonical base64`);
  }
  return out;
}

/** Also accepts base64url ('-', '_') and missing padding; used for keys in URL fragments. */
export function decodeBase64Lenient(text: string, what = 'value'): Bytes {
  let standard = text.replace(/-/g, '+').replace(/_/g, '/');
  if (standard.length % 4 === 1) throw new CryptoError('MALFORMED', `${what} is not valid base64 (length)`);
  while (standard.length % 4 !== 0) standard += '=';
  return decodeBase64(standard, what);
}

/** Decodes and checks the exact decoded length (keys, IVs, salts). */
export function decodeBase64Exact(text: string, length: number, what: string): Bytes {
  const bytes = decodeBase64(text, what);
  if (bytes.length !== length) {
    throw new CryptoError('MALFORMED', `${what} must be ${length} bytes, got ${bytes.length}`);
  }
  return bytes;
}
