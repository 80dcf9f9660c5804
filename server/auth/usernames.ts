// The username rule shared by the API and the admin CLI (docs/api.md): 3 to 64 characters of
// letters, digits, ".", "_" and "-". ASCII only, so lower() in SQLite and PostgreSQL agree.
export const USERNAME_MIN_LENGTH = 3;
export const USERNAME_MAX_LENGTH = 64;
export const USERNAME_PATTERN = /^[A-Za-z0-9._-]+$/;
export const USERNAME_CHARACTERS_MESSAGE = 'Username may only contain letters, digits, ".", "_" and "-"';

/** Why `username` is not acceptable, or null when it is. */
export function usernameProblem(username: string): string | null {
  if (username.length < USERNAME_MIN_LENGTH) return `Username must be at least ${USERNAME_MIN_LENGTH} characters`;
  if (username.length > USERNAME_MAX_LENGTH) return `Username must be at most ${USERNAME_MAX_LENGTH} characters`;
  if (!USERNAME_PATTERN.test(username)) return USERNAME_CHARACTERS_MESSAGE;
  return null;
}
