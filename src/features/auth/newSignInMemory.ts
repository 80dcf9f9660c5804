// Which usernames have signed in on this device under the new sign-in (the derived secret). An
// account that has done so can never need its password sent again, so a later "send the password
// instead" answer (SIGN_IN_UPGRADE_REQUIRED) for it comes from a server or proxy trying to collect
// the password, and is refused before anything is sent. The marker is no secret (a lower-cased
// username, as the sign-in form shows it), so it may sit in localStorage; it is never cleared by
// signing out, only by clearing the site's data.
const STORAGE_KEY = 'sealdrop.newSignIn.usernames';

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    // Storage blocked by the browser: the confirmation before an old-scheme sign-in still guards.
    return null;
  }
}

function rememberedNames(store: Storage): string[] {
  try {
    const parsed: unknown = JSON.parse(store.getItem(STORAGE_KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((name): name is string => typeof name === 'string') : [];
  } catch {
    return [];
  }
}

/** Usernames are compared case-insensitively on the server, so here too. */
const normalised = (username: string) => username.trim().toLowerCase();

export function rememberNewSignIn(username: string): void {
  const store = storage();
  if (!store) return;
  const names = rememberedNames(store);
  const name = normalised(username);
  if (names.includes(name)) return;
  try {
    store.setItem(STORAGE_KEY, JSON.stringify([...names, name]));
  } catch {
    // A full or blocked storage loses the marker; the confirmation still asks before sending.
  }
}

export function hasSignedInWithNewScheme(username: string): boolean {
  const store = storage();
  return store !== null && rememberedNames(store).includes(normalised(username));
}
