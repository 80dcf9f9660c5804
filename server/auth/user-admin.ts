// Account tasks of the admin CLI (create a user, reset a password, turn off 2FA for a locked-out
// admin). The same rules as the API apply; failures are typed errors with a fixed code. A password
// set here is derived exactly as the browser derives it (server/auth/login-secret.ts), so the
// account signs in on the current scheme from the start.
import { z } from 'zod';
import type { Repositories, User } from '../db/repositories/index.ts';
import { UsernameTakenError } from '../db/repositories/index.ts';
import type { NodeArgon2Params } from '../crypto/index.ts';
import { loginSecretForPassword } from './login-secret.ts';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from './passwords.ts';
import { usernameProblem } from './usernames.ts';
import { CodedError } from '../../contract/coded-error.ts';
import type { OrgRole } from '../../contract/organisation.ts';

export type UserAdminErrorCode =
  | 'INVALID_USERNAME'
  | 'USERNAME_TAKEN'
  | 'INVALID_EMAIL'
  | 'PASSWORD_TOO_SHORT'
  | 'PASSWORD_TOO_LONG'
  | 'UNKNOWN_USER';

export class UserAdminError extends CodedError<UserAdminErrorCode> {}

function checkPassword(password: string): void {
  if (password.length < MIN_PASSWORD_LENGTH) {
    throw new UserAdminError('PASSWORD_TOO_SHORT', `Password must be at least ${MIN_PASSWORD_LENGTH} characters long.`);
  }
  if (password.length > MAX_PASSWORD_LENGTH) {
    throw new UserAdminError('PASSWORD_TOO_LONG', `Password must be at most ${MAX_PASSWORD_LENGTH} characters long.`);
  }
}

async function existingUser(repos: Repositories, username: string): Promise<User> {
  const user = await repos.users.findByUsername(username);
  if (!user) throw new UserAdminError('UNKNOWN_USER', `No user named "${username}".`);
  return user;
}

/** Throws unless a user could be created with this name and e-mail (checked before asking for a password). */
export async function checkNewUser(repos: Repositories, username: string, email: string | null): Promise<void> {
  const problem = usernameProblem(username);
  if (problem) throw new UserAdminError('INVALID_USERNAME', `Invalid username "${username}": ${problem}.`);
  if (email !== null && !z.email().safeParse(email).success) {
    throw new UserAdminError('INVALID_EMAIL', `Invalid e-mail address "${email}".`);
  }
  if (await repos.users.findByUsername(username)) {
    throw new UserAdminError('USERNAME_TAKEN', `Username "${username}" is already taken.`);
  }
}

/** Throws unless a user with this name exists. */
export async function checkExistingUser(repos: Repositories, username: string): Promise<void> {
  await existingUser(repos, username);
}

/** The argon2id cost of a new account's parameter block: the default unless a test asks for less. */
export type KdfCost = Omit<NodeArgon2Params, 'salt' | 'boundName'>;

export async function createUser(
  repos: Repositories,
  input: { username: string; password: string; email?: string | null; now: number; kdfCost?: KdfCost; orgRole?: OrgRole },
): Promise<User> {
  const email = input.email ?? null;
  await checkNewUser(repos, input.username, email);
  checkPassword(input.password);
  try {
    // The first account runs the organisation (whatever was asked: someone must be able to invite);
    // later ones are members unless asked otherwise.
    const orgRole = (await repos.users.count()) === 0 ? 'admin' : (input.orgRole ?? 'member');
    return await repos.users.create({
      username: input.username,
      email,
      orgRole,
      ...(await loginSecretForPassword(input.password, input.username, input.kdfCost)),
      now: input.now,
    });
  } catch (error) {
    // Another process created the same name between the check and the insert.
    if (error instanceof UsernameTakenError) {
      throw new UserAdminError('USERNAME_TAKEN', `Username "${input.username}" is already taken.`);
    }
    throw error;
  }
}

/**
 * Sets a new password, ends every session of the user and removes every passkey with its wrapped
 * copy of the private key (docs/security.md, "Passkeys": a reset is for a lost or taken-over
 * account, and a passkey an intruder added must not outlive it). The private key stays wrapped
 * under the password it had: only its backup file (and that password) restores it.
 */
export async function resetPassword(
  repos: Repositories,
  username: string,
  password: string,
  kdfCost?: KdfCost,
): Promise<User & { passkeysRemoved: number }> {
  const user = await existingUser(repos, username);
  checkPassword(password);
  await repos.users.setLoginSecret(user.id, await loginSecretForPassword(password, user.username, kdfCost));
  await repos.sessions.deleteForUser(user.id);
  const passkeysRemoved = await repos.passkeys.removeAllForUser(user.id);
  return { ...user, passkeysRemoved };
}

/** Turns two-factor authentication off (for an admin who lost the authenticator). */
export async function disableTwoFactor(repos: Repositories, username: string): Promise<User> {
  const user = await existingUser(repos, username);
  await repos.users.setTotp(user.id, null, false);
  await repos.totpSteps.deleteForUser(user.id);
  await repos.pendingLogins.deleteForUser(user.id);
  return user;
}
