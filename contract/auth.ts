// Authentication and profile (docs/api.md, "Authentication and profile"). Validation messages are
// what the client shows next to a field, so they are written for people.
import { z } from 'zod';
import { MAX_PASSWORD_LENGTH, withoutNul } from './common.ts';

// The username rule, shared with the admin CLI: 3 to 64 characters of letters, digits, ".", "_"
// and "-". ASCII only, so lower() in SQLite and PostgreSQL agree.
export const USERNAME_MIN_LENGTH = 3;
export const USERNAME_MAX_LENGTH = 64;
export const USERNAME_PATTERN = /^[A-Za-z0-9._-]+$/;
export const USERNAME_CHARACTERS_MESSAGE = 'Username may only contain letters, digits, ".", "_" and "-"';

// Login accepts any name up to this length and answers "Incorrect username or password" for
// names that cannot exist, rather than revealing the naming rule.
const LOGIN_NAME_MAX_LENGTH = 128;

/** The password step's answer when the account has two-factor authentication. */
export const OTP_REQUIRED_MESSAGE = 'OTP code required';

const requiredText = (field: string, max: number) =>
  z
    .string({ error: `${field} must be text` })
    .min(1, `${field} is required`)
    .max(max, `${field} must be at most ${max} characters`);

const password = (field: string) => requiredText(field, MAX_PASSWORD_LENGTH);

export const usernameSchema = z
  .string({ error: 'Username must be text' })
  .min(USERNAME_MIN_LENGTH, `Username must be at least ${USERNAME_MIN_LENGTH} characters`)
  .max(USERNAME_MAX_LENGTH, `Username must be at most ${USERNAME_MAX_LENGTH} characters`)
  .regex(USERNAME_PATTERN, USERNAME_CHARACTERS_MESSAGE);

const totpCode = z.string({ error: 'Code must be text' }).regex(/^\d{6}$/, 'Code must be exactly 6 digits');

// A blank e-mail means "no e-mail", like null.
const emailOrNull = z.union([
  z.null(),
  z.literal('').transform(() => null),
  z.email({ error: 'Enter a valid e-mail address' }).max(320, 'E-mail must be at most 320 characters'),
]);

// The typed name is looked up and keys the login failure counter: a NUL, which PostgreSQL text
// cannot hold, is refused here (422) instead of failing those queries.
const loginName = withoutNul(requiredText('Username', LOGIN_NAME_MAX_LENGTH), 'Username');

/**
 * The authentication secret the client derives from the login password (docs/format.md, "Login
 * key derivation"): 32 bytes as canonical padded base64, 44 characters. SECRET: never log it.
 */
