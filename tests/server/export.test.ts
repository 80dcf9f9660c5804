// GET /api/folders/{id}/export over real HTTP: the ZIP opens with yauzl (an independent reader),
// its manifest says exactly what the file records say, and each blob is the stored ciphertext byte
// for byte; selections, ownership, bad ids and a missing blob.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExportManifest } from '../../server/export/manifest.ts';
import { readExportZip } from './export-zip.ts';
import { createFolder, getBytes, seedFile, type SeededFile } from './files-fixtures.ts';
import { signedInClient, startServer, type TestServer } from './harness.ts';
import type { TestClient } from './http-client.ts';

let server: TestServer;
let alice: TestClient;
let folderId: number;
let seeded: SeededFile[];
const TITLE = 'Steuer 2025 / Belege';

beforeAll(async () => {
  server = await startServer();
  ({ client: alice } = await signedInClient(server, 'alice'));
  folderId = (await createFolder(alice, TITLE)).id;
  seeded = [];
  const tree = [
    { relativePath: '.', name: 'readme.txt' },
    { relativePath: 'docs', name: '日本語の報告書.pdf' },
    { relativePath: 'docs/2024', name: 'Grüße & Notizen.txt' },
    { relativePath: 'photos/été', name: 'plage 🌊.jpg' },
    { relativePath: 'docs/2024', name: 'empty.bin' },
  ];
  for (const file of tree) {
    server.clock.advance(1000);
    seeded.push(await seedFile(server, folderId, { ...file, content: file.name === 'empty.bin' ? Buffer.alloc(16) : undefined }));
  }
});
afterAll(() => server.close());

function exportUrl(id: number, fileIds?: string): string {
  return `/api/folders/${id}/export${fileIds === undefined ? '' : `?file_ids=${fileIds}`}`;
}

/** The manifest the records of `ids` call for, from the API's own file list. */
async function expectedManifest(ids: number[]): Promise<ExportManifest> {
  const listed = (await alice.get(`/api/folders/${folderId}/files`)).body as Array<Record<string, any>>;
  return {
    format: 'sealdrop-export',
    format_version: 1,
    exported_at: new Date(server.clock.now()).toISOString(),
    folder: { id: folderId, title: TITLE },
    files: listed
      .filter((file) => ids.includes(file.id))
      .map((file) => ({
        id: file.id,
        blob: `files/${file.id}.sdrp`,
        relative_path: file.relative_path,
        name: file.original_filename,
        size: file.file_size,
        sha256: file.file_hash,
        encrypted_key: file.encrypted_key,
        iv: file.encryption_iv,
        upload_time: file.upload_time,
      })),
  };
}

function storedBytes(file: SeededFile): Buffer {
  return fs.readFileSync(path.join(server.config.dataDir, 'blobs', file.blobKey));
}

