// Seeding for the admin files specs: the signed-in admin (page cookies) gets a key pair made by the
// independent node:crypto implementation (server/crypto), stored as the browser stores it (public
// key + private key wrapped under the login password), a folder, and files: either through the
// real upload page (a picked folder), or through the anonymous multipart route with directory
// paths, encrypted by node:crypto.
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, type Page } from '@playwright/test';
import { cipherLength, encryptBuffer } from '../../server/crypto/file-format.ts';
import { generateRsaKeyPair, wrapFileKey, wrapPrivateKey } from '../../server/crypto/keys.ts';
import { E2E_BASE_URL, E2E_DATA_DIR } from './environment.mjs';

export interface PlainFile {
  /** Directory inside the folder ('.' for the root), e.g. 'docs/2024'. */
  dir: string;
  name: string;
  content: Buffer;
}

export interface UploadedFile extends PlainFile {
  id: number;
  /** Path inside an admin ZIP. */
  zipPath: string;
}

export const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

async function csrfHeaders(page: Page): Promise<Record<string, string>> {
  const csrf = (await page.context().cookies()).find((cookie) => cookie.name === 'csrftoken')?.value ?? '';
  return { 'x-csrftoken': csrf };
}

/** Gives the signed-in admin a key pair; returns the public key files are encrypted for. */
export async function giveAdminKeyPair(page: Page, loginPassword: string): Promise<string> {
  const headers = await csrfHeaders(page);
  const pair = generateRsaKeyPair();
  const put = await page.request.put('/api/auth/public-key', { data: { public_key_spki: pair.publicKeySpki }, headers });
  expect(put.status(), await put.text()).toBe(200);
  const key = await page.request.put('/api/auth/users/me/encrypted-key', { data: wrapPrivateKey(pair.privateKey, loginPassword), headers });
  expect(key.status(), await key.text()).toBe(200);
  return pair.publicKeySpki;
}

export async function createFolder(page: Page, title: string): Promise<{ id: number; link_token: string }> {
  const response = await page.request.post('/api/folders/', { data: { title, perform_mime_check: false }, headers: await csrfHeaders(page) });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as { id: number; link_token: string };
}

/** POST /api/upload/{link_token} as an anonymous uploader: one multipart request for all files. */
export async function uploadFiles(linkToken: string, publicKeySpki: string, files: PlainFile[]): Promise<UploadedFile[]> {
  const status = await fetch(`${E2E_BASE_URL}/api/upload/${linkToken}/status`);
  expect(status.status).toBe(200);
  const csrf = /csrftoken=([^;]+)/.exec(status.headers.getSetCookie().join('; '))?.[1] ?? '';
  const form = new FormData();
  for (const file of files) {
    const rawKey = randomBytes(32);
    const iv = randomBytes(12);
    form.append('files', new Blob([new Uint8Array(encryptBuffer(rawKey, iv, file.content))]), file.name);
    form.append('encrypted_keys', wrapFileKey(publicKeySpki, rawKey));
    form.append('encryption_ivs', iv.toString('base64'));
    form.append('relative_paths', file.dir);
    form.append('file_hashes', sha256(file.content));
    form.append('file_sizes', String(file.content.length));
  }
  const response = await fetch(`${E2E_BASE_URL}/api/upload/${linkToken}`, { method: 'POST', body: form, headers: { cookie: `csrftoken=${csrf}`, 'x-csrftoken': csrf } });
  const result = (await response.json()) as { successful_files: Array<{ id: number; filename: string; path: string }>; failed_files: unknown[] };
  expect(response.status, JSON.stringify(result)).toBe(200);
  expect(result.failed_files).toEqual([]);
  return files.map((file) => {
    const stored = result.successful_files.find((item) => item.filename === file.name && item.path === file.dir);
    if (!stored) throw new Error(`upload of ${file.dir}/${file.name} was not confirmed`);
    return { ...file, id: stored.id, zipPath: file.dir === '.' ? file.name : `${file.dir}/${file.name}` };
  });
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)]));
}

/** Every stored blob of the e2e server (path and size). */
export function storedBlobs(): Array<{ path: string; size: number }> {
  return walk(join(E2E_DATA_DIR, 'blobs'))
    .filter((path) => !path.endsWith('.partial'))
    .map((path) => ({ path, size: statSync(path).size }));
}

/** The stored blob of a file whose plaintext size no other file of the run has. */
export function blobOfPlainSize(plainSize: number): string {
  const matches = storedBlobs().filter((blob) => blob.size === cipherLength(plainSize));
  if (matches.length !== 1) throw new Error(`expected one blob of ${cipherLength(plainSize)} bytes, found ${matches.length}`);
  return matches[0]!.path;
}

/**
 * Uploads a folder through the real upload page, as an uploader would: the files are written to a
 * temporary directory named `rootName` and picked with 'Select Folder' (so every path starts with
 * `rootName/`), then sent with the page's own hashing, encryption and transport. Returns the
 * stored files with their paths as the admin's files list reports them.
 */
export async function uploadThroughPage(page: Page, folder: { id: number; link_token: string }, rootName: string, files: PlainFile[]): Promise<UploadedFile[]> {
  const base = mkdtempSync(join(tmpdir(), 'sealdrop-files-'));
  const root = join(base, rootName);
  for (const file of files) {
    const dir = file.dir === '.' ? root : join(root, ...file.dir.split('/'));
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, file.name), file.content);
  }
  try {
    await page.goto(`/upload/${folder.link_token}`);
    await page.getByTestId('folder-input').setInputFiles(root);
    await page.getByRole('button', { name: `Upload ${files.length} files` }).click();
    await expect(page.getByText(`Upload successful! All ${files.length} processed files received.`)).toBeVisible({ timeout: 60_000 });
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
  const listed = await page.request.get(`/api/folders/${folder.id}/files`);
  expect(listed.status()).toBe(200);
  const records = (await listed.json()) as Array<{ id: number; original_filename: string; relative_path: string }>;
  return files.map((file) => {
    const dir = file.dir === '.' ? rootName : `${rootName}/${file.dir}`;
    const record = records.find((candidate) => candidate.original_filename === file.name && candidate.relative_path === dir);
    if (!record) throw new Error(`${dir}/${file.name} is not in the folder after the upload`);
    return { ...file, dir, id: record.id, zipPath: `${dir}/${file.name}` };
  });
}
