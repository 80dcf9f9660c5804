// The payload rules of the folder create/update calls (spec section 5, "Folder form"), as pure
// functions so each rule is tested on its own. Inputs are already validated by the route schema.

export const DAY_MS = 86_400_000;

export interface ExpiryRequest {
  /** Whole days from now; wins over expirationDate when greater than 0. */
  expiresInDays?: number | null | undefined;
  /** Epoch milliseconds, or null for "no expiry"; undefined when the payload did not name it. */
  expirationDate?: number | null | undefined;
}

/**
 * The expiration to store: `now + days` when expires_in_days > 0; otherwise expiration_date when
 * the payload names it (null clears the expiry); otherwise undefined, meaning "no change" (on
 * create: no expiry).
 */
export function resolveExpiration(request: ExpiryRequest, now: number): number | null | undefined {
  const days = request.expiresInDays;
  if (typeof days === 'number' && Number.isFinite(days) && days > 0) return now + days * DAY_MS;
  return request.expirationDate;
}

/**
 * Allowed upload e-mails: trimmed, blanks dropped, duplicates (in any letter case) dropped; an
 * empty list becomes null ("any verified address"). undefined stays undefined ("no change").
 */
export function normalizeAllowedEmails(list: readonly string[] | null | undefined): string[] | null | undefined {
  if (list === undefined) return undefined;
  if (list === null) return null;
  const seen = new Set<string>();
  const emails: string[] = [];
  for (const raw of list) {
    const email = raw.trim();
    const key = email.toLowerCase();
    if (email === '' || seen.has(key)) continue;
    seen.add(key);
    emails.push(email);
  }
  return emails.length > 0 ? emails : null;
}

export type LinkPasswordChange = { action: 'keep' } | { action: 'remove' } | { action: 'set'; password: string };

/** link_password: absent keeps the current password, an empty string removes it, text sets it. */
export function linkPasswordChange(value: string | undefined): LinkPasswordChange {
  if (value === undefined) return { action: 'keep' };
  if (value === '') return { action: 'remove' };
  return { action: 'set', password: value };
}
