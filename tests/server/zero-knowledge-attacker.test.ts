// An attacker who got everything the server saw and stored (issue 27): every log line at trace
// level, every request as the server parsed it (URL, headers, body), the database's raw bytes (or
// every PostgreSQL row) and every file under DATA_DIR (the blob store among them). An admin's whole
// account journey runs first, as the browser runs it (the node implementation of the derivations):
// sign-in, key pair, re-entered password, password change with the key re-wrapped, profile save,
// 2FA on and off, a password-protected download link and its recipient. Then every value found is
// tried, decoded, as the raw wrapping key of the stored private key and as the argon2id secret it is
// derived from, and compared with the password in every encoding a client might have sent it in:
// none opens the key, while the real password does.
import { createDecipheriv, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACCOUNT_HKDF_INFO,
  deriveAccountSecrets,
  hkdf32,
  generateRsaKeyPair,
  newBoundArgon2Block,
  OfflineCryptoError,
  protectLinkKeys,
  unwrapPrivateKey,
  wrapPrivateKeyScheme2,
  linkVerifier,
  type StoredKeyData,
} from '../../server/crypto/index.ts';
import { createFolder, seedFile } from './files-fixtures.ts';
import { startServer, usingPostgres, type TestServer } from './harness.ts';
import { totpAt } from './totp-reference.ts';

const PASSWORD = `attacker-target-password-${randomBytes(4).toString('hex')}`;
const NEW_PASSWORD = `${PASSWORD}-changed`;
const LINK_PASSWORD = 'KranichLaterne26-417';
const USERNAME = 'zk-target';

let server: TestServer;
const logLines: string[] = [];
const seen: string[] = [];

beforeAll(async () => {
  server = await startServer({
    env: { LOG_LEVEL: 'trace' },
    logStream: { write: (line: string) => logLines.push(line) },
    setup: (app) => {
      // Everything a request carried, as the server's handlers got it.
      app.addHook('preHandler', async (request) => {
        seen.push(request.url, JSON.stringify(request.headers), JSON.stringify(request.body ?? null));
      });
    },
  });
}, 60_000);
afterAll(() => server.close());

async function journey(): Promise<StoredKeyData> {
  await server.createUser(USERNAME, PASSWORD);
  const admin = server.client();
  expect((await admin.login(USERNAME, PASSWORD)).status).toBe(200);
  // A key pair, wrapped as the app wraps it: under the account's block.
  const pair = generateRsaKeyPair();
  expect((await admin.put('/api/auth/public-key', { public_key_spki: pair.publicKeySpki })).status).toBe(200);
  expect((await admin.put('/api/auth/users/me/encrypted-key', wrapPrivateKeyScheme2(pair.privateKey, PASSWORD, await admin.prelogin(USERNAME)))).status).toBe(200);
  expect((await admin.post('/api/auth/verify-password', { auth_secret: await admin.authSecret(USERNAME, PASSWORD) })).status).toBe(200);

  // Password change: the new secret under a fresh block, then the key re-wrapped under it.
  const newKdfParams = newBoundArgon2Block(USERNAME);
  const changed = await admin.post('/api/auth/change-password', {
    old_auth_secret: await admin.authSecret(USERNAME, PASSWORD),
    new_auth_secret: deriveAccountSecrets(NEW_PASSWORD, newKdfParams).authSecret,
    new_kdf_params: newKdfParams,
  });
  expect(changed.status).toBe(200);
  const rewrapped = wrapPrivateKeyScheme2(pair.privateKey, NEW_PASSWORD, newKdfParams);
  expect((await admin.put('/api/auth/users/me/encrypted-key', rewrapped)).status).toBe(200);

  const secret = await admin.authSecret(USERNAME, NEW_PASSWORD);
  expect((await admin.put('/api/auth/users/me', { current_auth_secret: secret, email: 'zk@example.com' })).status).toBe(200);
  const setup = await admin.post('/api/auth/2fa/setup');
  expect((await admin.post('/api/auth/2fa/enable', { code: totpAt(setup.body.secret, server.clock.now()) })).status).toBe(200);
  expect((await admin.post('/api/auth/2fa/disable', { auth_secret: secret })).status).toBe(200);

  // Files and a password link for them; the recipient proves the password with its verifier.
  const folder = await createFolder(admin, 'Attacked');
  const files = await Promise.all([1, 2].map(() => seedFile(server, folder.id)));
  const fileKeys = new Map(files.map((file) => [String(file.id), randomBytes(32)]));
  const protection = protectLinkKeys(LINK_PASSWORD, fileKeys);
  const link = await admin.post('/api/download/links', {
    file_ids: files.map((file) => file.id),
    password: protection.verifier,
    reencrypted_keys_json: JSON.stringify(protection.reencryptedKeys),
    expiration_date: null,
  });
  expect(link.status).toBe(201);
  const recipient = server.client();
  const status = await recipient.get(`/api/download/${link.body.link_token}/status`);
  const verified = await recipient.post(`/api/download/${link.body.link_token}/verify-password`, { password: linkVerifier(LINK_PASSWORD, status.body.kdf_params) });
  expect(verified.status).toBe(200);
  await server.settled();
  return rewrapped;
}

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true }).filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

