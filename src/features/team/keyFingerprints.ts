// Fingerprints in the members section, computed in this browser (docs/format.md, key fingerprints:
// the first KEY_FINGERPRINT_BYTES of SHA-256 over the SPKI, in groups of four). A listed member's
// comes from the key hash of the signed list the worker verified (the full SHA-256 of their SPKI),
// so the server cannot show one fingerprint and have another key sealed to; a person about to be
// added has no signed hash yet, so theirs is computed from the directory's SPKI, to be compared
// out of band before anything is signed.
import { useEffect, useState } from 'react';
import { decodeBase64, KEY_FINGERPRINT_BYTES, keyFingerprint } from '../../../crypto/index.ts';

export function fingerprintOfKeyHash(keyHashHex: string): string | null {
  if (!/^[0-9a-f]{64}$/.test(keyHashHex)) return null;
  return keyHashHex.slice(0, KEY_FINGERPRINT_BYTES * 2).toUpperCase().match(/.{4}/g)!.join(' ');
}

export type SpkiFingerprint = { kind: 'computing' } | { kind: 'ready'; fingerprint: string } | { kind: 'failed' } | { kind: 'none' };

export function useSpkiFingerprint(spkiBase64: string | null): SpkiFingerprint {
  const [state, setState] = useState<SpkiFingerprint>(spkiBase64 ? { kind: 'computing' } : { kind: 'none' });
  useEffect(() => {
    if (!spkiBase64) {
      setState({ kind: 'none' });
      return;
    }
    let current = true;
    setState({ kind: 'computing' });
    (async () => keyFingerprint(decodeBase64(spkiBase64, 'Public key')))().then(
      (fingerprint) => current && setState({ kind: 'ready', fingerprint }),
      () => current && setState({ kind: 'failed' }),
    );
    return () => {
      current = false;
    };
  }, [spkiBase64]);
  return state;
}
