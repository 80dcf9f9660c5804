// The admin CLI, run as a real process against the same data as a running server.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness.ts';
import { totpAt } from './totp-reference.ts';

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

describe('npm run admin', () => {
  it('create-user --password-stdin creates a user who can sign in', async () => {
    const result = await runCli(['create-user', 'Admin', '--email', 'admin@example.com', '--password-stdin'], 'first password\n');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Created user "Admin"');

    const login = await server.client().login('admin', 'first password');
    expect(login.status).toBe(200);
    expect(login.body.user).toMatchObject({ username: 'Admin', email: 'admin@example.com' });
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

    const result = await runCli(['reset-password', 'admin', '--password-stdin'], 'second password\n');
    expect(result.code).toBe(0);
    expect((await client.get('/api/auth/users/me')).body).toEqual({ detail: 'Session expired' });
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

  it('prints usage for an unknown command', async () => {
    const result = await runCli(['frobnicate', 'x']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Unknown command "frobnicate"');
    expect(result.stderr).toContain('Usage: npm run admin');
  });
});
