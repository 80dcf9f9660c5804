import { stat } from 'node:fs/promises';
import { DirectoryExport } from './directory-export.ts';
import { errnoCode, ExportError } from './errors.ts';
import type { ExportReader } from './export-reader.ts';
import { openZipExport } from './zip-export.ts';

/** A directory is read as a directory export, any other file as a ZIP. */
export async function openExport(location: string): Promise<ExportReader> {
  let stats;
  try {
    stats = await stat(location);
  } catch (error) {
    throw new ExportError('EXPORT_UNREADABLE', `cannot read the export ${location} (${errnoCode(error) ?? 'error'})`, { cause: error });
  }
  if (stats.isDirectory()) return new DirectoryExport(location);
  if (stats.isFile()) return openZipExport(location);
  throw new ExportError('EXPORT_UNREADABLE', `the export ${location} is neither a directory nor a ZIP file`);
}
