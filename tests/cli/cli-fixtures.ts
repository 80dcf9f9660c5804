// Shared pieces of the command-line client tests: an admin with an RSA key pair (node:crypto, as
// the browser would make it) and folders made through the API, the commands run as real child
// processes (node + tsx, as `npm run upload` / `npm run fetch` run them), and the stored files read
// back through the admin's download route and decrypted with the independent implementation.
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { decryptBuffer, generateRsaKeyPair, unwrapFileKey, type NodeKeyPair } from '../../server/crypto/index.ts';
import os from 'node:os';
import { afterEach } from 'vitest';
import { signedInClient, startServer, type StartOptions, type TestServer } from '../server/harness.ts';
import type { TestClient } from '../server/http-client.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export const sha256 = (data: Buffer): string => createHash('sha256').update(data).digest('hex');

export interface Admin {
  client: TestClient;
  keys: NodeKeyPair;
  password: string;
}

let admins = 0;

export async function adminWithKeys(server: TestServer): Promise<Admin> {
  const { client, password } = await signedInClient(server, `cli-admin-${++admins}`);
  const keys = generateRsaKeyPair();
  const put = await client.put('/api/auth/public-key', { public_key_spki: keys.publicKeySpki });
  if (put.status !== 200) throw new Error(`public key: ${put.status}`);
  return { client, keys, password };
}

export async function createFolder(admin: Admin, payload: Record<string, unknown> = {}): Promise<{ id: number; link_token: string }> {
  const response = await admin.client.post('/api/folders/', { title: 'CLI uploads', perform_mime_check: false, ...payload });
  if (response.status !== 201) throw new Error(`folder: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

export interface StoredPlain {
  path: string;
  content: Buffer;
  file: { id: number; file_hash: string; file_size: number; encryption_iv: string };
}

/** Every file of the folder, downloaded as the admin and decrypted with the private key. */
export async function storedFiles(server: TestServer, admin: Admin, folderId: number): Promise<StoredPlain[]> {
  const list = await admin.client.get(`/api/folders/${folderId}/files`);
  const out: StoredPlain[] = [];
  for (const file of list.body as Array<{ id: number; relative_path: string; original_filename: string; encrypted_key: string; encryption_iv: string; file_hash: string; file_size: number }>) {
    const response = await fetch(`${server.baseUrl}/api/folders/download/${file.id}`, { headers: { cookie: [...admin.client.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } });
    const sealed = Buffer.from(await response.arrayBuffer());
    const key = unwrapFileKey(admin.keys.privateKey, file.encrypted_key);
    out.push({
      path: file.relative_path === '.' ? file.original_filename : `${file.relative_path}/${file.original_filename}`,
      content: decryptBuffer(key, Buffer.from(file.encryption_iv, 'base64'), sealed),
      file,
    });
  }
  return out.sort((a, b) => (a.path < b.path ? -1 : 1));
}

export interface CommandRun {
  child: ChildProcess;
  /** Resolves when the process has exited. */
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
  stdout(): string;
  stderr(): string;
}

const running = new Set<ChildProcess>();

/** Kills the commands a test left running (a failed test must not leave them uploading). */
export function killLeftoverCommands(): void {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
}

/**
 * What each command test leaves behind, removed after it (registers an afterEach): the commands it
 * ran, whatever it handed to `cleanUp` (latest first), the server it started and the temporary
 * directories it made.
 */
export function commandTestBed() {
  let server: TestServer | undefined;
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    killLeftoverCommands();
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    // The test process's own keep-alive connections (fetch) are not the server's to wait for.
    server?.app.server.closeAllConnections();
    await server?.close();
    server = undefined;
  });
  return {
    async startServer(options?: StartOptions): Promise<TestServer> {
      server = await startServer(options);
      return server;
    },
    tempDir(prefix: string): string {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
      cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
      return dir;
    },
    cleanUp(cleanup: () => Promise<void> | void): void {
      cleanups.push(cleanup);
    },
  };
}

/**
 * Runs `cli/<command>.ts` as `npm run <command>` would (without npm), with `input` on standard
 * input (then closed), or with standard input left open for the test to write to (`keepStdin`).
 */
export function runCommand(command: 'upload' | 'fetch', args: string[], options: { input?: string; keepStdin?: boolean; env?: Record<string, string> } = {}): CommandRun {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'cli', `${command}.ts`), ...args], {
    cwd: ROOT,
    env: { ...process.env, ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  if (options.input !== undefined) child.stdin!.end(options.input);
  else if (!options.keepStdin) child.stdin!.end();
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) =>
    // 'close', not 'exit': the output pipes are read to their end first.
    child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return { child, done, stdout: () => stdout, stderr: () => stderr };
}

/** The --json lines of a run. */
export function jsonLines(stdout: string): Array<Record<string, any>> {
  return stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, any>);
}

/** Writes a tree of files under `root` ('a/b/c.txt' -> content) and returns root. */
export function writeTree(root: string, files: Record<string, Buffer>): string {
  for (const [relative, content] of Object.entries(files)) {
    const target = path.join(root, relative);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, content);
  }
  return root;
}
