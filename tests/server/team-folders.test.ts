// Team folders over real HTTP (docs/team-folders.md), on SQLite and, with DATABASE_URL, on
// PostgreSQL: sharing, adding, removing (a new epoch), changing a role; what owners, managers,
// readers and strangers may do on every folder route; and the server's refusals of what an
// attacker (or a confused browser) sends: forged or misplaced signatures, a reader's manifest, a
// skipped or forked seq, two managers at once, missing envelopes, a key that is not the account's,
// a disabled account, an upload sealed to an old epoch, malformed bodies.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyEpochChangedError } from '../../server/db/repositories/index.ts';
import { keyHash, openEnvelope, verifyChain } from '../../server/crypto/team-manifest.ts';
import { decryptBuffer, unwrapFileKey } from '../../server/crypto/index.ts';
import type { Folder } from '../../server/db/repositories/index.ts';
import { startServer, type TestServer } from './harness.ts';
import type { TestClient } from './http-client.ts';
import { getBytes, seedFile } from './files-fixtures.ts';
import { MultipartBody, postMultipart, sealForUpload, sendRaw } from './upload-helpers.ts';
import { manifestBytes, rsaPair, sealEnvelope, signManifest, teamAccount, TeamModel, type TeamAccount } from './support/team-crypto.ts';

let server: TestServer;
// Each test makes several RSA-2048 key pairs and signs in several accounts: more than the default
// 30 s on a loaded two-core machine.
const TEAM_TEST_TIMEOUT_MS = 120_000;

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

async function folderOf(owner: TeamAccount, title = 'Practice inbox'): Promise<Folder> {
  const response = await owner.client.post('/api/folders/', { title });
  expect(response.status).toBe(201);
  const folder = await server.app.repos.folders.findOwned(owner.id, response.body.id);
  return folder!;
}

/** A shared folder: owner, a manager and a reader, with two files re-keyed to epoch 1. */
async function sharedFolder() {
  const owner = await teamAccount(server, 'owner');
  const manager = await teamAccount(server, 'manager');
  const reader = await teamAccount(server, 'reader');
  const stranger = await teamAccount(server, 'stranger');
  const folder = await folderOf(owner);
  const files = [await seedFile(server, folder.id), await seedFile(server, folder.id)];
  const team = new TeamModel(folder.id);
  const draft = team.share(owner, [{ account: manager, role: 'manager' }, { account: reader, role: 'reader' }], files.map((file) => file.id));
  const shared = await owner.client.post(`/api/folders/${folder.id}/team`, draft.body);
  expect(shared.status, JSON.stringify(shared.body)).toBe(201);
  draft.commit();
  return { owner, manager, reader, stranger, folder, files, team };
}

/** A multipart upload of one real file sealed to `spki`, naming `keyEpoch` (none when undefined). */
async function uploadOne(folder: Folder, spki: string, keyEpoch: number | undefined, plain = randomBytes(500)) {
  const sealed = sealForUpload(plain, spki);
  const body = new MultipartBody();
  if (keyEpoch !== undefined) body.field('key_epoch', String(keyEpoch));
  body.files([{ name: `doc-${randomBytes(3).toString('hex')}.pdf`, data: sealed.sealed, encryptedKey: sealed.encryptedKey, iv: sealed.iv, hash: sealed.hash }]);
  const response = await postMultipart(server.client(), `/api/upload/${folder.linkToken}`, body);
  return { response, sealed, plain };
}

function tusCreateWithEpoch(folder: Folder, keyEpoch: string | undefined) {
  const pairs: Record<string, string> = { filename: 'a.bin', encryptedKey: Buffer.alloc(256, 7).toString('base64'), iv: Buffer.alloc(12, 3).toString('base64'), plainSize: '10' };
  if (keyEpoch !== undefined) pairs.key_epoch = keyEpoch;
  const metadata = Object.entries(pairs).map(([key, value]) => `${key} ${Buffer.from(value).toString('base64')}`).join(',');
  return sendRaw(server.client(), 'POST', `/api/upload/${folder.linkToken}/tus`, undefined, {
    'tus-resumable': '1.0.0',
    'upload-length': String(server.app.uploads.sizes.encryptedLength(10)),
    'upload-metadata': metadata,
  });
}

async function team(client: TestClient, folderId: number) {
  return client.get(`/api/folders/${folderId}/team`);
}

