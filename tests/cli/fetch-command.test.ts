// `npm run fetch` against a real server: links made as the admin's browser makes them (keys in the
// fragment, or a password with a scheme-2 argon2id parameter block pinned in the fragment), links
// stored as they were made before (scheme 1 PBKDF2, no pin), and a server answering with a block
// that is not the pinned one or is below the default cost; files
// uploaded encrypted with node:crypto. The command writes the files byte-identical; a tampered
// blob, a cut fragment and a wrong password give recover's lines and exit statuses.
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { encryptBuffer, formatFragment, protectLinkKeys, wrapFileKey, type LinkKdfChoice, type NodeLinkProtection } from '../../server/crypto/index.ts';
import { hashPassword } from '../../server/auth/passwords.ts';
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

/** The fragment a password link made from now on carries: its parameter block, base64url. */
const pinOf = (protection: NodeLinkProtection): string => `kdf=${Buffer.from(protection.kdfParams, 'base64').toString('base64url')}`;

/**
 * A password link stored as links were stored before new scheme-1 blocks were refused and before
 * pins (its address has no fragment): straight through the repository, as that server wrote it.
 */
async function seedOldLink(server: TestServer, admin: Admin, files: SharedFile[], password: string, kdf: LinkKdfChoice): Promise<string> {
  const protection = protectLinkKeys(password, new Map(files.map((file) => [String(file.id), file.key])), kdf);
  const me = await admin.client.get('/api/auth/users/me');
  const owned = await server.app.repos.files.listOwnedByIds(me.body.id, files.map((file) => file.id));
  const link = await server.app.repos.downloadLinks.create({
    linkToken: randomBytes(24).toString('base64url'),
    folderId: owned[0]!.folderId,
    ownerId: me.body.id,
    verifierHash: await hashPassword(protection.verifier),
    reencryptedKeysJson: JSON.stringify(protection.reencryptedKeys),
    expirationDate: null,
    creationDate: Date.now(),
    maxDownloads: null,
    fileIds: files.map((file) => file.id),
  });
  return `${server.baseUrl}/download/${link.linkToken}`;
}

async function createLink(admin: Admin, files: SharedFile[], protection?: { password: string }): Promise<string> {
  const keys = new Map(files.map((file) => [String(file.id), file.key]));
  const protectedKeys = protection ? protectLinkKeys(protection.password, keys) : null;
  const created = await admin.client.post('/api/download/links', {
    file_ids: files.map((file) => file.id),
    password: protectedKeys?.verifier ?? null,
    reencrypted_keys_json: protectedKeys ? JSON.stringify(protectedKeys.reencryptedKeys) : null,
    expiration_date: null,
  });
  expect(created.status).toBe(201);
  return `${created.body.full_url}#${protectedKeys ? pinOf(protectedKeys) : formatFragment(keys)}`;
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

  it.each([
    ['a pinned scheme-2 link made now', 2, false],
    ['a scheme-1 link made before pins', 1, true],
    ['a scheme-2 link made before pins', 2, true],
  ] as const)('%s: the password opens it, a wrong one exits 3', async (_name, scheme, old) => {
    const server = await bed.startServer();
    const admin = await adminWithKeys(server);
    const files = await upload(server, admin, [{ name: 'vertraulich.pdf', plain: randomBytes(MiB + 5) }]);
    const url = old
      ? await seedOldLink(server, admin, files, 'Sonnenblume 2026!', { scheme })
      : await createLink(admin, files, { password: 'Sonnenblume 2026!' });
    const status = await server.client().get(`/api/download/${url.split('#')[0]!.split('/').pop()}/status`);
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
    const note = 'Note: this link uses an older password protection (no pin in its address); ask the sender for a new link if you can.';
    if (old) expect(right.stdout).toContain(note);
    else expect(right.stdout).not.toContain(note);
  });

  it('a server block that is not the pinned one, or one below the default cost, exits 2 before the password is used', async () => {
    const server = await bed.startServer();
    const admin = await adminWithKeys(server);
    const files = await upload(server, admin, [{ name: 'vertraulich.pdf', plain: randomBytes(1000) }]);
    const out = bed.tempDir('sealdrop-fetch-');
    const refusedLine = "The link's password protection was changed on the way to you";

    // The address pins another block than the one the server answers with (a swapped salt).
    const url = await createLink(admin, files, { password: 'Sonnenblume 2026!' });
    const otherPin = pinOf(protectLinkKeys('Sonnenblume 2026!', new Map([['1', randomBytes(32)]])));
    const swapped = await runCommand('fetch', [url.replace(/#.*/, `#${otherPin}`), out, '--password-stdin'], { input: 'Sonnenblume 2026!\n' }).done;
    expect(swapped.code).toBe(2);
    expect(swapped.stderr).toContain(refusedLine);
    expect(swapped.stderr).toContain('[KDF_REFUSED]');

    // A link without pin whose block is cheaper than the default (19 MiB, 2 passes).
    const weakUrl = await seedOldLink(server, admin, files, 'Sonnenblume 2026!', { scheme: 2, cost: { memoryKiB: 19_456, passes: 2, lanes: 1 } });
    const weak = await runCommand('fetch', [weakUrl, out, '--password-stdin'], { input: 'Sonnenblume 2026!\n' }).done;
    expect(weak.code).toBe(2);
    expect(weak.stderr).toContain(refusedLine);

    expect(fs.readdirSync(out)).toEqual([]);
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
