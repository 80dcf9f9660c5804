// Errors of the offline recover command, with fixed codes (callers branch on `code`, never on the
// message). Two kinds, because they end the run differently: an ExportError means nothing can be
// recovered (bad backup file, unreadable export, unknown format version: exit status 2); a
// FileRecoveryError concerns one file of the export, which is reported and skipped while the others
// are still recovered (exit status 1 at the end). Crypto failures arrive as OfflineCryptoError from
// server/crypto and are reported per file the same way (reasons.ts maps every code to its line).

import { CodedError } from '../../contract/coded-error.ts';

export type ExportErrorCode =
  | 'BACKUP_UNREADABLE'
  | 'EXPORT_UNREADABLE'
  | 'EXPORT_UNSUPPORTED_VERSION'
  | 'OUTPUT_DIR_UNUSABLE';

export class ExportError extends CodedError<ExportErrorCode> {}

export type FileRecoveryErrorCode =
  | 'ENTRY_INVALID'
  | 'UNSAFE_PATH'
  | 'UNSAFE_BLOB'
  | 'DUPLICATE_PATH'
  | 'OUTPUT_EXISTS'
  | 'OUTPUT_FAILED'
  | 'BLOB_MISSING'
  | 'BLOB_UNREADABLE'
  | 'BLOB_TRUNCATED'
  | 'SIZE_MISMATCH'
  | 'HASH_MISMATCH'
  | 'TEAM_KEY_UNAVAILABLE';

export class FileRecoveryError extends CodedError<FileRecoveryErrorCode> {}

/** The errno code of a failed file-system call (ENOENT, EACCES, ...), if it is one. */
export function errnoCode(error: unknown): string | undefined {
  if (!(error instanceof Error) || !('syscall' in error) || !('code' in error) || typeof error.code !== 'string') return undefined;
  return error.code;
}
