// A directory export: manifest.json and files/<id>.sdrp as plain files.
import { open } from 'node:fs/promises';
import path from 'node:path';
import { errnoCode, ExportError, FileRecoveryError } from './errors.ts';
import { type ExportReader, MAX_MANIFEST_BYTES, type OpenedBlob, READ_CHUNK_BYTES } from './export-reader.ts';

export class DirectoryExport implements ExportReader {
  readonly kind = 'directory';
  constructor(private readonly root: string) {}

  async readManifest(): Promise<Buffer> {
    const file = path.join(this.root, 'manifest.json');
    let handle;
    try {
      handle = await open(file, 'r');
    } catch (error) {
      throw new ExportError('EXPORT_UNREADABLE', `no readable manifest.json in ${this.root} (${errnoCode(error) ?? 'error'})`, { cause: error });
    }
    try {
      const { size } = await handle.stat();
      if (size > MAX_MANIFEST_BYTES) throw new ExportError('EXPORT_UNREADABLE', 'manifest.json is implausibly large');
      return await handle.readFile();
    } finally {
      await handle.close();
    }
  }

  async openBlob(blob: string): Promise<OpenedBlob> {
    let handle;
    try {
      handle = await open(path.join(this.root, blob), 'r');
    } catch (error) {
      if (errnoCode(error) === 'ENOENT') throw new FileRecoveryError('BLOB_MISSING', `${blob} is missing from the export`);
      throw new FileRecoveryError('BLOB_UNREADABLE', `${blob} cannot be opened (${errnoCode(error) ?? 'error'})`, { cause: error });
    }
    const stats = await handle.stat();
    if (!stats.isFile()) {
      await handle.close();
      throw new FileRecoveryError('BLOB_UNREADABLE', `${blob} is not a regular file`);
    }
    return { stream: handle.createReadStream({ highWaterMark: READ_CHUNK_BYTES }), bytes: stats.size };
  }

  async close(): Promise<void> {}
}
