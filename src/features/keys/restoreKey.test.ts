import { afterAll, describe, expect, it } from 'vitest';
import type { User } from '../../api/types.ts';
import { unwrapPrivateKey } from '../../../crypto/index.ts';
import { buildBackupFile, serialiseBackupFile, type KeyData } from './backupFile.ts';
import { isKeyError, type KeyErrorCode } from './keyError.ts';
import { KEY_MESSAGES } from '../../lib/userTexts.ts';
import { restoreKeyFromBackup, type RestoreDependencies, type RestoreInput } from './restoreKey.ts';
import { inProcessCryptoPool } from '../../app/testing/testCryptoPool.ts';
import { makeKeyData, testAccountKdfParams } from './testing/keyData.ts';

const pool = inProcessCryptoPool();
afterAll(() => pool.terminate());

const user: User = { id: 1, username: 'alice', email: null, is_2fa_enabled: false, public_key_spki: null, org_role: 'admin', language: null, has_password: true };

function jsonFile(text: string, name = 'private-key-backup-alice-2030-01-01.json', type = 'application/json'): File {
  return new File([text], name, { type });
}

/** The account's parameter block (the pre-login answer), what restored keys are wrapped under. */
const accountKdfParams = testAccountKdfParams();

function setup(options: { currentPassword?: string; confirm?: boolean } = {}) {
  const currentPassword = options.currentPassword ?? 'current password';
  const calls: string[] = [];
  const saved: { publicKey?: string; keyData?: KeyData } = {};
  const confirmations: Array<string | null> = [];
  const deps: RestoreDependencies = {
    async verifyPassword(password) {
      calls.push('verify');
      if (password !== currentPassword) throw { status: 401, data: { detail: 'Incorrect password', code: 'INCORRECT_PASSWORD' } };
      return accountKdfParams;
    },
    async confirmUsernameMismatch(backupUsername) {
      confirmations.push(backupUsername);
      return options.confirm ?? false;
    },
    pool,
    async setPublicKey(spki) {
      calls.push('public-key');
      saved.publicKey = spki;
      return { ...user, public_key_spki: spki };
    },
    async saveEncryptedKey(data) {
      calls.push('encrypted-key');
      saved.keyData = data;
      return { ...user, public_key_spki: saved.publicKey ?? null };
    },
  };
  return { deps, calls, saved, confirmations, currentPassword };
}

async function expectKeyError(promise: Promise<unknown>, code: KeyErrorCode, message: string) {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(isKeyError(error, code), String(error)).toBe(true);
  expect((error as Error).message).toBe(message);
}

const input = (overrides: Partial<RestoreInput>): RestoreInput => ({ file: null, password: '', username: 'alice', ...overrides });

