// Authentication and profile (docs/api.md, "Authentication and profile"). Validation messages are
// what the client shows next to a field, so they are written for people.
import { z } from 'zod';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, withoutNul } from './common.ts';

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

/** POST /auth/token, sent as form fields (not JSON). */
export const loginBody = z.object({
  username: loginName,
  password: password('Password'),
});
export type LoginBody = z.input<typeof loginBody>;

/** POST /auth/token/2fa. */
export const loginCodeBody = z.object({
  username: loginName,
  code: totpCode,
});
export type LoginCodeBody = z.input<typeof loginCodeBody>;

/** PUT /auth/users/me: `email: null` (or "") removes the address; absent fields keep theirs. */
export const profileUpdateBody = z.object({
  current_password: password('Current password'),
  username: usernameSchema.optional(),
  email: emailOrNull.optional(),
});
export type ProfileUpdateBody = z.input<typeof profileUpdateBody>;

/** POST /auth/2fa/enable. */
export const codeBody = z.object({ code: totpCode });
export type CodeBody = z.input<typeof codeBody>;

/** POST /auth/2fa/disable, /auth/verify-password. */
export const passwordBody = z.object({ password: password('Password') });
export type PasswordBody = z.input<typeof passwordBody>;

/** POST /auth/change-password. */
export const changePasswordBody = z
  .object({
    old_password: password('Old password'),
    new_password: z
      .string({ error: 'New password must be text' })
      .min(MIN_PASSWORD_LENGTH, `New password must be at least ${MIN_PASSWORD_LENGTH} characters long.`)
      .max(MAX_PASSWORD_LENGTH, `New password must be at most ${MAX_PASSWORD_LENGTH} characters long.`),
  })
  .refine((body) => body.new_password !== body.old_password, {
    path: ['new_password'],
    message: 'New password cannot be the same as the old password.',
  });
export type ChangePasswordBody = z.input<typeof changePasswordBody>;

/** The User value. Only these fields ever leave the server. */
export const userResponse = z.object({
  id: z.number(),
  username: z.string(),
  email: z.string().nullable(),
  is_2fa_enabled: z.boolean(),
  public_key_spki: z.string().nullable(),
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
