// A download link with files for recipient specs: an admin whose key pair node:crypto made (stored
// as the browser stores it), files uploaded through the anonymous multipart route encrypted by
// node:crypto, and a link whose fragment carries the file keys, as the admin's browser makes it.
// (e2e/links.spec.ts has the fuller variants: password links, expiry.)
import { randomBytes } from 'node:crypto';
import { expect, type Browser } from '@playwright/test';
import { encryptBuffer } from '../../server/crypto/file-format.ts';
import { formatFragment, generateRsaKeyPair, protectLinkKeys, wrapFileKey, wrapPrivateKey } from '../../server/crypto/keys.ts';
import { createAdmin, signIn } from './admin.ts';
import { E2E_BASE_URL } from './environment.mjs';
import { sha256 } from './files-seed.ts';

export interface LinkedFile {
  id: number;
  name: string;
  content: Buffer;
}

/**
 * Seeds the files and returns the link's URL: with the keys in its fragment, or, given a password,
 * with its KDF parameter pin there instead (the keys are then wrapped for the password, as the
 * admin's browser does).
 */
export async function linkWithFiles(
  browser: Browser,
  files: Array<{ name: string; content: Buffer }>,
  options: { password?: string } = {},
): Promise<{ url: string; files: LinkedFile[] }> {
  const admin = await createAdmin('direct-link');
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, admin);
  const csrf = (await context.cookies()).find((cookie) => cookie.name === 'csrftoken')?.value ?? '';
  const headers = { 'x-csrftoken': csrf };
  const pair = generateRsaKeyPair();
  expect((await page.request.put('/api/auth/public-key', { data: { public_key_spki: pair.publicKeySpki }, headers })).status()).toBe(200);
  expect((await page.request.put('/api/auth/users/me/encrypted-key', { data: wrapPrivateKey(pair.privateKey, admin.password), headers })).status()).toBe(200);
  const folderResponse = await page.request.post('/api/folders/', { data: { title: 'Direct handover', perform_mime_check: false }, headers });
  expect(folderResponse.status()).toBe(201);
  const folder = (await folderResponse.json()) as { link_token: string };

  const status = await fetch(`${E2E_BASE_URL}/api/upload/${folder.link_token}/status`);
  const uploadCsrf = /csrftoken=([^;]+)/.exec(status.headers.getSetCookie().join('; '))?.[1] ?? '';
  const form = new FormData();
  const rawKeys: Buffer[] = [];
  for (const file of files) {
    const rawKey = randomBytes(32);
    const iv = randomBytes(12);
    rawKeys.push(rawKey);
    form.append('encrypted_keys', wrapFileKey(pair.publicKeySpki, rawKey));
    form.append('encryption_ivs', iv.toString('base64'));
    form.append('file_hashes', sha256(file.content));
    form.append('relative_paths', '.');
    form.append('file_sizes', String(file.content.length));
    form.append('files', new Blob([new Uint8Array(encryptBuffer(rawKey, iv, file.content))]), file.name);
  }
  const upload = await fetch(`${E2E_BASE_URL}/api/upload/${folder.link_token}`, { method: 'POST', body: form, headers: { cookie: `csrftoken=${uploadCsrf}`, 'x-csrftoken': uploadCsrf } });
  const result = (await upload.json()) as { successful_files: Array<{ id: number; filename: string }> };
  expect(upload.status, JSON.stringify(result)).toBe(200);
  const linked = files.map((file) => ({ ...file, id: result.successful_files.find((item) => item.filename === file.name)!.id }));

  const keys = new Map(linked.map((file, index) => [String(file.id), rawKeys[index]!]));
  const protection = options.password ? protectLinkKeys(options.password, keys) : null;
  const created = await page.request.post('/api/download/links', {
    data: {
      file_ids: linked.map((file) => file.id),
      password: protection?.verifier ?? null,
      reencrypted_keys_json: protection ? JSON.stringify(protection.reencryptedKeys) : null,
      expiration_date: null,
    },
    headers,
  });
  expect(created.status(), await created.text()).toBe(201);
  const { full_url } = (await created.json()) as { full_url: string };
  await context.close();
  // A password link pins its KDF parameter block in the fragment, as the admin's browser makes it.
  const fragment = protection ? `kdf=${Buffer.from(protection.kdfParams, 'base64').toString('base64url')}` : formatFragment(keys);
  return { url: `${full_url}#${fragment}`, files: linked };
}
