// decryptToDisk's clean-up when the blob fails before its first byte: the partial output file is
// removed only once its stream has closed, so no `.sealdrop-recover-*.part` is left behind.
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, expect, it } from 'vitest';
import { decryptToDisk, type ExpectedFile } from './decrypt-to-disk.ts';

let outputDir = '';
afterEach(() => rm(outputDir, { recursive: true, force: true }));

const file: ExpectedFile = { source: 'files/1.sdrp', describedBy: 'the manifest', directories: [], name: 'a.bin', size: 10, sha256: null };

function failedBlob() {
  const stream = new PassThrough();
  stream.on('error', () => undefined);
  stream.destroy(new Error('disk read failed'));
  return Promise.resolve({ stream, bytes: null });
}

it('leaves no partial output file when the blob fails before its first byte', async () => {
  outputDir = await mkdtemp(join(tmpdir(), 'sealdrop-recover-'));
  // One file after another, each racing the removal of its partial file against its opening.
  for (let i = 0; i < 150; i++) {
    await expect(decryptToDisk(randomBytes(32), randomBytes(12), file, failedBlob, { outputDir, force: false })).rejects.toMatchObject({ code: 'BLOB_UNREADABLE' });
  }
  // A file opened after its removal would appear only after this.
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(await readdir(outputDir)).toEqual([]);
});
