// Base64 checks for every value the server takes in base64 (public keys, key material, upload
// fields, the recover tool's inputs). Buffer.from(text, 'base64') on its own skips characters it
// does not know and accepts missing or extra padding, so a damaged value would silently decode to
// other bytes; the strict checks here therefore test the alphabet and round-trip the bytes.

/** Padded base64 (RFC 4648 section 4), the empty string included. */
const PADDED = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
/** The shape only: base64 characters and up to two '=' at the end, whatever the length. */
const SHAPE = /^[A-Za-z0-9+/]+={0,2}$/;

export type Base64Check = { ok: true; bytes: Buffer } | { ok: false; problem: 'not-base64' | 'not-canonical' };

/**
 * Strict, canonical, padded base64: the bytes, or which rule failed. `not-canonical` is text of
 * the right alphabet and length whose unused bits are set (it would decode, but to text that
 * encodes differently). The empty string is valid here (no bytes).
 */
export function checkCanonicalBase64(text: string): Base64Check {
  if (typeof text !== 'string' || !PADDED.test(text)) return { ok: false, problem: 'not-base64' };
  const bytes = Buffer.from(text, 'base64');
  return bytes.toString('base64') === text ? { ok: true, bytes } : { ok: false, problem: 'not-canonical' };
}

/** The decoded bytes, or undefined when `text` is not canonical base64 or is empty. */
export function decodeStrictBase64(text: string): Buffer | undefined {
  if (text.length === 0) return undefined;
  const checked = checkCanonicalBase64(text);
  return checked.ok ? checked.bytes : undefined;
}

/**
 * Only the shape of base64 (alphabet, trailing '=' at most twice), not its length or padding: for
 * values the server stores and hands back without decoding (an upload's wrapped key and IV), which
 * it has always accepted this loosely.
 */
export function hasBase64Shape(text: string): boolean {
  return SHAPE.test(text);
}