describe('sharing a folder', { timeout: TEAM_TEST_TIMEOUT_MS }, () => {
  it('stores version 1: members see it on their dashboard with their role, verify the chain and open their envelope', async () => {
    const { owner, manager, reader, stranger, folder, files, team: model } = await sharedFolder();
    const listed = await manager.client.get('/api/folders/');
    expect(listed.status).toBe(200);
    expect(listed.body.find((item: { id: number }) => item.id === folder.id)).toMatchObject({ my_role: 'manager', is_team: true });
    expect((await reader.client.get(`/api/folders/${folder.id}`)).body).toMatchObject({ my_role: 'reader', is_team: true });
    expect((await owner.client.get(`/api/folders/${folder.id}`)).body).toMatchObject({ my_role: 'owner', is_team: true });
    expect((await stranger.client.get('/api/folders/')).body.some((item: { id: number }) => item.id === folder.id)).toBe(false);

    const answer = await team(reader.client, folder.id);
    expect(answer.status).toBe(200);
    expect(answer.body.manifests).toHaveLength(1);
    expect(answer.body.current_epoch).toBe(1);
    expect(answer.body.members.map((member: { username: string; role: string }) => [member.username, member.role])).toEqual([
      [owner.username, 'owner'],
      [manager.username, 'manager'],
      [reader.username, 'reader'],
    ]);
    expect(answer.body.my_envelopes).toHaveLength(1);
    const chain = verifyChain(folder.id, answer.body.manifests, { userId: reader.id, keyHash: reader.keys.hash });
    expect(chain.head.seq).toBe(1);
    const epochKey = openEnvelope(reader.keys.privateKey, {
      folderId: folder.id,
      epoch: 1,
      memberKeyHash: reader.keys.hash,
      epochKeyHash: chain.head.epochs[0]!.key,
      envelope: answer.body.my_envelopes[0].envelope,
    });
    expect(keyHash(answer.body.epochs[0].public_key_spki)).toBe(model.currentEpoch.keys.hash);

    // Every file key was re-sealed to epoch 1.
    const listing = await reader.client.get(`/api/folders/${folder.id}/files`);
    expect(listing.body.map((file: { key_epoch: number | null }) => file.key_epoch)).toEqual([1, 1]);
    expect(files).toHaveLength(2);
    // An upload through the link seals to epoch 1; the reader opens it with the opened epoch key.
    const key = await owner.client.get(`/api/upload/${folder.linkToken}/public-key`);
    expect(key.body).toEqual({ public_key_spki: model.currentEpoch.keys.spki, key_epoch: 1 });
    const { response, sealed, plain } = await uploadOne(folder, key.body.public_key_spki, 1);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const stored = (await reader.client.get(`/api/folders/${folder.id}/files`)).body.find((file: { id: number }) => file.id === response.body.successful_files[0].id);
    expect(stored.key_epoch).toBe(1);
    const fileKey = unwrapFileKey(epochKey, stored.encrypted_key);
    expect(decryptBuffer(fileKey, Buffer.from(sealed.iv, 'base64'), sealed.sealed).equals(plain)).toBe(true);
    const download = await getBytes(reader.client, `/api/folders/download/${stored.id}`);
    expect(download.status).toBe(200);
    expect(download.body.equals(sealed.sealed)).toBe(true);
  });

  it('keeps a personal folder as it was: empty team answer for its owner, key_epoch null, the owner\'s key for uploads', async () => {
    const owner = await teamAccount(server, 'solo');
    const folder = await folderOf(owner);
    const answer = await team(owner.client, folder.id);
    expect(answer.body).toEqual({ manifests: [], members: [], epochs: [], my_envelopes: [], current_epoch: null });
    expect((await owner.client.get(`/api/folders/${folder.id}`)).body).toMatchObject({ my_role: 'owner', is_team: false });
    const key = await owner.client.get(`/api/upload/${folder.linkToken}/public-key`);
    expect(key.body).toEqual({ public_key_spki: owner.keys.spki, key_epoch: null });
    const { response } = await uploadOne(folder, owner.keys.spki, undefined);
    expect(response.status).toBe(200);
    expect((await owner.client.get(`/api/folders/${folder.id}/files`)).body[0].key_epoch).toBeNull();
    // An epoch named for a personal folder is refused like an old one.
    expect((await uploadOne(folder, owner.keys.spki, 1)).response.body.code).toBe('FOLDER_KEY_CHANGED');
    expect((await owner.client.put(`/api/folders/${folder.id}/team/me`, { notify: true })).status).toBe(404);
  });

  it('refuses a second share (TEAM_EXISTS) and a share whose files are not the folder\'s files (TEAM_CHANGED)', async () => {
    const { owner, folder, manager } = await sharedFolder();
    const again = new TeamModel(folder.id).share(owner, [{ account: manager, role: 'reader' }], []);
    expect((await owner.client.post(`/api/folders/${folder.id}/team`, again.body)).body.code).toBe('TEAM_EXISTS');

    const other = await folderOf(owner, 'Other');
    const file = await seedFile(server, other.id);
    const missing = new TeamModel(other.id).share(owner, [{ account: manager, role: 'reader' }], []);
    const refused = await owner.client.post(`/api/folders/${other.id}/team`, missing.body);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('TEAM_CHANGED');
    const foreign = await seedFile(server, (await folderOf(manager, 'Not yours')).id);
    const stolen = new TeamModel(other.id).share(owner, [{ account: manager, role: 'reader' }], [file.id, foreign.id]);
    expect((await owner.client.post(`/api/folders/${other.id}/team`, stolen.body)).body.code).toBe('TEAM_CHANGED');
    // Nothing was stored by the refusals: the right share still goes through.
    expect((await team(owner.client, other.id)).body.manifests).toEqual([]);
    const right = new TeamModel(other.id).share(owner, [{ account: manager, role: 'reader' }], [file.id]);
    expect((await owner.client.post(`/api/folders/${other.id}/team`, right.body)).status).toBe(201);
  });

  it('only the owner shares (a stranger 404) and only with its own signature', async () => {
    const owner = await teamAccount(server, 'owner');
    const manager = await teamAccount(server, 'manager');
    const folder = await folderOf(owner);
    const draft = new TeamModel(folder.id).share(owner, [{ account: manager, role: 'manager' }], []);
    expect((await manager.client.post(`/api/folders/${folder.id}/team`, draft.body)).body.code).toBe('FOLDER_NOT_FOUND');
    const byOther = new TeamModel(folder.id).share(manager, [{ account: owner, role: 'manager' }], []);
    const refused = await owner.client.post(`/api/folders/${folder.id}/team`, byOther.body);
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('TEAM_MANIFEST_INVALID');
  });
});

