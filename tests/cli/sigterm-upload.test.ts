// SIGTERM to a real server process (node + tsx, server/main.ts) in the middle of a 1 GiB upload
// by `npm run upload`: /readyz turns 503 (draining) at once; the process exits 0 within its grace
// time (SHUTDOWN_GRACE_SECONDS), the upload's PATCH in flight finished or cut at a flushed
// offset; the command keeps trying; a server started again on the same data lets it continue the
// same upload; the folder never lists a partial file; the stored file decrypts to the original.
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { AdminClient } from '../../e2e/support/api-client.ts';
import { cipherLength, DecryptRecords, unwrapFileKey } from '../../server/crypto/index.ts';
import { jsonLines, killLeftoverCommands, runCommand } from './cli-fixtures.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const GiB = 1024 * 1024 * 1024;
const GRACE_SECONDS = 8;
const children: ChildProcess[] = [];
const dirs: string[] = [];

afterEach(() => {
  killLeftoverCommands();
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

interface Started {
  child: ChildProcess;
  exited: Promise<number | null>;
}

async function startServer(port: number, dataDir: string): Promise<Started> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      STATIC_DIR: path.join(dataDir, 'no-app'),
      LOG_LEVEL: 'warn',
      SHUTDOWN_DRAIN_SECONDS: '2',
      SHUTDOWN_GRACE_SECONDS: String(GRACE_SECONDS),
      UPLOAD_SWEEP_INTERVAL_MINUTES: '0',
    },
  });
  children.push(child);
  child.stderr!.resume();
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await expect.poll(async () => (await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => null))?.status, { timeout: 60_000, interval: 200 }).toBe(200);
  return { child, exited };
}

/** 1 GiB of incompressible bytes, written in 16 MiB pieces; answers its SHA-256. */
function writeLargeFile(file: string, bytes: number): string {
  const hash = createHash('sha256');
  const fd = fs.openSync(file, 'w');
  const piece = randomBytes(16 * 1024 * 1024);
  for (let written = 0; written < bytes; written += piece.length) {
    piece.writeUInt32BE(written / piece.length, 0);
    const part = piece.subarray(0, Math.min(piece.length, bytes - written));
    fs.writeSync(fd, part);
    hash.update(part);
  }
  fs.closeSync(fd);
  return hash.digest('hex');
}

describe('SIGTERM during a 1 GiB command-line upload', { timeout: 600_000 }, () => {
  it('readyz 503 while draining, exit 0 within the grace time, the upload continues after the restart, nothing partial listed', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sealdrop-sigterm-'));
    dirs.push(dataDir);
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    let server = await startServer(port, dataDir);
    const { admin, keys } = await AdminClient.create(base, dataDir, 'sigterm');
    const folder = await admin.createFolder({ title: 'Nightly backup', perform_mime_check: false });
    const source = path.join(dataDir, 'backup.tar');
    const size = GiB + 12_345;
    const digest = writeLargeFile(source, size);

    const run = runCommand('upload', [`${base}/upload/${folder.link_token}`, source, '--json', '--state-dir', path.join(dataDir, 'cli-state'), '--chunk-mib', '32']);
    const unfinished = async () => ((await (await admin.request('GET', `/api/folders/${folder.id}/uploads`)).json()) as Array<{ received_bytes: number; upload_length: number }>)[0];
    await expect.poll(async () => (await unfinished())?.received_bytes ?? 0, { timeout: 120_000, interval: 100 }).toBeGreaterThan(256 * 1024 * 1024);

    const signalledAt = performance.now();
    server.child.kill('SIGTERM');
    await expect.poll(async () => (await fetch(`${base}/readyz`).catch(() => null))?.status, { timeout: 2_000, interval: 50 }).toBe(503);
    const draining = await fetch(`${base}/readyz`).catch(() => null);
    if (draining) expect((await draining.json()).status).toBe('draining');
    const code = await server.exited;
    const seconds = (performance.now() - signalledAt) / 1000;
    expect(code).toBe(0);
    // Within the grace time (the backstop would have exited 1 at it); the bound allows for a loaded machine's scheduling.
    expect(seconds).toBeLessThan(GRACE_SECONDS + 2);
    expect(run.child.exitCode).toBeNull();

    server = await startServer(port, dataDir);
    // While it continues, the folder lists no file: only complete files are ever listed.
    const during = (await (await admin.request('GET', `/api/folders/${folder.id}/files`)).json()) as unknown[];
    const received = await unfinished();
    if (received) {
      expect(during).toEqual([]);
      expect(received.received_bytes).toBeLessThan(received.upload_length);
    }
    const result = await run.done;
    expect(result.code).toBe(0);
    const [line] = jsonLines(result.stdout).filter((entry) => entry.event === 'file');
    expect(line).toMatchObject({ status: 'stored', size });

    const files = await admin.listFiles(folder.id);
    expect(files).toHaveLength(1);
    expect(files[0]!.file_size).toBe(size);
    expect(files[0]!.file_hash).toBe(digest);
    expect(await unfinished()).toBeUndefined();
    const blob = await admin.downloadCiphertext(files[0]!.id);
    expect(Number(blob.headers.get('content-length'))).toBe(cipherLength(size));
    const decrypt = new DecryptRecords(unwrapFileKey(keys.privateKey, files[0]!.encrypted_key), Buffer.from(files[0]!.encryption_iv, 'base64'));
    const plainHash = createHash('sha256');
    decrypt.on('data', (chunk: Buffer) => plainHash.update(chunk));
    for await (const chunk of blob.body!) decrypt.write(chunk);
    await new Promise<void>((resolve, reject) => decrypt.once('error', reject).end(resolve));
    expect(plainHash.digest('hex')).toBe(digest);

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });
});
