// The one check of an uploaded public key: base64 of a DER SPKI that node:crypto parses as an RSA
// key of exactly the product's size and exponent (spec section 9). Uploaders wrap file keys with it,
// so a key that browsers could not import (or a weaker one) must never be stored.
import { createPublicKey } from 'node:crypto';
import { decodeStrictBase64 } from '../../base64.ts';

export const RSA_MODULUS_BITS = 2048;
const RSA_PUBLIC_EXPONENT = 65537n;

export type SpkiProblem = 'NOT_BASE64' | 'NOT_RSA_SPKI' | 'WRONG_RSA_PARAMETERS';

export type SpkiCheck = { ok: true; canonical: string } | { ok: false; problem: SpkiProblem };

export function checkRsaSpki(text: string): SpkiCheck {
  const der = decodeStrictBase64(text);
  if (!der) return { ok: false, problem: 'NOT_BASE64' };
  let key;
  try {
    key = createPublicKey({ key: der, format: 'der', type: 'spki' });
  } catch {
    return { ok: false, problem: 'NOT_RSA_SPKI' };
  }
  // 'rsa-pss' keys cannot do RSA-OAEP in browsers; only plain rsaEncryption SPKI is accepted.
  if (key.asymmetricKeyType !== 'rsa') return { ok: false, problem: 'NOT_RSA_SPKI' };
  const details = key.asymmetricKeyDetails;
  if (details?.modulusLength !== RSA_MODULUS_BITS || details.publicExponent !== RSA_PUBLIC_EXPONENT) {
    return { ok: false, problem: 'WRONG_RSA_PARAMETERS' };
  }
  // Re-encoding must give the same bytes: trailing data or a non-canonical encoding is refused.
  const canonical = key.export({ type: 'spki', format: 'der' });
  if (!canonical.equals(der)) return { ok: false, problem: 'NOT_RSA_SPKI' };
  return { ok: true, canonical: canonical.toString('base64') };
}
