// What the browser's crypto/key-fingerprint.ts shows for a stored SPKI, computed here on its own
// (SHA-256 of the SPKI DER, the first 40 hex digits upper-case in groups of four).
import { createHash } from 'node:crypto';

export function expectedFingerprint(spkiBase64: string): string {
  const digest = createHash('sha256').update(Buffer.from(spkiBase64, 'base64')).digest('hex').slice(0, 40).toUpperCase();
  return digest.match(/.{4}/g)!.join(' ');
}
