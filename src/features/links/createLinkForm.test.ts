import { describe, expect, it } from 'vitest';
import {
  MAX_LINK_DOWNLOADS,
  createLinkChoices,
  defaultExpiration,
  initialCreateLinkForm,
  parseDateTimeLocal,
  toDateTimeLocal,
  validateCreateLinkForm,
  type CreateLinkFormValues,
} from './createLinkForm.ts';
import { GENERATED_LINK_PASSWORD } from './linkPassword.ts';
import { CREATE_LINK_MESSAGES } from '../../lib/userTexts.ts';

const NOW = new Date(2030, 0, 20, 8, 30, 15);

function form(changes: Partial<CreateLinkFormValues> = {}): CreateLinkFormValues {
  return { ...initialCreateLinkForm(NOW, 'SonneWolke30-418'), ...changes };
}

describe('create-link defaults', () => {
  it('has the password on and generated, confirmed, and expiry on at three days from now, local time', () => {
    const values = initialCreateLinkForm(NOW);
    expect(values.usePassword).toBe(true);
    expect(values.password).toMatch(GENERATED_LINK_PASSWORD);
    expect(values.confirmPassword).toBe(values.password);
    expect(values.useExpiration).toBe(true);
    expect(values.expiration).toBe('2030-01-23T08:30');
    expect(validateCreateLinkForm(values, NOW)).toEqual({});
  });

  it('counts calendar days across month ends', () => {
    expect(defaultExpiration(new Date(2030, 1, 27, 23, 5))).toBe('2030-03-02T23:05');
  });
});

describe('datetime-local text', () => {
  it('reads what it writes, in local time', () => {
    const date = new Date(2031, 11, 31, 23, 59);
    expect(parseDateTimeLocal(toDateTimeLocal(date))?.getTime()).toBe(date.getTime());
    expect(parseDateTimeLocal('2031-05-06T07:08:09')?.getSeconds()).toBe(9);
  });

  it('refuses empty, malformed and impossible values', () => {
    for (const text of ['', 'tomorrow', '2031-02-31T10:00', '2031-13-01T10:00', '2031-01-01T24:00', '2031-01-01 10:00']) {
      expect(parseDateTimeLocal(text), text).toBeNull();
    }
  });
});

describe('validateCreateLinkForm', () => {
  it('needs at least 8 characters and a matching confirmation while the password is on', () => {
    expect(validateCreateLinkForm(form({ password: 'short', confirmPassword: 'short' }), NOW)).toEqual({
      password: CREATE_LINK_MESSAGES.passwordTooShort,
    });
    expect(validateCreateLinkForm(form({ password: 'long enough', confirmPassword: 'long enougH' }), NOW)).toEqual({
      confirmPassword: CREATE_LINK_MESSAGES.passwordsDoNotMatch,
    });
    expect(validateCreateLinkForm(form({ usePassword: false, password: '', confirmPassword: 'x' }), NOW)).toEqual({});
  });

  it('needs a valid future expiration while expiry is on', () => {
    for (const expiration of ['', 'not a date', '2030-01-20T08:29', '2030-02-30T10:00']) {
      expect(validateCreateLinkForm(form({ expiration }), NOW), expiration).toEqual({
        expiration: CREATE_LINK_MESSAGES.invalidExpiration,
      });
    }
    expect(validateCreateLinkForm(form({ useExpiration: false, expiration: '' }), NOW)).toEqual({});
  });

  it('uses the spec\'s exact texts', () => {
    expect(CREATE_LINK_MESSAGES).toMatchObject({
      passwordTooShort: 'Password must be at least 8 characters long.',
      passwordsDoNotMatch: 'Passwords do not match.',
      invalidExpiration: 'Please select a valid expiration date.',
      noSelection: 'Please select at least one file to create a download link.',
      createFailed: 'Failed to create link.',
      deleteFailed: 'Failed to delete link.',
      deleteConfirmation: 'Are you sure you want to permanently delete this download link?',
      sharePasswordSeparately: 'Remember to share the password separately!',
    });
  });
});

describe('createLinkChoices', () => {
  it('turns the local expiry into an ISO instant and drops what is switched off', () => {
    expect(createLinkChoices(form())).toEqual({
      password: 'SonneWolke30-418',
      expirationDate: new Date(2030, 0, 23, 8, 30).toISOString(),
      maxDownloads: null,
    });
    expect(createLinkChoices(form({ usePassword: false, useExpiration: false }))).toEqual({ password: null, expirationDate: null, maxDownloads: null });
  });

  it('sends the download limit only when it is switched on', () => {
    expect(createLinkChoices(form({ useDownloadLimit: true, maxDownloads: ' 5 ' })).maxDownloads).toBe(5);
    expect(createLinkChoices(form({ useDownloadLimit: false, maxDownloads: '5' })).maxDownloads).toBeNull();
  });
});

describe('download limit', () => {
  it('starts off, at 1 when switched on', () => {
    const values = initialCreateLinkForm(NOW);
    expect(values.useDownloadLimit).toBe(false);
    expect(values.maxDownloads).toBe('1');
  });

  it('accepts whole numbers from 1 to 10000 and refuses anything else', () => {
    for (const good of ['1', '2', '10000']) expect(validateCreateLinkForm(form({ useDownloadLimit: true, maxDownloads: good }), NOW)).toEqual({});
    for (const bad of ['0', '-1', '1.5', '10001', '', 'abc', '1e3']) {
      expect(validateCreateLinkForm(form({ useDownloadLimit: true, maxDownloads: bad }), NOW), bad).toEqual({
        maxDownloads: CREATE_LINK_MESSAGES.invalidDownloadLimit,
      });
    }
    // Switched off, whatever is typed does not matter.
    expect(validateCreateLinkForm(form({ useDownloadLimit: false, maxDownloads: 'abc' }), NOW)).toEqual({});
  });
});

describe('the download-limit message', () => {
  it('names the same upper bound the field enforces', () => {
    expect(CREATE_LINK_MESSAGES.invalidDownloadLimit).toBe(`Please enter a whole number of downloads from 1 to ${MAX_LINK_DOWNLOADS}.`);
  });
});
