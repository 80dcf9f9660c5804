// Account tasks of the admin CLI (create a user, reset a password, turn off 2FA for a locked-out
// admin). The same rules as the API apply; failures are typed errors with a fixed code.
import { z } from 'zod';
import type { Repositories, User } from '../db/repositories/index.ts';
import { UsernameTakenError } from '../db/repositories/index.ts';
import { hashPassword, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from './passwords.ts';
import { usernameProblem } from './usernames.ts';

export type UserAdminErrorCode =
  | 'INVALID_USERNAME'
  | 'USERNAME_TAKEN'
  | 'INVALID_EMAIL'
  | 'PASSWORD_TOO_SHORT'
  | 'PASSWORD_TOO_LONG'
  | 'UNKNOWN_USER';

export class UserAdminError extends Error {
  constructor(
    readonly code: UserAdminErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'UserAdminError';
  }
}

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

export async function createUser(
  repos: Repositories,
  input: { username: string; password: string; email?: string | null; now: number },
): Promise<User> {
  const email = input.email ?? null;
  await checkNewUser(repos, input.username, email);
  checkPassword(input.password);
  try {
    return await repos.users.create({
      username: input.username,
      email,
      passwordHash: await hashPassword(input.password),
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

/** Sets a new password and ends every session of the user. */
export async function resetPassword(repos: Repositories, username: string, password: string): Promise<User> {
  const user = await existingUser(repos, username);
  checkPassword(password);
  await repos.users.setPasswordHash(user.id, await hashPassword(password));
  await repos.sessions.deleteForUser(user.id);
  return user;
}

/** Turns two-factor authentication off (for an admin who lost the authenticator). */
export async function disableTwoFactor(repos: Repositories, username: string): Promise<User> {
  const user = await existingUser(repos, username);
  await repos.users.setTotp(user.id, null, false);
  await repos.totpSteps.deleteForUser(user.id);
  await repos.pendingLogins.deleteForUser(user.id);
  return user;
}
