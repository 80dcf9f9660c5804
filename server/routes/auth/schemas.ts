// Request and response schemas of the auth routes (docs/api.md). Messages are what the client
// shows next to a field, so they are written for people.
import { z } from 'zod';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../../auth/passwords.ts';
import {
  USERNAME_CHARACTERS_MESSAGE,
  USERNAME_MAX_LENGTH,
  USERNAME_MIN_LENGTH,
  USERNAME_PATTERN,
} from '../../auth/usernames.ts';
import { withoutNul } from '../stored-values.ts';

// Login accepts any name up to this length and answers "Incorrect username or password" for
// names that cannot exist, rather than revealing the naming rule.
const LOGIN_NAME_MAX_LENGTH = 128;

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

export const loginBody = z.object({
  username: loginName,
  password: password('Password'),
});

export const loginCodeBody = z.object({
  username: loginName,
  code: totpCode,
});

export const profileUpdateBody = z.object({
  current_password: password('Current password'),
  username: usernameSchema.optional(),
  email: emailOrNull.optional(),
});

export const codeBody = z.object({ code: totpCode });

export const passwordBody = z.object({ password: password('Password') });

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

export const userResponse = z.object({
  id: z.number(),
  username: z.string(),
  email: z.string().nullable(),
  is_2fa_enabled: z.boolean(),
  public_key_spki: z.string().nullable(),
});

export const loginResponse = z.union([
  z.object({ user: userResponse }),
  z.object({ message: z.literal('OTP code required'), username: z.string() }),
]);

export const signedInResponse = z.object({ user: userResponse });
export const detailResponse = z.object({ detail: z.string() });
export const totpSetupResponse = z.object({ secret: z.string(), otp_uri: z.string() });
export const verifiedResponse = z.object({ verified: z.literal(true) });
