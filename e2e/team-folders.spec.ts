/**
 * Team folders end to end (docs/team-folders.md), three accounts in three browser contexts against
 * the real server: the owner (the first organisation admin) invites two people from the members
 * page; each accepts in a browser of their own, turns on two-factor sign-in and makes a key pair
 * there. The owner shares a folder (one manager, one reader) after comparing their fingerprints; an
 * anonymous uploader sends a folder of files through the upload link; all three download and
 * decrypt byte-identical copies, as a ZIP and saved to a folder. The owner removes the reader; a
 * new upload is readable by the owner and the manager and not by the reader: checked in node with
 * the reader's own private key (the key data their browser stored, opened with their password)
 * against every byte the server holds for it (their envelopes in the database, the new file's
 * wrapped key). A proxy in front of the server then adds a foreign member to GET team, and the
 * browser refuses the list with a warning and signs nothing. Members section and dashboard pass
 * axe (0 serious) at 1280 and 390 px.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { sql } from 'kysely';
import { generateRsaKeyPair, keyHash, openEnvelope, unwrapFileKey, unwrapPrivateKey } from '../server/crypto/index.ts';
import { openDatabase } from '../server/db/connection.ts';
import { readZip } from '../tests/support/zip.ts';
import { createAdmin, signIn, type AdminAccount } from './support/admin.ts';
import { expectAccessible } from './support/axe.ts';
import { E2E_BASE_URL, E2E_DATA_DIR, SPEC_PORTS } from './support/environment.mjs';
import { createFolder, giveAdminKeyPair, sha256, type PlainFile, type UploadedFile } from './support/files-seed.ts';
import { pickedPaths, readOpfsTree, withOpfsPickers } from './support/fileSystemAccess.ts';
import { expectNoSidewaysScrolling } from './support/layout.ts';
import { forwardUpstream, readBody } from './support/forwardingProxy.ts';
import { expectedFingerprint } from './support/keyFingerprint.ts';
import { invitationLinkFromOutbox } from './support/outbox.ts';
import { Authenticator } from './support/totp.ts';

const SHOTS_DIR = process.env.TEAM_SHOTS_DIR ?? path.join('test-results', 'team-shots');
const PROXY_PORT = SPEC_PORTS.teamFoldersProxy;
const PROXY_URL = `http://127.0.0.1:${PROXY_PORT}`;

async function shot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SHOTS_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS_DIR, `${name}-${page.viewportSize()?.width ?? 0}.png`), fullPage: true });
}

interface Person extends AdminAccount {
  context: BrowserContext;
  page: Page;
  authenticator?: Authenticator;
}

/** The owner invites `email` from the members page; the invitee accepts in a context of their own, sets up 2FA and a key pair. */
async function inviteAndSetUp(browser: Browser, owner: Page, prefix: string): Promise<Person> {
  const email = `${prefix}-${randomBytes(4).toString('hex')}@example.com`;
  await owner.goto('/members');
  const invite = owner.getByRole('region', { name: 'Invite a person' });
  await invite.getByLabel('E-mail address').fill(email);
  await invite.getByRole('button', { name: 'Send Invitation' }).click();
  await expect(invite.getByText(`Invitation sent to ${email}.`)).toBeVisible();
  const link = await invitationLinkFromOutbox(E2E_DATA_DIR, email);

  const context = await browser.newContext();
  await withOpfsPickers(context);
  const page = await context.newPage();
  const account = { username: `${prefix}-${randomBytes(3).toString('hex')}`, password: `pw-${randomBytes(9).toString('base64url')}` };
  await page.goto(link);
  await page.getByLabel('Username', { exact: true }).fill(account.username);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByLabel('Confirm password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page).toHaveURL(/\/welcome$/, { timeout: 30_000 });
  const twoFactor = page.getByRole('region', { name: 'Two-Factor Authentication' });
  await twoFactor.getByRole('button', { name: 'Enable 2FA' }).click();
  const secret = (await twoFactor.getByLabel('Two-factor secret').textContent())?.trim() ?? '';
  const authenticator = new Authenticator(secret);
  await twoFactor.getByLabel('Authentication Code', { exact: true }).fill(await authenticator.nextCode());
  await twoFactor.getByRole('button', { name: 'Verify & Enable' }).click();
  await expect(twoFactor.getByRole('button', { name: 'Disable 2FA' })).toBeVisible();
  const keys = page.getByRole('region', { name: 'End-to-End Encryption Key' });
  await keys.getByLabel('Login Password', { exact: true }).fill(account.password);
  await keys.getByRole('button', { name: 'Generate New Key Pair' }).click();
  await page.getByRole('dialog', { name: 'Generate a new key pair?' }).getByRole('button', { name: 'Generate New Keys' }).click();
  const modal = page.getByRole('dialog', { name: 'New Key Pair Generated - Actions Required!' });
  await expect(modal).toBeVisible({ timeout: 30_000 });
  await modal.getByRole('button', { name: 'Upload Public Key' }).click();
  await expect(modal.getByRole('button', { name: 'Uploaded ✓' })).toBeDisabled();
  await modal.getByRole('button', { name: 'Save Key Data' }).click();
  await expect(modal.getByRole('button', { name: 'Saved ✓' })).toBeDisabled();
  const backup = page.waitForEvent('download');
  await modal.getByRole('button', { name: 'Download Backup (.json)' }).click();
  await backup;
  await modal.getByRole('button', { name: 'Done (Close)' }).click();
  await page.getByRole('link', { name: 'Continue to Dashboard' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  return { ...account, context, page, authenticator };
}

async function publicKeyOf(page: Page): Promise<string> {
  return ((await (await page.request.get('/api/auth/public-key')).json()) as { public_key_spki: string }).public_key_spki;
}

async function userIdOf(page: Page): Promise<number> {
  return ((await (await page.request.get('/api/auth/users/me')).json()) as { id: number }).id;
}

/** Opens the folder page with the key locked (a fresh load) and unlocks it through the members section. */
async function openFolderUnlocked(page: Page, folderId: number, password: string, base = ''): Promise<void> {
  await page.goto(`${base}/folders/view/${folderId}`);
  const members = page.getByRole('region', { name: 'Members' });
  await members.getByRole('button', { name: 'Show Members' }).click();
  const dialog = page.getByRole('dialog', { name: 'Login Password Required' });
  await dialog.getByLabel('Login Password').fill(password);
  await dialog.getByRole('button', { name: 'Unlock' }).click();
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await expect(dialog).toBeHidden();
}

function expectZipHolds(entries: Array<{ name: string; data: Buffer }>, expected: readonly UploadedFile[]): void {
  expect(entries.map((entry) => entry.name).sort()).toEqual(expected.map((file) => file.zipPath).sort());
  for (const file of expected) expect(entries.find((entry) => entry.name === file.zipPath)!.data.equals(file.content), file.zipPath).toBe(true);
}

/** 'Download All' twice: as a ZIP (the service worker's download) and saved to a picked folder; both byte-identical to what was sent. */
async function downloadEverything(page: Page, expected: readonly UploadedFile[]): Promise<void> {
  const count = expected.length;
  const files = page.getByRole('table', { name: 'Files' });
  await expect(files).toBeVisible();
  await page.getByRole('button', { name: `Download All (${count})` }).click();
  const choice = page.getByRole('dialog', { name: `Download ${count} files` });
  const zip = page.waitForEvent('download', { timeout: 60_000 });
  await choice.getByRole('button', { name: /Download as ZIP/ }).click();
  expectZipHolds(await readZip(fs.readFileSync(await (await zip).path())), expected);
  await expect(page.getByRole('region', { name: 'Download progress' })).toBeHidden({ timeout: 30_000 });

  const before = (await pickedPaths(page)).length;
  await page.getByRole('button', { name: `Download All (${count})` }).click();
  await page.getByRole('dialog', { name: `Download ${count} files` }).getByRole('button', { name: 'Save to Folder...' }).click();
  await expect.poll(async () => (await pickedPaths(page)).length).toBe(before + 1);
  const picked = (await pickedPaths(page))[before]!;
  await expect(page.getByText(`Saved ${count} files to "${picked}".`)).toBeVisible({ timeout: 60_000 });
  const saved = await readOpfsTree(page, picked);
  expect(saved.map((file) => file.path)).toEqual(expected.map((file) => file.zipPath).sort());
  for (const file of expected) expect(saved.find((entry) => entry.path === file.zipPath)!.sha256, file.zipPath).toBe(sha256(file.content));
}

/**
 * A folder picked and sent on the upload page by an uploader without an account (the page's own
 * hashing, encryption and transport); the stored records are read as the owner.
 */
async function uploadAnonymously(uploader: Page, owner: Page, folder: { id: number; link_token: string }, rootName: string, files: PlainFile[]): Promise<UploadedFile[]> {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'sealdrop-team-'));
  const root = path.join(base, rootName);
  for (const file of files) {
    const dir = file.dir === '.' ? root : path.join(root, ...file.dir.split('/'));
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, file.name), file.content);
  }
  try {
    await uploader.goto(`/upload/${folder.link_token}`);
    await uploader.getByTestId('folder-input').setInputFiles(root);
    const label = files.length === 1 ? 'Upload 1 file' : `Upload ${files.length} files`;
    await uploader.getByRole('button', { name: label }).click();
    await expect(uploader.getByText(/Upload successful!/)).toBeVisible({ timeout: 60_000 });
  } finally {
    fs.rmSync(base, { recursive: true, force: true });
  }
  const records = (await (await owner.request.get(`/api/folders/${folder.id}/files`)).json()) as Array<{ id: number; original_filename: string; relative_path: string }>;
  return files.map((file) => {
    const dir = file.dir === '.' ? rootName : `${rootName}/${file.dir}`;
    const record = records.find((candidate) => candidate.original_filename === file.name && candidate.relative_path === dir);
    if (!record) throw new Error(`${dir}/${file.name} is not in the folder after the upload`);
    return { ...file, dir, id: record.id, zipPath: `${dir}/${file.name}` };
  });
}

