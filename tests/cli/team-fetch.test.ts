// `npm run fetch -- --team` against a real server: a member signs in (password, then the
// two-factor code, both on standard input), checks the folder's signed member list, opens its
// envelopes and lists or writes every file byte-identical, in the folder's directories. A wrong
// password is exit 3; an account the server inserted as a member (no signed version lists it) is
// refused with TEAM_MANIFEST_INVALID and fetches nothing; a stranger's folder is exit 2.
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.ts';
import { wrapPrivateKeyScheme2 } from '../../server/crypto/index.ts';
import { openDatabase } from '../../server/db/connection.ts';
import type { TestServer } from '../server/harness.ts';
import { totpAt } from '../server/totp-reference.ts';
import { MultipartBody, postMultipart, sealForUpload } from '../server/upload-helpers.ts';
import { teamAccount, TeamModel, type TeamAccount } from '../server/support/team-crypto.ts';
import { commandTestBed, runCommand, writeTree } from './cli-fixtures.ts';

const bed = commandTestBed();
const TOTP_SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

/** A team account whose private key is stored wrapped under its password, as the app stores it. */
async function cliAccount(server: TestServer, name: string, twoFactor = false): Promise<TeamAccount> {
  const account = await teamAccount(server, name);
  const user = await server.app.repos.users.findById(account.id);
  await server.app.repos.users.setEncryptedPrivateKey(account.id, wrapPrivateKeyScheme2(account.keys.privateKey, account.password, user!.kdfParams!));
  if (twoFactor) await server.app.repos.users.setTotp(account.id, TOTP_SECRET, true);
  return account;
}

/** A folder shared by `owner` with `reader`, and files uploaded through its link sealed to epoch 1. */
async function sharedWithFiles(server: TestServer, owner: TeamAccount, reader: TeamAccount) {
  const created = await owner.client.post('/api/folders/', { title: 'Client documents', perform_mime_check: false });
  expect(created.status).toBe(201);
  const folder = created.body as { id: number; link_token: string };
  const team = new TeamModel(folder.id);
  const draft = team.share(owner, [{ account: reader, role: 'reader' }], []);
  expect((await owner.client.post(`/api/folders/${folder.id}/team`, draft.body)).status).toBe(201);
  draft.commit();
  const files = [
    { name: 'report.pdf', relativePath: '.', plain: randomBytes(3000) },
    { name: 'scan.png', relativePath: 'scans/2026', plain: randomBytes(70_000) },
  ];
  const sealed = files.map((file) => ({ ...file, ...sealForUpload(file.plain, team.currentEpoch.keys.spki) }));
  const body = new MultipartBody().field('key_epoch', '1').files(sealed.map((file) => ({ name: file.name, data: file.sealed, encryptedKey: file.encryptedKey, iv: file.iv, hash: file.hash, relativePath: file.relativePath })));
  const uploaded = await postMultipart(server.client(), `/api/upload/${folder.link_token}`, body);
  expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(200);
  return { folder, team, files };
}

const teamArgs = (server: TestServer, account: TeamAccount, folderId: number, rest: string[]) => ['--team', server.baseUrl, '--user', account.username, '--folder', String(folderId), ...rest];

