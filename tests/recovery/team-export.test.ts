// A team folder's export recovered offline (docs/format.md "Exports", version 2): files uploaded
// through the link before and after a member was removed, exported through the real server's
// GET /api/folders/{id}/export by a member, then decrypted by the real `npm run recover` with each
// person's own key backup. Every member recovers every file byte for byte; the removed member's
// backup opens none of them (it is not in the export's signed member list); a list the server
// altered (a foreign member key inserted, a signature swapped) opens nothing, and says why.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExportManifest } from '../../server/export/manifest.ts';
import { CLI_TEST_TIMEOUT_MS } from '../support/cli-timeouts.ts';
import { getBytes } from '../server/files-fixtures.ts';
import { startServer, type TestServer } from '../server/harness.ts';
import { readExportZip } from '../server/export-zip.ts';
import { MultipartBody, postMultipart, sealForUpload } from '../server/upload-helpers.ts';
import { manifestBytes, rsaPair, signManifest, teamAccount, TeamModel, type TeamAccount } from '../server/support/team-crypto.ts';
import { backupFileText, type BuiltExport, type PlainFile, writeDirectoryExport, writeZipExport } from './export-fixtures.ts';
import { expectedTree, linesOf, runRecover, treeDifferences } from './run-recover.ts';

const PASSWORD = 'correct horse battery';

let server: TestServer;
let work: string;
let owner: TeamAccount;
let manager: TeamAccount;
let reader: TeamAccount;
let folderId: number;
let uploaded: PlainFile[];
let exportZip: string;
let exported: BuiltExport;

async function backupOf(account: TeamAccount): Promise<string> {
  const file = path.join(work, `backup-${account.username}.json`);
  await writeFile(file, backupFileText({ publicKeySpki: account.keys.spki, privateKey: account.keys.privateKey }, PASSWORD, account.username));
  return file;
}

async function uploadThroughLink(linkToken: string, file: PlainFile, keyEpoch: number): Promise<void> {
  const key = await server.client().get(`/api/upload/${linkToken}/public-key`);
  expect(key.body.key_epoch).toBe(keyEpoch);
  const sealed = sealForUpload(file.bytes, key.body.public_key_spki);
  const body = new MultipartBody();
  body.field('key_epoch', String(keyEpoch));
  body.files([{ name: file.name, relativePath: file.relativePath, data: sealed.sealed, encryptedKey: sealed.encryptedKey, iv: sealed.iv, hash: sealed.hash }]);
  const response = await postMultipart(server.client(), `/api/upload/${linkToken}`, body);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
}

beforeAll(async () => {
  server = await startServer();
  work = await mkdtemp(path.join(tmpdir(), 'sealdrop-team-export-'));
  owner = await teamAccount(server, 'owner');
  manager = await teamAccount(server, 'manager');
  reader = await teamAccount(server, 'reader');
  const created = await owner.client.post('/api/folders/', { title: 'Kanzlei Eingang' });
  folderId = created.body.id;
  const folder = (await server.app.repos.folders.findOwned(owner.id, folderId))!;
  const model = new TeamModel(folderId);
  const share = model.share(owner, [{ account: manager, role: 'manager' }, { account: reader, role: 'reader' }], []);
  expect((await owner.client.post(`/api/folders/${folderId}/team`, share.body)).status).toBe(201);
  share.commit();

  const before: PlainFile[] = [
    { relativePath: '.', name: 'Vollmacht.pdf', bytes: randomBytes(4000) },
    { relativePath: 'Belege/2025', name: 'Übersicht – März.txt', bytes: Buffer.from('Grüße aus Köln\n'.repeat(40), 'utf8') },
  ];
  for (const file of before) await uploadThroughLink(folder.linkToken, file, 1);

  // The reader leaves: epoch 2, sealed to the owner and the manager only.
  const remove = model.change(owner, { remove: [reader] });
  expect((await owner.client.post(`/api/folders/${folderId}/team/versions`, remove.body)).status).toBe(201);
  remove.commit();
  const after: PlainFile[] = [{ relativePath: 'Belege/2026', name: 'Jahresabschluss.bin', bytes: randomBytes(70_000) }];
  for (const file of after) await uploadThroughLink(folder.linkToken, file, 2);
  uploaded = [...before, ...after];

  // The manager exports (any member may); the ZIP as the browser would save it.
  const answer = await getBytes(manager.client, `/api/folders/${folderId}/export`);
  expect(answer.status).toBe(200);
  exportZip = path.join(work, 'Kanzlei Eingang-export.zip');
  await writeFile(exportZip, answer.body);
  const zip = await readExportZip(answer.body);
  exported = { manifest: zip.manifest as BuiltExport['manifest'], blobs: new Map(zip.entries.filter((entry) => entry.name.startsWith('files/')).map((entry) => [entry.name, entry.data])) };
}, CLI_TEST_TIMEOUT_MS);
afterAll(async () => {
  await server.close();
  await rm(work, { recursive: true, force: true });
});

