// The activity log over real HTTP: one walk through an admin's journey records every kind of entry
// (sign-in ok and failed, keys, folder created/updated/deleted, upload, admin download, link
// created/downloaded/deleted, files deleted) with hashed client addresses; filters, pages and the
// CSV and JSON exports; the hash chain verifies, and an edited or removed row is reported at its
// entry by GET /api/activity/verify and by `npm run admin -- verify-activity`; appends racing on two
// processes keep one unbroken chain. (The chain test starts the admin CLI four times: each start
// compiles TypeScript, so it gets a longer timeout than the suite's default.)
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activityKeys, entryHash } from '../../server/activity/chain.ts';
import { loadConfig } from '../../server/config.ts';
import { loadActivityChainKey } from '../../server/activity/chain-key.ts';
import { openDatabase } from '../../server/db/connection.ts';
import { startServer, type TestServer } from './harness.ts';
import { TestClient } from './http-client.ts';
import { getBytes } from './files-fixtures.ts';
import { startPeerProcess, type PeerProcess } from './peer-process.ts';
import { totpAt } from './totp-reference.ts';
import { MultipartBody, postMultipart } from './upload-helpers.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
let server: TestServer;
let peer: PeerProcess;

beforeAll(async () => {
  server = await startServer({ env: { TRUST_PROXY: 'true' } });
  peer = await startPeerProcess(server);
}, 60_000);
afterAll(async () => {
  await peer?.stop();
  await server?.close();
});

