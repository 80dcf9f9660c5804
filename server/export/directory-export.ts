// An export as a directory (the admin CLI): files/<id>.sdrp for each blob and manifest.json, the
// layout of the ZIP. Each file is written under a temporary name, flushed to disk and renamed into
// place, and the manifest comes last: a directory with manifest.json is a complete export, one
// without it was interrupted (and a reader refuses it).
import { createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { BlobStore } from '../storage/blob-store.ts';
import { writeStreamClosed } from '../storage/write-stream-closed.ts';
import { ExportTargetError } from './errors.ts';
import type { ExportPlan } from './export-plan.ts';
import { BLOBS_DIRECTORY, MANIFEST_NAME, serialiseManifest } from './manifest.ts';

export interface DirectoryExportSummary {
  files: number;
  /** Ciphertext bytes written (the manifest not counted). */
  bytes: number;
}

/** Creates `target` (and its parents) unless it is an existing empty directory; anything else is refused. */
export async function prepareExportDirectory(target: string): Promise<void> {
  const info = await stat(target).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
  if (info && !info.isDirectory()) throw new ExportTargetError(`${target} exists and is not a directory.`);
  if (info && (await readdir(target)).length > 0) {
    throw new ExportTargetError(`${target} is not empty; export into a new or empty directory.`);
  }
  await mkdir(target, { recursive: true });
}

async function fsyncPath(file: string): Promise<void> {
  const handle = await open(file, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Runs `write` on a temporary file beside `final`, flushes it to disk and renames it into place. */
async function writeDurably(final: string, write: (temporary: string) => Promise<void>): Promise<void> {
  const temporary = path.join(path.dirname(final), `.${path.basename(final)}.partial`);
  try {
    await write(temporary);
    await fsyncPath(temporary);
    await rename(temporary, final);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/** Writes the export into `target`, which must be a new or empty directory. */
export async function writeExportDirectory(target: string, plan: ExportPlan, blobs: BlobStore): Promise<DirectoryExportSummary> {
  await prepareExportDirectory(target);
  const blobDirectory = path.join(target, BLOBS_DIRECTORY);
  await mkdir(blobDirectory);
  let bytes = 0;
  for (const blob of plan.blobs) {
    await writeDurably(path.join(target, blob.path), async (temporary) => {
      let written = 0;
      const counter = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          written += chunk.length;
          callback(null, chunk);
        },
      });
      const source = await blobs.get(blob.blobKey);
      const file = createWriteStream(temporary, { flags: 'wx' });
      try {
        await pipeline(source, counter, file);
      } catch (error) {
        // Closed before writeDurably removes the file (write-stream-closed.ts says why).
        await writeStreamClosed(file);
        throw error;
      }
      if (written !== blob.size) {
        throw new Error(`The stored data of file ${blob.fileId} changed while it was exported (${written} bytes, expected ${blob.size}).`);
      }
    });
    bytes += blob.size;
  }
  await fsyncPath(blobDirectory);
  await writeDurably(path.join(target, MANIFEST_NAME), (temporary) => writeFile(temporary, serialiseManifest(plan.manifest), { flag: 'wx' }));
  await fsyncPath(target);
  return { files: plan.blobs.length, bytes };
}
