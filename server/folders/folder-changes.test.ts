import { describe, expect, it } from 'vitest';
import type { Folder } from '../db/repositories/index.ts';
import { changedSettings } from './folder-changes.ts';

const stored: Folder = {
  id: 7,
  ownerId: 1,
  title: 'Client scans',
  description: null,
  linkToken: 't'.repeat(43),
  linkPasswordHash: null,
  requireEmailVerification: false,
  allowedEmails: ['a@example.com', 'b@example.com'],
  performMimeCheck: true,
  isActive: true,
  expirationDate: null,
  creationDate: 1,
  storageLimitBytes: 50_000_000,
  fileLimit: 2,
  retentionDays: null,
  usedBytes: 0,
  usedFiles: 0,
  lastUploadTime: null,
  hasUndownloadedFiles: false,
  currentKeyEpoch: null,
};

describe('changedSettings: what an update of the edit form really changed', () => {
  it('names nothing when the form is saved as it was (every field sent again)', () => {
    const same = {
      title: 'Client scans',
      description: null,
      requireEmailVerification: false,
      allowedEmails: ['b@example.com', 'a@example.com'],
      performMimeCheck: true,
      isActive: true,
      expirationDate: null,
      storageLimitBytes: 50_000_000,
      fileLimit: 2,
      retentionDays: null,
    };
    expect(changedSettings(stored, same)).toEqual([]);
  });

  it('names the fields whose values differ, in order', () => {
    expect(changedSettings(stored, { title: 'Client scans (2030)', fileLimit: 3, isActive: true, allowedEmails: ['a@example.com'] })).toEqual([
      'allowedEmails',
      'fileLimit',
      'title',
    ]);
  });

  it('names a link password set (always) or removed (only when there was one), never its hash', () => {
    expect(changedSettings(stored, { title: 'Client scans', linkPasswordHash: '$argon2id$v=19$...' })).toEqual(['linkPassword']);
    expect(changedSettings(stored, { title: 'Client scans', linkPasswordHash: null })).toEqual([]);
    expect(changedSettings({ ...stored, linkPasswordHash: '$argon2id$v=19$...' }, { title: 'Client scans', linkPasswordHash: null })).toEqual(['linkPassword']);
  });
});
