// Passkeys (docs/api.md, "Passkeys"): WebAuthn credentials that sign in without a password and,
// where the authenticator has the PRF extension, carry a copy of the private key wrapped under a
// key only that passkey's PRF output gives (docs/format.md, "The private key under a passkey").
// The WebAuthn values themselves (options, responses) are the JSON forms of the WebAuthn spec as
// @simplewebauthn/browser and /server exchange them; the server verifies them with that library.
import { z } from 'zod';
import { AUTH_SECRET_PATTERN, userResponse } from './auth.ts';

export const MAX_PASSKEYS_PER_ACCOUNT = 10;
export const PASSKEY_NAME_MAX_LENGTH = 64;

/** How long a re-authentication (password or passkey) allows adding, renaming or removing passkeys. */
export const PASSKEY_REAUTH_TTL_MS = 5 * 60_000;

const authSecret = z
  .string({ error: 'Authentication secret must be text' })
  .regex(AUTH_SECRET_PATTERN, 'Authentication secret must be 32 bytes of base64 (the derived authentication secret, not the password)');

const base64url = (field: string, max: number) =>
  z
    .string({ error: `${field} must be text` })
    .min(1, `${field} is required`)
    .max(max, `${field} is too long`)
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, `${field} must be base64url`);

/**
 * A passkey's name as people type it: 1 to 64 characters after trimming, no control characters
 * (they would confuse the list and the activity log).
 */
export const passkeyName = z
  .string({ error: 'Name must be text' })
  .trim()
  .min(1, 'Name is required')
  .max(PASSKEY_NAME_MAX_LENGTH, `Name must be at most ${PASSKEY_NAME_MAX_LENGTH} characters`)
  // Control characters and the bidirectional overrides would make a name display as another.
  // eslint-disable-next-line no-control-regex
  .regex(/^[^\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]+$/, 'Name may not contain control characters');

/** The browser's answer to navigator.credentials.create(), as JSON. */
export const registrationResponse = z.object({
  id: base64url('Credential id', 1400),
  rawId: base64url('Credential raw id', 1400),
  type: z.literal('public-key'),
  response: z.looseObject({
    clientDataJSON: base64url('clientDataJSON', 4096),
    attestationObject: base64url('attestationObject', 16384),
  }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: z.record(z.string(), z.unknown()),
});
export type RegistrationResponse = z.infer<typeof registrationResponse>;

/** The browser's answer to navigator.credentials.get(), as JSON (PRF results removed before sending). */
export const authenticationResponse = z.object({
  id: base64url('Credential id', 1400),
  rawId: base64url('Credential raw id', 1400),
  type: z.literal('public-key'),
  response: z.looseObject({
    clientDataJSON: base64url('clientDataJSON', 4096),
    authenticatorData: base64url('authenticatorData', 4096),
    signature: base64url('signature', 2048),
    userHandle: base64url('userHandle', 128).optional(),
  }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: z.record(z.string(), z.unknown()),
});
export type AuthenticationResponse = z.infer<typeof authenticationResponse>;

/** Options for navigator.credentials.create() / .get() (PublicKeyCredential*OptionsJSON). */
export const webAuthnOptionsResponse = z.object({ options: z.record(z.string(), z.unknown()) });
export type WebAuthnOptionsResponse = z.infer<typeof webAuthnOptionsResponse>;

/**
 * The private key wrapped under a passkey's PRF output, bound to its credential id (AES-GCM
 * additional data): base64 of IV || ciphertext. SECRET-ADJACENT: never log it.
 */
export const passkeyWrappedKey = z.object({
  encryptedPrivateKey: z
    .string({ error: 'Encrypted private key must be text' })
    .min(1, 'Encrypted private key is required')
    .max(8192, 'Encrypted private key must be at most 8192 characters')
    .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'Encrypted private key is not valid base64'),
  /** The key pair it belongs to: the server keeps it only while that is the account's pair. */
  public_key_spki: z.string({ error: 'Public key must be text' }).min(1).max(4096),
});
export type PasskeyWrappedKey = z.infer<typeof passkeyWrappedKey>;

/** POST /auth/passkeys: a new passkey, its name and (PRF authenticators) its wrapped copy. */
export const passkeyRegistrationBody = z.object({
  name: passkeyName,
  response: registrationResponse,
  wrapped_private_key: passkeyWrappedKey.optional(),
});
export type PasskeyRegistrationBody = z.input<typeof passkeyRegistrationBody>;

/** PATCH /auth/passkeys/{id}. */
export const passkeyRenameBody = z.object({ name: passkeyName });
export type PasskeyRenameBody = z.input<typeof passkeyRenameBody>;

export const passkeyIdParams = z.object({
  id: z.coerce.number({ error: 'Passkey id must be a number' }).int().positive().max(2147483647, 'Passkey id is out of range'),
});

/** POST /auth/passkeys/sign-in and the passkey form of POST /auth/reauth. */
export const passkeyAssertionBody = z.object({ response: authenticationResponse });
export type PasskeyAssertionBody = z.input<typeof passkeyAssertionBody>;

/** POST /auth/reauth: the password's authentication secret, or an assertion of one of the account's passkeys. */
export const reauthBody = z.union([z.object({ auth_secret: authSecret }), passkeyAssertionBody]);
export type ReauthBody = z.input<typeof reauthBody>;

/** The copy of the private key of the passkey just used, when it has one for the current key pair. */
const wrappedCopy = z
  .object({ encryptedPrivateKey: z.string(), credential_id: z.string() })
  .nullable();

export const reauthResponse = z.object({
  /** ISO time until which passkeys may be added, renamed or removed in this session. */
  until: z.string(),
  wrapped_private_key: wrappedCopy,
});
export type ReauthResponse = z.infer<typeof reauthResponse>;

export const passkey = z.object({
  id: z.number(),
  name: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  /** Carries a wrapped copy of the current private key: signing in with it also unlocks the keys. */
  unlocks_keys: z.boolean(),
});
export type Passkey = z.infer<typeof passkey>;

export const passkeyList = z.object({ passkeys: z.array(passkey) });
export type PasskeyList = z.infer<typeof passkeyList>;

export const passkeySignInResponse = z.object({
  user: userResponse,
  wrapped_private_key: wrappedCopy,
});
export type PasskeySignInResponse = z.infer<typeof passkeySignInResponse>;