const firstBatch = (): PlainFile[] => [
  { dir: '.', name: 'contract.pdf', content: randomBytes(300_000) },
  { dir: 'scans', name: 'passport.jpg', content: randomBytes(120_000) },
  { dir: 'scans', name: 'notes.txt', content: Buffer.from('Team folder notes\n'.repeat(50), 'utf8') },
];
const secondBatch = (): PlainFile[] => [{ dir: '.', name: 'after-removal.bin', content: randomBytes(200_000) }];

// The proxy of the last part: passes everything to the real server, and adds a foreign member to
// every GET /api/folders/{id}/team answer while `inserting` is set. Records what it saw.
let inserting = false;
const foreign = generateRsaKeyPair();
const atProxy: Array<{ method: string; url: string }> = [];

const proxy = http.createServer(async (request, response) => {
  const body = await readBody(request);
  atProxy.push({ method: request.method ?? '', url: request.url ?? '' });
  const upstream = await forwardUpstream(E2E_BASE_URL, request, body);
  let answer = upstream.body;
  if (inserting && request.method === 'GET' && /^\/api\/folders\/\d+\/team$/.test(request.url ?? '') && upstream.status === 200) {
    const team = JSON.parse(answer.toString('utf8')) as { members: unknown[] };
    team.members.push({ user_id: 987_654, username: 'mallory', display_name: 'Mallory', role: 'manager', public_key_spki: foreign.publicKeySpki, is_disabled: false, notify: false });
    answer = Buffer.from(JSON.stringify(team));
  }
  response.writeHead(upstream.status, upstream.headers);
  response.end(answer);
});