describe('changing the members', { timeout: TEAM_TEST_TIMEOUT_MS }, () => {
  it('adds a member (envelopes of every epoch), removes one (a new epoch only the rest can open), changes a role (no keys)', async () => {
    const { owner, manager, reader, folder, team: model } = await sharedFolder();
    const dave = await teamAccount(server, 'dave');

    // The manager adds dave as a reader.
    const add = model.change(manager, { add: [{ account: dave, role: 'reader' }] });
    const added = await manager.client.post(`/api/folders/${folder.id}/team/versions`, add.body);
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(added.body).toEqual({ seq: 2, current_epoch: 1 });
    add.commit();
    expect((await team(dave.client, folder.id)).body.my_envelopes.map((item: { epoch: number }) => item.epoch)).toEqual([1]);

    // The owner removes the reader: epoch 2, sealed to the three who stay.
    const remove = model.change(owner, { remove: [reader] });
    const removed = await owner.client.post(`/api/folders/${folder.id}/team/versions`, remove.body);
    expect(removed.status, JSON.stringify(removed.body)).toBe(201);
    expect(removed.body).toEqual({ seq: 3, current_epoch: 2 });
    remove.commit();
    expect((await team(reader.client, folder.id)).status).toBe(404);
    expect((await reader.client.get(`/api/folders/${folder.id}/files`)).status).toBe(404);
    const key = await owner.client.get(`/api/upload/${folder.linkToken}/public-key`);
    expect(key.body.key_epoch).toBe(2);
    const daveView = (await team(dave.client, folder.id)).body;
    expect(daveView.my_envelopes.map((item: { epoch: number }) => item.epoch)).toEqual([1, 2]);
    const chain = verifyChain(folder.id, daveView.manifests, { userId: dave.id, keyHash: dave.keys.hash });
    expect(chain.head.members.map((member) => member.user_id).sort()).toEqual([owner.id, manager.id, dave.id].sort());
    openEnvelope(dave.keys.privateKey, { folderId: folder.id, epoch: 2, memberKeyHash: dave.keys.hash, epochKeyHash: chain.head.epochs[1]!.key, envelope: daveView.my_envelopes[1].envelope });

    // The owner makes dave a manager: a version without keys.
    const promote = model.change(owner, { setRole: [{ account: dave, role: 'manager' }] });
    expect(promote.body.envelopes).toEqual([]);
    const promoted = await owner.client.post(`/api/folders/${folder.id}/team/versions`, promote.body);
    expect(promoted.status).toBe(201);
    promote.commit();
    expect((await dave.client.get(`/api/folders/${folder.id}`)).body.my_role).toBe('manager');

    // The activity log names who acted, and members read it.
    const activity = await dave.client.get(`/api/activity?folder_id=${folder.id}`);
    expect(activity.status).toBe(200);
    const kinds = activity.body.entries.map((entry: { kind: string; details: { by?: string } }) => [entry.kind, entry.details.by]);
    expect(kinds).toContainEqual(['team.changed', manager.username]);
    expect(kinds).toContainEqual(['team.shared', owner.username]);
  });

  it('refuses a removal without a new epoch, and the owner removed or replaced', async () => {
    const { owner, manager, reader, folder, team: model } = await sharedFolder();
    const remove = model.change(owner, { remove: [reader] });
    const bytes = manifestBytes({
      folderId: folder.id,
      seq: 2,
      prev: model.head!.hash,
      signer: { user_id: owner.id, key: owner.keys.hash },
      members: [
        { user_id: owner.id, username: owner.username, role: 'owner', key: owner.keys.hash },
        { user_id: manager.id, username: manager.username, role: 'manager', key: manager.keys.hash },
      ],
      epochs: model.epochs.map((epoch) => ({ epoch: epoch.epoch, key: epoch.keys.hash, created_at: epoch.createdAt })),
    });
    const noEpoch = await owner.client.post(`/api/folders/${folder.id}/team/versions`, { expected_seq: 1, manifest: bytes.toString('base64'), signature: signManifest(owner.keys.privateKey, bytes), envelopes: [] });
    expect(noEpoch.status).toBe(400);
    expect(noEpoch.body.code).toBe('TEAM_MANIFEST_INVALID');

    const coup = manifestBytes({
      folderId: folder.id,
      seq: 2,
      prev: model.head!.hash,
      signer: { user_id: manager.id, key: manager.keys.hash },
      members: [
        { user_id: owner.id, username: owner.username, role: 'manager', key: owner.keys.hash },
        { user_id: manager.id, username: manager.username, role: 'owner', key: manager.keys.hash },
        { user_id: reader.id, username: reader.username, role: 'reader', key: reader.keys.hash },
      ],
      epochs: model.epochs.map((epoch) => ({ epoch: epoch.epoch, key: epoch.keys.hash, created_at: epoch.createdAt })),
    });
    const refused = await manager.client.post(`/api/folders/${folder.id}/team/versions`, { expected_seq: 1, manifest: coup.toString('base64'), signature: signManifest(manager.keys.privateKey, coup), envelopes: [] });
    expect(refused.body.code).toBe('TEAM_MANIFEST_INVALID');
    // The honest removal still goes through afterwards.
    expect((await owner.client.post(`/api/folders/${folder.id}/team/versions`, remove.body)).status).toBe(201);
  });

  it('lets a member choose upload notifications for themself only', async () => {
    const { reader, stranger, folder } = await sharedFolder();
    const set = await reader.client.put(`/api/folders/${folder.id}/team/me`, { notify: true });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ notify: true });
    const row = (await team(reader.client, folder.id)).body.members.find((member: { user_id: number }) => member.user_id === reader.id);
    expect(row.notify).toBe(true);
    expect((await stranger.client.put(`/api/folders/${folder.id}/team/me`, { notify: true })).status).toBe(404);
    expect((await reader.client.put(`/api/folders/${folder.id}/team/me`, { notify: 'yes' })).status).toBe(422);
  });
});

