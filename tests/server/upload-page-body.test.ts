// The upload page writes its multipart bodies itself (src/features/upload/transport/multipartBatch.ts,
// one Blob per batch instead of FormData). Here those exact bytes go to the real server over HTTP,
// which must read every file, name, path and field as it reads a browser's FormData.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { randomBoundary } from '../../contract/upload-multipart.ts';
import { multipartBody, MixedBoundaryError, type EncryptedFile } from '../../src/features/upload/transport/multipartBatch.ts';
import { spooledParts, type WholeFileResult } from '../../workers/whole-file-encryption.ts';
import { startServer, type TestServer } from './harness.ts';
import { createUploadFolder, fakeCiphertext, SAMPLE_IV, SAMPLE_KEY, sendRaw, sha256, uploadPath } from './upload-helpers.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

async function readBlob(key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await server.app.blobs.get(key)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A file as the pipeline hands it over: ciphertext in record-sized pieces. */
function encrypted(name: string, relativePath: string, plainSize: number): { file: EncryptedFile; data: Buffer } {
  const data = fakeCiphertext(server, plainSize);
  const pieces: Uint8Array[] = [];
  for (let offset = 0; offset < data.length; offset += 70_000) pieces.push(new Uint8Array(data.subarray(offset, offset + 70_000)));
  return {
    data,
    file: { name, relativePath, plainSize, ciphertext: pieces, cipherSize: data.length, encryptedKey: SAMPLE_KEY, iv: SAMPLE_IV, sha256: sha256(data) },
  };
}

/**
 * The same files as the upload spool gives them (workers/small-file-spool.ts): the parts the worker
 * writes (spooledParts) into one spool file per group, here two groups, with one file of the
 * second group left in memory, as a group the spool refused would be.
 */
function asSpooledParts(files: ReadonlyArray<{ file: EncryptedFile; data: Buffer }>): Array<{ file: EncryptedFile; data: Buffer }> {
  const boundary = randomBoundary();
  const groups = [files.slice(0, 2), files.slice(2)];
  return groups.flatMap((group, groupIndex) => {
    const results = group.map((entry) => ({ ok: true, iv: entry.file.iv, wrappedKey: entry.file.encryptedKey, ciphertext: new Uint8Array(entry.data), sha256: entry.file.sha256 })) as unknown as WholeFileResult[];
    const sources = group.map((entry) => new Blob([new Uint8Array(entry.file.plainSize)]));
    const framing = { boundary, files: group.map((entry) => ({ name: entry.file.name, relativePath: entry.file.relativePath })) };
    const spooled = spooledParts(sources, results, framing);
    const spoolFile = new Blob(spooled.pieces as BlobPart[]);
    let offset = 0;
    return group.map((entry, index) => {
      const result = spooled.results[index]!;
      if (!result.ok) throw new Error('expected a spooled file');
      const written = { source: spoolFile, start: offset, end: offset + result.partSize, boundary };
      offset = written.end;
      if (groupIndex === 1 && index === group.length - 1) return entry;
      return { data: entry.data, file: { ...entry.file, ciphertext: [], written } };
    });
  });
}

async function bodyBytes(body: Uint8Array | Blob): Promise<Buffer> {
  return body instanceof Blob ? Buffer.from(await body.arrayBuffer()) : Buffer.from(body);
}

describe("the upload page's multipart body", () => {
  it.each([
    ['in memory', (files: Array<{ file: EncryptedFile; data: Buffer }>) => files, Uint8Array],
    ['as parts written into spool files, one in memory', asSpooledParts, Blob],
  ] as const)('is read by the server exactly like a browser FormData: files, names, paths, hashes and sizes (ciphertexts %s)', async (_how, shape, bodyType) => {
    const folder = await createUploadFolder(server);
    const sent = shape([
      encrypted('readme.txt', '.', 5),
      encrypted('Grüße "quoted" ☃.txt', 'Project/Ünïcode "dir"', 300_000),
      encrypted("it's.bin", 'Project/deep/er', 0),
      encrypted('line\nbreak.txt', 'Project', 1_000),
    ]);
    const { body, contentType } = multipartBody(sent.map((entry) => entry.file));
    expect(body).toBeInstanceOf(bodyType);
    expect(contentType).toMatch(/^multipart\/form-data; boundary=----SealdropBatch[0-9a-f]{32}$/);
    const response = await sendRaw(server.client(), 'POST', uploadPath(folder), await bodyBytes(body), { 'content-type': contentType });
    expect(response.status).toBe(200);
    expect(response.body.failed_files).toEqual([]);
    expect(response.body.successful_files.map((file: { filename: string; path: string; size: number }) => [file.filename, file.path, file.size])).toEqual([
      ['readme.txt', '.', 5],
      ['Grüße "quoted" ☃.txt', 'Project/Ünïcode "dir"', 300_000],
      ["it's.bin", 'Project/deep/er', 0],
      // A line break in a name is escaped on the wire and dropped from the stored name, as for FormData.
      [expect.stringMatching(/^line.*break\.txt$/), 'Project', 1_000],
    ]);

    const records = await server.app.repos.files.listForFolder(folder.id);
    expect(records).toHaveLength(sent.length);
    for (const [index, record] of records.entries()) {
      expect(record.fileHash).toBe(sent[index]!.file.sha256);
      expect(record.fileSize).toBe(sent[index]!.file.plainSize);
      expect((await readBlob(record.blobKey)).equals(sent[index]!.data)).toBe(true);
    }
  });

  it('joins consecutive parts of one spool file into one slice, and refuses parts written with different boundaries', async () => {
    const files = asSpooledParts([encrypted('a', '.', 1), encrypted('b', '.', 2), encrypted('c', '.', 3), encrypted('d', '.', 4)]);
    const sources = [...new Set(files.flatMap((entry) => (entry.file.written ? [entry.file.written.source] : [])))];
    const slices = sources.map((source) => vi.spyOn(source, 'slice'));
    const { body } = multipartBody(files.map((entry) => entry.file), 7);
    // Group one's two parts as one slice, group two's first part as another; its last file from memory.
    expect(slices.map((slice) => slice.mock.calls)).toEqual([[[0, files[1]!.file.written!.end]], [[0, files[2]!.file.written!.end]]]);
    const text = Buffer.from(await (body as Blob).arrayBuffer()).toString('latin1');
    expect(text.match(/name="files"/g)).toHaveLength(4);
    expect(text.indexOf('name="key_epoch"')).toBeLessThan(text.indexOf('name="files"'));
    const other = asSpooledParts([encrypted('e', '.', 1), encrypted('f', '.', 1), encrypted('g', '.', 1)]);
    expect(() => multipartBody([files[0]!.file, other[0]!.file])).toThrow(MixedBoundaryError);
  });

  it('uses a fresh boundary per body', () => {
    const one = multipartBody([encrypted('a', '.', 1).file]).contentType;
    const two = multipartBody([encrypted('a', '.', 1).file]).contentType;
    expect(one).not.toBe(two);
  });
});
