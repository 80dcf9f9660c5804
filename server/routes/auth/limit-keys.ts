// Failure counters of signed-in users are keyed by user id (stable across username changes);
// login counters are keyed by the typed username, since there may be no user behind it.
import type { User } from '../../db/repositories/index.ts';

export function accountLimitKey(user: User): string {
  return `#${user.id}`;
}
