// Issue 28: retention. A folder's files are deleted `retention_days` after their upload by the
// sweep: record, blob and the room they held, each file once, logged, recorded in the owner's
// activity log (files.retention_deleted) and announced as files.deleted. Several processes
// deleting at once (without the sweep's lease) still delete and report each file exactly once:
// the delete hands every row to one of them. Runs on SQLite and on PostgreSQL (DATABASE_URL).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewFileRecord } from '../../server/db/repositories/index.ts';
import { seedFile } from '../server/files-fixtures.ts';
import { signedInClient, startServer, type TestServer } from '../server/harness.ts';

const DAY = 86_400_000;
const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
let server: TestServer;
const logLines: string[] = [];

beforeAll(async () => {
  server = await startServer({
    env: { UPLOAD_SWEEP_INTERVAL_MINUTES: '0', LOG_LEVEL: 'info' },
    logStream: { write: (line: string) => logLines.push(line) },
  });
});
afterAll(() => server.close());

function blobPath(blobKey: string): string {
  return path.join(server.config.dataDir, 'blobs', blobKey);
}

/** Runs one retention pass in a separate process (retention-process.ts); resolves with the ids it deleted. */
function retentionProcess(now: number): Promise<number[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'tests/storage/retention-process.ts', String(now)], {
      cwd: REPO_ROOT,
      env: { ...process.env, ...server.env, LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) reject(new Error(`retention process exited with ${code}: ${err}`));
      else resolve((JSON.parse(out.trim().split('\n').pop()!) as { deleted: number[] }).deleted);
    });
  });
}

describe('retention', () => {
  it('deletes files N days after their upload, once, logged and recorded, and keeps the younger ones', async () => {
    const { client } = await signedInClient(server, 'keeper');
    const created = await client.post('/api/folders/', { title: 'Client documents', retention_days: 2, storage_limit_bytes: null });
    expect(created.body.retention_days).toBe(2);
    const folderId: number = created.body.id;
    const elsewhere = await client.post('/api/folders/', { title: 'Kept forever', retention_days: null });
    const old = await seedFile(server, folderId, { name: 'old.pdf' });
    const kept = await seedFile(server, elsewhere.body.id, { name: 'forever.pdf' });
    server.clock.advance(DAY);
    const young = await seedFile(server, folderId, { name: 'young.pdf' });

    server.clock.advance(DAY + 1);
    // The admin's session outlived by the clock: sign in again to read what happened.
    expect((await client.login('keeper', 'correct horse')).status).toBe(200);
    const report = await server.app.sweepUploads();
    expect(report.retentionDeleted).toBe(1);

    const names = (await client.get(`/api/folders/${folderId}/files`)).body.map((file: { original_filename: string }) => file.original_filename);
    expect(names).toEqual(['young.pdf']);
    expect(fs.existsSync(blobPath(old.blobKey))).toBe(false);
    expect(fs.existsSync(blobPath(young.blobKey))).toBe(true);
    expect(fs.existsSync(blobPath(kept.blobKey))).toBe(true);
    expect(await server.app.repos.folderUsage.usageOf(folderId)).toEqual(await server.app.repos.folderUsage.recount(folderId));

    const activity = await client.get('/api/activity?kind=files.retention_deleted');
    expect(activity.body.entries).toEqual([
      expect.objectContaining({
        kind: 'files.retention_deleted',
        folder_id: folderId,
        details: { title: 'Client documents', file_ids: [old.id], retention_days: 2 },
      }),
    ]);
    expect((await client.get('/api/activity/verify')).body.ok).toBe(true);
    expect(logLines.some((line) => line.includes('"msg":"retention deleted files"') && line.includes(`"folderId":${folderId}`))).toBe(true);

    // A second sweep finds nothing more to do, and records nothing more.
    expect((await server.app.sweepUploads()).retentionDeleted).toBe(0);
    expect((await client.get('/api/activity?kind=files.retention_deleted')).body.entries).toHaveLength(1);
    // Out of the next test's way.
    expect((await client.request('DELETE', `/api/folders/${folderId}`)).status).toBe(204);
  });

  it('three processes deleting at once (no lease) delete and report each expired file exactly once', async () => {
    const { client } = await signedInClient(server, 'racer');
    const folders = [
      (await client.post('/api/folders/', { title: 'A', retention_days: 1, storage_limit_bytes: null, file_limit: null })).body.id as number,
      (await client.post('/api/folders/', { title: 'B', retention_days: 3, storage_limit_bytes: null, file_limit: null })).body.id as number,
    ];
    const uploadTime = server.clock.now();
    const record = (folderId: number, n: number, time: number): NewFileRecord => ({
      folderId,
      originalFilename: `f${n}.bin`,
      storedFilename: `u/f${n}.bin`,
      relativePath: '.',
      fileSize: 10 + n,
      fileHash: 'a'.repeat(64),
      encryptedKey: 'a2V5',
      encryptionIv: 'aXY=',
      blobKey: `files/race-${folderId}-${n}`,
      uploadTime: time,
    });
    // 700 files due in A (more than one batch), 300 in B that are not due yet.
    const due = await server.app.repos.files.createMany(Array.from({ length: 700 }, (_, n) => record(folders[0]!, n, uploadTime)));
    await server.app.repos.files.createMany(Array.from({ length: 300 }, (_, n) => record(folders[1]!, n, uploadTime)));

    const now = uploadTime + 2 * DAY;
    const results = await Promise.all([retentionProcess(now), retentionProcess(now), retentionProcess(now)]);
    const all = results.flat();
    expect(all.length, `per process: ${results.map((ids) => ids.length).join(', ')}`).toBe(700);
    expect(new Set(all).size).toBe(700);
    expect(new Set(all)).toEqual(new Set(due.map((file) => file.id)));

    expect(await server.app.repos.files.listForFolder(folders[0]!)).toEqual([]);
    expect(await server.app.repos.files.listForFolder(folders[1]!)).toHaveLength(300);
    for (const folderId of folders) {
      expect(await server.app.repos.folderUsage.usageOf(folderId)).toEqual(await server.app.repos.folderUsage.recount(folderId));
    }
    expect(await server.app.repos.folderUsage.usageOf(folders[0]!)).toEqual({ bytes: 0, files: 0 });
  }, 60_000);
});
