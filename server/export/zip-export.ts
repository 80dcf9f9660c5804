// An export as one ZIP stream (yazl): manifest.json first, then each blob stored (not compressed:
// ciphertext does not compress), read from the blob store one at a time as the ZIP is consumed, so
// memory stays flat whatever the sizes. Every entry's size is known in advance, which gives the
// ZIP's exact length before the first byte (for Content-Length) and lets yazl switch to ZIP64
// structures where a size or offset needs them.
//
// yazl pipes each blob with .pipe(), which does not forward errors: a blob stream that fails is
// caught here and fails the whole output, and an output that closes early (the client went away)
// destroys the blob stream being read, so no file stays open.
import type { Readable } from 'node:stream';
import { ZipFile, type EndOptions } from 'yazl';
import { codedError } from '../../contract/coded-error.ts';
import type { BlobStore } from '../storage/blob-store.ts';
import type { ExportPlan } from './export-plan.ts';
import { MANIFEST_NAME, serialiseManifest } from './manifest.ts';

export interface ExportZip {
  stream: Readable;
  /** The ZIP's exact length in bytes. */
  size: number;
}

class OutputClosedError extends codedError('EXPORT_OUTPUT_CLOSED') {
  constructor() {
    super('The export output closed before the ZIP was complete');
  }
}

export function createExportZip(plan: ExportPlan, blobs: BlobStore): Promise<ExportZip> {
  const zip = new ZipFile();
  const output = zip.outputStream as Readable;
  let reading: Readable | null = null;
  const fail = (error: Error) => {
    reading?.destroy();
    output.destroy(error);
  };
  zip.on('error', fail);
  output.once('close', () => reading?.destroy());

  zip.addBuffer(serialiseManifest(plan.manifest), MANIFEST_NAME, { compress: false, mtime: new Date(plan.exportedAt) });
  for (const blob of plan.blobs) {
    zip.addReadStreamLazy(blob.path, { compress: false, size: blob.size, mtime: new Date(blob.uploadTime) }, (callback) => {
      // Once the output has closed no blob is read: nothing would ever take its bytes.
      if (output.destroyed) {
        callback(new OutputClosedError(), undefined as never);
        return;
      }
      blobs.get(blob.blobKey).then(
        (stream) => {
          if (output.destroyed) {
            stream.destroy();
            callback(new OutputClosedError(), undefined as never);
            return;
          }
          reading = stream;
          stream.once('error', fail);
          callback(null, stream);
        },
        (error: unknown) => callback(error, undefined as never),
      );
    });
  }
  return new Promise((resolve) => {
    endWithSize(zip, (size) => resolve({ stream: output, size }));
  });
}

// @types/yazl leaves out the argument of end()'s callback: the calculated total size, which is
// exact here because every entry is stored with a known size (yazl gives -1 only otherwise).
type EndWithSize = (this: ZipFile, options: Partial<EndOptions>, calculatedTotalSize: (size: number) => void) => void;

function endWithSize(zip: ZipFile, onSize: (size: number) => void): void {
  (zip.end as unknown as EndWithSize).call(zip, {}, onSize);
}