describe('a team folder export', { timeout: CLI_TEST_TIMEOUT_MS }, () => {
  it('is format_version 2: the signed member list, the members\' envelopes and each file\'s key epoch, and no key that opens anything', () => {
    const manifest = exported.manifest as unknown as ExportManifest;
    expect(manifest.format_version).toBe(2);
    expect(manifest.team!.manifests).toHaveLength(2);
    const envelopes = manifest.team!.envelopes.map((item) => [item.user_id, item.epoch]);
    expect(envelopes).toEqual([
      [owner.id, 1],
      [owner.id, 2],
      [manager.id, 1],
      [manager.id, 2],
    ]);
    expect(manifest.files.map((file) => file.key_epoch)).toEqual([1, 1, 2]);
  });

  it.each(['owner', 'manager'] as const)('is recovered whole by the %s with their own key backup, every byte', async (who) => {
    const account = who === 'owner' ? owner : manager;
    const out = path.join(work, `out-${who}`);
    const result = await runRecover(['--backup', await backupOf(account), '--password-stdin', exportZip, out], `${PASSWORD}\n`);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(linesOf(result.stdout)).toContain(`Team folder: this key is ${account.username} (${who}); key epochs it opens: 1, 2 of 2.`);
    expect(await treeDifferences(out, expectedTree(uploaded))).toEqual([]);
  });

  it('opens nothing for the removed member: their key is not in the signed member list the export carries', async () => {
    const out = path.join(work, 'out-removed');
    const result = await runRecover(['--backup', await backupOf(reader), '--password-stdin', exportZip, out], `${PASSWORD}\n`);
    expect(result.code).toBe(1);
    expect(linesOf(result.stdout)[1]).toBe(
      "Team folder: this backup's key is not a member of the team folder in the export's signed member list; only files sealed to the account key can be recovered.",
    );
    const failures = linesOf(result.stderr).filter((line) => line.startsWith('FAILED '));
    expect(failures).toHaveLength(3);
    expect(failures[0]).toMatch(/^FAILED Vollmacht\.pdf: sealed to the team folder's key epoch 1, but this backup's key is not a member .* \[TEAM_KEY_UNAVAILABLE\]$/);
    expect(await treeDifferences(out, new Map())).toEqual([]);
  });

  it('refuses a member list with a foreign key the server inserted, and one with a swapped signature, and names why', async () => {
    const manifest = exported.manifest as unknown as ExportManifest;
    const team = manifest.team!;
    // The server (or whoever holds the export) signs a version of its own adding a key it holds.
    const intruder = rsaPair();
    const forgedBytes = manifestBytes({
      folderId,
      seq: 3,
      prev: null,
      signer: { user_id: 999, key: intruder.hash },
      members: [
        { user_id: owner.id, username: owner.username, role: 'owner', key: owner.keys.hash },
        { user_id: manager.id, username: manager.username, role: 'manager', key: manager.keys.hash },
        { user_id: 999, username: 'mallory', role: 'manager', key: intruder.hash },
      ],
      epochs: [{ epoch: 1, key: intruder.hash, created_at: new Date().toISOString() }],
    });
    const forged = { manifest: forgedBytes.toString('base64'), signature: signManifest(intruder.privateKey, forgedBytes), signer_public_key_spki: intruder.spki };
    const swapped = team.manifests.map((entry, index) => (index === 1 ? { ...entry, signature: team.manifests[0]!.signature } : entry));
    const cases = [
      { name: 'appended', manifests: [...team.manifests, forged], reason: 'chain' },
      { name: 'swapped', manifests: swapped, reason: 'BAD_SIGNATURE' },
    ];
    for (const { name, manifests, reason } of cases) {
      const dir = path.join(work, `export-${name}`);
      await writeDirectoryExport(dir, { manifest: { ...exported.manifest, team: { ...team, manifests } } as BuiltExport['manifest'], blobs: exported.blobs });
      const out = path.join(work, `out-${name}`);
      const result = await runRecover(['--backup', await backupOf(manager), '--password-stdin', dir, out], `${PASSWORD}\n`);
      expect(result.code, name).toBe(1);
      expect(linesOf(result.stdout)[1], name).toMatch(new RegExp(`^Team folder: the export's signed member list is refused \\(${reason === 'chain' ? '[A-Z_]+' : reason}\\): `));
      expect(linesOf(result.stderr).filter((line) => line.endsWith('[TEAM_KEY_UNAVAILABLE]')), name).toHaveLength(3);
    }
  });

  it('also recovers from a ZIP written by another ZIP writer (the export layout, not our writer, is the contract)', async () => {
    const zip = await writeZipExport(path.join(work, 'rewritten.zip'), exported);
    const out = path.join(work, 'out-rewritten');
    const result = await runRecover(['--backup', await backupOf(owner), '--password-stdin', zip, out], `${PASSWORD}\n`);
    expect(result.code).toBe(0);
    expect(await treeDifferences(out, expectedTree(uploaded))).toEqual([]);
  });
});
