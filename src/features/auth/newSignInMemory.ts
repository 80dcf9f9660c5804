// Which usernames have signed in on this device under the new sign-in (the derived secret). An
// account that has done so can never need its password sent again, so a later "send the password
// instead" answer (SIGN_IN_UPGRADE_REQUIRED) for it comes from a server or proxy trying to collect
// the password, and is refused before anything is sent. The marker is no secret (a lower-cased
// username, as the sign-in form shows it), so it may sit in localStorage; it is never cleared by
// signing out, only by clearing the site's data.
//
// The second list: usernames whose pre-login block this device has seen bound to the name (scheme
// 3, docs/format.md), whether or not the sign-in then succeeded. A name answered bound (accounts
// and the stand-ins for unknown names alike) never goes back to an unbound block, so a later
// unbound answer for it (a server handing several names one salt) is refused before derivation.
const STORAGE_KEY = 'sealdrop.newSignIn.usernames';
const BOUND_STORAGE_KEY = 'sealdrop.boundSalt.usernames';

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    // Storage blocked by the browser: the confirmation before an old-scheme sign-in still guards.
    return null;
  }
}

function rememberedNames(store: Storage, key = STORAGE_KEY): string[] {
  try {
    const parsed: unknown = JSON.parse(store.getItem(key) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((name): name is string => typeof name === 'string') : [];
  } catch {
    return [];
  }
}

/** Usernames are compared case-insensitively on the server, so here too. */
const normalised = (username: string) => username.trim().toLowerCase();

function remember(key: string, username: string): void {
  const store = storage();
  if (!store) return;
  const names = rememberedNames(store, key);
  const name = normalised(username);
  if (names.includes(name)) return;
  try {
    store.setItem(key, JSON.stringify([...names, name]));
  } catch {
    // A full or blocked storage loses the marker; the confirmation still asks before sending.
  }
}

function remembered(key: string, username: string): boolean {
  const store = storage();
  return store !== null && rememberedNames(store, key).includes(normalised(username));
}

export function rememberNewSignIn(username: string): void {
  remember(STORAGE_KEY, username);
}

export function hasSignedInWithNewScheme(username: string): boolean {
  return remembered(STORAGE_KEY, username);
}

/** After a block bound to `username` was derived with, or the move to one. */
export function rememberBoundBlock(username: string): void {
  remember(BOUND_STORAGE_KEY, username);
}

export function hasSeenBoundBlock(username: string): boolean {
  return remembered(BOUND_STORAGE_KEY, username);
}
