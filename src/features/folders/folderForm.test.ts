import { describe, expect, it } from 'vitest';
import type { Folder } from '../../api/types.ts';
import {
  emptyFolderForm,
  folderFormFromFolder,
  parseEmailList,
  parseLocalDateTime,
  toLocalDateTimeInput,
  validateFolderForm,
  withExpirationMode,
  withPassword,
  type FolderFormValues,
} from './folderForm.ts';
import { FORM_MESSAGES } from '../../lib/userTexts.ts';

const folder: Folder = {
  id: 3,
  title: 'Audit',
  description: null,
  creation_date: '2030-01-01T00:00:00.000Z',
  expiration_date: null,
  last_upload_time: null,
  is_active: false,
  has_password: true,
  require_email_verification: true,
  allowed_emails: ['a@example.com', 'b@example.com'],
  perform_mime_check: false,
  link_token: 'tok',
  has_undownloaded_files: false,
  storage_limit_bytes: null,
  file_limit: null,
  retention_days: null,
  used_bytes: 0,
  used_files: 0,
  my_role: 'owner',
  is_team: false,
};

const valid = (changes: Partial<FolderFormValues> = {}): FolderFormValues => ({ ...emptyFolderForm(), title: 'T', ...changes });

describe('expiration form mode (spec section 4)', () => {
  it('new folders default to days = 30', () => {
    expect(emptyFolderForm()).toMatchObject({ expirationMode: 'days', expiresInDays: '30', expirationDate: '' });
  });
  it('editing a folder with an expiration date starts in date mode with that date (local time)', () => {
    const iso = '2030-03-04T05:06:07.000Z';
    const values = folderFormFromFolder({ ...folder, expiration_date: iso });
    expect(values.expirationMode).toBe('date');
    expect(values.expirationDate).toBe(toLocalDateTimeInput(iso));
    expect(new Date(values.expirationDate).toISOString()).toBe(iso);
    expect(values.storedExpiration).toEqual({ input: values.expirationDate, iso });
  });
  it('editing a folder without one starts in none mode', () => {
    expect(folderFormFromFolder(folder)).toMatchObject({ expirationMode: 'none', expirationDate: '', expiresInDays: '' });
  });
  it("switching mode clears the other mode's value", () => {
    const dated = withExpirationMode(valid(), 'date');
    expect(dated).toMatchObject({ expirationMode: 'date', expiresInDays: '', expirationDate: '' });
    const withDate = { ...dated, expirationDate: '2030-01-01T10:00' };
    expect(withExpirationMode(withDate, 'days')).toMatchObject({ expirationMode: 'days', expirationDate: '', expiresInDays: '30' });
    expect(withExpirationMode(withDate, 'none')).toMatchObject({ expirationMode: 'none', expirationDate: '', expiresInDays: '' });
  });
});

describe('edit form pre-fill', () => {
  it('copies the folder; the password option starts unticked (keeps the password)', () => {
    expect(folderFormFromFolder(folder)).toMatchObject({
      title: 'Audit',
      description: '',
      usePassword: false,
      requireEmailVerification: true,
      allowedEmails: 'a@example.com, b@example.com',
      performMimeCheck: false,
      isActive: false,
    });
  });
});

describe('validateFolderForm (spec section 5)', () => {
  it('accepts a complete form', () => {
    expect(validateFolderForm(valid())).toEqual({});
  });
  it('title required', () => {
    expect(validateFolderForm(valid({ title: '  ' }))).toEqual({ title: FORM_MESSAGES.titleRequired });
  });
  it("confirm password must equal the password when protection is on: 'Passwords do not match.'", () => {
    expect(validateFolderForm(valid({ usePassword: true, password: 'abc', confirmPassword: 'abd' }))).toEqual({
      confirmPassword: 'Passwords do not match.',
    });
    expect(validateFolderForm(valid({ usePassword: false, password: 'abc', confirmPassword: '' }))).toEqual({});
    // Ticked with both fields blank means "remove the password": valid.
    expect(validateFolderForm(valid({ usePassword: true }))).toEqual({});
  });
  it("a set date must parse: 'Invalid date format entered.' or 'Invalid date/time value.'", () => {
    expect(validateFolderForm(valid({ expirationMode: 'date', expirationDate: '' }))).toEqual({ expirationDate: 'Invalid date format entered.' });
    expect(validateFolderForm(valid({ expirationMode: 'date', expirationDate: 'tomorrow' }))).toEqual({
      expirationDate: 'Invalid date format entered.',
    });
    expect(validateFolderForm(valid({ expirationMode: 'date', expirationDate: '2030-02-30T10:00' }))).toEqual({
      expirationDate: 'Invalid date/time value.',
    });
    expect(validateFolderForm(valid({ expirationMode: 'date', expirationDate: '2030-02-28T10:00:05' }))).toEqual({});
  });
  it('days: a whole number of at least 1', () => {
    for (const days of ['0', '-1', '', '1.5', 'abc']) {
      expect(validateFolderForm(valid({ expirationMode: 'days', expiresInDays: days })), days).toEqual({ expiresInDays: FORM_MESSAGES.invalidDays });
    }
    expect(validateFolderForm(valid({ expirationMode: 'days', expiresInDays: '1' }))).toEqual({});
  });
  it('allowed e-mails are checked only when e-mail verification is on', () => {
    expect(validateFolderForm(valid({ requireEmailVerification: true, allowedEmails: 'a@example.com, nope' }))).toEqual({
      allowedEmails: 'Invalid e-mail address: nope',
    });
    expect(validateFolderForm(valid({ requireEmailVerification: false, allowedEmails: 'nope' }))).toEqual({});
    expect(validateFolderForm(valid({ requireEmailVerification: true, allowedEmails: ' , ' }))).toEqual({});
  });
});

describe('helpers', () => {
  it('allowed e-mails: comma-separated, trimmed, empties dropped', () => {
    expect(parseEmailList(' a@x.org ,, b@x.org , ')).toEqual(['a@x.org', 'b@x.org']);
    expect(parseEmailList('')).toEqual([]);
  });
  it('a datetime-local value is read in local time', () => {
    const parsed = parseLocalDateTime('2030-07-08T09:10');
    expect(parsed).toEqual({ ok: true, iso: new Date(2030, 6, 8, 9, 10).toISOString() });
  });
  it('the confirmation field is cleared when the password is cleared', () => {
    const typed = { ...withPassword(valid(), 'abc'), confirmPassword: 'abc' };
    expect(withPassword(typed, 'abcd').confirmPassword).toBe('abc');
    expect(withPassword(typed, '').confirmPassword).toBe('');
  });
});
