/**
 * A public key's fingerprint, for people to compare out of band (reading it aloud, a second
 * channel): SHA-256 over the key's exported bytes (SPKI DER for the account's RSA key, raw or SPKI
 * for others), the first 20 bytes as ten groups of four upper-case hex digits. 160 bits is what
 * OpenPGP v4 fingerprints show; enough that no one can make a second key with the same groups.
 */
import { toHex } from './bytes.ts';

export const KEY_FINGERPRINT_BYTES = 20;

export async function keyFingerprint(exportedPublicKey: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', exportedPublicKey as BufferSource));
  const hex = toHex(digest.subarray(0, KEY_FINGERPRINT_BYTES)).toUpperCase();
  return hex.match(/.{4}/g)!.join(' ');
}