describe('what each role may do on every folder route', { timeout: TEAM_TEST_TIMEOUT_MS }, () => {
  it('answers owner, manager, reader and stranger per role: 404 for a stranger, 403 FOLDER_ROLE_REQUIRED for a weaker role', async () => {
    const { owner, manager, reader, stranger, folder, files } = await sharedFolder();
    const link = await owner.client.post('/api/download/links', { file_ids: [files[0]!.id], password: null });
    expect(link.status).toBe(201);

    type Check = { name: string; run: (client: TestClient) => Promise<{ status: number; body: unknown }>; allowed: Array<'owner' | 'manager' | 'reader'>; strangerStatus?: number };
    const checks: Check[] = [
      { name: 'GET folder', run: (c) => c.get(`/api/folders/${folder.id}`), allowed: ['owner', 'manager', 'reader'] },
      { name: 'PUT folder', run: (c) => c.put(`/api/folders/${folder.id}`, { title: 'Renamed' }), allowed: ['owner', 'manager'] },
      { name: 'GET files', run: (c) => c.get(`/api/folders/${folder.id}/files`), allowed: ['owner', 'manager', 'reader'] },
      { name: 'GET download', run: async (c) => getBytes(c, `/api/folders/download/${files[0]!.id}`), allowed: ['owner', 'manager', 'reader'] },
      { name: 'GET export', run: async (c) => getBytes(c, `/api/folders/${folder.id}/export`), allowed: ['owner', 'manager', 'reader'] },
      { name: 'GET uploads', run: (c) => c.get(`/api/folders/${folder.id}/uploads`), allowed: ['owner', 'manager', 'reader'] },
      { name: 'GET notifications', run: (c) => c.get(`/api/folders/${folder.id}/notifications`), allowed: ['owner', 'manager', 'reader'] },
      { name: 'PUT notifications', run: (c) => c.put(`/api/folders/${folder.id}/notifications`, { mode: 'each', include_file_names: false }), allowed: ['owner', 'manager'] },
      { name: 'GET links', run: (c) => c.get(`/api/download/links/folder/${folder.id}`), allowed: ['owner', 'manager', 'reader'] },
      { name: 'GET team', run: (c) => c.get(`/api/folders/${folder.id}/team`), allowed: ['owner', 'manager', 'reader'] },
      { name: 'PUT team/me', run: (c) => c.put(`/api/folders/${folder.id}/team/me`, { notify: false }), allowed: ['owner', 'manager', 'reader'] },
      // Delete-like routes: checked with ids that do not exist inside the folder, so the allowed answer is "not found" after the role check.
      { name: 'DELETE upload', run: (c) => c.request('DELETE', `/api/folders/${folder.id}/uploads/${'0'.repeat(32)}`), allowed: ['owner', 'manager'] },
    ];
    const accounts = { owner, manager, reader } as const;
    for (const check of checks) {
      for (const role of ['owner', 'manager', 'reader'] as const) {
        const answer = await check.run(accounts[role].client);
        const allowed = check.allowed.includes(role);
        if (allowed) expect(answer.status, `${check.name} as ${role}`).toBe(check.name === 'DELETE upload' ? 404 : 200);
        else {
          expect(answer.status, `${check.name} as ${role}`).toBe(403);
          expect((answer.body as { code: string }).code ?? JSON.parse(String(answer.body)).code).toBe('FOLDER_ROLE_REQUIRED');
        }
      }
      const answer = await check.run(stranger.client);
      expect(answer.status, `${check.name} as a stranger`).toBe(404);
    }

    // Links: a reader may neither create nor delete; a manager may; the link belongs to the folder.
    expect((await reader.client.post('/api/download/links', { file_ids: [files[0]!.id], password: null })).body.code).toBe('FOLDER_ROLE_REQUIRED');
    expect((await stranger.client.post('/api/download/links', { file_ids: [files[0]!.id], password: null })).body.code).toBe('FILE_NOT_FOUND');
    const managerLink = await manager.client.post('/api/download/links', { file_ids: [files[1]!.id], password: null });
    expect(managerLink.status).toBe(201);
    expect((await reader.client.request('DELETE', `/api/download/links/${link.body.link_token}`)).body.code).toBe('FOLDER_ROLE_REQUIRED');
    expect((await stranger.client.request('DELETE', `/api/download/links/${link.body.link_token}`)).body.code).toBe('LINK_NOT_FOUND');
    expect((await owner.client.get(`/api/download/links/folder/${folder.id}`)).body).toHaveLength(2);
    expect((await manager.client.request('DELETE', `/api/download/links/${link.body.link_token}`)).status).toBe(204);

    // Deleting files: a reader is refused for the whole request, a stranger's ids are "not found".
    const readerDelete = await reader.client.post('/api/folders/files/delete', { file_ids: [files[0]!.id] });
    expect(readerDelete.status).toBe(403);
    const strangerDelete = await stranger.client.post('/api/folders/files/delete', { file_ids: [files[0]!.id] });
    expect(strangerDelete.body).toEqual({ deleted: 0, errors: [{ file_id: files[0]!.id, detail: 'File not found' }] });
    const managerDelete = await manager.client.post('/api/folders/files/delete', { file_ids: [files[0]!.id] });
    expect(managerDelete.body).toEqual({ deleted: 1, errors: [] });
    const deletedEntry = (await owner.client.get(`/api/activity?folder_id=${folder.id}&kind=files.deleted`)).body.entries[0];
    expect(deletedEntry.details).toMatchObject({ by: manager.username, file_ids: [files[0]!.id] });

    // The members' changes: a reader is refused 403 before anything is read.
    const readerChange = await reader.client.post(`/api/folders/${folder.id}/team/versions`, { expected_seq: 1, manifest: 'AAAA', signature: 'AAAA', envelopes: [] });
    expect(readerChange.body.code).toBe('FOLDER_ROLE_REQUIRED');
    expect((await stranger.client.post(`/api/folders/${folder.id}/team/versions`, { expected_seq: 1, manifest: 'AAAA', signature: 'AAAA', envelopes: [] })).status).toBe(404);

    // Only the owner deletes the folder.
    expect((await manager.client.request('DELETE', `/api/folders/${folder.id}`)).body.code).toBe('FOLDER_ROLE_REQUIRED');
    expect((await reader.client.request('DELETE', `/api/folders/${folder.id}`)).body.code).toBe('FOLDER_ROLE_REQUIRED');
    expect((await stranger.client.request('DELETE', `/api/folders/${folder.id}`)).status).toBe(404);
    expect((await owner.client.request('DELETE', `/api/folders/${folder.id}`)).status).toBe(204);
    expect((await manager.client.get('/api/folders/')).body.some((item: { id: number }) => item.id === folder.id)).toBe(false);
  });
});

