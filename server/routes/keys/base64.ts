// Strict, canonical, padded base64 (RFC 4648 section 4). Buffer.from(text, 'base64') on its own
// skips characters it does not know, so a damaged value would silently decode to other bytes.
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The decoded bytes, or undefined when `text` is not canonical base64 (or is empty). */
export function decodeStrictBase64(text: string): Buffer | undefined {
  if (text.length === 0 || !BASE64.test(text)) return undefined;
  const bytes = Buffer.from(text, 'base64');
  return bytes.toString('base64') === text ? bytes : undefined;
}