async function databaseText(): Promise<string> {
  if (!usingPostgres) return '';
  const client = new pg.Client({ connectionString: server.env.DATABASE_URL });
  await client.connect();
  try {
    const schema = server.env.DATABASE_SCHEMA!;
    const tables = await client.query<{ table_name: string }>("select table_name from information_schema.tables where table_schema = $1 and table_type = 'BASE TABLE'", [schema]);
    const rows: string[] = [];
    for (const { table_name: table } of tables.rows) {
      rows.push(...(await client.query<{ row: string }>(`select row_to_json(t)::text as row from "${schema}"."${table}" t`)).rows.map((r) => r.row));
    }
    return rows.join('\n');
  } finally {
    await client.end();
  }
}

/** Every value an attacker would try: whole strings and every token of 8+ characters in them. */
function candidatesIn(texts: string[]): Set<string> {
  const found = new Set<string>();
  for (const text of texts) {
    for (const token of text.match(/[A-Za-z0-9+/=_$.,:-]{8,}/g) ?? []) {
      found.add(token);
      for (const part of token.split(/[$:,.]/)) if (part.length >= 8) found.add(part);
    }
    for (const quoted of text.match(/"([^"\\]{8,200})"/g) ?? []) found.add(quoted.slice(1, -1));
  }
  return found;
}

/** The 32-byte keys a candidate could stand for: base64, base64url or hex of exactly 32 bytes. */
function rawKeysOf(candidate: string): Buffer[] {
  const keys: Buffer[] = [];
  for (const decoded of [Buffer.from(candidate, 'base64'), Buffer.from(candidate, 'base64url'), /^[0-9a-f]+$/i.test(candidate) ? Buffer.from(candidate, 'hex') : Buffer.alloc(0)]) {
    if (decoded.length === 32) keys.push(decoded);
    if (decoded.length > 32) for (let at = 0; at + 32 <= decoded.length; at += 16) keys.push(decoded.subarray(at, at + 32));
  }
  return keys;
}

/** What a candidate says read as base64, base64url or hex (as latin1 text, to search for a password). */
function decodingsOf(candidate: string): string[] {
  const decoded = [Buffer.from(candidate, 'base64'), Buffer.from(candidate, 'base64url')];
  if (/^[0-9a-f]+$/i.test(candidate)) decoded.push(Buffer.from(candidate, 'hex'));
  return decoded.map((bytes) => bytes.toString('latin1'));
}

function opensWithRawKey(stored: StoredKeyData, key: Buffer): boolean {
  const sealed = Buffer.from(stored.encryptedPrivateKey, 'base64');
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, 12));
    decipher.setAuthTag(sealed.subarray(sealed.length - 16));
    decipher.update(sealed.subarray(12, sealed.length - 16));
    decipher.final();
    return true;
  } catch {
    return false;
  }
}

describe('an attacker with everything the server saw and stored', () => {
  it('finds no value that opens the private key, as a password or as a raw key; the real password does', async () => {
    const stored = await journey();
    const haystack = [
      ...logLines,
      ...seen,
      await databaseText(),
      ...filesUnder(server.config.dataDir).map((file) => fs.readFileSync(file).toString('latin1')),
    ];
    // What the server had must include what a passive attacker gets from the wire: the secrets.
    const authSecret = await server.client().authSecret(USERNAME, NEW_PASSWORD);
    expect(seen.join('\n')).toContain(authSecret);
    expect(haystack.join('\n')).not.toContain(PASSWORD);
    expect(haystack.join('\n')).not.toContain(LINK_PASSWORD);

    const candidates = candidatesIn(haystack);
    expect(candidates.size).toBeGreaterThan(50);
    const opened: string[] = [];
    for (const candidate of candidates) {
      for (const key of rawKeysOf(candidate)) {
        if (opensWithRawKey(stored, key)) opened.push(`raw key: ${candidate}`);
        // The 32-byte argon2id output the wrapping key is drawn from with HKDF.
        if (opensWithRawKey(stored, hkdf32(key, ACCOUNT_HKDF_INFO.privateKeyWrap))) opened.push(`argon2id secret: ${candidate}`);
      }
    }
    // As a password a candidate opens the key exactly when it is the password: the wrapping key is
    // argon2id of the candidate's UTF-8 bytes as they are (kdfMaster normalises nothing), then HKDF.
    // So instead of one argon2id at the default cost per candidate (709 of them: 0.08-0.23 s each,
    // the largest single cost of the server suite, run on SQLite and again on PostgreSQL), every
    // candidate is compared with both passwords, decoded as well, and the whole haystack is searched
    // for them in the other encodings a client might have sent them in.
    const passwords = [PASSWORD, NEW_PASSWORD];
    for (const candidate of candidates) {
      const readings = [candidate, ...decodingsOf(candidate)];
      if (passwords.some((password) => readings.some((text) => text.includes(password)))) opened.push(`password: ${candidate}`);
    }
    for (const encoded of passwords.flatMap((password) => [encodeURIComponent(password), Buffer.from(password, 'utf16le').toString('latin1')])) {
      if (haystack.some((text) => text.includes(encoded))) opened.push(`password, encoded: ${encoded}`);
    }
    // The premise, checked with argon2id itself on the value that looks most like a password and
    // that the server did have: the login secret sent at every sign-in.
    expect(() => unwrapPrivateKey(stored, authSecret)).toThrow(OfflineCryptoError);
    expect(candidates).toContain(authSecret);
    expect(opened).toEqual([]);
    // The test can fail: the password itself opens it.
    expect(unwrapPrivateKey(stored, NEW_PASSWORD).asymmetricKeyType).toBe('rsa');
  }, 600_000);
});
