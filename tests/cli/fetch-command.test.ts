// `npm run fetch` against a real server: links made as the admin's browser makes them (keys in the
// fragment, or a password with a scheme-1 PBKDF2 or a scheme-2 argon2id parameter block), files
// uploaded encrypted with node:crypto. The command writes the files byte-identical; a tampered
// blob, a cut fragment and a wrong password give recover's lines and exit statuses.
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { encryptBuffer, formatFragment, protectLinkKeys, wrapFileKey } from '../../server/crypto/index.ts';
import type { TestServer } from '../server/harness.ts';
import { postMultipart, MultipartBody, sha256 } from '../server/upload-helpers.ts';
import { adminWithKeys, commandTestBed, createFolder, runCommand, type Admin } from './cli-fixtures.ts';

const MiB = 1024 * 1024;
const bed = commandTestBed();

interface SharedFile {
  id: number;
  name: string;
  plain: Buffer;
  key: Buffer;
}

/** Uploads the files through the link's multipart route, encrypted with node:crypto, keeping each raw key. */
async function upload(server: TestServer, admin: Admin, files: Array<{ name: string; plain: Buffer }>): Promise<SharedFile[]> {
  const folder = await createFolder(admin);
  const uploader = server.client();
  await uploader.get(`/api/upload/${folder.link_token}/status`);
  const sealed = files.map((file) => {
    const key = randomBytes(32);
    const iv = randomBytes(12);
    return { ...file, key, sealed: encryptBuffer(key, iv, file.plain), encryptedKey: wrapFileKey(admin.keys.publicKeySpki, key), iv: iv.toString('base64'), hash: sha256(file.plain) };
  });
  const body = new MultipartBody().files(sealed.map((file) => ({ name: file.name, data: file.sealed, encryptedKey: file.encryptedKey, iv: file.iv, hash: file.hash })));
  const response = await postMultipart(uploader, `/api/upload/${folder.link_token}`, body);
  expect(response.status).toBe(200);
  return sealed.map((file, index) => ({ id: response.body.successful_files[index].id, name: file.name, plain: file.plain, key: file.key }));
}

async function createLink(admin: Admin, files: SharedFile[], protection?: { password: string; scheme: 1 | 2 }): Promise<string> {
  const keys = new Map(files.map((file) => [String(file.id), file.key]));
  const protectedKeys = protection ? protectLinkKeys(protection.password, keys, { scheme: protection.scheme }) : null;
  const created = await admin.client.post('/api/download/links', {
    file_ids: files.map((file) => file.id),
    password: protectedKeys?.verifier ?? null,
    reencrypted_keys_json: protectedKeys ? JSON.stringify(protectedKeys.reencryptedKeys) : null,
    expiration_date: null,
  });
  expect(created.status).toBe(201);
  return protectedKeys ? created.body.full_url : `${created.body.full_url}#${formatFragment(keys)}`;
}

