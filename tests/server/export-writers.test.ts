// The two export writers on their own, with blob stores that misbehave: a blob stream that fails
// half-way fails the ZIP (it must not hang) and leaves a directory export without manifest.json;
// a ZIP whose reader goes away closes the blob it was reading; the directory writer refuses a
// target that is not a new or empty directory.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { PassThrough, Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { afterEach, describe, expect, it } from 'vitest';
import type { FileRecord } from '../../server/db/repositories/index.ts';
import { writeExportDirectory } from '../../server/export/directory-export.ts';
import { ExportTargetError } from '../../server/export/errors.ts';
import { planExport, type ExportPlan } from '../../server/export/export-plan.ts';
import { createExportZip } from '../../server/export/zip-export.ts';
import type { BlobStore } from '../../server/storage/blob-store.ts';
import { DiskBlobStore } from '../../server/storage/disk-blob-store.ts';
import { readExportZip } from './export-zip.ts';
import { eventually } from './files-fixtures.ts';

const temporaries: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sealdrop-export-'));
  temporaries.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of temporaries.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function record(id: number, relativePath: string, name: string): FileRecord {
  return {
    id,
    folderId: 3,
    originalFilename: name,
    storedFilename: `upload/${relativePath}/${name}`,
    relativePath,
    fileSize: 10,
    fileHash: 'ab'.repeat(32),
    encryptedKey: randomBytes(256).toString('base64'),
    encryptionIv: randomBytes(12).toString('base64'),
    blobKey: `files/blob-${id}`,
    uploadTime: Date.UTC(2030, 0, id),
    lastDownloadedAdmin: null,
  };
}

async function diskStore(contents: Map<string, Buffer>): Promise<BlobStore> {
  const store = new DiskBlobStore(tempDir());
  for (const [key, bytes] of contents) await store.put(key, Readable.from([bytes]));
  return store;
}

/**
 * A store whose blob `failing` sends some bytes and then fails (or, `atOnce`, is handed over
 * already failed); every stream it opens is recorded.
 */
function failingStore(inner: BlobStore, failing: string, atOnce = false): BlobStore & { opened: Readable[] } {
  const opened: Readable[] = [];
  return {
    opened,
    put: (key, body, options) => inner.put(key, body, options),
    stat: (key) => inner.stat(key),
    delete: (key) => inner.delete(key),
    list: () => inner.list(),
    async get(key, range) {
      if (key !== failing) {
        const stream = await inner.get(key, range);
        opened.push(stream);
        return stream;
      }
      const stream = new PassThrough();
      if (atOnce) {
        stream.on('error', () => undefined);
        stream.destroy(new Error('disk read failed'));
      } else {
        stream.write(Buffer.alloc(100));
        setTimeout(() => stream.destroy(new Error('disk read failed')), 20);
      }
      opened.push(stream);
      return stream;
    },
  };
}

const sink = () => new Writable({ write: (_chunk, _encoding, callback) => callback() });

async function fixture(): Promise<{ files: FileRecord[]; contents: Map<string, Buffer>; store: BlobStore; plan: ExportPlan }> {
  const files = [record(1, '.', 'a.txt'), record(2, 'docs/ü', 'b 🌊.bin'), record(3, 'docs', 'c.bin')];
  const contents = new Map(files.map((file, i) => [file.blobKey, randomBytes(i === 1 ? 4_000_000 : 1000 + i)]));
  const store = await diskStore(contents);
  const plan = await planExport(store, { id: 3, title: 'T' }, files, Date.UTC(2030, 5, 1), null);
  return { files, contents, store, plan };
}

