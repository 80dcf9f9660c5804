// `npm run upload` through a password gate and an e-mail gate (the code read from a real SMTP
// server, typed into the command's standard input), killed in the middle of a large file and run
// again: the second run continues the same tus upload from the server's offset with the same key
// and IV, and sends exactly the bytes the server did not have, counted at a proxy in between
// (e2e/support/tus-recorder.ts). Also: a file changed between the runs starts over with a new key
// and IV (its old upload is cancelled); refused gates end with status 3; usage errors with 2.
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { cipherLength } from '../../server/crypto/index.ts';
import { TusRecorder } from '../../e2e/support/tus-recorder.ts';
import { MailCatcher } from '../server/upload-helpers.ts';
import { adminWithKeys, commandTestBed, createFolder, jsonLines, runCommand, sha256, storedFiles, writeTree, type CommandRun } from './cli-fixtures.ts';

const MiB = 1024 * 1024;
const CHUNK = 4 * MiB;
const bed = commandTestBed();

/** Answers the command's code question with the code the server mailed to `email`. */
async function typeMailedCode(run: CommandRun, mail: MailCatcher, email: string, earlierMails: number): Promise<void> {
  await expect.poll(() => mail.messages.length, { timeout: 20_000 }).toBeGreaterThan(earlierMails);
  run.child.stdin!.end(`${mail.lastCodeFor(email)}\n`);
}

