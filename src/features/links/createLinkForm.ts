// The create-link dialog's values, defaults and rules (spec section 5, Create-link dialog):
// password on and generated, expiration on and 3 days from now in local time (datetime-local).

import { generateLinkPassword } from './linkPassword.ts';
import { CREATE_LINK_MESSAGES } from '../../lib/userTexts.ts';

export const DEFAULT_LINK_EXPIRY_DAYS = 3;
/** What the download-limit field offers first when the admin turns the limit on. */
export const DEFAULT_LINK_DOWNLOADS = 1;
export const MAX_LINK_DOWNLOADS = 10_000;
export const MIN_LINK_PASSWORD_LENGTH = 8;

export interface CreateLinkFormValues {
  usePassword: boolean;
  password: string;
  confirmPassword: string;
  useExpiration: boolean;
  /** 'YYYY-MM-DDTHH:mm' in local time, as an <input type="datetime-local"> holds it. */
  expiration: string;
  useDownloadLimit: boolean;
  /** Downloads allowed per file, as typed. */
  maxDownloads: string;
}

export type CreateLinkFormErrors = Partial<Record<'password' | 'confirmPassword' | 'expiration' | 'maxDownloads', string>>;

const pad = (value: number) => String(value).padStart(2, '0');

/** A Date as datetime-local text in the browser's time zone. */
export function toDateTimeLocal(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** Parses datetime-local text as local time; null when it is not a real date-time. */
export function parseDateTimeLocal(text: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(text.trim());
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1).map((part) => (part === undefined ? 0 : Number(part))) as number[];
  const date = new Date(year!, month! - 1, day!, hour!, minute!, second!);
  // new Date rolls February 31 over into March; a real date reads back unchanged.
  if (date.getFullYear() !== year || date.getMonth() !== month! - 1 || date.getDate() !== day || date.getHours() !== hour || date.getMinutes() !== minute) {
    return null;
  }
  return date;
}

/** Three days from now in local time: calendar days, so a DST change keeps the wall-clock time. */
export function defaultExpiration(now: Date = new Date()): string {
  const later = new Date(now);
  later.setDate(later.getDate() + DEFAULT_LINK_EXPIRY_DAYS);
  return toDateTimeLocal(later);
}

export function initialCreateLinkForm(now: Date = new Date(), password: string = generateLinkPassword({ now })): CreateLinkFormValues {
  return {
    usePassword: true,
    password,
    confirmPassword: password,
    useExpiration: true,
    expiration: defaultExpiration(now),
    useDownloadLimit: false,
    maxDownloads: String(DEFAULT_LINK_DOWNLOADS),
  };
}

export function validateCreateLinkForm(values: CreateLinkFormValues, now: Date = new Date()): CreateLinkFormErrors {
  const errors: CreateLinkFormErrors = {};
  if (values.usePassword) {
    if (values.password.length < MIN_LINK_PASSWORD_LENGTH) errors.password = CREATE_LINK_MESSAGES.passwordTooShort;
    else if (values.password !== values.confirmPassword) errors.confirmPassword = CREATE_LINK_MESSAGES.passwordsDoNotMatch;
  }
  if (values.useExpiration) {
    const date = parseDateTimeLocal(values.expiration);
    // A past date would make a link that is dead on arrival; the server refuses it too.
    if (!date || date.getTime() <= now.getTime()) errors.expiration = CREATE_LINK_MESSAGES.invalidExpiration;
  }
  if (values.useDownloadLimit && parseDownloadLimit(values.maxDownloads) === null) {
    errors.maxDownloads = CREATE_LINK_MESSAGES.invalidDownloadLimit;
  }
  return errors;
}

export interface CreateLinkChoices {
  /** The link password, or null for keys in the URL fragment. SECRET: stays in this browser. */
  password: string | null;
  /** ISO 8601 (UTC) or null for no expiry. */
  expirationDate: string | null;
  /** Downloads allowed per file, or null for no limit. */
  maxDownloads: number | null;
}

/** A typed download limit as a number, or null when it is not a whole number from 1 to the maximum. */
export function parseDownloadLimit(text: string): number | null {
  if (!/^\d{1,5}$/.test(text.trim())) return null;
  const value = Number(text.trim());
  return value >= 1 && value <= MAX_LINK_DOWNLOADS ? value : null;
}

/** The validated choices; call only when validateCreateLinkForm returned no errors. */
export function createLinkChoices(values: CreateLinkFormValues): CreateLinkChoices {
  const date = values.useExpiration ? parseDateTimeLocal(values.expiration) : null;
  return {
    password: values.usePassword ? values.password : null,
    expirationDate: date ? date.toISOString() : null,
    maxDownloads: values.useDownloadLimit ? parseDownloadLimit(values.maxDownloads) : null,
  };
}
