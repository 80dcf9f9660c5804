// The key bodies of contract/keys.ts with the checks only the server can make: strict base64 and
// the SPKI parse need node's Buffer and crypto, which the browser bundle must not pull in.
import { z } from 'zod';
import * as contract from '../../../contract/keys.ts';
import { decodeStrictBase64 } from '../../base64.ts';
import { checkRsaSpki, type SpkiProblem } from './spki.ts';

const SPKI_MESSAGES: Record<SpkiProblem, string> = {
  NOT_BASE64: 'Public key is not valid base64',
  NOT_RSA_SPKI: 'Public key is not an RSA public key in SPKI format',
  WRONG_RSA_PARAMETERS: 'Public key must be RSA-2048 with exponent 65537',
};

/** Parsed: the key re-encoded canonically (what is stored). */
export const publicKeyBody = contract.publicKeyBody.extend({
  public_key_spki: contract.publicKeyBody.shape.public_key_spki.transform((value, context) => {
    const check = checkRsaSpki(value);
    if (check.ok) return check.canonical;
    context.addIssue({ code: 'custom', message: SPKI_MESSAGES[check.problem] });
    return z.NEVER;
  }),
});

/** base64 whose decoded length lies in [minBytes, maxBytes]. */
const base64Bytes = (text: z.ZodString, field: string, minBytes: number, maxBytes: number, shortMessage: string) =>
  text.superRefine((value, context) => {
    const bytes = decodeStrictBase64(value);
    if (!bytes) context.addIssue({ code: 'custom', message: `${field} is not valid base64` });
    else if (bytes.length < minBytes) context.addIssue({ code: 'custom', message: shortMessage });
    else if (bytes.length > maxBytes) context.addIssue({ code: 'custom', message: `${field} is too long` });
  });

const { encryptedPrivateKey, kdfSalt } = contract.encryptedKeyBody.shape;

export const encryptedKeyBody = contract.encryptedKeyBody.extend({
  encryptedPrivateKey: base64Bytes(
    encryptedPrivateKey,
    'Encrypted private key',
    contract.ENCRYPTED_PRIVATE_KEY_MIN_BYTES,
    Number.POSITIVE_INFINITY,
    'Encrypted private key is too short to contain IV and ciphertext',
  ),
  kdfSalt: base64Bytes(kdfSalt, 'Key derivation salt', contract.KDF_SALT_MIN_BYTES, contract.KDF_SALT_MAX_BYTES, 'Key derivation salt is too short'),
});