function runCli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(path.join(ROOT, 'node_modules/.bin/tsx'), ['server/cli.ts', ...args], { cwd: ROOT, env: { ...process.env, ...server.env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

async function signedIn(name: string, ip = '203.0.113.7'): Promise<TestClient> {
  await server.createUser(name, 'correct horse');
  const client = server.client();
  await client.primeCsrf();
  const wrongSecret = await client.authSecret(name, 'wrong horse');
  const wrong = await client.request('POST', '/api/auth/token', { form: { username: name, auth_secret: wrongSecret }, headers: { 'x-forwarded-for': ip } } as never);
  expect(wrong.status).toBe(401);
  expect((await client.login(name, 'correct horse')).status).toBe(200);
  return client;
}

/** The chain key the server derived from its activity chain key (what only the server holds). */
async function chainKeyOfServer(): Promise<Buffer> {
  const config = server.app.config;
  return activityKeys(await loadActivityChainKey({ configured: config.activity.chainKey, dataDir: config.dataDir })).chainKey;
}

async function kindsOf(client: TestClient, query = ''): Promise<string[]> {
  const page = await client.get(`/api/activity${query}`);
  expect(page.status, JSON.stringify(page.body)).toBe(200);
  return page.body.entries.map((entry: { kind: string }) => entry.kind);
}

/** A connection of the test's own to the server's database, to tamper with it as an intruder would. */
async function intruder() {
  return openDatabase(loadConfig(server.env).database);
}

describe('a walk through an admin\'s journey', () => {
  it('records every action, newest first, with hashed addresses; filters and pages', async () => {
    const name = `walker_${randomBytes(3).toString('hex')}`;
    const admin = await signedIn(name);
    const { generateRsaKeyPair } = await import('../../server/crypto/keys.ts');
    const stored = await admin.request('PUT', '/api/auth/public-key', { json: { public_key_spki: generateRsaKeyPair().publicKeySpki } });
    expect(stored.status, JSON.stringify(stored.body)).toBe(200);
    const folder = (await admin.post('/api/folders/', { title: 'Tax 2030', perform_mime_check: false })).body;
    expect((await admin.request('PUT', `/api/folders/${folder.id}`, { json: { title: 'Tax 2030 (final)', is_active: true } })).status).toBe(200);

    const body = new MultipartBody().files([{ name: 'w2.pdf', data: randomBytes(server.app.uploads.sizes.encryptedLength(500)) }]);
    const uploaded = await postMultipart(server.client(), `/api/upload/${folder.link_token}`, body);
    expect(uploaded.status).toBe(200);
    const fileId = uploaded.body.successful_files[0].id as number;
    expect((await getBytes(admin, `/api/folders/download/${fileId}`)).status).toBe(200);
    await server.settled();

    const link = (await admin.post('/api/download/links', { file_ids: [fileId], password: null })).body;
    expect((await getBytes(new TestClient(server.baseUrl), `/api/download/${link.link_token}/file/${fileId}`)).status).toBe(200);
    expect((await admin.request('DELETE', `/api/download/links/${link.link_token}`)).status).toBe(204);
    expect((await admin.post('/api/folders/files/delete', { file_ids: [fileId] })).status).toBe(200);
    expect((await admin.request('DELETE', `/api/folders/${folder.id}`)).status).toBe(204);

    const expected = [
      'folder.deleted',
      'files.deleted',
      'link.deleted',
      'link.downloaded',
      'link.created',
      'file.downloaded',
      'files.uploaded',
      'folder.updated',
      'folder.created',
      'public_key.stored',
      'sign_in.succeeded',
      'sign_in.failed',
    ];
    expect(await kindsOf(admin)).toEqual(expected);

    const page = (await admin.get('/api/activity')).body.entries as Array<Record<string, any>>;
    const byKind = Object.fromEntries(page.map((entry) => [entry.kind, entry]));
    expect(byKind['files.uploaded']).toMatchObject({ folder_id: folder.id, details: { files: 1, bytes: 500, uploader_email: null } });
    // is_active was sent as it was (true): only what differs from the stored folder counts as changed.
    expect(byKind['folder.updated'].details).toEqual({ title: 'Tax 2030 (final)', changed: ['title'] });
    expect(byKind['link.downloaded'].details).toMatchObject({ file_id: fileId, name: 'w2.pdf' });
    // The address is kept only as an HMAC: the same address gives the same value, never the address.
    expect(byKind['sign_in.failed'].ip_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(page)).not.toContain('203.0.113.7');

    // Filters: one folder, some kinds, and pages of 5 by seq.
    expect(await kindsOf(admin, `?folder_id=${folder.id}&kind=files.uploaded,link.created`)).toEqual(['link.created', 'files.uploaded']);
    const first = (await admin.get('/api/activity?limit=5')).body;
    expect(first.entries).toHaveLength(5);
    const second = (await admin.get(`/api/activity?limit=5&before_seq=${first.next_before_seq}`)).body;
    expect([...first.entries, ...second.entries].map((entry: { kind: string }) => entry.kind)).toEqual(expected.slice(0, 10));
    expect((await admin.get('/api/activity?kind=nonsense')).status).toBe(422);
    expect((await admin.get('/api/activity?limit=1000')).status).toBe(422);

    // Another admin sees none of it.
    const other = await signedIn(`other_${randomBytes(3).toString('hex')}`);
    expect(await kindsOf(other)).toEqual(['sign_in.succeeded', 'sign_in.failed']);
  });

  it('exports the filtered log as CSV and as JSON', async () => {
    const admin = await signedIn(`exporter_${randomBytes(3).toString('hex')}`);
    await admin.post('/api/folders/', { title: 'Quoted, "comma" title', perform_mime_check: false });
    const csv = await admin.get('/api/activity/export?format=csv');
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    expect(csv.headers.get('content-disposition')).toMatch(/^attachment; filename="sealdrop-activity-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = (csv.body as string).trim().split('\r\n');
    expect(lines[0]).toBe('seq,at,kind,folder_id,details,ip_hash,prev_hash,hash');
    expect(lines).toHaveLength(5);
    // The last line is the signed checkpoint of the newest entry (entry 3), not an entry.
    expect(lines[4]).toMatch(/^# checkpoint ac1:\d+:3:[0-9a-f]{64}:[0-9a-f]{64}$/);
    expect(lines[1]).toContain('folder.created');
    expect(lines[1]).toContain('"{""title"":""Quoted, \\""comma\\"" title""}"');
    const json = await admin.get('/api/activity/export?format=json&kind=folder.created');
    expect(json.headers.get('content-disposition')).toMatch(/\.json"$/);
    expect((json.body.entries as Array<{ kind: string }>).map((entry) => entry.kind)).toEqual(['folder.created']);
    // The checkpoint is the account's head, whatever the filter kept.
    expect(json.body.checkpoint).toBe(lines[4]!.slice('# checkpoint '.length));
    expect((await admin.get('/api/activity/export?format=xml')).status).toBe(422);
  });
});

describe('account security', () => {
  it('records 2FA turned on, a wrong and a right second factor, 2FA off, key pairs by fingerprint, password and profile changes', async () => {
    const name = `guarded_${randomBytes(3).toString('hex')}`;
    const admin = await signedIn(name);
    const setup = await admin.post('/api/auth/2fa/setup');
    expect((await admin.post('/api/auth/2fa/enable', { code: totpAt(setup.body.secret, server.clock.now()) })).status).toBe(200);
    server.clock.advance(90_000); // past the step the enable used: codes are accepted once

    const again = server.client();
    expect((await again.login(name, 'correct horse')).body.message).toBe('OTP code required');
    expect((await again.post('/api/auth/token/2fa', { username: name, code: '000000' })).status).toBe(401);
    expect((await again.post('/api/auth/token/2fa', { username: name, code: totpAt(setup.body.secret, server.clock.now()) })).status).toBe(200);
    expect((await again.post('/api/auth/2fa/disable', { auth_secret: await again.authSecret(name, 'correct horse') })).status).toBe(200);

    const { generateRsaKeyPair, wrapPrivateKey } = await import('../../server/crypto/keys.ts');
    const first = generateRsaKeyPair();
    const second = generateRsaKeyPair();
    for (const pair of [first, first, second]) {
      expect((await again.request('PUT', '/api/auth/public-key', { json: { public_key_spki: pair.publicKeySpki } })).status).toBe(200);
    }
    const wrapped = wrapPrivateKey(second.privateKey, 'correct horse');
    expect((await again.request('PUT', '/api/auth/users/me/encrypted-key', { json: wrapped })).status).toBe(200);
    expect((await again.changePassword(name, 'correct horse', 'battery staple')).status).toBe(200);
    const renamed = `${name}_x`;
    const secret = await again.authSecret(name, 'battery staple');
    // A new name re-keys the login to a block bound to it, in the same request.
    const { deriveAccountSecrets, newBoundArgon2Block } = await import('../../server/crypto/index.ts');
    const boundBlock = newBoundArgon2Block(renamed);
    const renamedSecret = deriveAccountSecrets('battery staple', boundBlock).authSecret;
    const rename = { current_auth_secret: secret, username: renamed, email: 'someone@example.com', new_auth_secret: renamedSecret, new_kdf_params: boundBlock };
    expect((await again.request('PUT', '/api/auth/users/me', { json: rename })).status).toBe(200);
    // Saving the same values again changes nothing and records nothing.
    expect((await again.request('PUT', '/api/auth/users/me', { json: { current_auth_secret: renamedSecret, username: renamed } })).status).toBe(200);

    const entries = (await again.get('/api/activity?limit=200')).body.entries as Array<{ kind: string; details: Record<string, unknown> }>;
    expect(entries.map((entry) => entry.kind)).toEqual([
      'profile.updated',
      'password.changed',
      'private_key.stored',
      'public_key.stored',
      'public_key.stored',
      'public_key.stored',
      'two_factor.disabled',
      'sign_in.succeeded',
      'sign_in.second_factor_failed',
      'two_factor.enabled',
      'sign_in.succeeded',
      'sign_in.failed',
    ]);
    expect(entries[0]!.details).toEqual({ changed: ['username', 'email'] });
    expect(JSON.stringify(entries)).not.toContain('someone@example.com');
    expect(entries[7]!.details).toEqual({ second_factor: true });
    const fingerprints = entries.filter((entry) => entry.kind === 'public_key.stored').map((entry) => entry.details.fingerprint);
    expect(fingerprints[0]).toMatch(/^([0-9a-f]{4}:){7}[0-9a-f]{4}$/);
    expect(fingerprints[1]).toBe(fingerprints[2]); // the same pair stored twice
    expect(fingerprints[0]).not.toBe(fingerprints[1]); // a new pair
    expect((await again.get('/api/activity/verify')).body.ok).toBe(true);
  });
});

describe('the hash chain', () => {
  it('verifies; an edited row and a removed row are reported at their entry, by the API and by the CLI', async () => {
    const name = `chained_${randomBytes(3).toString('hex')}`;
    const admin = await signedIn(name);
    for (let i = 0; i < 4; i++) await admin.post('/api/folders/', { title: `Folder ${i}`, perform_mime_check: false });
    expect((await admin.get('/api/activity/verify')).body).toEqual({ ok: true, entries: 6, first_broken_seq: null });
    const intact = await runCli(['verify-activity', name]);
    expect(intact.code).toBe(0);
    expect(intact.stdout).toContain(`The activity log of "${name}" is intact: 6 entries verified.`);

    const user = (await server.app.repos.users.findByUsername(name))!;
    const database = await intruder();
    try {
      // An intruder renames a folder in the log (entry 4 of 6).
      await database.db.updateTable('activity_log').set({ details: '{"title":"Something else"}' }).where('user_id', '=', user.id).where('seq', '=', 4).execute();
      expect((await admin.get('/api/activity/verify')).body).toEqual({ ok: false, entries: 0, first_broken_seq: 4 });
      const edited = await runCli(['verify-activity', name]);
      expect(edited.code).toBe(1);
      expect(edited.stderr).toContain(`The activity log of "${name}" is broken at entry 4: its content does not match its hash (edited).`);

      // Recomputing that entry's hash without the server key does not help: the chain is keyed,
      // so an unkeyed SHA-256 (or any other key) still fails at the entry itself.
      const row = await database.db.selectFrom('activity_log').selectAll().where('user_id', '=', user.id).where('seq', '=', 4).executeTakeFirstOrThrow();
      const fields = { userId: user.id, seq: 4, at: Number(row.at), kind: row.kind, folderId: row.folder_id, details: row.details, ipHash: row.ip_hash };
      const unkeyed = createHash('sha256').update(row.prev_hash).update('\n').update(JSON.stringify(Object.values(fields))).digest('hex');
      await database.db.updateTable('activity_log').set({ hash: unkeyed }).where('user_id', '=', user.id).where('seq', '=', 4).execute();
      expect((await admin.get('/api/activity/verify')).body.first_broken_seq).toBe(4);
      await database.db.updateTable('activity_log').set({ hash: entryHash(randomBytes(32), row.prev_hash, fields) }).where('user_id', '=', user.id).where('seq', '=', 4).execute();
      expect((await admin.get('/api/activity/verify')).body.first_broken_seq).toBe(4);
      // Even with the server key, the next entry no longer links to the rewritten one.
      await database.db.updateTable('activity_log').set({ hash: entryHash(await chainKeyOfServer(), row.prev_hash, fields) }).where('user_id', '=', user.id).where('seq', '=', 4).execute();
      expect((await admin.get('/api/activity/verify')).body.first_broken_seq).toBe(5);

      // A removed entry is a gap.
      await database.db.deleteFrom('activity_log').where('user_id', '=', user.id).where('seq', '=', 2).execute();
      const removed = await runCli(['verify-activity', name]);
      expect(removed.code).toBe(1);
      expect(removed.stderr).toContain('is broken at entry 2: it is missing (removed).');
    } finally {
      await database.close();
    }
    expect((await runCli(['verify-activity', 'nobody-here'])).stderr).toContain('No user named "nobody-here".');
  }, 120_000);

  it('stays one unbroken chain while two processes append at once', async () => {
    const name = `racer_${randomBytes(3).toString('hex')}`;
    const onServer = await signedIn(name);
    const onPeer = new TestClient(peer.baseUrl);
    expect((await onPeer.login(name, 'correct horse')).status).toBe(200);
    await Promise.all(
      Array.from({ length: 24 }, (_, i) => (i % 2 === 0 ? onServer : onPeer).post('/api/folders/', { title: `Race ${i}`, perform_mime_check: false })),
    );
    const verified = (await onServer.get('/api/activity/verify')).body;
    expect(verified).toEqual({ ok: true, entries: 3 + 24, first_broken_seq: null });
    const all = (await onServer.get('/api/activity?limit=200')).body.entries as Array<{ seq: number }>;
    expect(all.map((entry) => entry.seq)).toEqual(Array.from({ length: 27 }, (_, i) => 27 - i));
  });
});

describe('retention', () => {
  const DAY = 86_400_000;

  it('removes entries older than the retention time, records the removal in the chain, and keeps verifying', async () => {
    const name = `kept_${randomBytes(3).toString('hex')}`;
    const admin = await signedIn(name);
    for (let i = 0; i < 3; i++) await admin.post('/api/folders/', { title: `Old ${i}`, perform_mime_check: false });
    server.clock.advance(10 * DAY);
    expect((await admin.login(name, 'correct horse')).status).toBe(200); // the session ended meanwhile
    await admin.post('/api/folders/', { title: 'Recent', perform_mime_check: false });
    // Two passes at once (two processes' timers): one removes and records, the other finds nothing.
    const removed = await Promise.all([server.app.activity.prune(server.clock.now() - 5 * DAY), server.app.activity.prune(server.clock.now() - 5 * DAY)]);
    expect(removed[0] + removed[1]).toBeGreaterThanOrEqual(5);
    const entries = (await admin.get('/api/activity?limit=200')).body.entries as Array<{ seq: number; kind: string; details: Record<string, unknown> }>;
    expect(entries.map((entry) => entry.kind)).toEqual(['activity.pruned', 'folder.created', 'sign_in.succeeded']);
    expect(entries[0]!.details).toMatchObject({ through_seq: 5 });
    expect((await admin.get('/api/activity/verify')).body).toEqual({ ok: true, entries: 3, first_broken_seq: null });
    const cli = await runCli(['verify-activity', name]);
    expect(cli.stdout).toContain('intact: 3 entries verified (entries before 6 were removed by retention).');
  }, 60_000);

  it('never removes an account\'s newest entry, so the chain goes on from it', async () => {
    const name = `quiet_${randomBytes(3).toString('hex')}`;
    const admin = await signedIn(name);
    server.clock.advance(30 * DAY);
    await server.app.activity.prune(server.clock.now());
    expect((await admin.login(name, 'correct horse')).status).toBe(200);
    await admin.post('/api/folders/', { title: 'After a quiet month', perform_mime_check: false });
    const seqs = ((await admin.get('/api/activity?limit=200')).body.entries as Array<{ seq: number }>).map((entry) => entry.seq);
    // 1 removed, 2 (the newest then) kept, 3 the removal's record, 4 the sign-in, 5 the folder.
    expect(seqs).toEqual([5, 4, 3, 2]);
    expect((await admin.get('/api/activity/verify')).body.ok).toBe(true);
  });

  it('reports the oldest entries removed by hand, which retention did not record', async () => {
    const name = `trimmed_${randomBytes(3).toString('hex')}`;
    const admin = await signedIn(name);
    for (let i = 0; i < 3; i++) await admin.post('/api/folders/', { title: `Folder ${i}`, perform_mime_check: false });
    const user = (await server.app.repos.users.findByUsername(name))!;
    const database = await intruder();
    try {
      await database.db.deleteFrom('activity_log').where('user_id', '=', user.id).where('seq', '<=', 2).execute();
    } finally {
      await database.close();
    }
    expect((await admin.get('/api/activity/verify')).body).toEqual({ ok: false, entries: 0, first_broken_seq: 2 });
    const cli = await runCli(['verify-activity', name]);
    expect(cli.code).toBe(1);
    expect(cli.stderr).toContain('is broken at entry 2: it and the entries before it are missing, and retention did not remove them (removed).');
  }, 60_000);
});