describe('npm run fetch', { timeout: 180_000 }, () => {
  it('a link with the keys in its fragment: every file written byte-identical, same names, duplicates numbered', async () => {
    const server = await bed.startServer();
    const admin = await adminWithKeys(server);
    const files = await upload(server, admin, [
      { name: 'Bericht Q3 – final.pdf', plain: randomBytes(20 * MiB + 3) },
      { name: 'leer.txt', plain: Buffer.alloc(0) },
      { name: 'notes.txt', plain: Buffer.from('first') },
      { name: 'notes.txt', plain: Buffer.from('second') },
    ]);
    const url = await createLink(admin, files);
    const out = path.join(bed.tempDir('sealdrop-fetch-'), 'received');
    const result = await runCommand('fetch', [url, out]).done;
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('fetched Bericht Q3 – final.pdf (21.0 MB)');
    expect(result.stdout).toContain('Fetched 4 of 4 files');
    expect(fs.readdirSync(out).sort()).toEqual(['Bericht Q3 – final.pdf', 'leer.txt', 'notes (2).txt', 'notes.txt']);
    expect(fs.readFileSync(path.join(out, 'Bericht Q3 – final.pdf')).equals(files[0]!.plain)).toBe(true);
    expect(fs.readFileSync(path.join(out, 'leer.txt')).length).toBe(0);
    expect(fs.readFileSync(path.join(out, 'notes.txt'), 'utf8')).toBe('first');
    expect(fs.readFileSync(path.join(out, 'notes (2).txt'), 'utf8')).toBe('second');

    // A second run refuses to replace what is there (recover's rule), --force replaces it.
    const again = await runCommand('fetch', [url, out]).done;
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('FAILED leer.txt: already exists in the output directory (not replaced; --force replaces it) [OUTPUT_EXISTS]');
    expect((await runCommand('fetch', [url, out, '--force']).done).code).toBe(0);
  });

  it.each([1, 2] as const)('a password link with a scheme-%i parameter block: the password opens it, a wrong one exits 3', async (scheme) => {
    const server = await bed.startServer();
    const admin = await adminWithKeys(server);
    const files = await upload(server, admin, [{ name: 'vertraulich.pdf', plain: randomBytes(MiB + 5) }]);
    const url = await createLink(admin, files, { password: 'Sonnenblume 2026!', scheme });
    const status = await server.client().get(`/api/download/${url.split('/').pop()}/status`);
    expect(Buffer.from(status.body.kdf_params, 'base64')[0]).toBe(scheme);

    const out = bed.tempDir('sealdrop-fetch-');
    const wrong = await runCommand('fetch', [url, out, '--password-stdin'], { input: 'Sonnenblume 2025!\n' }).done;
    expect(wrong.code).toBe(3);
    expect(wrong.stderr).toContain('[INCORRECT_PASSWORD]');
    expect(fs.readdirSync(out)).toEqual([]);

    const right = await runCommand('fetch', [url, out, '--password-stdin'], { input: 'Sonnenblume 2026!\n' }).done;
    expect(right.stderr).toBe('');
    expect(right.code).toBe(0);
    expect(sha256(fs.readFileSync(path.join(out, 'vertraulich.pdf')))).toBe(sha256(files[0]!.plain));
  });

  it('a tampered blob fails its file with recover\'s line and leaves nothing; the others are written; exit 1', async () => {
    const server = await bed.startServer();
    const admin = await adminWithKeys(server);
    const files = await upload(server, admin, [
      { name: 'intact.bin', plain: randomBytes(300_000) },
      { name: 'altered.bin', plain: randomBytes(700_001) },
    ]);
    const url = await createLink(admin, files);
    // Flip one byte inside the second record of the stored blob.
    const blobs = path.join(server.config.dataDir, 'blobs');
    const blob = fs
      .readdirSync(blobs, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => path.join(entry.parentPath, entry.name))
      .find((file) => fs.statSync(file).size === 700_001 + 12 + 3 * 16)!;
    const bytes = fs.readFileSync(blob);
    bytes[300_000]! ^= 1;
    fs.writeFileSync(blob, bytes);

    const out = bed.tempDir('sealdrop-fetch-');
    const result = await runCommand('fetch', [url, out]).done;
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('FAILED altered.bin: the encrypted data failed authentication: it was altered or damaged [INTEGRITY]');
    expect(fs.readdirSync(out)).toEqual(['intact.bin']);
    expect(result.stdout).toContain('Fetched 1 of 2 files');
  });

  it('a cut or damaged fragment, an unknown link and a missing argument exit 2 and write nothing', async () => {
    const server = await bed.startServer();
    const admin = await adminWithKeys(server);
    const files = await upload(server, admin, [{ name: 'a.txt', plain: Buffer.from('a') }, { name: 'b.txt', plain: Buffer.from('b') }]);
    const url = await createLink(admin, files);
    const out = bed.tempDir('sealdrop-fetch-');
    const damaged = await runCommand('fetch', [`${url.slice(0, -5)}`, out]).done;
    expect(damaged.code).toBe(2);
    expect(damaged.stderr).toContain('[KEYS_MALFORMED]');
    // A fragment that lacks one file's key: that file fails, the other is written.
    const oneKey = url.slice(0, url.indexOf(',')).replace(/#.*/, `#${url.split('#')[1]!.split(',')[0]}`);
    const partial = await runCommand('fetch', [oneKey, out]).done;
    expect(partial.code).toBe(1);
    expect(partial.stderr).toContain('the link holds no key for this file');
    const unknown = await runCommand('fetch', [`${server.baseUrl}/download/${'y'.repeat(43)}#1:${'A'.repeat(43)}=`, out]).done;
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('[LINK_NOT_FOUND]');
    expect((await runCommand('fetch', [url]).done).code).toBe(2);
  });
});
