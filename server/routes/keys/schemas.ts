// Request and response schemas of the key routes (docs/api.md, "Keys"). The server checks only the
// shape of the wrapped private key: it cannot (and must not be able to) open it.
import { z } from 'zod';
import { decodeStrictBase64 } from '../../base64.ts';
import { checkRsaSpki, type SpkiProblem } from './spki.ts';

/** A 2048-bit SPKI is 294 bytes (392 base64 characters); room for larger keys later. */
export const PUBLIC_KEY_MAX_LENGTH = 4096;
/** IV(12) || AES-GCM(PKCS8 of RSA-2048, ~1.2 kB) || tag(16) is about 1.7 k characters of base64. */
export const ENCRYPTED_PRIVATE_KEY_MAX_LENGTH = 8192;
/** The KDF parameter block (21 bytes) or a bare 16-byte salt; a little room for later schemes. */
export const KDF_SALT_MAX_LENGTH = 128;
const KDF_SALT_MIN_BYTES = 16;
const KDF_SALT_MAX_BYTES = 64;
/** The spec: decrypting needs more than 12 bytes (IV); AES-GCM also appends a 16-byte tag. */
const ENCRYPTED_PRIVATE_KEY_MIN_BYTES = 12 + 16 + 1;

const text = (field: string, max: number) =>
  z
    .string({ error: `${field} must be text` })
    .min(1, `${field} is required`)
    .max(max, `${field} must be at most ${max} characters`);

const SPKI_MESSAGES: Record<SpkiProblem, string> = {
  NOT_BASE64: 'Public key is not valid base64',
  NOT_RSA_SPKI: 'Public key is not an RSA public key in SPKI format',
  WRONG_RSA_PARAMETERS: 'Public key must be RSA-2048 with exponent 65537',
};

export const publicKeyBody = z.object({
  public_key_spki: text('Public key', PUBLIC_KEY_MAX_LENGTH).transform((value, context) => {
    const check = checkRsaSpki(value);
    if (check.ok) return check.canonical;
    context.addIssue({ code: 'custom', message: SPKI_MESSAGES[check.problem] });
    return z.NEVER;
  }),
});

/** base64 whose decoded length lies in [minBytes, maxBytes]. */
const base64Bytes = (field: string, maxLength: number, minBytes: number, maxBytes: number, shortMessage: string) =>
  text(field, maxLength).superRefine((value, context) => {
    const bytes = decodeStrictBase64(value);
    if (!bytes) context.addIssue({ code: 'custom', message: `${field} is not valid base64` });
    else if (bytes.length < minBytes) context.addIssue({ code: 'custom', message: shortMessage });
    else if (bytes.length > maxBytes) context.addIssue({ code: 'custom', message: `${field} is too long` });
  });

export const encryptedKeyBody = z.object({
  encryptedPrivateKey: base64Bytes(
    'Encrypted private key',
    ENCRYPTED_PRIVATE_KEY_MAX_LENGTH,
    ENCRYPTED_PRIVATE_KEY_MIN_BYTES,
    Number.POSITIVE_INFINITY,
    'Encrypted private key is too short to contain IV and ciphertext',
  ),
  kdfSalt: base64Bytes('Key derivation salt', KDF_SALT_MAX_LENGTH, KDF_SALT_MIN_BYTES, KDF_SALT_MAX_BYTES, 'Key derivation salt is too short'),
});

export const publicKeyResponse = z.object({ public_key_spki: z.string() });
export const encryptedKeyResponse = z.object({ encryptedPrivateKey: z.string(), kdfSalt: z.string() });