export const AUTH_SECRET_PATTERN = /^[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=$/;
export const authSecret = (field: string) =>
  z.string({ error: `${field} must be text` }).regex(AUTH_SECRET_PATTERN, `${field} must be 32 bytes of base64 (the derived authentication secret, not the password)`);

/**
 * An account's KDF parameter block (docs/format.md, "KDF parameter block"): scheme 3, 27 to 538
 * bytes (the bound name's length varies), or scheme 2, 26 bytes, as padded base64. The server also
 * checks the scheme, the bound name and the bounds of its cost.
 */
export const KDF_PARAMS_PATTERN = /^(?:[A-Za-z0-9+/]{4})+(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const KDF_PARAMS_MAX_LENGTH = 720;
export const kdfParamsText = (field: string) =>
  z
    .string({ error: `${field} must be text` })
    .max(KDF_PARAMS_MAX_LENGTH, `${field} must be a KDF parameter block in base64`)
    .regex(KDF_PARAMS_PATTERN, `${field} must be a KDF parameter block in base64`);

/** POST /auth/prelogin: the account whose KDF parameters the client derives its secrets with. */
export const preloginBody = z.object({ username: loginName });
export type PreloginBody = z.input<typeof preloginBody>;

/**
 * The pre-login answer: the account's scheme-2 parameter block, or for a name with no account
 * (or an account not yet upgraded) a block of the same shape derived from a server secret, the
 * same on every call. Not secret.
 */
export const preloginResponse = z.object({ kdf_params: z.string() });
export type PreloginResponse = z.infer<typeof preloginResponse>;

/**
 * POST /auth/token, sent as form fields (not JSON): the authentication secret, or, once for an
 * account not yet upgraded (the server answers SIGN_IN_UPGRADE_REQUIRED to its secret), the
 * password itself. Exactly one of the two.
 */
export const loginBody = z
  .object({
    username: loginName,
    auth_secret: authSecret('Authentication secret').optional(),
    password: password('Password').optional(),
  })
  .refine((body) => (body.auth_secret === undefined) !== (body.password === undefined), {
    message: 'Send either auth_secret or password',
  });
export type LoginBody = z.input<typeof loginBody>;

/** POST /auth/token/2fa. */
export const loginCodeBody = z.object({
  username: loginName,
  code: totpCode,
});
export type LoginCodeBody = z.input<typeof loginCodeBody>;

/**
 * The private key re-wrapped under the account's new parameter block (kdfSalt must equal it), for
 * the key pair whose public key is named: the server stores it only if that is still the pair it has.
 */
export const rewrappedPrivateKey = z.object({
  public_key_spki: z.string({ error: 'Public key must be text' }).min(1).max(4096),
  encryptedPrivateKey: z.string({ error: 'Encrypted private key must be text' }).min(1).max(8192),
  kdfSalt: kdfParamsText('Key derivation salt'),
});

/**
 * PUT /auth/users/me: `email: null` (or "") removes the address; absent fields keep theirs. A new
 * username (other than in letter case) comes with the login re-keyed to a block bound to it: the
 * secret under it and the private key re-wrapped under it (rewrappedPrivateKey, above), stored
 * with the name in one transaction.
 */
export const profileUpdateBody = z.object({
  current_auth_secret: authSecret('Current authentication secret'),
  username: usernameSchema.optional(),
  email: emailOrNull.optional(),
  new_auth_secret: authSecret('New authentication secret').optional(),
  new_kdf_params: kdfParamsText('New KDF parameters').optional(),
  private_key: rewrappedPrivateKey.optional(),
});
export type ProfileUpdateBody = z.input<typeof profileUpdateBody>;

/**
 * PUT /auth/users/me/language: the language the app shows, for the account's e-mails. A tag of
 * one of the server's languages (locales/languages.ts); another is refused with 422.
 */
export const languageUpdateBody = z.object({ language: z.string().regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'A language tag such as en or de') });
export type LanguageUpdateBody = z.input<typeof languageUpdateBody>;

/** POST /auth/2fa/enable. */
export const codeBody = z.object({ code: totpCode });
export type CodeBody = z.input<typeof codeBody>;

/** POST /auth/2fa/disable, /auth/verify-password: the re-entered password, as its authentication secret. */
export const authSecretBody = z.object({ auth_secret: authSecret('Authentication secret') });
export type AuthSecretBody = z.input<typeof authSecretBody>;

/**
 * POST /auth/change-password: the old password's authentication secret, and the new password's
 * under a fresh parameter block. The server never sees either password, so the rules on the new
 * one (length, different from the old) are the client's (MIN_PASSWORD_LENGTH, the admin CLI and
 * the app apply them).
 */
export const changePasswordBody = z
  .object({
    old_auth_secret: authSecret('Old authentication secret'),
    new_auth_secret: authSecret('New authentication secret'),
    new_kdf_params: kdfParamsText('New KDF parameters'),
  })
  .refine((body) => body.new_auth_secret !== body.old_auth_secret, {
    path: ['new_auth_secret'],
    message: 'New password cannot be the same as the old password.',
  });
export type ChangePasswordBody = z.input<typeof changePasswordBody>;


/**
 * The body of a login move: `fields` (among them the new parameter block, named `block`), and the
 * private key re-wrapped under that block when the account has one.
 */
function loginMoveBody<const Fields extends z.ZodRawShape, const Block extends keyof Fields & string>(fields: Fields, block: Block) {
  return z
    .object({ ...fields, private_key: rewrappedPrivateKey.optional() })
    .refine((body) => {
      // The compiler cannot follow a generic shape's output; these two fields are in every one.
      const move = body as { private_key?: { kdfSalt: string } } & Record<Block, unknown>;
      return move.private_key === undefined || move.private_key.kdfSalt === move[block];
    }, {
      path: ['private_key', 'kdfSalt'],
      message: 'The private key must be wrapped under the new KDF parameters',
    });
}

/**
 * POST /auth/upgrade-login: an account of the old scheme (its password reached the server) moves
 * to the new one in one call: `password` (the last time it is sent), the new authentication
 * secret under the new block, and the private key re-wrapped under it when there is one.
 */
export const upgradeLoginBody = loginMoveBody(
  { password: password('Password'), auth_secret: authSecret('Authentication secret'), kdf_params: kdfParamsText('KDF parameters') },
  'kdf_params',
);
export type UpgradeLoginBody = z.input<typeof upgradeLoginBody>;

/**
 * POST /auth/bind-login: a signed-in account whose block is not yet bound to its name (scheme 2)
 * moves to one that is, in one call: the current secret, the new secret under the new block, and
 * the private key re-wrapped under it when there is one.
 */
export const bindLoginBody = loginMoveBody(
  {
    auth_secret: authSecret('Authentication secret'),
    new_auth_secret: authSecret('New authentication secret'),
    new_kdf_params: kdfParamsText('New KDF parameters'),
  },
  'new_kdf_params',
);
export type BindLoginBody = z.input<typeof bindLoginBody>;

/** The User value. Only these fields ever leave the server. */
export const userResponse = z.object({
  id: z.number(),
  username: z.string(),
  email: z.string().nullable(),
  is_2fa_enabled: z.boolean(),
  public_key_spki: z.string().nullable(),
  /** The account's organisation role (contract/organisation.ts): `admin` sees the members page. */
  org_role: z.enum(['admin', 'member']),
  /** The language the account chose in the app (PUT /auth/users/me/language); null: never chosen. */
  language: z.string().nullable(),
  /**
   * False for an account made by single sign-on: it has no password, and its private key is
   * unlocked by a trusted device, another device's approval or the recovery key (contract/sso.ts).
   */
  has_password: z.boolean(),
});
export type User = z.infer<typeof userResponse>;

export const signedInResponse = z.object({ user: userResponse });
export type SignedInResponse = z.infer<typeof signedInResponse>;

/** The password step's answer: signed in, or (2FA accounts) asked for the code with no session yet. */
export const loginResponse = z.union([
  signedInResponse,
  z.object({ message: z.literal(OTP_REQUIRED_MESSAGE), username: z.string() }),
]);
export type LoginResponse = z.infer<typeof loginResponse>;

/** POST /auth/2fa/setup: pending until enabled. */
export const totpSetupResponse = z.object({ secret: z.string(), otp_uri: z.string() });
export type TotpSetupResponse = z.infer<typeof totpSetupResponse>;
