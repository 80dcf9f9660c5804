// The username rule of the API contract (contract/auth.ts), as the admin CLI checks it.
import {
  USERNAME_CHARACTERS_MESSAGE,
  USERNAME_MAX_LENGTH,
  USERNAME_MIN_LENGTH,
  USERNAME_PATTERN,
} from '../../contract/auth.ts';

/** Why `username` is not acceptable, or null when it is. */
export function usernameProblem(username: string): string | null {
  if (username.length < USERNAME_MIN_LENGTH) return `Username must be at least ${USERNAME_MIN_LENGTH} characters`;
  if (username.length > USERNAME_MAX_LENGTH) return `Username must be at most ${USERNAME_MAX_LENGTH} characters`;
  if (!USERNAME_PATTERN.test(username)) return USERNAME_CHARACTERS_MESSAGE;
  return null;
}
