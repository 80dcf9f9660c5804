// Display rules of the dashboard (spec section 2): a missing date shows '-', no expiry 'Never', an
// untitled folder '(No Title)'; dates in the browser's locale with seconds.

export const NO_TITLE = '(No Title)';
export const MISSING_DATE = '-';
export const NEVER = 'Never';

export function displayTitle(title: string | null | undefined): string {
  return title && title.trim() !== '' ? title : NO_TITLE;
}

const DATE_TIME: Intl.DateTimeFormatOptions = {
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  second: '2-digit',
};

/** A date-time in the browser's locale (or `locale`), with seconds; '-' when missing or unreadable. */
export function formatDateTime(iso: string | null | undefined, locale?: string): string {
  if (!iso) return MISSING_DATE;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? MISSING_DATE : date.toLocaleString(locale, DATE_TIME);
}

/** The Expires column: 'Never' when the folder has no expiry. */
export function formatExpiry(iso: string | null | undefined, locale?: string): string {
  return iso ? formatDateTime(iso, locale) : NEVER;
}

/** The upload link the admin shares: {origin}/upload/{link_token}. */
export function uploadLink(origin: string, linkToken: string): string {
  return `${origin}/upload/${linkToken}`;
}
