// An account, its key and three files written by the code of before issue 27 (its CLI and server:
// tests/fixtures/legacy-account/make-fixture.ts) meet the current server: the migration runs on
// that database, the account signs in once with its password, is upgraded (new login secret, the
// private key re-wrapped under argon2id) and from then on signs in with the derived secret only;
// every file uploaded before the upgrade downloads byte-identical and decrypts to its original
// bytes with the re-wrapped key; the old backup file still opens with the password.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decryptBuffer, unwrapFileKey, unwrapPrivateKey } from '../../server/crypto/index.ts';
import { getBytes } from './files-fixtures.ts';
import { startServer, usingPostgres, type TestServer } from './harness.ts';
import type { TestClient } from './http-client.ts';

const FIXTURE = path.resolve(import.meta.dirname, '../fixtures/legacy-account');

interface FixtureFile {
  name: string;
  relative_path: string;
  size: number;
  sha256: string;
  ciphertext_sha256: string;
}
const fixture = JSON.parse(fs.readFileSync(path.join(FIXTURE, 'fixture.json'), 'utf8')) as {
  username: string;
  password: string;
  public_key_spki: string;
  files: FixtureFile[];
};
const backup = JSON.parse(fs.readFileSync(path.join(FIXTURE, 'private-key-backup.json'), 'utf8')) as { encryptedPrivateKey: string; kdfSalt: string };
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

interface ListedFile {
  id: number;
  original_filename: string;
  encrypted_key: string;
  encryption_iv: string;
}

// skip-reason: the fixture is the old code's SQLite data directory; on PostgreSQL the upgrade itself is covered by login-upgrade.test.ts.
describe.skipIf(usingPostgres)('data written before zero-knowledge sign-in', () => {
  let server: TestServer;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sealdrop-legacy-'));
    fs.cpSync(path.join(FIXTURE, 'old-data-dir'), dataDir, { recursive: true });
    server = await startServer({ env: { DATA_DIR: dataDir } });
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function filesOf(client: TestClient): Promise<ListedFile[]> {
    const folders = await client.get<Array<{ id: number }>>('/api/folders');
    expect(folders.body).toHaveLength(1);
    const listed = await client.get<ListedFile[]>(`/api/folders/${folders.body[0]!.id}/files`);
    expect(listed.status).toBe(200);
    return listed.body;
  }

  async function ciphertextOf(client: TestClient, file: ListedFile): Promise<Buffer> {
    const response = await getBytes(client, `/api/folders/download/${file.id}`);
    expect(response.status).toBe(200);
    return response.body;
  }

  it('signs in once with the password, is upgraded, and every file still downloads byte-identical and decrypts', async () => {
    const client = server.client();
    const bySecret = await client.login(fixture.username, fixture.password);
    expect(bySecret.body.code).toBe('SIGN_IN_UPGRADE_REQUIRED');
    expect((await client.loginWithPassword(fixture.username, fixture.password)).status).toBe(200);
    const me = (await client.get('/api/auth/users/me')).body;
    expect(me.public_key_spki).toBe(fixture.public_key_spki);
    // Accounts made before organisation roles were all the operator's: migration 0022 made them admins.
    expect(me.org_role).toBe('admin');
    const before = await filesOf(client);
    expect(before.map((file) => file.original_filename).sort()).toEqual(fixture.files.map((file) => file.name).sort());

    const upgraded = await client.upgradeLogin(fixture.password);
    expect(upgraded.status).toBe(200);

    // From now on: the derived secret signs in, the password does not; it was the last account of
    // the old scheme, so the server takes no password at sign-in any more.
    expect((await server.client().loginWithPassword(fixture.username, fixture.password)).body.code).toBe('OLD_SCHEME_SIGN_IN_CLOSED');
    const signedIn = server.client();
    expect((await signedIn.login(fixture.username, fixture.password)).status).toBe(200);
    const keyData = (await signedIn.get('/api/auth/users/me/encrypted-key')).body as { encryptedPrivateKey: string; kdfSalt: string };
    expect(Buffer.from(keyData.kdfSalt, 'base64')[0]).toBe(3);
    const privateKey = unwrapPrivateKey(keyData, fixture.password);

    const after = await filesOf(signedIn);
    expect(after).toEqual(before);
    for (const file of after) {
      const expected = fixture.files.find((entry) => entry.name === file.original_filename)!;
      const ciphertext = await ciphertextOf(signedIn, file);
      expect(sha256(ciphertext), file.original_filename).toBe(expected.ciphertext_sha256);
      const plain = decryptBuffer(unwrapFileKey(privateKey, file.encrypted_key), Buffer.from(file.encryption_iv, 'base64'), ciphertext);
      expect(plain.length).toBe(expected.size);
      expect(sha256(plain), file.original_filename).toBe(expected.sha256);
    }

    // The backup the old app offered (scheme 1) still opens with the password, to the same key.
    const fromBackup = unwrapPrivateKey(backup, fixture.password);
    expect(fromBackup.export({ type: 'pkcs8', format: 'der' }).equals(privateKey.export({ type: 'pkcs8', format: 'der' }))).toBe(true);
  }, 120_000);
});
