// The folder form's state (spec section 2 "Folder form fields", section 4 "Expiration form mode")
// and its validation (section 5 "Folder form"). Pure, so every rule is tested without a browser.
import type { Folder } from '../../api/types.ts';
import { limitsFormFrom, type LimitsFormValues } from '../storage/index.ts';
import { FORM_MESSAGES, invalidEmailMessage } from '../../lib/userTexts.ts';

export type ExpirationMode = 'none' | 'date' | 'days';

export interface FolderFormValues {
  title: string;
  description: string;
  /** The password option. Editing a folder that has a password: unticked keeps it. */
  usePassword: boolean;
  password: string;
  confirmPassword: string;
  requireEmailVerification: boolean;
  /** Comma-separated, as typed. */
  allowedEmails: string;
  performMimeCheck: boolean;
  expirationMode: ExpirationMode;
  /** A datetime-local value (local time, "YYYY-MM-DDTHH:mm[:ss]"). */
  expirationDate: string;
  /** As typed in the number field. */
  expiresInDays: string;
  isActive: boolean;
  /**
   * The stored expiry of the folder being edited, with its form value: the date field has whole
   * seconds, so an untouched date is sent back as the exact stored instant.
   */
  storedExpiration: { input: string; iso: string } | null;
  /** Storage limits and retention; null: not known (a new folder takes the server's). */
  limits: LimitsFormValues | null;
}

export type FolderFormField = 'title' | 'confirmPassword' | 'allowedEmails' | 'expirationDate' | 'expiresInDays';
export type FolderFormErrors = Partial<Record<FolderFormField, string>>;

export const DEFAULT_EXPIRES_IN_DAYS = 30;

const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?$/;
// Deliberately loose: the server has the final word; this catches typos before sending.
const EMAIL = /^[^\s@,;]+@[^\s@,;]+\.[^\s@,;]+$/;

const pad = (value: number) => String(value).padStart(2, '0');

/** An instant as a datetime-local value in the browser's time zone, with seconds. */
export function toLocalDateTimeInput(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`
  );
}

/**
 * A datetime-local value as an instant: 'format' when it is not shaped like one, 'value' when it is
 * shaped right but names no real moment (e.g. February 30th).
 */
export function parseLocalDateTime(value: string): { ok: true; iso: string } | { ok: false; problem: 'format' | 'value' } {
  const match = LOCAL_DATE_TIME.exec(value.trim());
  if (!match) return { ok: false, problem: 'format' };
  const [year, month, day, hour, minute, second = 0] = match.slice(1).map((part) => (part === undefined ? undefined : Number(part)));
  const date = new Date(year!, month! - 1, day!, hour!, minute!, second);
  const sameFields =
    date.getFullYear() === year && date.getMonth() === month! - 1 && date.getDate() === day && date.getHours() === hour && date.getMinutes() === minute;
  if (Number.isNaN(date.getTime()) || !sameFields) return { ok: false, problem: 'value' };
  return { ok: true, iso: date.toISOString() };
}

/** The allowed e-mails as a list: split on commas, trimmed, empties dropped. */
export function parseEmailList(text: string): string[] {
  return text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/** Days as a positive whole number, or null when the text is not one. */
export function parseDays(text: string): number | null {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return null;
  const days = Number(trimmed);
  return days >= 1 ? days : null;
}

export function emptyFolderForm(): FolderFormValues {
  return {
    title: '',
    description: '',
    usePassword: false,
    password: '',
    confirmPassword: '',
    requireEmailVerification: false,
    allowedEmails: '',
    performMimeCheck: true,
    expirationMode: 'days',
    expirationDate: '',
    expiresInDays: String(DEFAULT_EXPIRES_IN_DAYS),
    isActive: true,
    storedExpiration: null,
    limits: null,
  };
}

/** The edit form for `folder`: date mode when it has an expiration date, otherwise none. */
export function folderFormFromFolder(folder: Folder): FolderFormValues {
  const expirationDate = folder.expiration_date ? toLocalDateTimeInput(folder.expiration_date) : '';
  return {
    ...emptyFolderForm(),
    title: folder.title,
    description: folder.description ?? '',
    requireEmailVerification: folder.require_email_verification,
    allowedEmails: (folder.allowed_emails ?? []).join(', '),
    performMimeCheck: folder.perform_mime_check,
    expirationMode: expirationDate ? 'date' : 'none',
    expirationDate,
    expiresInDays: '',
    isActive: folder.is_active,
    storedExpiration: folder.expiration_date && expirationDate ? { input: expirationDate, iso: folder.expiration_date } : null,
    limits: limitsFormFrom({ storage_limit_bytes: folder.storage_limit_bytes, file_limit: folder.file_limit, retention_days: folder.retention_days }),
  };
}

/** Switching the expiration mode clears the other mode's value; days starts at the default. */
export function withExpirationMode(values: FolderFormValues, mode: ExpirationMode): FolderFormValues {
  if (mode === values.expirationMode) return values;
  return {
    ...values,
    expirationMode: mode,
    expirationDate: '',
    expiresInDays: mode === 'days' ? String(DEFAULT_EXPIRES_IN_DAYS) : '',
  };
}

/** The confirmation field is usable only once a password is typed; clearing the password clears it. */
export function withPassword(values: FolderFormValues, password: string): FolderFormValues {
  return { ...values, password, confirmPassword: password === '' ? '' : values.confirmPassword };
}

export function validateFolderForm(values: FolderFormValues): FolderFormErrors {
  const errors: FolderFormErrors = {};
  if (values.title.trim() === '') errors.title = FORM_MESSAGES.titleRequired;
  if (values.usePassword && values.password !== values.confirmPassword) errors.confirmPassword = FORM_MESSAGES.passwordMismatch;
  if (values.requireEmailVerification) {
    const bad = parseEmailList(values.allowedEmails).find((email) => !EMAIL.test(email));
    if (bad !== undefined) errors.allowedEmails = invalidEmailMessage(bad);
  }
  if (values.expirationMode === 'date') {
    const parsed = parseLocalDateTime(values.expirationDate);
    if (!parsed.ok) errors.expirationDate = parsed.problem === 'format' ? FORM_MESSAGES.invalidDateFormat : FORM_MESSAGES.invalidDateValue;
  }
  if (values.expirationMode === 'days' && parseDays(values.expiresInDays) === null) errors.expiresInDays = FORM_MESSAGES.invalidDays;
  return errors;
}
