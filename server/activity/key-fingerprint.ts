// A short, stable name for a public key in the activity log: the first 128 bits of SHA-256 over the
// SPKI bytes, in groups of four hex digits. Another value means another key pair.
import { createHash } from 'node:crypto';

export function publicKeyFingerprint(spkiBase64: string): string {
  const digest = createHash('sha256').update(Buffer.from(spkiBase64, 'base64')).digest('hex');
  return digest.slice(0, 32).replace(/(.{4})(?!$)/g, '$1:');
}