test.beforeAll(async () => {
  await new Promise<void>((resolve) => proxy.listen(PROXY_PORT, '127.0.0.1', resolve));
});
test.afterAll(async () => {
  proxy.closeAllConnections();
  await new Promise<void>((resolve) => proxy.close(() => resolve()));
});

/** Every envelope the server holds for `userId` in the folder, and the stored file rows, read from the e2e database. */
async function serverHoldings(folderId: number, userId: number) {
  const database = await openDatabase({ kind: 'sqlite', file: path.join(E2E_DATA_DIR, 'sealdrop.db') });
  try {
    const envelopes = await sql<{ epoch: number; envelope: string }>`select epoch, envelope from folder_epoch_keys where folder_id = ${folderId} and user_id = ${userId} order by epoch`.execute(database.db);
    const epochs = await sql<{ epoch: number; public_key_spki: string }>`select epoch, public_key_spki from folder_key_epochs where folder_id = ${folderId} order by epoch`.execute(database.db);
    const files = await sql<{ original_filename: string; encrypted_key: string; key_epoch: number | null }>`select original_filename, encrypted_key, key_epoch from files where folder_id = ${folderId}`.execute(database.db);
    return { envelopes: envelopes.rows, epochs: epochs.rows, files: files.rows };
  } finally {
    await database.close();
  }
}

