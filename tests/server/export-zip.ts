// Reads an export ZIP (tests/support/zip.ts, yauzl) for the export tests and the e2e spec: every
// entry's name, compression method (0: the export never compresses) and bytes, and the manifest.
import type { ExportManifest } from '../../server/export/manifest.ts';
import { readZip, type ZipEntry } from '../support/zip.ts';

export type ExportZipEntry = ZipEntry;

export interface ReadExport {
  entries: ExportZipEntry[];
  manifest: ExportManifest;
  /** Entry bytes by name. */
  data(name: string): Buffer;
}

export async function readExportZip(bytes: Buffer): Promise<ReadExport> {
  const entries = await readZip(bytes);
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