// Each test runs the command as processes of their own (tsx loads the server's modules), some several
// times: as for the other command tests, 30 s is too little on a loaded two-core machine.
describe('npm run fetch -- --team', { timeout: 180_000 }, () => {
  it('lists and fetches a team folder\'s files for a reader who signs in with two-factor', async () => {
    const server = await bed.startServer();
    const owner = await cliAccount(server, 'owner');
    const reader = await cliAccount(server, 'reader', true);
    const { folder, files } = await sharedWithFiles(server, owner, reader);

    const listed = await runCommand('fetch', teamArgs(server, reader, folder.id, ['--list']), { input: `${reader.password}\n${totpAt(TOTP_SECRET, server.clock.now())}\n` }).done;
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain('2 members (you: reader)');
    expect(listed.stdout).toContain('report.pdf');
    expect(listed.stdout).toContain('scans/2026/scan.png');

    const out = bed.tempDir('sealdrop-team-fetch-');
    // A new 30-second step for the second sign-in: a code is accepted once.
    server.clock.advance(30_000);
    const fetched = await runCommand('fetch', teamArgs(server, reader, folder.id, [out]), { input: `${reader.password}\n${totpAt(TOTP_SECRET, server.clock.now())}\n` }).done;
    expect(fetched.code, fetched.stderr).toBe(0);
    expect(fetched.stdout).toContain('Fetched 2 of 2 files');
    for (const file of files) {
      const written = fs.readFileSync(path.join(out, file.relativePath === '.' ? '' : file.relativePath, file.name));
      expect(written.equals(file.plain)).toBe(true);
    }
  });

  it('uploads to a team folder with npm run upload (batch and tus, sealed to the current epoch) and the reader fetches it byte-identical', async () => {
    const server = await bed.startServer();
    const owner = await cliAccount(server, 'owner');
    const reader = await cliAccount(server, 'reader');
    const { folder, team } = await sharedWithFiles(server, owner, reader);
    // A removal first: the uploads must seal to epoch 2, which the removed member never held.
    const leaver = await cliAccount(server, 'leaver');
    const add = team.change(owner, { add: [{ account: leaver, role: 'reader' }] });
    expect((await owner.client.post(`/api/folders/${folder.id}/team/versions`, add.body)).status).toBe(201);
    add.commit();
    const remove = team.change(owner, { remove: [leaver] });
    expect((await owner.client.post(`/api/folders/${folder.id}/team/versions`, remove.body)).status).toBe(201);
    remove.commit();

    const source = writeTree(bed.tempDir('sealdrop-team-source-'), { 'Batch/small.txt': randomBytes(2000), 'Batch/large.bin': randomBytes(9 * 1024 * 1024) });
    const upload = await runCommand('upload', [`${server.baseUrl}/upload/${folder.link_token}`, path.join(source, 'Batch'), '--json', '--state-dir', bed.tempDir('sealdrop-team-state-'), '--chunk-mib', '4']).done;
    expect(upload.code, upload.stderr).toBe(0);
    const listing = await owner.client.get(`/api/folders/${folder.id}/files`);
    const uploaded = listing.body.filter((file: { relative_path: string }) => file.relative_path === 'Batch');
    expect(uploaded.map((file: { key_epoch: number }) => file.key_epoch)).toEqual([2, 2]);

    const out = bed.tempDir('sealdrop-team-out-');
    const fetched = await runCommand('fetch', teamArgs(server, reader, folder.id, [out]), { input: `${reader.password}\n` }).done;
    expect(fetched.code, fetched.stderr).toBe(0);
    for (const name of ['small.txt', 'large.bin']) {
      expect(fs.readFileSync(path.join(out, 'Batch', name)).equals(fs.readFileSync(path.join(source, 'Batch', name)))).toBe(true);
    }
  });

  it('refuses a wrong password (exit 3), a folder the account is not a member of (exit 2) and a member the server inserted on its own', async () => {
    const server = await bed.startServer();
    const owner = await cliAccount(server, 'owner');
    const reader = await cliAccount(server, 'reader');
    const intruder = await cliAccount(server, 'intruder');
    const { folder } = await sharedWithFiles(server, owner, reader);

    const wrong = await runCommand('fetch', teamArgs(server, reader, folder.id, ['--list']), { input: 'not the password\n' }).done;
    expect(wrong.code).toBe(3);
    expect(wrong.stderr).toContain('INCORRECT_CREDENTIALS');

    const stranger = await runCommand('fetch', teamArgs(server, intruder, folder.id, ['--list']), { input: `${intruder.password}\n` }).done;
    expect(stranger.code).toBe(2);
    expect(stranger.stderr).toContain('FOLDER_NOT_FOUND');

    // A hostile server adds the intruder's row (and could hand it anything): no signed version lists it.
    const database = await openDatabase(loadConfig(server.env).database);
    try {
      await database.db.insertInto('folder_members').values({ folder_id: folder.id, user_id: intruder.id, role: 'reader', notify: 0 }).execute();
    } finally {
      await database.close();
    }
    const out = bed.tempDir('sealdrop-team-intruder-');
    const refused = await runCommand('fetch', teamArgs(server, intruder, folder.id, [out]), { input: `${intruder.password}\n` }).done;
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('TEAM_MANIFEST_INVALID');
    expect(fs.readdirSync(out)).toEqual([]);

    const usage = await runCommand('fetch', ['--team', server.baseUrl, '--user', reader.username, '--list']).done;
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('--folder');
  });
});