describe('restore from backup (spec sections 4 and 5)', () => {
  it('checks file, password and type before anything is sent', async () => {
    const { deps, calls } = setup();
    await expectKeyError(restoreKeyFromBackup(input({ password: 'x' }), deps), 'restore-invalid', 'Please select your .json backup file.');
    await expectKeyError(
      restoreKeyFromBackup(input({ file: jsonFile('{}') }), deps),
      'restore-invalid',
      'Please enter your current login password to verify.',
    );
    await expectKeyError(
      restoreKeyFromBackup(input({ file: jsonFile('{}', 'backup.txt', 'text/plain'), password: 'x' }), deps),
      'restore-invalid',
      'Invalid file type. Please select the downloaded .json backup file.',
    );
    expect(calls).toEqual([]);
  });

  it('a wrong current password fails verification before the file is read', async () => {
    const { deps, calls } = setup();
    await expectKeyError(
      restoreKeyFromBackup(input({ file: jsonFile('{not json'), password: 'wrong' }), deps),
      'restore-invalid',
      'Password verification failed. Please enter your current login password.',
    );
    expect(calls).toEqual(['verify']);
  });

  it('reports unreadable, empty, non-JSON and incomplete files with their messages', async () => {
    const { deps, currentPassword } = setup();
    const unreadable = jsonFile('{}');
    Object.defineProperty(unreadable, 'text', { value: () => Promise.reject(new DOMException('gone', 'NotReadableError')) });
    const cases: Array<[File, string]> = [
      [unreadable, 'Error reading the backup file.'],
      [jsonFile(''), 'Failed to read file content.'],
      [jsonFile('{not json'), "Failed to parse backup file. Ensure it's a valid JSON file."],
      [jsonFile('{"kdfSalt":"abc"}'), 'Invalid or incomplete backup file structure. Missing required key data or salt.'],
    ];
    for (const [file, message] of cases) {
      await expectKeyError(restoreKeyFromBackup(input({ file, password: currentPassword }), deps), 'restore-invalid', message);
    }
  });

  it('restores a backup of this user: public key of the backup first, then the key data as it is', async () => {
    const { deps, calls, saved, confirmations, currentPassword } = setup();
    const { keyData, publicKeySpki } = await makeKeyData(currentPassword, accountKdfParams);
    const file = jsonFile(serialiseBackupFile(buildBackupFile('Alice', keyData, new Date())));
    const updated = await restoreKeyFromBackup(input({ file, password: currentPassword }), deps);
    expect(confirmations).toEqual([]);
    expect(calls).toEqual(['verify', 'public-key', 'encrypted-key']);
    expect(saved).toEqual({ publicKey: publicKeySpki, keyData });
    expect(updated.public_key_spki).toBe(publicKeySpki);
  });

  it('a backup of the old scheme 1 under the current password is re-wrapped under the account\'s scheme-2 block', async () => {
    const { deps, saved, currentPassword } = setup();
    const { keyData, publicKeySpki } = await makeKeyData(currentPassword);
    const file = jsonFile(serialiseBackupFile(buildBackupFile('alice', keyData, new Date())));
    await restoreKeyFromBackup(input({ file, password: currentPassword }), deps);
    expect(saved.publicKey).toBe(publicKeySpki);
    expect(saved.keyData!.kdfSalt).toBe(accountKdfParams);
    await expect(unwrapPrivateKey(saved.keyData!, currentPassword)).resolves.toMatchObject({ type: 'private', algorithm: { name: 'RSA-OAEP' } });
  });

  it("another user's backup needs a confirmation; cancelling stops before anything is saved", async () => {
    const { deps, calls, confirmations, currentPassword } = setup({ confirm: false });
    const { keyData } = await makeKeyData(currentPassword);
    const file = jsonFile(serialiseBackupFile(buildBackupFile('bob', keyData, new Date())));
    await expectKeyError(
      restoreKeyFromBackup(input({ file, password: currentPassword }), deps),
      'cancelled',
      'Restore cancelled due to username mismatch.',
    );
    expect(confirmations).toEqual(['bob']);
    expect(calls).toEqual(['verify']);
  });

  it('a backup made under an older password asks for it, then is re-wrapped under the current password', async () => {
    const { deps, saved, currentPassword } = setup({ confirm: true });
    const { keyData, publicKeySpki } = await makeKeyData('old password');
    const file = jsonFile(serialiseBackupFile(buildBackupFile('alice', keyData, new Date())));
    await expectKeyError(restoreKeyFromBackup(input({ file, password: currentPassword }), deps), 'restore-wrong-backup-password', KEY_MESSAGES.backupPasswordNeeded);
    expect(saved).toEqual({});
    await expectKeyError(
      restoreKeyFromBackup(input({ file, password: currentPassword, backupPassword: 'not it either' }), deps),
      'restore-wrong-backup-password',
      'Restore failed: Decryption failed: Incorrect password or corrupted data.',
    );

    await restoreKeyFromBackup(input({ file, password: currentPassword, backupPassword: 'old password' }), deps);
    expect(saved.publicKey).toBe(publicKeySpki);
    expect(saved.keyData).not.toEqual(keyData);
    expect(saved.keyData!.kdfSalt).toBe(accountKdfParams);
    await expect(unwrapPrivateKey(saved.keyData!, currentPassword)).resolves.toMatchObject({ type: 'private', algorithm: { name: 'RSA-OAEP' } });
    await expect(unwrapPrivateKey(saved.keyData!, 'old password')).rejects.toThrow();
  });

  it('damaged key data and server failures become "Restore failed: ..."', async () => {
    const { deps, currentPassword } = setup();
    const damaged = jsonFile(JSON.stringify({ username: 'alice', encryptedPrivateKey: 'not base64!', kdfSalt: 'c2FsdA==' }));
    await expectKeyError(
      restoreKeyFromBackup(input({ file: damaged, password: currentPassword }), deps),
      'restore-failed',
      'Restore failed: The key data is damaged or has the wrong format.',
    );

    const { keyData } = await makeKeyData(currentPassword, accountKdfParams);
    const file = jsonFile(serialiseBackupFile(buildBackupFile('alice', keyData, new Date())));
    deps.saveEncryptedKey = async () => {
      throw { status: 422, data: { detail: [{ loc: ['body', 'kdfSalt'], msg: 'Key derivation salt is too short' }] } };
    };
    await expectKeyError(
      restoreKeyFromBackup(input({ file, password: currentPassword }), deps),
      'restore-failed',
      'Restore failed: kdfSalt: Key derivation salt is too short',
    );
  });
});