describe('refusing what an attacker sends', { timeout: TEAM_TEST_TIMEOUT_MS }, () => {
  it('refuses a forged signature, a manifest signed by a reader, and one signed by someone other than the sender', async () => {
    const { manager, reader, folder, team: model } = await sharedFolder();
    const dave = await teamAccount(server, 'dave');
    const draft = model.change(manager, { add: [{ account: dave, role: 'reader' }] });
    const forged = { ...draft.body, signature: signManifest(rsaPair().privateKey, draft.bytes) };
    const answer = await manager.client.post(`/api/folders/${folder.id}/team/versions`, forged);
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('TEAM_MANIFEST_INVALID');
    const flipped = Buffer.from(draft.body.signature, 'base64');
    flipped[10]! ^= 1;
    expect((await manager.client.post(`/api/folders/${folder.id}/team/versions`, { ...draft.body, signature: flipped.toString('base64') })).body.code).toBe('TEAM_MANIFEST_INVALID');

    // Signed by the reader (a valid signature of its own), sent by the manager: refused 400.
    const byReader = model.change(reader, { add: [{ account: dave, role: 'manager' }] });
    const refused = await manager.client.post(`/api/folders/${folder.id}/team/versions`, byReader.body);
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('TEAM_MANIFEST_INVALID');
    // Sent by the reader itself: 403 before any check.
    expect((await reader.client.post(`/api/folders/${folder.id}/team/versions`, byReader.body)).body.code).toBe('FOLDER_ROLE_REQUIRED');
    // The honest change still follows version 1.
    expect((await manager.client.post(`/api/folders/${folder.id}/team/versions`, draft.body)).status).toBe(201);
  });

  it('refuses a skipped seq, a forked prev and a stale expected_seq', async () => {
    const { owner, manager, folder, team: model } = await sharedFolder();
    const dave = await teamAccount(server, 'dave');
    const epochs = model.epochs.map((epoch) => ({ epoch: epoch.epoch, key: epoch.keys.hash, created_at: epoch.createdAt }));
    const members = model.members.map((member) => ({ user_id: member.account.id, username: member.account.username, role: member.role, key: member.account.keys.hash }));
    const send = (bytes: Buffer, expected = 1) =>
      owner.client.post(`/api/folders/${folder.id}/team/versions`, { expected_seq: expected, manifest: bytes.toString('base64'), signature: signManifest(owner.keys.privateKey, bytes), envelopes: [] });
    const skipped = manifestBytes({ folderId: folder.id, seq: 3, prev: model.head!.hash, signer: { user_id: owner.id, key: owner.keys.hash }, members, epochs });
    expect((await send(skipped)).body.code).toBe('TEAM_MANIFEST_INVALID');
    const forked = manifestBytes({ folderId: folder.id, seq: 2, prev: 'ab'.repeat(32), signer: { user_id: owner.id, key: owner.keys.hash }, members, epochs });
    expect((await send(forked)).body.code).toBe('TEAM_MANIFEST_INVALID');
    const otherFolder = manifestBytes({ folderId: folder.id + 1000, seq: 2, prev: model.head!.hash, signer: { user_id: owner.id, key: owner.keys.hash }, members, epochs });
    expect((await send(otherFolder)).body.code).toBe('TEAM_MANIFEST_INVALID');

    const first = model.change(manager, { setRole: [] });
    expect((await manager.client.post(`/api/folders/${folder.id}/team/versions`, first.body)).status).toBe(201);
    first.commit();
    // A change built on version 1 after version 2 was stored: TEAM_CHANGED, nothing stored.
    const stale = new TeamModel(folder.id);
    stale.members = model.members;
    stale.epochs = model.epochs;
    stale.head = { seq: 1, hash: 'cd'.repeat(32) };
    const late = stale.change(owner, { add: [{ account: dave, role: 'reader' }] });
    const conflict = await owner.client.post(`/api/folders/${folder.id}/team/versions`, late.body);
    expect(conflict.status).toBe(409);
    expect(conflict.body.code).toBe('TEAM_CHANGED');
    expect((await team(owner.client, folder.id)).body.manifests).toHaveLength(2);
  });

  it('stores exactly one of two managers\' changes made at once; the other gets TEAM_CHANGED', async () => {
    const { owner, manager, folder, team: model } = await sharedFolder();
    const dave = await teamAccount(server, 'dave');
    const erin = await teamAccount(server, 'erin');
    for (let round = 0; round < 3; round++) {
      const a = model.change(owner, { add: [{ account: round === 0 ? dave : await teamAccount(server, 'x'), role: 'reader' }] });
      const b = model.change(manager, { add: [{ account: round === 0 ? erin : await teamAccount(server, 'y'), role: 'reader' }] });
      const answers = await Promise.all([owner.client.post(`/api/folders/${folder.id}/team/versions`, a.body), manager.client.post(`/api/folders/${folder.id}/team/versions`, b.body)]);
      const statuses = answers.map((answer) => answer.status).sort();
      expect(statuses).toEqual([201, 409]);
      expect(answers.find((answer) => answer.status === 409)!.body.code).toBe('TEAM_CHANGED');
      (answers[0]!.status === 201 ? a : b).commit();
      const stored = (await team(owner.client, folder.id)).body;
      expect(stored.manifests).toHaveLength(model.head!.seq);
      expect(stored.members).toHaveLength(model.members.length);
    }
  });

  it('refuses a missing envelope, an extra one, and one that is not an envelope', async () => {
    const { owner, reader, folder, team: model } = await sharedFolder();
    const dave = await teamAccount(server, 'dave');
    const remove = model.change(owner, { remove: [reader] });
    const send = (body: object) => owner.client.post(`/api/folders/${folder.id}/team/versions`, body);
    const missing = await send({ ...remove.body, envelopes: remove.body.envelopes.slice(1) });
    expect(missing.status).toBe(400);
    expect(missing.body.detail).toMatch(/missing/);
    const extra = await send({ ...remove.body, envelopes: [...remove.body.envelopes, { user_id: reader.id, epoch: 2, envelope: remove.body.envelopes[0]!.envelope }] });
    expect(extra.body.code).toBe('TEAM_MANIFEST_INVALID');
    const twice = await send({ ...remove.body, envelopes: [...remove.body.envelopes, remove.body.envelopes[0]!] });
    expect(twice.body.code).toBe('TEAM_MANIFEST_INVALID');
    const notAnEnvelope = await send({ ...remove.body, envelopes: remove.body.envelopes.map((item, index) => (index === 0 ? { ...item, envelope: 'AAAA' } : item)) });
    expect(notAnEnvelope.body.code).toBe('TEAM_MANIFEST_INVALID');
    // A new member without the envelopes of the old epochs.
    const add = model.change(owner, { add: [{ account: dave, role: 'reader' }] });
    expect((await send({ ...add.body, envelopes: [] })).body.code).toBe('TEAM_MANIFEST_INVALID');
    expect((await send(remove.body)).status).toBe(201);
  });

  it('refuses a member whose key hash is not their account\'s public key (the server\'s own key inserted), and a disabled account', async () => {
    const { owner, folder, team: model } = await sharedFolder();
    const mallory = await teamAccount(server, 'mallory');
    const impostorKeys = rsaPair();
    const impostor = { ...mallory, keys: impostorKeys };
    const draft = model.change(owner, { add: [{ account: impostor, role: 'reader' }] });
    const refused = await owner.client.post(`/api/folders/${folder.id}/team/versions`, draft.body);
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toMatch(/key/);

    const gone = await teamAccount(server, 'gone');
    expect(await server.app.repos.users.disable(gone.id, server.clock.now())).toBe('disabled');
    const disabled = model.change(owner, { add: [{ account: gone, role: 'reader' }] });
    const answer = await owner.client.post(`/api/folders/${folder.id}/team/versions`, disabled.body);
    expect(answer.status).toBe(400);
    expect(answer.body.detail).toMatch(/disabled/);
    // A made-up user id is refused the same way.
    const ghost = { ...mallory, id: 2_000_000 };
    expect((await owner.client.post(`/api/folders/${folder.id}/team/versions`, model.change(owner, { add: [{ account: ghost, role: 'reader' }] }).body)).body.code).toBe('TEAM_MANIFEST_INVALID');
    expect((await team(owner.client, folder.id)).body.manifests).toHaveLength(1);
  });

  it('refuses an upload sealed to an old epoch (multipart and tus), and takes the current one', async () => {
    const { owner, reader, folder, team: model } = await sharedFolder();
    const oldSpki = model.currentEpoch.keys.spki;
    const remove = model.change(owner, { remove: [reader] });
    expect((await owner.client.post(`/api/folders/${folder.id}/team/versions`, remove.body)).status).toBe(201);
    remove.commit();
    const before = (await owner.client.get(`/api/folders/${folder.id}/files`)).body.length;

    // A body of several MiB: the refusal comes before its files are read, and still answers.
    const old = await uploadOne(folder, oldSpki, 1, randomBytes(3 * 1024 * 1024));
    expect(old.response.status).toBe(409);
    expect(old.response.body.code).toBe('FOLDER_KEY_CHANGED');
    const none = await uploadOne(folder, owner.keys.spki, undefined);
    expect(none.response.body.code).toBe('FOLDER_KEY_CHANGED');
    expect((await owner.client.get(`/api/folders/${folder.id}/files`)).body).toHaveLength(before);

    const tusOld = await tusCreateWithEpoch(folder, '1');
    expect(tusOld.status).toBe(409);
    expect(JSON.parse(String(tusOld.body)).code).toBe('FOLDER_KEY_CHANGED');
    expect((await tusCreateWithEpoch(folder, 'two')).status).toBe(400);
    expect((await tusCreateWithEpoch(folder, undefined)).status).toBe(409);
    expect((await tusCreateWithEpoch(folder, '2')).status).toBe(201);

    const current = await uploadOne(folder, model.currentEpoch.keys.spki, 2);
    expect(current.response.status).toBe(200);
    const files = (await owner.client.get(`/api/folders/${folder.id}/files`)).body;
    expect(files.find((file: { id: number }) => file.id === current.response.body.successful_files[0].id).key_epoch).toBe(2);
  });

  it('refuses records sealed to an epoch that changed while they were stored (the check inside the recording transaction)', async () => {
    const { folder } = await sharedFolder();
    const record = {
      folderId: folder.id,
      originalFilename: 'late.bin',
      storedFilename: 'u/late.bin',
      relativePath: '.',
      fileSize: 1,
      fileHash: 'ab'.repeat(32),
      encryptedKey: 'AAAA',
      encryptionIv: 'AAAA',
      blobKey: `late/${randomBytes(4).toString('hex')}`,
      uploadTime: server.clock.now(),
      keyEpoch: null,
    };
    await expect(server.app.repos.files.createMany([record], undefined, undefined, { folderId: folder.id, epoch: null })).rejects.toBeInstanceOf(KeyEpochChangedError);
    expect(await server.app.repos.files.findByBlobKey(record.blobKey)).toBeUndefined();
  });

  it('answers malformed bodies 422 and malformed manifests 400', async () => {
    const { owner, folder, team: model } = await sharedFolder();
    const base = `/api/folders/${folder.id}/team`;
    for (const body of [
      {},
      { expected_seq: '1', manifest: 'AAAA', signature: 'AAAA', envelopes: [] },
      { expected_seq: 0, manifest: 'AAAA', signature: 'AAAA', envelopes: [] },
      { expected_seq: 1, manifest: '', signature: 'AAAA', envelopes: [] },
      { expected_seq: 1, manifest: 'not base64!', signature: 'AAAA', envelopes: [] },
      { expected_seq: 1, manifest: 'AAAA', signature: 'AAAA', envelopes: [{ user_id: -1, epoch: 1, envelope: 'AAAA' }] },
      { expected_seq: 1, manifest: 'AAAA', signature: 'AAAA', envelopes: [{ user_id: 1, epoch: 0, envelope: 'AAAA' }] },
      { expected_seq: 1, manifest: 'AAAA', signature: 'AAAA', envelopes: 'none' },
      { expected_seq: 1, manifest: 'AAAA', signature: 'AAAA', envelopes: [], new_epoch: { epoch: 2 } },
      { expected_seq: 1, manifest: 'A'.repeat(300_000), signature: 'AAAA', envelopes: [] },
    ]) {
      const answer = await owner.client.post(`${base}/versions`, body);
      expect(answer.status, JSON.stringify(body).slice(0, 80)).toBe(422);
    }
    expect((await owner.client.post(base, { manifest: 'AAAA' })).status).toBe(422);
    expect((await owner.client.post(base, { manifest: 'AAAA', signature: 'AAAA', epoch: { epoch: 2, public_key_spki: 'AAAA' }, envelopes: [], rekeyed_files: [] })).status).toBe(422);
    expect((await owner.client.post('/api/folders/abc/team', {})).status).toBe(422);

    const send = (manifest: Buffer) =>
      owner.client.post(`${base}/versions`, { expected_seq: 1, manifest: manifest.toString('base64'), signature: signManifest(owner.keys.privateKey, manifest), envelopes: [] });
    for (const manifest of [
      Buffer.from('not json'),
      Buffer.from('{}'),
      Buffer.from([0xff, 0xfe, 0x00]),
      Buffer.from(JSON.stringify({ format: 'sealdrop-folder-manifest', version: 2 })),
      // The right fields in another order or spacing: not the one spelling.
      Buffer.from(JSON.stringify(JSON.parse(model.change(owner, {}).bytes.toString()), null, 1)),
    ]) {
      const answer = await send(manifest);
      expect(answer.status).toBe(400);
      expect(answer.body.code).toBe('TEAM_MANIFEST_INVALID');
    }
    const envelopeOfEpochKey = sealEnvelope(owner.keys, folder.id, 1, model.currentEpoch.keys.privateKey);
    expect(envelopeOfEpochKey.length).toBeGreaterThan(100);
  });
});

