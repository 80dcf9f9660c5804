// A ZIP export read with yauzl: only the central directory is read up front (one small entry
// object per file, ZIP64 included); each blob is then opened as its own stream, stored or deflated.
import { type Entry, openPromise, type ZipFile } from 'yauzl';
import { ExportError, FileRecoveryError } from './errors.ts';
import { type ExportReader, MAX_MANIFEST_BYTES, type OpenedBlob } from './export-reader.ts';

class ZipExport implements ExportReader {
  readonly kind = 'zip';
  constructor(
    private readonly zip: ZipFile,
    /** null marks a name that occurs more than once: which one is meant cannot be told. */
    private readonly entries: Map<string, Entry | null>,
  ) {}

  private async entryStream(entry: Entry): Promise<OpenedBlob> {
    if (entry.isEncrypted()) throw new FileRecoveryError('BLOB_UNREADABLE', `${entry.fileName} is a password-protected ZIP entry`);
    try {
      return { stream: await this.zip.openReadStreamPromise(entry), bytes: entry.uncompressedSize };
    } catch (error) {
      throw new FileRecoveryError('BLOB_UNREADABLE', `${entry.fileName} cannot be read from the ZIP`, { cause: error });
    }
  }

  async readManifest(): Promise<Buffer> {
    const entry = this.entries.get('manifest.json');
    if (!entry) {
      throw new ExportError('EXPORT_UNREADABLE', entry === null ? 'the ZIP holds manifest.json twice' : 'the ZIP holds no manifest.json');
    }
    if (entry.uncompressedSize > MAX_MANIFEST_BYTES) throw new ExportError('EXPORT_UNREADABLE', 'manifest.json is implausibly large');
    try {
      const { stream } = await this.entryStream(entry);
      const parts: Buffer[] = [];
      for await (const chunk of stream) parts.push(chunk as Buffer);
      return Buffer.concat(parts);
    } catch (error) {
      throw new ExportError('EXPORT_UNREADABLE', 'manifest.json cannot be read from the ZIP', { cause: error });
    }
  }

  async openBlob(blob: string): Promise<OpenedBlob> {
    const entry = this.entries.get(blob);
    if (entry === null) throw new FileRecoveryError('BLOB_UNREADABLE', `the ZIP holds ${blob} more than once`);
    if (!entry) throw new FileRecoveryError('BLOB_MISSING', `${blob} is missing from the export`);
    return this.entryStream(entry);
  }

  async close(): Promise<void> {
    this.zip.close();
  }
}

export async function openZipExport(location: string): Promise<ExportReader> {
  let zip: ZipFile;
  try {
    zip = await openPromise(location, { lazyEntries: true, autoClose: false, validateEntrySizes: true });
  } catch (error) {
    throw new ExportError('EXPORT_UNREADABLE', `${location} is not a directory or a readable ZIP file`, { cause: error });
  }
  const entries = new Map<string, Entry | null>();
  try {
    for await (const entry of zip.eachEntry()) {
      if (entry.fileName.endsWith('/')) continue;
      entries.set(entry.fileName, entries.has(entry.fileName) ? null : entry);
    }
  } catch (error) {
    zip.close();
    throw new ExportError('EXPORT_UNREADABLE', `the ZIP's directory of entries is damaged`, { cause: error });
  }
  return new ZipExport(zip, entries);
}
