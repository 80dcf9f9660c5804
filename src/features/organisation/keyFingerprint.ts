// The fingerprint of an account's public key as this browser computes it (crypto's keyFingerprint
// over the SPKI bytes): the members page never shows a fingerprint the server computed, so a
// server that swapped a key cannot also hand out the matching fingerprint.
import { useEffect, useState } from 'react';
import { decodeBase64, keyFingerprint } from '../../../crypto/index.ts';

export type FingerprintState = { kind: 'none' } | { kind: 'computing' } | { kind: 'ready'; fingerprint: string } | { kind: 'failed' };

export function fingerprintOfSpki(spkiBase64: string): Promise<string> {
  return keyFingerprint(decodeBase64(spkiBase64, 'Public key'));
}

export function useKeyFingerprint(spkiBase64: string | null): FingerprintState {
  const [state, setState] = useState<FingerprintState>(spkiBase64 ? { kind: 'computing' } : { kind: 'none' });
  useEffect(() => {
    if (!spkiBase64) {
      setState({ kind: 'none' });
      return;
    }
    let current = true;
    setState({ kind: 'computing' });
    fingerprintOfSpki(spkiBase64).then(
      (fingerprint) => current && setState({ kind: 'ready', fingerprint }),
      () => current && setState({ kind: 'failed' }),
    );
    return () => {
      current = false;
    };
  }, [spkiBase64]);
  return state;
}
