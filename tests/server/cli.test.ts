// The admin CLI, run as a real process against the same data as a running server.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { verify } from '@node-rs/argon2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARGON2_DEFAULT_COST, deriveAccountSecrets, parseAccountKdfParams } from '../../crypto/index.ts';
import { createFolder, seedFile } from './files-fixtures.ts';
import { signedInClient, startServer, type TestServer } from './harness.ts';
import { totpAt } from './totp-reference.ts';
import { CLI_TEST_TIMEOUT_MS } from '../support/cli-timeouts.ts';

const root = path.resolve(import.meta.dirname, '../..');
let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runCli(args: string[], stdin = ''): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(root, 'node_modules/.bin/tsx'), ['server/cli.ts', ...args], {
      cwd: root,
      env: { ...process.env, ...server.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

describe('npm run admin', { timeout: CLI_TEST_TIMEOUT_MS }, () => {
  it('create-user --password-stdin creates a user who can sign in', async () => {
    const result = await runCli(['create-user', 'Admin', '--email', 'admin@example.com', '--password-stdin'], 'first password\n');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Created user "Admin"');

    const login = await server.client().login('admin', 'first password');
    expect(login.status).toBe(200);
    expect(login.body.user).toMatchObject({ username: 'Admin', email: 'admin@example.com' });
  });

  it('create-user derives exactly as the browser does: a block bound to the name (scheme 3) at the default cost, and the hash of the secret the browser derives', async () => {
    const user = (await server.app.repos.users.findByUsername('admin'))!;
    const params = parseAccountKdfParams(user.kdfParams!);
    expect(params).toMatchObject({ ...ARGON2_DEFAULT_COST, scheme: 3, name: 'admin' });
    // The browser's implementation (hash-wasm + WebCrypto), not the node one the CLI used.
    const { authSecret } = await deriveAccountSecrets('first password', user.kdfParams!, 'Admin');
    expect(await verify(user.passwordHash, authSecret)).toBe(true);
    expect(await verify(user.passwordHash, 'first password')).toBe(false);
  });

  it('refuses a duplicate username (any case), an invalid one, a short password, a bad e-mail', async () => {
    const duplicate = await runCli(['create-user', 'ADMIN', '--password-stdin'], 'another password\n');
    expect(duplicate.code).toBe(1);
    expect(duplicate.stderr).toContain('Username "ADMIN" is already taken.');

    const invalid = await runCli(['create-user', 'no spaces', '--password-stdin'], 'another password\n');
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toContain('Invalid username "no spaces"');

    const tooShort = await runCli(['create-user', 'ab', '--password-stdin'], 'another password\n');
    expect(tooShort.code).toBe(1);
    expect(tooShort.stderr).toContain('at least 3 characters');

    const shortPassword = await runCli(['create-user', 'newbie', '--password-stdin'], 'short\n');
    expect(shortPassword.code).toBe(1);
    expect(shortPassword.stderr).toContain('Password must be at least 8 characters long.');

    const email = await runCli(['create-user', 'newbie', '--email', 'nope', '--password-stdin'], 'long enough\n');
    expect(email.code).toBe(1);
    expect(email.stderr).toContain('Invalid e-mail address');
  });

  it('refuses a missing password when standard input is not a terminal', async () => {
    const result = await runCli(['create-user', 'newbie']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--password-stdin');
  });

  it('reset-password sets a new password and ends the sessions', async () => {
    const client = server.client();
    await client.login('admin', 'first password');
    expect((await client.get('/api/auth/users/me')).status).toBe(200);

    const before = (await server.app.repos.users.findByUsername('admin'))!.kdfParams;
    const result = await runCli(['reset-password', 'admin', '--password-stdin'], 'second password\n');
    expect(result.code).toBe(0);
    // It says plainly that the private key needs its backup file now.
    expect(result.stdout).toContain('restores the key from the backup file');
    const after = (await server.app.repos.users.findByUsername('admin'))!;
    expect(after.kdfParams).not.toBe(before);
    expect(parseAccountKdfParams(after.kdfParams!)).toMatchObject(ARGON2_DEFAULT_COST);
    expect((await client.get('/api/auth/users/me')).body).toEqual({ detail: 'Session expired', code: 'SESSION_EXPIRED' });
    expect((await server.client().login('admin', 'first password')).status).toBe(401);
    expect((await server.client().login('admin', 'second password')).status).toBe(200);

    const unknown = await runCli(['reset-password', 'ghost', '--password-stdin'], 'second password\n');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No user named "ghost".');
  });

  it('disable-2fa lets a locked-out admin sign in with the password alone', async () => {
    const client = server.client();
    await client.login('admin', 'second password');
    const secret = (await client.post('/api/auth/2fa/setup')).body.secret as string;
    expect((await client.post('/api/auth/2fa/enable', { code: totpAt(secret, server.clock.now()) })).status).toBe(200);
    expect((await server.client().login('admin', 'second password')).body).toEqual({
      message: 'OTP code required',
      username: 'Admin',
    });

    const result = await runCli(['disable-2fa', 'admin']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Two-factor authentication is now off for "Admin".');
    expect((await server.client().login('admin', 'second password')).body.user.is_2fa_enabled).toBe(false);
  });

  it('create-user makes the first account an organisation admin, later ones members unless --role admin, and refuses an unknown role', async () => {
    expect((await server.app.repos.users.findByUsername('admin'))?.orgRole).toBe('admin');
    const promoted = await runCli(['create-user', 'second-admin', '--role', 'admin', '--password-stdin'], 'second password\n');
    expect(promoted.code).toBe(0);
    expect(promoted.stdout).toContain('(organisation admin)');
    expect((await server.app.repos.users.findByUsername('second-admin'))?.orgRole).toBe('admin');
    const unknownRole = await runCli(['create-user', 'third', '--role', 'owner', '--password-stdin'], 'third password\n');
    expect(unknownRole.code).toBe(2);
    expect(unknownRole.stderr).toContain('Invalid role "owner"');
    expect(await server.app.repos.users.findByUsername('third')).toBeUndefined();
  });

  it('prints usage for an unknown command', async () => {
    const result = await runCli(['frobnicate', 'x']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Unknown command "frobnicate"');
    expect(result.stderr).toContain('Usage: npm run admin');
  });
});

describe('npm run admin -- export-folder', { timeout: CLI_TEST_TIMEOUT_MS }, () => {
  const exportsRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'sealdrop-cli-export-'));
  afterAll(() => fs.rmSync(exportsRoot, { recursive: true, force: true }));

  it('writes files/<id>.sdrp and manifest.json for every file of the folder and prints a summary', async () => {
    const { client } = await signedInClient(server, 'exporter');
    const folder = await createFolder(client, 'Archiv «2025»');
    const files = [
      await seedFile(server, folder.id, { name: 'readme.txt' }),
      await seedFile(server, folder.id, { relativePath: 'docs/2024', name: 'Grüße 🌊.pdf' }),
    ];
    const target = path.join(exportsRoot, 'new', 'archive');

    const result = await runCli(['export-folder', String(folder.id), target]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const bytes = files.reduce((sum, file) => sum + file.content.length, 0);
    expect(result.stdout.trim()).toBe(`Exported folder ${folder.id} "Archiv «2025»" to ${target}: 2 files, ${bytes} bytes.`);

    expect(fs.readdirSync(target).sort()).toEqual(['files', 'manifest.json']);
    expect(fs.readdirSync(path.join(target, 'files')).sort()).toEqual(files.map((file) => `${file.id}.sdrp`).sort());
    const listed = (await client.get(`/api/folders/${folder.id}/files`)).body as Array<Record<string, any>>;
    const manifest = JSON.parse(fs.readFileSync(path.join(target, 'manifest.json'), 'utf8'));
    expect(manifest).toMatchObject({ format: 'sealdrop-export', format_version: 1, folder: { id: folder.id, title: 'Archiv «2025»' } });
    expect(Number.isNaN(Date.parse(manifest.exported_at))).toBe(false);
    expect(manifest.files).toEqual(
      listed.map((file) => ({
        id: file.id,
        blob: `files/${file.id}.sdrp`,
        relative_path: file.relative_path,
        name: file.original_filename,
        size: file.file_size,
        sha256: file.file_hash,
        encrypted_key: file.encrypted_key,
        iv: file.encryption_iv,
        upload_time: file.upload_time,
      })),
    );
    for (const file of files) {
      const exported = fs.readFileSync(path.join(target, 'files', `${file.id}.sdrp`));
      const stored = fs.readFileSync(path.join(server.config.dataDir, 'blobs', file.blobKey));
      expect(exported.equals(stored)).toBe(true);
      expect(exported.equals(file.content)).toBe(true);
    }

    const again = await runCli(['export-folder', String(folder.id), target]);
    expect(again.code).toBe(1);
    expect(again.stdout).toBe('');
    expect(again.stderr).toBe(`Error: ${target} is not empty; export into a new or empty directory.\n`);
  });

  it('refuses an unknown folder (1) and a malformed call (2) without creating the directory', async () => {
    const target = path.join(exportsRoot, 'never');
    const unknown = await runCli(['export-folder', '999999', target]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe('Error: No folder with id 999999.\n');

    const badId = await runCli(['export-folder', 'abc', target]);
    expect(badId.code).toBe(2);
    expect(badId.stderr).toContain('Invalid folder id "abc".');

    const missingDir = await runCli(['export-folder', '1']);
    expect(missingDir.code).toBe(2);
    expect(missingDir.stderr).toContain('export-folder needs a folder id and a directory.');
    expect(fs.existsSync(target)).toBe(false);
  });
});
