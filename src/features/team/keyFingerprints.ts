// Fingerprints in the members section, computed in this browser (docs/format.md, key fingerprints:
// the first KEY_FINGERPRINT_BYTES of SHA-256 over the SPKI, in groups of four). A listed member's
// comes from the key hash of the signed list the worker verified (the full SHA-256 of their SPKI),
// so the server cannot show one fingerprint and have another key sealed to; a person about to be
// added has no signed hash yet, so theirs is computed from the directory's SPKI by the organisation
// feature's useKeyFingerprint, to be compared out of band before anything is signed.
import { KEY_FINGERPRINT_BYTES } from '../../../crypto/index.ts';

export function fingerprintOfKeyHash(keyHashHex: string): string | null {
  if (!/^[0-9a-f]{64}$/.test(keyHashHex)) return null;
  return keyHashHex.slice(0, KEY_FINGERPRINT_BYTES * 2).toUpperCase().match(/.{4}/g)!.join(' ');
}
