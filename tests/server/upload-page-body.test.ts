// The upload page writes its multipart bodies itself (src/features/upload/transport/multipartBatch.ts,
// one Blob per batch instead of FormData). Here those exact bytes go to the real server over HTTP,
// which must read every file, name, path and field as it reads a browser's FormData.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipartBody, type EncryptedFile } from '../../src/features/upload/transport/multipartBatch.ts';
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
 * The same files with their ciphertexts as the spool gives them (workers/small-file-spool.ts): one
 * file holding every ciphertext one after another, each file's ciphertext a slice of it.
 */
function asSpoolSlices(files: ReadonlyArray<{ file: EncryptedFile; data: Buffer }>): Array<{ file: EncryptedFile; data: Buffer }> {
  const spoolFile = new Blob(files.map((entry) => new Uint8Array(entry.data)));
  let offset = 0;
  return files.map((entry) => {
    const slice = spoolFile.slice(offset, offset + entry.data.length);
    offset += entry.data.length;
    return { data: entry.data, file: { ...entry.file, ciphertext: [slice] } };
  });
}

async function bodyBytes(body: Uint8Array | Blob): Promise<Buffer> {
  return body instanceof Blob ? Buffer.from(await body.arrayBuffer()) : Buffer.from(body);
}

describe("the upload page's multipart body", () => {
  it.each([
    ['in memory', (files: Array<{ file: EncryptedFile; data: Buffer }>) => files, Uint8Array],
    ['as slices of a spool file', asSpoolSlices, Blob],
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

  it('uses a fresh boundary per body', () => {
    const one = multipartBody([encrypted('a', '.', 1).file]).contentType;
    const two = multipartBody([encrypted('a', '.', 1).file]).contentType;
    expect(one).not.toBe(two);
  });
});
