import { describe, expect, it } from 'vitest';
import {
  backupDescription,
  backupFileName,
  backupFileTypeError,
  buildBackupFile,
  isUsernameMismatch,
  parseBackupFile,
  sanitiseUsernameForFile,
  serialiseBackupFile,
} from './backupFile.ts';

const keyData = { encryptedPrivateKey: 'ZW5jcnlwdGVk', kdfSalt: 'c2FsdA==' };

describe('backup file name (spec section 3)', () => {
  it('keeps letters, digits, underscore and hyphen; everything else becomes an underscore', () => {
    expect(sanitiseUsernameForFile('alice_smith-2')).toBe('alice_smith-2');
    expect(sanitiseUsernameForFile('alice.smith')).toBe('alice_smith');
    expect(sanitiseUsernameForFile('a b/c\\d:e*f?"g<h>i|')).toBe('a_b_c_d_e_f__g_h_i_');
    expect(sanitiseUsernameForFile('jürgen')).toBe('j_rgen');
    expect(sanitiseUsernameForFile('../../etc')).toBe('______etc');
  });

  it('is private-key-backup-{username}-{YYYY-MM-DD}.json with the local date', () => {
    expect(backupFileName('alice', new Date(2030, 0, 5, 23, 59))).toBe('private-key-backup-alice-2030-01-05.json');
    expect(backupFileName('bob.o', new Date(2031, 11, 31, 0, 0))).toBe('private-key-backup-bob_o-2031-12-31.json');
  });
});

describe('backup file content (spec section 3)', () => {
  it('holds description, username, encryptedPrivateKey, kdfSalt and an ISO backupDate', () => {
    const date = new Date(Date.UTC(2030, 4, 6, 7, 8, 9));
    const backup = buildBackupFile('alice', keyData, date);
    expect(backup).toEqual({ description: backupDescription(), username: 'alice', ...keyData, backupDate: '2030-05-06T07:08:09.000Z' });
    const parsed = JSON.parse(serialiseBackupFile(backup));
    expect(Object.keys(parsed).sort()).toEqual(['backupDate', 'description', 'encryptedPrivateKey', 'kdfSalt', 'username']);
  });

  it('round-trips through parseBackupFile', () => {
    const text = serialiseBackupFile(buildBackupFile('alice', keyData, new Date()));
    expect(parseBackupFile(text)).toEqual({ ok: true, keyData, username: 'alice' });
  });
});

describe('restore file validation (spec section 5)', () => {
  it('the type must be application/json', () => {
    expect(backupFileTypeError({ type: 'application/json' })).toBeNull();
    for (const type of ['text/plain', '', 'application/octet-stream', 'text/json']) {
      expect(backupFileTypeError({ type })).toBe('Invalid file type. Please select the downloaded .json backup file.');
    }
  });

  it("empty content: 'Failed to read file content.'", () => {
    expect(parseBackupFile('')).toEqual({ ok: false, message: 'Failed to read file content.' });
    expect(parseBackupFile('  \n')).toEqual({ ok: false, message: 'Failed to read file content.' });
  });

  it('content that is not JSON cannot be parsed', () => {
    for (const text of ['{not json', 'private key', '{"a":1,}']) {
      expect(parseBackupFile(text)).toEqual({ ok: false, message: "Failed to parse backup file. Ensure it's a valid JSON file." });
    }
  });

  it('needs non-empty string encryptedPrivateKey and kdfSalt', () => {
    const structure = 'Invalid or incomplete backup file structure. Missing required key data or salt.';
    for (const value of [
      null,
      [],
      42,
      '"text"',
      {},
      { encryptedPrivateKey: 'abc' },
      { kdfSalt: 'abc' },
      { encryptedPrivateKey: '', kdfSalt: 'abc' },
      { encryptedPrivateKey: 'abc', kdfSalt: '   ' },
      { encryptedPrivateKey: 123, kdfSalt: 'abc' },
      { encryptedPrivateKey: 'abc', kdfSalt: ['abc'] },
    ]) {
      const text = typeof value === 'string' ? value : JSON.stringify(value);
      expect(parseBackupFile(text), text).toEqual({ ok: false, message: structure });
    }
  });

  it('a backup without a username is accepted but has none', () => {
    expect(parseBackupFile(JSON.stringify(keyData))).toEqual({ ok: true, keyData, username: null });
  });

  it('username mismatch ignores letter case; a missing name counts as a mismatch', () => {
    expect(isUsernameMismatch('alice', 'alice')).toBe(false);
    expect(isUsernameMismatch('Alice', 'alice')).toBe(false);
    expect(isUsernameMismatch('bob', 'alice')).toBe(true);
    expect(isUsernameMismatch(null, 'alice')).toBe(true);
  });
});
