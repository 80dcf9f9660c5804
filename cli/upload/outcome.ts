// What happened to one file of an upload run, as the report shows it (docs/operations.md,
// "Command-line upload and fetch": the human lines and the --json lines).
import { ApiRequestError, NetworkError } from '../shared/errors.ts';

export type FileOutcome =
  | { status: 'stored'; fileId: number; resumedFrom: number | null }
  | { status: 'skipped'; fileId: number }
  | { status: 'failed'; code: string; detail: string };

/** A failure's code and line: the server's code and detail, or our own. */
export function failure(error: unknown): FileOutcome {
  if (error instanceof ApiRequestError) return { status: 'failed', code: error.code, detail: error.detail };
  if (error instanceof NetworkError) return { status: 'failed', code: error.code, detail: `${error.message}; gave up after retrying for about five minutes` };
  if (error instanceof Error && 'code' in error && typeof error.code === 'string') return { status: 'failed', code: error.code, detail: error.message };
  const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return { status: 'failed', code: 'UNEXPECTED', detail };
}