describe('export ZIP writer', () => {
  it('knows its exact length up front and writes what yauzl reads back', async () => {
    const { files, contents, store, plan } = await fixture();
    const zip = await createExportZip(plan, store);
    const chunks: Buffer[] = [];
    for await (const chunk of zip.stream) chunks.push(chunk as Buffer);
    const bytes = Buffer.concat(chunks);
    expect(bytes.length).toBe(zip.size);
    const read = await readExportZip(bytes);
    for (const file of files) expect(read.data(`files/${file.id}.sdrp`).equals(contents.get(file.blobKey)!)).toBe(true);
    expect(read.manifest.exported_at).toBe('2030-06-01T00:00:00.000Z');
  });

  it('fails the output (instead of hanging) when a blob stream fails half-way', async () => {
    const { store, plan } = await fixture();
    const failing = failingStore(store, plan.blobs[1]!.blobKey);
    const zip = await createExportZip(plan, failing);
    await expect(pipeline(zip.stream, sink())).rejects.toThrow('disk read failed');
  });

  it('closes the blob it was reading when the output is destroyed early, and opens no other', async () => {
    const { store, plan } = await fixture();
    const recording = failingStore(store, 'none');
    const zip = await createExportZip(plan, recording);
    await new Promise<void>((resolve) => {
      zip.stream.on('data', () => {
        if (recording.opened.length === 2) {
          zip.stream.destroy();
          resolve();
        }
      });
    });
    await eventually(async () => recording.opened.every((stream) => stream.destroyed));
    expect(recording.opened).toHaveLength(2);
    expect(recording.opened.every((stream) => stream.destroyed)).toBe(true);
  });
});

describe('export directory writer', () => {
  it('writes files/<id>.sdrp for each blob and manifest.json, creating missing parents', async () => {
    const { files, contents, store, plan } = await fixture();
    const target = path.join(tempDir(), 'new', 'export');
    const summary = await writeExportDirectory(target, plan, store);
    expect(summary).toEqual({ files: 3, bytes: [...contents.values()].reduce((sum, bytes) => sum + bytes.length, 0) });
    expect(fs.readdirSync(target).sort()).toEqual(['files', 'manifest.json']);
    expect(fs.readdirSync(path.join(target, 'files')).sort()).toEqual(['1.sdrp', '2.sdrp', '3.sdrp']);
    for (const file of files) {
      expect(fs.readFileSync(path.join(target, 'files', `${file.id}.sdrp`)).equals(contents.get(file.blobKey)!)).toBe(true);
    }
    expect(JSON.parse(fs.readFileSync(path.join(target, 'manifest.json'), 'utf8'))).toEqual(plan.manifest);
  });

  it('accepts an existing empty directory and refuses a non-empty one or a file', async () => {
    const { store, plan } = await fixture();
    const empty = tempDir();
    await writeExportDirectory(empty, plan, store);
    expect(fs.existsSync(path.join(empty, 'manifest.json'))).toBe(true);

    await expect(writeExportDirectory(empty, plan, store)).rejects.toThrow(ExportTargetError);
    await expect(writeExportDirectory(empty, plan, store)).rejects.toThrow(`${empty} is not empty; export into a new or empty directory.`);
    const file = path.join(tempDir(), 'a-file');
    fs.writeFileSync(file, 'x');
    await expect(writeExportDirectory(file, plan, store)).rejects.toThrow(`${file} exists and is not a directory.`);
  });

  it('leaves no manifest.json and no partial file when a blob fails half-way', async () => {
    const { store, plan } = await fixture();
    const target = path.join(tempDir(), 'export');
    await expect(writeExportDirectory(target, plan, failingStore(store, plan.blobs[1]!.blobKey))).rejects.toThrow('disk read failed');
    expect(fs.readdirSync(target)).toEqual(['files']);
    expect(fs.readdirSync(path.join(target, 'files'))).toEqual(['1.sdrp']);
  });

  it('leaves no partial file when a blob fails before its first byte (the file is removed only once closed)', async () => {
    const { store, plan } = await fixture();
    const failing = failingStore(store, plan.blobs[1]!.blobKey, true);
    const targets: string[] = [];
    // One export after another, each racing the removal of its partial file against its opening.
    for (let i = 0; i < 150; i++) {
      const target = path.join(tempDir(), 'export');
      targets.push(target);
      await expect(writeExportDirectory(target, plan, failing)).rejects.toThrow('disk read failed');
    }
    // A file opened after its removal would appear only after this.
    await new Promise((resolve) => setTimeout(resolve, 100));
    for (const target of targets) expect(fs.readdirSync(path.join(target, 'files'))).toEqual(['1.sdrp']);
  });
});