test('three members share a folder, an uploader sends files, the owner removes one member, and a server-added member is refused', async ({ browser, page: ownerPage }) => {
  // Three people setting up accounts and keys, six downloads, axe on five screens: about 8 minutes
  // alone, twice that on a loaded two-core machine.
  test.setTimeout(1_500_000);
  await withOpfsPickers(ownerPage);
  const owner = await createAdmin('team-owner', undefined, 'admin');
  await signIn(ownerPage, owner);
  await giveAdminKeyPair(ownerPage, owner.password);

  // The owner invites two people; each sets up in a browser of their own.
  const manager = await inviteAndSetUp(browser, ownerPage, 'mona');
  const reader = await inviteAndSetUp(browser, ownerPage, 'rex');
  const managerKey = await publicKeyOf(manager.page);
  const readerKey = await publicKeyOf(reader.page);
  const readerId = await userIdOf(reader.page);

  // The owner shares a folder: the reader and the manager picked with their fingerprints shown.
  const folder = await createFolder(ownerPage, 'Client Documents');
  await ownerPage.goto(`/folders/view/${folder.id}`);
  const members = ownerPage.getByRole('region', { name: 'Members' });
  await members.getByRole('button', { name: 'Share Folder...' }).click();
  const unlock = ownerPage.getByRole('dialog', { name: 'Login Password Required' });
  await unlock.getByLabel('Login Password').fill(owner.password);
  await unlock.getByRole('button', { name: 'Unlock' }).click();
  await unlock.getByRole('button', { name: 'Continue' }).click();
  const share = ownerPage.getByRole('dialog', { name: 'Share this folder' });
  for (const [person, key, role] of [
    [manager, managerKey, 'Manager'],
    [reader, readerKey, 'Reader'],
  ] as const) {
    await share.getByRole('combobox', { name: 'Person' }).click();
    await ownerPage.getByRole('option', { name: person.username }).click();
    await share.getByRole('radio', { name: role }).check();
    await expect(share.getByTestId('new-member-fingerprint')).toHaveText(expectedFingerprint(key));
    await share.getByRole('button', { name: 'Add to List' }).click();
  }
  await expectAccessible(ownerPage, 'team-share-dialog');
  await shot(ownerPage, 'share-dialog');
  await share.getByRole('button', { name: 'Share Folder' }).click();
  await expect(share).toBeHidden({ timeout: 30_000 });
  const list = members.getByRole('list', { name: 'Members' });
  await expect(list.getByRole('listitem')).toHaveCount(3);
  await expect(list.getByRole('listitem', { name: reader.username }).getByTestId('member-fingerprint')).toHaveText(expectedFingerprint(readerKey));
  await expect(list.getByRole('listitem', { name: manager.username }).getByTestId('member-fingerprint')).toHaveText(expectedFingerprint(managerKey));
  await expect(members).toContainText('Folder key last changed');

  // An anonymous uploader sends a folder of files through the link (the page seals to epoch 1).
  const uploaderContext = await browser.newContext();
  const uploader = await uploaderContext.newPage();
  const batch1 = await uploadAnonymously(uploader, ownerPage, folder, 'Batch1', firstBatch());
  const listed = (await (await ownerPage.request.get(`/api/folders/${folder.id}/files`)).json()) as Array<{ original_filename: string; relative_path: string; key_epoch: number | null }>;
  expect(listed.map((file) => file.key_epoch)).toEqual([1, 1, 1]);

  // All three download and decrypt byte-identical copies, as a ZIP and saved to a folder.
  await openFolderUnlocked(ownerPage, folder.id, owner.password);
  await downloadEverything(ownerPage, batch1);
  for (const person of [manager, reader]) {
    await openFolderUnlocked(person.page, folder.id, person.password);
    await downloadEverything(person.page, batch1);
  }

  // The reader sees the folder on the dashboard as shared with them, without Edit or Delete.
  await reader.page.goto('/dashboard');
  const row = reader.page.locator(`[data-folder-id="${folder.id}"]`);
  await expect(row).toContainText('Shared with me · Reader');
  await expect(row.getByRole('link', { name: 'Edit' })).toHaveCount(0);
  await expect(row.getByRole('button', { name: 'Delete' })).toHaveCount(0);
  await expectAccessible(reader.page, 'team-dashboard-reader');
  await shot(reader.page, 'dashboard-reader');
  await reader.page.setViewportSize({ width: 390, height: 844 });
  await expect(reader.page.locator(`li[data-folder-id="${folder.id}"]`)).toContainText('Shared with me · Reader');
  await expectAccessible(reader.page, 'team-dashboard-reader-phone');
  await expectNoSidewaysScrolling(reader.page, 'dashboard of a reader at 390 px');
  await shot(reader.page, 'dashboard-reader');
  await reader.page.setViewportSize({ width: 1280, height: 720 });

  // The manager turns on the folder's notifications for themselves.
  await openFolderUnlocked(manager.page, folder.id, manager.password);
  await manager.page.getByLabel('E-mail me when files arrive in this folder').check();
  await expect(manager.page.getByText('Notification choice saved.')).toBeVisible();

  // The reader's own account key and what they received before the removal.
  const readerKeyData = (await (await reader.page.request.get('/api/auth/users/me/encrypted-key')).json()) as { encryptedPrivateKey: string; kdfSalt: string };
  const readerPrivateKey = unwrapPrivateKey(readerKeyData, reader.password);
  // Everything the server ever sent them of the folder's keys: their envelopes before the removal.
  const readerTeam = (await (await reader.page.request.get(`/api/folders/${folder.id}/team`)).json()) as { my_envelopes: Array<{ epoch: number; envelope: string }> };
  expect(readerTeam.my_envelopes.map((row) => row.epoch)).toEqual([1]);

  // The folder key the link hands out before the removal (epoch 1), kept to be served stale below.
  const epochOneKey = (await (await uploader.request.get(`/api/upload/${folder.link_token}/public-key`)).json()) as { public_key_spki: string; key_epoch: number };
  expect(epochOneKey.key_epoch).toBe(1);

  // The owner removes the reader; the dialog says what removal does.
  await openFolderUnlocked(ownerPage, folder.id, owner.password);
  await expect(list.getByRole('listitem')).toHaveCount(3);
  await expectAccessible(ownerPage, 'team-members-owner');
  await shot(ownerPage, 'members-owner');
  await list.getByRole('listitem', { name: reader.username }).getByRole('button', { name: `Remove ${reader.username}` }).click();
  const confirm = ownerPage.getByRole('dialog', { name: `Remove ${reader.username}?` });
  await expect(confirm).toContainText('Files they could open before stay readable to them');
  await expectAccessible(ownerPage, 'team-remove-dialog');
  await confirm.getByRole('button', { name: 'Remove Member' }).click();
  await expect(confirm).toBeHidden({ timeout: 30_000 });
  await expect(list.getByRole('listitem')).toHaveCount(2);
  await expect(members).toContainText('key version 2');

  // The members section at 390 px.
  await ownerPage.setViewportSize({ width: 390, height: 844 });
  await expectAccessible(ownerPage, 'team-members-owner-phone');
  await expectNoSidewaysScrolling(ownerPage, 'members section at 390 px');
  await shot(ownerPage, 'members-owner');
  await ownerPage.setViewportSize({ width: 1280, height: 720 });

  // A new upload seals to epoch 2, even from a page that is first handed the old key (a cache or
  // proxy answering stale): the server refuses the old epoch (FOLDER_KEY_CHANGED) before storing
  // anything, and the page fetches the key again and seals the refused files to epoch 2.
  const keyAnswers: number[] = [];
  await uploader.route(`**/api/upload/${folder.link_token}/public-key`, async (route) => {
    if (keyAnswers.length === 0) {
      keyAnswers.push(epochOneKey.key_epoch);
      return route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(epochOneKey) });
    }
    const fresh = await route.fetch();
    keyAnswers.push(((await fresh.json()) as { key_epoch: number }).key_epoch);
    return route.fulfill({ response: fresh });
  });
  const refusedForOldKey = uploader.waitForResponse((response) => response.url().includes(`/api/upload/${folder.link_token}`) && response.status() === 409);
  const batch2 = await uploadAnonymously(uploader, ownerPage, folder, 'Batch2', secondBatch());
  expect(((await (await refusedForOldKey).json()) as { code: string }).code).toBe('FOLDER_KEY_CHANGED');
  expect(keyAnswers).toEqual([1, 2]);
  await uploader.unroute(`**/api/upload/${folder.link_token}/public-key`);
  const afterRemoval = (await (await ownerPage.request.get(`/api/folders/${folder.id}/files`)).json()) as Array<{ key_epoch: number | null }>;
  expect(afterRemoval.map((file) => file.key_epoch).sort()).toEqual([1, 1, 1, 2]);
  const everything = [...batch1, ...batch2];
  await openFolderUnlocked(ownerPage, folder.id, owner.password);
  await downloadEverything(ownerPage, everything);
  await openFolderUnlocked(manager.page, folder.id, manager.password);
  await downloadEverything(manager.page, everything);

  // The removed reader: the server no longer lists the folder for them ...
  expect((await reader.page.request.get(`/api/folders/${folder.id}/team`)).status()).toBe(404);
  expect((await reader.page.request.get(`/api/folders/${folder.id}/files`)).status()).toBe(404);
  // ... and nothing the server holds opens the new file with their key: neither their envelopes
  // (epoch 1 only) nor their account key opens its wrapped key; epoch 1 still opens the old files.
  const held = await serverHoldings(folder.id, readerId);
  // The server keeps no envelope for them after the removal, and none of epoch 2 ever existed.
  expect(held.envelopes.filter((row) => row.epoch >= 2)).toEqual([]);
  expect(held.epochs.map((row) => row.epoch)).toEqual([1, 2]);
  const readerKeyHash = keyHash(readerKey);
  const epochKeys = [...readerTeam.my_envelopes, ...held.envelopes].map((row) =>
    openEnvelope(readerPrivateKey, {
      folderId: folder.id,
      epoch: row.epoch,
      memberKeyHash: readerKeyHash,
      epochKeyHash: keyHash(held.epochs.find((epoch) => epoch.epoch === row.epoch)!.public_key_spki),
      envelope: row.envelope,
    }),
  );
  const newFile = held.files.find((file) => file.original_filename === 'after-removal.bin')!;
  expect(newFile.key_epoch).toBe(2);
  for (const key of [readerPrivateKey, ...epochKeys]) expect(() => unwrapFileKey(key, newFile.encrypted_key)).toThrow();
  const oldFile = held.files.find((file) => file.original_filename === 'contract.pdf')!;
  expect(unwrapFileKey(epochKeys[0]!, oldFile.encrypted_key)).toHaveLength(32);

  // A server that adds a member of its own to the list: the owner's browser refuses it, names the
  // member, and signs nothing for the folder.
  inserting = true;
  const hostileContext = await browser.newContext();
  const hostile = await hostileContext.newPage();
  await hostile.goto(`${PROXY_URL}/login`);
  await hostile.getByLabel('Username', { exact: true }).fill(owner.username);
  await hostile.getByLabel('Password', { exact: true }).fill(owner.password);
  await hostile.getByRole('button', { name: 'Sign In' }).click();
  await expect(hostile.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible({ timeout: 60_000 });
  await openFolderUnlocked(hostile, folder.id, owner.password, PROXY_URL);
  const warning = hostile.getByRole('region', { name: 'Members' }).getByRole('alert');
  await expect(warning).toContainText('failed the check in your browser');
  await expect(warning).toContainText('mallory');
  await expect(hostile.getByRole('button', { name: 'Add Member...' })).toHaveCount(0);
  await expectAccessible(hostile, 'team-refused');
  await shot(hostile, 'refused');
  expect(atProxy.filter((seen) => seen.method !== 'GET' && /\/team/.test(seen.url))).toEqual([]);
  inserting = false;

  await hostileContext.close();
  await uploaderContext.close();
  await manager.context.close();
  await reader.context.close();
});
