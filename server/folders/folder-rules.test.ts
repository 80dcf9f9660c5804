// The folder payload rules of spec section 5, one case per rule.
import { describe, expect, it } from 'vitest';
import { folderChanges, newFolder } from './folder-changes.ts';
import { DAY_MS, linkPasswordChange, normalizeAllowedEmails, resolveExpiration } from './folder-rules.ts';

const NOW = Date.UTC(2030, 0, 15, 12, 0, 0);
const fakeHash = async (password: string) => `hashed:${password.length}`;

describe('resolveExpiration', () => {
  it('expires_in_days > 0 sets now + days', () => {
    expect(resolveExpiration({ expiresInDays: 30 }, NOW)).toBe(NOW + 30 * DAY_MS);
  });
  it('expires_in_days > 0 wins over expiration_date', () => {
    expect(resolveExpiration({ expiresInDays: 1, expirationDate: 42 }, NOW)).toBe(NOW + DAY_MS);
  });
  it('otherwise expiration_date is used when present', () => {
    expect(resolveExpiration({ expiresInDays: null, expirationDate: 42 }, NOW)).toBe(42);
    expect(resolveExpiration({ expiresInDays: 0, expirationDate: 42 }, NOW)).toBe(42);
  });
  it('an explicit null expiration_date clears the expiry', () => {
    expect(resolveExpiration({ expirationDate: null }, NOW)).toBeNull();
  });
  it('absent or invalid days and no date mean "no change"', () => {
    expect(resolveExpiration({}, NOW)).toBeUndefined();
    expect(resolveExpiration({ expiresInDays: -3 }, NOW)).toBeUndefined();
    expect(resolveExpiration({ expiresInDays: Number.NaN }, NOW)).toBeUndefined();
  });
});

describe('normalizeAllowedEmails', () => {
  it('trims, drops blanks and case-insensitive duplicates', () => {
    expect(normalizeAllowedEmails([' a@x.org ', '', 'B@x.org', 'A@X.ORG'])).toEqual(['a@x.org', 'B@x.org']);
  });
  it('an empty list, or one of blanks, becomes null', () => {
    expect(normalizeAllowedEmails([])).toBeNull();
    expect(normalizeAllowedEmails(['  '])).toBeNull();
  });
  it('null stays null; undefined means "no change"', () => {
    expect(normalizeAllowedEmails(null)).toBeNull();
    expect(normalizeAllowedEmails(undefined)).toBeUndefined();
  });
});

describe('linkPasswordChange', () => {
  it('absent keeps, empty removes, text sets', () => {
    expect(linkPasswordChange(undefined)).toEqual({ action: 'keep' });
    expect(linkPasswordChange('')).toEqual({ action: 'remove' });
    expect(linkPasswordChange(' s3cret ')).toEqual({ action: 'set', password: ' s3cret ' });
  });
});

describe('folderChanges (update)', () => {
  it('changes only what the payload names (title is always named)', async () => {
    expect(await folderChanges({ title: 'T' }, NOW, fakeHash)).toEqual({ title: 'T' });
  });
  it('maps every field, hashing a new link password', async () => {
    const changes = await folderChanges(
      {
        title: 'T',
        description: null,
        require_email_verification: true,
        allowed_emails: [],
        perform_mime_check: false,
        expires_in_days: 2,
        link_password: 'abc',
        is_active: false,
      },
      NOW,
      fakeHash,
    );
    expect(changes).toEqual({
      title: 'T',
      description: null,
      requireEmailVerification: true,
      allowedEmails: null,
      performMimeCheck: false,
      expirationDate: NOW + 2 * DAY_MS,
      linkPasswordHash: 'hashed:3',
      isActive: false,
    });
  });
  it('an empty link password removes the stored hash', async () => {
    expect(await folderChanges({ title: 'T', link_password: '' }, NOW, fakeHash)).toEqual({ title: 'T', linkPasswordHash: null });
  });
});

const SERVER_DEFAULTS = { storageLimitBytes: 10 * 1024 ** 3, fileLimit: 10_000, retentionDays: null };

describe('newFolder (create)', () => {
  it('fills the defaults: no password, no expiry, MIME check on, active, any e-mail, the server\'s limits', async () => {
    expect(await newFolder({ title: 'New' }, { ownerId: 7, linkToken: 'tok', now: NOW, defaults: SERVER_DEFAULTS }, fakeHash)).toEqual({
      ownerId: 7,
      title: 'New',
      description: null,
      linkToken: 'tok',
      linkPasswordHash: null,
      requireEmailVerification: false,
      allowedEmails: null,
      performMimeCheck: true,
      isActive: true,
      expirationDate: null,
      creationDate: NOW,
      storageLimitBytes: 10 * 1024 ** 3,
      fileLimit: 10_000,
      retentionDays: null,
    });
  });

  it('takes limits and retention from the payload, null meaning "no limit" rather than the default', async () => {
    const folder = await newFolder(
      { title: 'New', storage_limit_bytes: null, file_limit: 50, retention_days: 30 },
      { ownerId: 7, linkToken: 'tok', now: NOW, defaults: SERVER_DEFAULTS },
      fakeHash,
    );
    expect(folder).toMatchObject({ storageLimitBytes: null, fileLimit: 50, retentionDays: 30 });
  });
});

describe('folderChanges (limits)', () => {
  it('changes only the limits the payload names; null clears one', async () => {
    expect(await folderChanges({ title: 'T', file_limit: null }, NOW, fakeHash)).toEqual({ title: 'T', fileLimit: null });
    expect(await folderChanges({ title: 'T', storage_limit_bytes: 5, retention_days: 7 }, NOW, fakeHash)).toEqual({
      title: 'T',
      storageLimitBytes: 5,
      retentionDays: 7,
    });
  });
});
