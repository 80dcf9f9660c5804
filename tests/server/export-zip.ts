// Reads an export ZIP with yauzl (an independent ZIP reader) for the export tests and the e2e
// spec: every entry's name, compression method and bytes, and the parsed manifest.
import { fromBufferPromise } from 'yauzl';
import type { ExportManifest } from '../../server/export/manifest.ts';

export interface ExportZipEntry {
  name: string;
  /** 0: stored (the export never compresses). */
  compressionMethod: number;
  data: Buffer;
}

export interface ReadExport {
  entries: ExportZipEntry[];
  manifest: ExportManifest;
  /** Entry bytes by name. */
  data(name: string): Buffer;
}

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function readExportZip(bytes: Buffer): Promise<ReadExport> {
  const zip = await fromBufferPromise(bytes, { lazyEntries: true, strictFileNames: true, validateEntrySizes: true });
  const entries: ExportZipEntry[] = [];
  try {
    for await (const entry of zip.eachEntry()) {
      const data = await readAll(await zip.openReadStreamPromise(entry));
      entries.push({ name: entry.fileName, compressionMethod: entry.compressionMethod, data });
    }
  } finally {
    zip.close();
  }
  const byName = new Map(entries.map((entry) => [entry.name, entry.data]));
  const manifestBytes = byName.get('manifest.json');
  if (!manifestBytes) throw new Error('the export has no manifest.json');
  return {
    entries,
    manifest: JSON.parse(manifestBytes.toString('utf8')) as ExportManifest,
    data(name) {
      const data = byName.get(name);
      if (!data) throw new Error(`the export has no entry ${name}`);
      return data;
    },
  };
}