describe('GET /api/folders/{id}/export', () => {
  it('answers the whole folder as a stored ZIP: manifest.json, then each stored blob byte for byte', async () => {
    const response = await getBytes(alice, exportUrl(folderId));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/zip');
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="Steuer 2025 _ Belege-export.zip"; filename*=UTF-8''Steuer%202025%20_%20Belege-export.zip`,
    );
    expect(response.headers.get('content-length')).toBe(String(response.body.length));
    expect(response.headers.get('cache-control')).toBe('no-store');

    const zip = await readExportZip(response.body);
    expect(zip.entries.map((entry) => entry.name)).toEqual(['manifest.json', ...seeded.map((file) => `files/${file.id}.sdrp`)]);
    expect(zip.entries.every((entry) => entry.compressionMethod === 0)).toBe(true);
    expect(zip.manifest).toEqual(await expectedManifest(seeded.map((file) => file.id)));
    expect(zip.manifest.files.map((file) => [file.relative_path, file.name])).toEqual([
      ['.', 'readme.txt'],
      ['docs', '日本語の報告書.pdf'],
      ['docs/2024', 'Grüße & Notizen.txt'],
      ['photos/été', 'plage 🌊.jpg'],
      ['docs/2024', 'empty.bin'],
    ]);
    for (const file of seeded) {
      const data = zip.data(`files/${file.id}.sdrp`);
      expect(data.equals(file.content), file.name).toBe(true);
      expect(data.equals(storedBytes(file)), file.name).toBe(true);
    }
  });

  it('answers only the selected files (duplicates ignored), in the folder order, whatever the order asked', async () => {
    const [first, , third, fourth] = seeded;
    const response = await getBytes(alice, exportUrl(folderId, `${fourth!.id},${first!.id},${fourth!.id},${third!.id}`));
    expect(response.status).toBe(200);
    const zip = await readExportZip(response.body);
    const chosen = [first!, third!, fourth!];
    expect(zip.entries.map((entry) => entry.name)).toEqual(['manifest.json', ...chosen.map((file) => `files/${file.id}.sdrp`)]);
    expect(zip.manifest).toEqual(await expectedManifest(chosen.map((file) => file.id)));
    for (const file of chosen) expect(zip.data(`files/${file.id}.sdrp`).equals(storedBytes(file))).toBe(true);
  });

  it('does not count as a download (Last Downloaded stays unset)', async () => {
    await getBytes(alice, exportUrl(folderId));
    const listed = (await alice.get(`/api/folders/${folderId}/files`)).body as Array<{ last_downloaded_admin: string | null }>;
    expect(listed.every((file) => file.last_downloaded_admin === null)).toBe(true);
  });

  it("answers 404 'Folder not found' for another admin's folder and a missing one, 401 without a session", async () => {
    const { client: bob } = await signedInClient(server, 'bob');
    const bobsFolder = await createFolder(bob, 'Bob only');
    await seedFile(server, bobsFolder.id);

    for (const url of [exportUrl(bobsFolder.id), exportUrl(999_999), exportUrl(bobsFolder.id, '1')]) {
      const response = await alice.get(url);
      expect(response.status, url).toBe(404);
      expect(response.body, url).toEqual({ detail: 'Folder not found', code: 'FOLDER_NOT_FOUND' });
    }
    const anonymous = await server.client().get(exportUrl(folderId));
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ detail: 'Not authenticated', code: 'NOT_AUTHENTICATED' });
  });

  it('answers 404 naming the ids that are not files of this folder (missing or in another folder)', async () => {
    const other = await createFolder(alice, 'Other folder');
    const elsewhere = await seedFile(server, other.id);
    const response = await alice.get(exportUrl(folderId, `${seeded[0]!.id},${elsewhere.id},987654`));
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ detail: `Files not found in this folder: ${elsewhere.id}, 987654`, code: 'EXPORT_FILES_NOT_FOUND' });
  });

  it('answers 422 for ids that are not a list of positive numbers, and for more than 500 ids', async () => {
    const bad = ['', 'abc', '1,,2', '1,-2', '0', '1.5', '1%202', `${'1'.repeat(16)}`];
    for (const value of bad) {
      const response = await alice.get(exportUrl(folderId, value));
      expect(response.status, value).toBe(422);
      expect(response.body.detail[0], value).toMatchObject({ loc: ['query', 'file_ids'], msg: 'File ids must be comma-separated positive whole numbers' });
    }
    const repeated = await alice.get(`${exportUrl(folderId)}?file_ids=1&file_ids=2`);
    expect(repeated.status).toBe(422);

    const many = Array.from({ length: 501 }, (_, i) => i + 1).join(',');
    const tooMany = await alice.get(exportUrl(folderId, many));
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.detail[0].msg).toBe('At most 500 files per export; export the whole folder instead');

    const badFolder = await alice.get('/api/folders/abc/export');
    expect(badFolder.status).toBe(422);
  });

  it('an empty folder exports a manifest with no files', async () => {
    const empty = await createFolder(alice, 'Empty');
    const response = await getBytes(alice, exportUrl(empty.id));
    expect(response.status).toBe(200);
    const zip = await readExportZip(response.body);
    expect(zip.entries.map((entry) => entry.name)).toEqual(['manifest.json']);
    expect(zip.manifest).toMatchObject({ format: 'sealdrop-export', format_version: 1, folder: { id: empty.id, title: 'Empty' }, files: [] });
  });

  it('refuses, before sending any of it, an export in which a stored blob is missing', async () => {
    const broken = await createFolder(alice, 'Broken');
    const kept = await seedFile(server, broken.id);
    const lost = await seedFile(server, broken.id);
    await server.app.blobs.delete(lost.blobKey);
    const response = await alice.get(exportUrl(broken.id));
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ detail: `The stored data of these files is missing: ${lost.id}`, code: 'EXPORT_BLOB_MISSING' });
    // The files whose blobs are there can still be exported.
    expect((await getBytes(alice, exportUrl(broken.id, String(kept.id)))).status).toBe(200);
  });
});