describe('odd spellings of the team paths', { timeout: TEAM_TEST_TIMEOUT_MS }, () => {
  it('answers a spelling the router decodes like the canonical path, never lets a stranger or a reader through another, and never answers 5xx', async () => {
    const { owner, reader, stranger, folder, team: model } = await sharedFolder();
    const id = String(folder.id);
    const same = [`/api/folders/${id}/%74eam`, `/%61pi/folders/${id}/team`, `/api/folders/%3${id.slice(0, 1)}${id.slice(1)}/team`, `/api/folders/${id}/team?x=1`];
    const odd = [
      `/api/folders/${id}/TEAM`,
      `/api/folders/${id}/team/`,
      `/api/folders/${id}/team.`,
      `/api/folders/${id}/team;x`,
      `/api/folders/${id}/team%00`,
      `/api/folders/${id}%2Fteam`,
      `/api/folders/${id}/team/..`,
      `/api/folders/${id}/./team`,
      `/api/folders/${id}/x/../team`,
      `/api/folders//${id}/team`,
      `/api/folders/${id}%20/team`,
      `/api/folders/+${id}/team`,
      `/api/folders/${id}.0/team`,
      `/api/folders/-${id}/team`,
      `/api/folders/${id}/team/me/`,
      `/api/folders/${id}/team/ME`,
      `/api/folders/${id}/team/versions%2F`,
      `/api/folders/${id}/TEAM/versions`,
    ];
    const canonical = await reader.client.get(`/api/folders/${id}/team`);
    expect(canonical.status).toBe(200);
    for (const path of same) {
      const answer = await getBytes(reader.client, path);
      expect(answer.status, path).toBe(200);
      expect(JSON.parse(answer.body.toString()).manifests, path).toEqual(canonical.body.manifests);
      expect((await getBytes(stranger.client, path)).status, `stranger ${path}`).toBe(404);
    }
    for (const path of odd) {
      for (const [who, client] of [['stranger', stranger.client], ['reader', reader.client]] as const) {
        const answer = await getBytes(client, path);
        expect(answer.status, `${who} GET ${path}`).toBeLessThan(500);
        if (who === 'stranger') expect(answer.status, `stranger GET ${path}`).toBeGreaterThanOrEqual(400);
      }
    }
    // Writes through odd spellings: a reader and a stranger never store a version.
    const dave = await teamAccount(server, 'dave');
    const change = model.change(owner, { add: [{ account: dave, role: 'reader' }] });
    for (const path of [`/api/folders/${id}/team/%76ersions`, `/api/folders/${id}/TEAM/versions`, `/api/folders/${id}/team/versions/`, `/api/folders/${id}/team/./versions`]) {
      for (const client of [reader.client, stranger.client]) {
        // Raw: an odd spelling's answer is the router's, which the document does not describe.
        const answer = await sendRaw(client, 'POST', path, Buffer.from(JSON.stringify(change.body)), { 'content-type': 'application/json' });
        expect(answer.status, path).toBeGreaterThanOrEqual(400);
        expect(answer.status, path).toBeLessThan(500);
      }
    }
    expect((await team(owner.client, folder.id)).body.manifests).toHaveLength(1);
    // The owner's own write through a spelling the router decodes is the canonical write.
    const stored = await sendRaw(owner.client, 'POST', `/api/folders/${id}/team/%76ersions`, Buffer.from(JSON.stringify(change.body)), { 'content-type': 'application/json' });
    expect(stored.status).toBe(201);
  }, 180_000);
});
