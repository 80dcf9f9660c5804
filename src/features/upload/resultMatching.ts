// Matching the server's Upload result to the files that were sent (spec section 7): by a key built
// from the lower-cased, Unicode-normalised path and name, where %22 becomes a quote (how browsers
// send a quote in a multipart filename). A file without a matching result is reported as
// 'Upload status unreported by server'. Two sent files with the same key take the results with
// that key in order.

import type { UploadResult } from '../../api/types.ts';
import { RUN_MESSAGES } from '../../lib/userTexts.ts';

export function resultKey(path: string, name: string): string {
  const directory = path === '' ? '.' : path;
  return `${directory}/${name}`.replace(/%22/g, '"').normalize('NFC').toLowerCase();
}

export interface SentFile {
  id: string;
  name: string;
  relativePath: string;
}

export type FileOutcome = { ok: true; serverId: number } | { ok: false; error: string; unreported: boolean };

/** Outcome per sent file id, in the order of `sent`. */
export function matchResults(sent: readonly SentFile[], result: UploadResult): Map<string, FileOutcome> {
  const waiting = new Map<string, FileOutcome[]>();
  const put = (key: string, outcome: FileOutcome) => {
    const list = waiting.get(key) ?? [];
    list.push(outcome);
    waiting.set(key, list);
  };
  for (const item of result.successful_files) {
    put(resultKey(item.path, item.original_raw_name_from_client ?? item.filename), { ok: true, serverId: item.id });
  }
  for (const item of result.failed_files) {
    const error = typeof item.error === 'string' && item.error.trim() !== '' ? item.error : RUN_MESSAGES.serverFailed;
    put(resultKey(item.path, item.original_raw_name_from_client ?? item.filename), { ok: false, error, unreported: false });
  }
  const outcomes = new Map<string, FileOutcome>();
  for (const file of sent) {
    const outcome = waiting.get(resultKey(file.relativePath, file.name))?.shift();
    outcomes.set(file.id, outcome ?? { ok: false, error: RUN_MESSAGES.unreported, unreported: true });
  }
  return outcomes;
}

/** A response body that is not an Upload result at all (null, HTML, a bare string). */
export function isUploadResult(value: unknown): value is UploadResult {
  if (typeof value !== 'object' || value === null) return false;
  const { successful_files, failed_files } = value as Record<string, unknown>;
  return Array.isArray(successful_files) && Array.isArray(failed_files);
}
