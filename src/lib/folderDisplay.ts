// Display rules of the dashboard (spec section 2): a missing date shows '-', no expiry 'Never', an
// untitled folder '(No Title)'; dates in the page's language with seconds.
import { defineMessages } from '../i18n/defineMessages.ts';
import { currentIntl, t } from '../i18n/language.ts';

const messages = defineMessages({
  noTitle: { id: 'common.display.noTitle', defaultMessage: '(No Title)' },
  never: { id: 'common.display.never', defaultMessage: 'Never' },
});

export const MISSING_DATE = '-';

/** '(No Title)' in the current language. */
export const noTitleText = () => t(messages.noTitle);
/** 'Never' in the current language (no expiry, never downloaded). */
export const neverText = () => t(messages.never);

export function displayTitle(title: string | null | undefined): string {
  return title && title.trim() !== '' ? title : noTitleText();
}

const DATE_TIME: Intl.DateTimeFormatOptions = {
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  second: '2-digit',
};

/**
 * A date-time in the page's language (or `locale`), with seconds; '-' when missing or unreadable.
 * English reads 11/25/2026, 2:03:06 AM, German 25.11.2026, 02:03:06.
 */
export function formatDateTime(iso: string | null | undefined, locale?: string): string {
  if (!iso) return MISSING_DATE;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? MISSING_DATE : date.toLocaleString(locale ?? currentIntl().locale, DATE_TIME);
}

/** A day without the time, in the page's language. */
export function formatDay(iso: string | null | undefined): string {
  if (!iso) return MISSING_DATE;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? MISSING_DATE : date.toLocaleDateString(currentIntl().locale);
}

/** The Expires column: 'Never' when the folder has no expiry. */
export function formatExpiry(iso: string | null | undefined, locale?: string): string {
  return iso ? formatDateTime(iso, locale) : neverText();
}
/** The upload link the admin shares: {origin}/upload/{link_token}. */
export function uploadLink(origin: string, linkToken: string): string {
  return `${origin}/upload/${linkToken}`;
}
