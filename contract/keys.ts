// The signed-in admin's key pair (docs/api.md, "Keys"). The contract fixes the fields and their
// lengths; the server adds what only it can check (strict base64 and the SPKI parse, which need
// node's Buffer and crypto) in server/routes/keys/schemas.ts. The server checks only the shape of
// the wrapped private key: it cannot (and must not be able to) open it.
import { z } from 'zod';

/** A 2048-bit SPKI is 294 bytes (392 base64 characters); room for larger keys later. */
export const PUBLIC_KEY_MAX_LENGTH = 4096;
/** IV(12) || AES-GCM(PKCS8 of RSA-2048, ~1.2 kB) || tag(16) is about 1.7 k characters of base64. */
export const ENCRYPTED_PRIVATE_KEY_MAX_LENGTH = 8192;
/** The KDF parameter block (21 bytes) or a bare 16-byte salt; a little room for later schemes. */
export const KDF_SALT_MAX_LENGTH = 128;
export const KDF_SALT_MIN_BYTES = 16;
export const KDF_SALT_MAX_BYTES = 64;
/** The spec: decrypting needs more than 12 bytes (IV); AES-GCM also appends a 16-byte tag. */
export const ENCRYPTED_PRIVATE_KEY_MIN_BYTES = 12 + 16 + 1;

const text = (field: string, max: number) =>
  z
    .string({ error: `${field} must be text` })
    .min(1, `${field} is required`)
    .max(max, `${field} must be at most ${max} characters`);

/** PUT /auth/public-key: base64 of a DER SPKI (RSA-2048, exponent 65537). */
export const publicKeyBody = z.object({
  public_key_spki: text('Public key', PUBLIC_KEY_MAX_LENGTH),
});
export type PublicKeyBody = z.input<typeof publicKeyBody>;

/** PUT /auth/users/me/encrypted-key. Never log it: with the salt it is an offline guessing target. */
export const encryptedKeyBody = z.object({
  encryptedPrivateKey: text('Encrypted private key', ENCRYPTED_PRIVATE_KEY_MAX_LENGTH),
  kdfSalt: text('Key derivation salt', KDF_SALT_MAX_LENGTH),
});
export type EncryptedKeyBody = z.input<typeof encryptedKeyBody>;

/** GET /auth/public-key (an upload link's GET .../public-key answers contract/team-folders.ts's uploadPublicKeyResponse). */
export const publicKeyResponse = z.object({ public_key_spki: z.string() });
export type PublicKeyResponse = z.infer<typeof publicKeyResponse>;

/** GET /auth/users/me/encrypted-key: the private key wrapped under the login password. */
export const encryptedKeyResponse = z.object({ encryptedPrivateKey: z.string(), kdfSalt: z.string() });
export type EncryptedKeyData = z.infer<typeof encryptedKeyResponse>;