describe('npm run upload: gates, a kill and a second run', { timeout: 180_000 }, () => {
  it('passes a password and an e-mail gate, is killed mid-file, and the second run sends only what the server lacks, with the same key and IV', async () => {
    const mail = new MailCatcher();
    const smtpUrl = await mail.start();
    bed.cleanUp(() => mail.stop());
    const server = await bed.startServer({ env: { SMTP_URL: smtpUrl, PUBLIC_URL: 'https://sealdrop.test' } });
    const proxy = await TusRecorder.start(0, server.baseUrl);
    bed.cleanUp(() => proxy.close());
    const admin = await adminWithKeys(server);
    const folder = await createFolder(admin, { link_password: 'Passwort mit Ümlaut', require_email_verification: true, allowed_emails: ['scanner@example.com'] });
    const root = path.join(bed.tempDir('sealdrop-cli-src-'), 'Scans');
    const tree = {
      'leer.txt': Buffer.alloc(0),
      'Quittung №1.txt': Buffer.from('small file\n'),
      'Archiv/große Aufnahme.bin': randomBytes(40 * MiB + 12_345),
    };
    writeTree(root, tree);
    const stateDir = bed.tempDir('sealdrop-cli-state-');
    const args = [`${proxy.url}/upload/${folder.link_token}`, root, '--json', '--state-dir', stateDir, '--chunk-mib', String(CHUNK / MiB), '--password', 'Passwort mit Ümlaut', '--email', 'scanner@example.com'];
    const bigLength = cipherLength(tree['Archiv/große Aufnahme.bin'].length);

    // First run: PATCHes from 12 MiB on are held at the proxy, so the server stops at exactly 12 MiB; then the command is killed.
    const stopAt = 3 * CHUNK;
    proxy.holdPatchesFrom(stopAt);
    const first = runCommand('upload', args, { keepStdin: true });
    await typeMailedCode(first, mail, 'scanner@example.com', 0);
    await expect.poll(() => proxy.log.some((entry) => entry.method === 'PATCH' && entry.uploadOffset === stopAt), { timeout: 60_000 }).toBe(true);
    first.child.kill('SIGKILL');
    const killed = await first.done;
    expect(killed.signal).toBe('SIGKILL');
    const created = proxy.log.filter((entry) => entry.method === 'POST');
    expect(created).toHaveLength(1);
    const uploadPath = created[0]!.location!;
    const iv = created[0]!.metadata!.iv;
    const firstRunPatches = proxy.log.filter((entry) => entry.method === 'PATCH' && entry.status === 204);
    expect(firstRunPatches.reduce((sum, entry) => sum + entry.bodyBytes, 0)).toBe(stopAt);
    // The small files were stored by the first run already.
    expect(jsonLines(killed.stdout).filter((line) => line.status === 'stored').map((line) => line.path).sort()).toEqual(['Scans/Quittung №1.txt', 'Scans/leer.txt']);

    // Second run, gates again (a new code): continues the same upload from the server's offset.
    proxy.holdPatchesFrom(null);
    const logBefore = proxy.log.length;
    const second = runCommand('upload', args, { keepStdin: true });
    await typeMailedCode(second, mail, 'scanner@example.com', 1);
    const result = await second.done;
    expect(result.stderr).toContain('Verification code sent to scanner@example.com.');
    expect(result.stderr).not.toMatch(/FAILED|Error/);
    expect(result.code).toBe(0);
    const lines = jsonLines(result.stdout);
    expect(lines.filter((line) => line.status === 'skipped').map((line) => line.path).sort()).toEqual(['Scans/Quittung №1.txt', 'Scans/leer.txt']);
    expect(lines.find((line) => line.path === 'Scans/Archiv/große Aufnahme.bin')).toMatchObject({ status: 'stored', resumed: true });

    const secondRun = proxy.log.slice(logBefore);
    expect(secondRun.filter((entry) => entry.method === 'POST')).toHaveLength(0);
    const head = secondRun.find((entry) => entry.method === 'HEAD')!;
    expect(head.path).toBe(uploadPath);
    expect(head.responseOffset).toBe(stopAt);
    const patches = secondRun.filter((entry) => entry.method === 'PATCH');
    expect(patches[0]!.uploadOffset).toBe(stopAt);
    expect(patches.every((entry) => entry.path === uploadPath && entry.status === 204)).toBe(true);
    // Not one byte the server had is sent again.
    expect(patches.reduce((sum, entry) => sum + entry.bodyBytes, 0)).toBe(bigLength - stopAt);

    const stored = await storedFiles(server, admin, folder.id);
    expect(stored.map((file) => file.path)).toEqual(['Scans/Archiv/große Aufnahme.bin', 'Scans/Quittung №1.txt', 'Scans/leer.txt']);
    for (const file of stored) expect(file.content.equals(tree[file.path.slice('Scans/'.length) as keyof typeof tree]), file.path).toBe(true);
    // The same key and IV as the first run's: the IV it announced is the stored file's.
    expect(stored[0]!.file.encryption_iv).toBe(iv);
    expect(stored[0]!.file.file_hash).toBe(sha256(tree['Archiv/große Aufnahme.bin']));
    // Nothing left in the state for this link but the stored identities.
    const stateFiles = fs.readdirSync(stateDir).filter((name) => name.endsWith('.json'));
    const state = JSON.parse(fs.readFileSync(path.join(stateDir, stateFiles[0]!), 'utf8'));
    expect(Object.values(state.entries).map((entry: any) => entry.kind)).toEqual(['stored', 'stored', 'stored']);
    expect(fs.statSync(path.join(stateDir, stateFiles[0]!)).mode & 0o777).toBe(0o600);
  });

  it('a file changed between the runs starts over with a new key and IV; its first upload is cancelled', async () => {
    const server = await bed.startServer();
    const proxy = await TusRecorder.start(0, server.baseUrl);
    bed.cleanUp(() => proxy.close());
    const admin = await adminWithKeys(server);
    const folder = await createFolder(admin);
    const dir = bed.tempDir('sealdrop-cli-src-');
    const file = path.join(dir, 'video.mov');
    const original = randomBytes(20 * MiB);
    fs.writeFileSync(file, original);
    const args = [`${proxy.url}/upload/${folder.link_token}`, file, '--json', '--state-dir', bed.tempDir('sealdrop-cli-state-'), '--chunk-mib', '4'];
    proxy.holdPatchesFrom(2 * CHUNK);
    const first = runCommand('upload', args);
    await expect.poll(() => proxy.log.some((entry) => entry.method === 'PATCH' && entry.uploadOffset === 2 * CHUNK), { timeout: 60_000 }).toBe(true);
    first.child.kill('SIGKILL');
    await first.done;
    const firstUpload = proxy.log.find((entry) => entry.method === 'POST')!;

    // Same size, new content and a new modification time.
    const changed = Buffer.from(original);
    changed.fill(0x5a, 0, MiB);
    fs.writeFileSync(file, changed);
    fs.utimesSync(file, new Date(), new Date(Date.now() + 5_000));
    proxy.holdPatchesFrom(null);
    const logBefore = proxy.log.length;
    const second = runCommand('upload', args);
    const result = await second.done;
    expect(result.code).toBe(0);
    const secondRun = proxy.log.slice(logBefore);
    expect(secondRun.some((entry) => entry.method === 'DELETE' && entry.path === firstUpload.location)).toBe(true);
    const secondUpload = secondRun.find((entry) => entry.method === 'POST')!;
    expect(secondUpload.location).not.toBe(firstUpload.location);
    expect(secondUpload.metadata!.iv).not.toBe(firstUpload.metadata!.iv);
    expect(secondUpload.metadata!.encryptedKey).not.toBe(firstUpload.metadata!.encryptedKey);
    const [stored] = await storedFiles(server, admin, folder.id);
    expect(stored!.content.equals(changed)).toBe(true);
    expect((await admin.client.get(`/api/folders/${folder.id}/uploads`)).body).toEqual([]);
  });

  it('refused gates end with status 3 and store nothing; usage errors and an unknown link with 2; a file the server refuses with 1', async () => {
    const server = await bed.startServer({ env: { UPLOAD_MAX_FILE_MB: '9' } });
    const admin = await adminWithKeys(server);
    const gated = await createFolder(admin, { link_password: 'the right one' });
    const dir = bed.tempDir('sealdrop-cli-src-');
    writeTree(dir, { 'a.txt': Buffer.from('a'), 'too big.bin': randomBytes(10 * MiB) });
    const state = bed.tempDir('sealdrop-cli-state-');
    const link = `${server.baseUrl}/upload/${gated.link_token}`;

    const wrong = await runCommand('upload', [link, path.join(dir, 'a.txt'), '--password-stdin', '--state-dir', state], { input: 'the wrong one\n' }).done;
    expect(wrong.code).toBe(3);
    expect(wrong.stderr).toContain('Refused: Incorrect password [INCORRECT_LINK_PASSWORD]');
    const notTerminal = await runCommand('upload', [link, path.join(dir, 'a.txt'), '--state-dir', state]).done;
    expect(notTerminal.code).toBe(2);
    expect((await admin.client.get(`/api/folders/${gated.id}/files`)).body).toEqual([]);

    expect((await runCommand('upload', [link, '--state-dir', state]).done).code).toBe(2);
    expect((await runCommand('upload', ['not a url', dir]).done).code).toBe(2);
    expect((await runCommand('upload', [link, path.join(dir, 'missing.txt')]).done).code).toBe(2);
    const unknown = await runCommand('upload', [`${server.baseUrl}/upload/${'x'.repeat(43)}`, dir, '--state-dir', state]).done;
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('[LINK_INVALID]');

    const open = await createFolder(admin);
    const partly = await runCommand('upload', [`${server.baseUrl}/upload/${open.link_token}`, dir, '--json', '--state-dir', state]).done;
    expect(partly.code).toBe(1);
    const lines = jsonLines(partly.stdout);
    expect(lines.find((line) => line.path.endsWith('a.txt'))).toMatchObject({ status: 'stored' });
    expect(lines.find((line) => line.path.endsWith('too big.bin'))).toMatchObject({ status: 'failed', error: { code: 'HTTP_413' } });
  });
});
