// The activity log's head anchor and key, over real HTTP and the real admin CLI: signed checkpoints
// go to the anchor file after each entry, and into exports, webhook payloads and notification
// e-mails; `npm run admin -- verify-activity` reports the newest entries removed in the database
// (a truncation, with the missing seqs), a chain cut and written anew, and a tampered anchor line;
// the chain key shares nothing with the webhook signing key; two processes with the shared keys
// (on PostgreSQL, each with a DATA_DIR of its own, as on two machines) keep a chain that verifies.
// The tests play the attacker by writing the database (and the anchor file) behind the server's back.
import { spawn } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { createActivityLog } from '../../server/activity/activity-log.ts';
import { activityKeys, entryHash } from '../../server/activity/chain.ts';
import { loadConfig } from '../../server/config.ts';
import { openDatabase } from '../../server/db/connection.ts';
import { startServer, usingPostgres, type TestServer } from './harness.ts';
import { TestClient } from './http-client.ts';
import { startPeerProcess } from './peer-process.ts';
import { createFolderOf, MultipartBody, postMultipart, uploadPath } from './upload-helpers.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const WEBHOOK_KEY = randomBytes(32).toString('base64url');
let server: TestServer;
let scratch: string;

beforeAll(async () => {
  server = await startServer({
    // The webhook test's receiver is on loopback, which webhooks may reach only when the operator allows it.
    env: { WEBHOOK_SIGNING_KEY: WEBHOOK_KEY, WEBHOOK_CHECK_SECONDS: '0', WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1/32' },
    ownPublicUrl: true,
  });
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'sealdrop-anchor-test-'));
}, 60_000);
afterAll(async () => {
  await server?.close();
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

function verifyCli(username: string, ...extra: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(path.join(ROOT, 'node_modules/.bin/tsx'), ['server/cli.ts', 'verify-activity', username, ...extra], {
      cwd: ROOT,
      env: { ...process.env, ...server.env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A new account, signed in, with `folders` folders made: 1 sign-in entry plus one entry per folder. */
async function accountWithEntries(prefix: string, folders: number): Promise<{ name: string; client: TestClient; userId: number }> {
  const name = `${prefix}_${randomBytes(3).toString('hex')}`;
  const user = await server.createUser(name, 'correct horse');
  const client = server.client();
  expect((await client.login(name, 'correct horse')).status).toBe(200);
  for (let i = 0; i < folders; i++) expect((await client.post('/api/folders/', { title: `Folder ${i}`, perform_mime_check: false })).status).toBe(201);
  return { name, client, userId: user.id };
}

/** Removes the account's entries after `seq`, as someone who can write the database would. */
async function cutAfter(userId: number, seq: number): Promise<void> {
  const database = await openDatabase(loadConfig(server.env).database);
  try {
    await database.db.deleteFrom('activity_log').where('user_id', '=', userId).where('seq', '>', seq).execute();
  } finally {
    await database.close();
  }
}

function anchorFile(): string {
  return server.config.activity.anchorFile;
}

describe('the anchor file', () => {
  it('holds a signed checkpoint of every entry, outside the database; an intact log verifies against them', async () => {
    const { name } = await accountWithEntries('intact', 3);
    expect(path.dirname(anchorFile())).toBe(server.config.dataDir);
    expect(anchorFile()).not.toBe(server.config.database.kind === 'sqlite' ? server.config.database.file : '');
    const intact = await verifyCli(name);
    expect(intact.stderr).toBe('');
    expect(intact.code).toBe(0);
    expect(intact.stdout).toContain(`The activity log of "${name}" is intact: 4 entries verified. 4 signed checkpoints match (the newest attests to entry 4).`);
  }, 60_000);

  it('shows the newest entries removed in the database: verify-activity reports a truncation with the missing seqs', async () => {
    const { name, client, userId } = await accountWithEntries('truncated', 5);
    await cutAfter(userId, 3);
    // The chain alone still verifies: what is left is an unbroken chain.
    expect((await client.get('/api/activity/verify')).body).toEqual({ ok: true, entries: 3, first_broken_seq: null });
    const cut = await verifyCli(name);
    expect(cut.code).toBe(1);
    expect(cut.stderr).toContain(
      `The activity log of "${name}" is truncated: entries 4 to 6 are missing, and a signed checkpoint attests that the log had reached entry 6 (the newest entries were removed).`,
    );
  }, 60_000);

  it('shows a chain cut and written on: the entry at a checkpoint\'s seq has another hash', async () => {
    const { name, client, userId } = await accountWithEntries('rewritten', 3);
    await cutAfter(userId, 2);
    // The server goes on from the cut: its next entries take the removed entries' seqs.
    for (let i = 0; i < 2; i++) await client.post('/api/folders/', { title: `After the cut ${i}`, perform_mime_check: false });
    expect((await client.get('/api/activity/verify')).body.ok).toBe(true);
    const rewritten = await verifyCli(name);
    expect(rewritten.code).toBe(1);
    expect(rewritten.stderr).toContain(
      `The activity log of "${name}" is broken at entry 3: a signed checkpoint gives another hash for it (the log was cut there and written anew).`,
    );
  }, 60_000);

  it('reports a tampered anchor line: an edited checkpoint and a line that is none', async () => {
    const { name } = await accountWithEntries('anchored', 1);
    const original = fs.readFileSync(anchorFile(), 'utf8');
    const lines = original.trimEnd().split('\n');
    const last = lines.length;
    try {
      // The last line claims a later seq than it was signed for (someone hiding or inventing entries).
      lines[last - 1] = lines[last - 1]!.replace(/^(ac1:\d+:)(\d+)(:)/, (_, head: string, seq: string, colon: string) => `${head}${Number(seq) + 7}${colon}`);
      fs.writeFileSync(anchorFile(), `${lines.join('\n')}\nnot a checkpoint\n`);
      const tampered = await verifyCli(name);
      expect(tampered.code).toBe(1);
      expect(tampered.stderr).toContain(`${anchorFile()} line ${last} is a checkpoint not signed by the activity chain key (tampered).`);
      expect(tampered.stderr).toContain(`${anchorFile()} line ${last + 1} is not a checkpoint (tampered).`);
    } finally {
      fs.writeFileSync(anchorFile(), original);
    }
    expect((await verifyCli(name)).code).toBe(0);
  }, 60_000);
});

describe('checkpoints outside the server', () => {
  it('an export attests to what it saw: with the anchor file gone too, the export given to verify-activity shows the cut', async () => {
    const { name, client, userId } = await accountWithEntries('exported', 4);
    const csv = await client.get('/api/activity/export?format=csv&kind=folder.created');
    const json = await client.get('/api/activity/export?format=json');
    const csvFile = path.join(scratch, `${name}.csv`);
    const jsonFile = path.join(scratch, `${name}.json`);
    fs.writeFileSync(csvFile, csv.body as string);
    fs.writeFileSync(jsonFile, JSON.stringify(json.body, null, 2));
    expect(json.body.checkpoint).toMatch(new RegExp(`^ac1:${userId}:5:[0-9a-f]{64}:[0-9a-f]{64}$`));

    await cutAfter(userId, 2);
    const anchorCopy = `${anchorFile()}.kept`;
    fs.renameSync(anchorFile(), anchorCopy);
    try {
      const withoutAnchor = await verifyCli(name);
      expect(withoutAnchor.code).toBe(0);
      expect(withoutAnchor.stdout).toContain('No signed checkpoint of this account was found, so removal of its newest entries cannot be ruled out.');
      for (const file of [csvFile, jsonFile]) {
        const fromExport = await verifyCli(name, '--checkpoints', file);
        expect(fromExport.code, file).toBe(1);
        expect(fromExport.stderr).toContain(`is truncated: entries 3 to 5 are missing`);
      }
    } finally {
      fs.renameSync(anchorCopy, anchorFile());
    }
  }, 90_000);

  it('a notification e-mail carries the checkpoint: the saved message, given to verify-activity, shows entries removed after it', async () => {
    const name = `mailed_${randomBytes(3).toString('hex')}`;
    const user = await server.createUser(name, 'correct horse', `${name}@example.com`);
    const folder = await createFolderOf(server, user.id, { title: 'Inbox', requireEmail: false, performMimeCheck: false });
    const admin = server.client();
    expect((await admin.login(name, 'correct horse')).status).toBe(200);
    const body = new MultipartBody();
    body.files([{ name: 'scan.pdf', data: randomBytes(server.app.uploads.sizes.encryptedLength(1000)), relativePath: '.' }]);
    expect((await postMultipart(server.client(), uploadPath(folder), body)).status).toBe(200);
    server.clock.advance(server.config.notify.quietMs + 1);
    expect((await server.app.notifications.notifyUploads(server.clock.now())).sent).toBe(1);
    const outbox = server.config.mail.outboxDir;
    const message = fs.readdirSync(outbox).map((file) => fs.readFileSync(path.join(outbox, file), 'utf8')).find((text) => text.includes(`${name}@example.com`));
    expect(message).toBeDefined();
    const saved = path.join(scratch, `${name}.eml`);
    fs.writeFileSync(saved, message!);
    for (let i = 0; i < 2; i++) await admin.post('/api/folders/', { title: `Later ${i}`, perform_mime_check: false });

    // Sign-in and upload were entries 1 and 2 when the message was sent; 3 and 4 came later.
    await cutAfter(user.id, 1);
    const anchorCopy = `${anchorFile()}.kept`;
    fs.renameSync(anchorFile(), anchorCopy);
    try {
      const fromMail = await verifyCli(name, '--checkpoints', saved);
      expect(fromMail.code).toBe(1);
      expect(fromMail.stderr).toContain(`The activity log of "${name}" is truncated: entry 2 is missing, and a signed checkpoint attests that the log had reached entry 2`);
    } finally {
      fs.renameSync(anchorCopy, anchorFile());
    }
  }, 60_000);

  it('webhook payloads carry the account\'s current checkpoint', async () => {
    const bodies: string[] = [];
    const receiver: Server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        bodies.push(Buffer.concat(chunks).toString('utf8'));
        response.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const { client, userId } = await accountWithEntries('hooked', 1);
      const url = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
      expect((await client.request('PUT', '/api/auth/webhook', { json: { url } })).status).toBe(200);
      expect((await client.post('/api/auth/webhook/test')).status).toBe(202);
      await server.settled();
      expect(bodies).toHaveLength(1);
      const head = (await client.get('/api/activity?limit=1')).body.entries[0] as { seq: number; hash: string };
      expect(JSON.parse(bodies[0]!).activity_checkpoint).toMatch(new RegExp(`^ac1:${userId}:${head.seq}:${head.hash}:[0-9a-f]{64}$`));
    } finally {
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
  });
});

describe('the chain key', () => {
  it('shares nothing with the webhook signing key: an entry hashed under the old webhook-derived key does not match', async () => {
    const { client, userId } = await accountWithEntries('keyed', 1);
    const entry = (await client.get('/api/activity?limit=1')).body.entries[0] as Record<string, any>;
    const database = await openDatabase(loadConfig(server.env).database);
    try {
      const row = await database.db.selectFrom('activity_log').selectAll().where('user_id', '=', userId).where('seq', '=', entry.seq).executeTakeFirstOrThrow();
      const fields = { userId, seq: row.seq, at: Number(row.at), kind: row.kind, folderId: row.folder_id, details: row.details, ipHash: row.ip_hash };
      const fromWebhookKey = createHmac('sha256', Buffer.from(WEBHOOK_KEY, 'utf8')).update('sealdrop/activity-chain/v1').digest();
      expect(row.hash).toBe(entry.hash);
      expect(entryHash(fromWebhookKey, row.prev_hash, fields)).not.toBe(row.hash);
    } finally {
      await database.close();
    }
    if (!usingPostgres) expect(fs.existsSync(path.join(server.config.dataDir, 'activity-chain.key'))).toBe(true);
  });

  it('keeps verifying a log written before the upgrade (under the webhook-derived key), but never accepts that key after the chain key\'s first entry', async () => {
    const name = `upgraded_${randomBytes(3).toString('hex')}`;
    const user = await server.createUser(name, 'correct horse');
    // The log as the previous version wrote it: chain keyed by HMAC(webhook key, "sealdrop/activity-chain/v1").
    const fromWebhookKey = createHmac('sha256', Buffer.from(WEBHOOK_KEY, 'utf8')).update('sealdrop/activity-chain/v1').digest();
    const before = createActivityLog({
      repos: server.app.repos,
      keys: { ...activityKeys(randomBytes(32)), chainKey: fromWebhookKey },
      anchor: null,
      now: server.clock.now,
      log: pino({ level: 'silent' }),
    });
    for (let i = 0; i < 3; i++) await before.append(user.id, 'folder.created', { details: { title: `Before ${i}` } });
    const client = server.client();
    expect((await client.login(name, 'correct horse')).status).toBe(200);
    await client.post('/api/folders/', { title: 'After', perform_mime_check: false });
    expect((await client.get('/api/activity/verify')).body).toEqual({ ok: true, entries: 5, first_broken_seq: null });
    const upgraded = await verifyCli(name);
    expect(upgraded.code).toBe(0);
    expect(upgraded.stdout).toContain('intact: 5 entries verified.');
    expect(upgraded.stdout).toContain('3 entries from before the activity chain key verified under the key derived from the webhook signing key.');

    // Someone holding the webhook key rewrites the newest entry under the old key: refused there.
    const database = await openDatabase(loadConfig(server.env).database);
    try {
      const row = await database.db.selectFrom('activity_log').selectAll().where('user_id', '=', user.id).where('seq', '=', 5).executeTakeFirstOrThrow();
      const forged = { userId: user.id, seq: 5, at: Number(row.at), kind: row.kind, folderId: row.folder_id, details: '{"title":"Forged"}', ipHash: row.ip_hash };
      await database.db
        .updateTable('activity_log')
        .set({ details: forged.details, hash: entryHash(fromWebhookKey, row.prev_hash, forged) })
        .where('user_id', '=', user.id)
        .where('seq', '=', 5)
        .execute();
    } finally {
      await database.close();
    }
    expect((await client.get('/api/activity/verify')).body).toEqual({ ok: false, entries: 0, first_broken_seq: 5 });
  }, 60_000);
});

describe('two processes', () => {
  it('with the shared keys set, entries written by two processes at once verify clean against both anchor files', async () => {
    // On PostgreSQL the second process has a DATA_DIR (and so key files and anchor file) of its
    // own, as on another machine: only the shared settings make its entries verify.
    const peerDir = usingPostgres ? fs.mkdtempSync(path.join(os.tmpdir(), 'sealdrop-peer-')) : server.config.dataDir;
    const peer = await startPeerProcess(server, usingPostgres ? { DATA_DIR: peerDir } : {});
    try {
      const { name, client } = await accountWithEntries('pair', 0);
      const onPeer = new TestClient(peer.baseUrl);
      expect((await onPeer.login(name, 'correct horse')).status).toBe(200);
      await Promise.all(
        Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? client : onPeer).post('/api/folders/', { title: `Race ${i}`, perform_mime_check: false })),
      );
      expect((await client.get('/api/activity/verify')).body).toEqual({ ok: true, entries: 22, first_broken_seq: null });
      const extra = usingPostgres ? ['--checkpoints', path.join(peerDir, 'activity-anchor.log')] : [];
      const verified = await verifyCli(name, ...extra);
      expect(verified.stderr).toBe('');
      expect(verified.stdout).toContain('intact: 22 entries verified. 22 signed checkpoints match (the newest attests to entry 22).');
    } finally {
      await peer.stop();
      if (usingPostgres) fs.rmSync(peerDir, { recursive: true, force: true });
    }
  }, 90_000);
});
