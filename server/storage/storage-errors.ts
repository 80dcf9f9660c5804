// Refusals for want of room. STORAGE_FULL: the server's disk (the free-space reserve reached, or the
// file system itself full); FOLDER_QUOTA_EXCEEDED: the folder's own limits. The upload page tells
// the uploader what happened and what to do by these codes.
import { HttpError } from '../errors.ts';

export const STORAGE_FULL_DETAIL = 'The server has no room for this upload right now.';

export class StorageFullError extends HttpError<'STORAGE_FULL'> {
  constructor() {
    super('STORAGE_FULL', 507, STORAGE_FULL_DETAIL);
  }
}

/** A write that failed because the file system (or SQLite on it) has no room left. */
export function isNoSpaceError(error: unknown): boolean {
  if (error instanceof StorageFullError) return true;
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  return code === 'ENOSPC' || code === 'EDQUOT' || code === 'SQLITE_FULL';
}

/** The file system's own ENOSPC (or SQLite's SQLITE_FULL) met while writing: logged with it as cause. */
export class NoSpaceWriteError extends StorageFullError {
  constructor(override readonly cause: unknown) {
    super();
  }
}

export const FOLDER_QUOTA_DETAIL = "This upload would pass the folder's storage or file limit.";

/**
 * FOLDER_QUOTA_EXCEEDED: storing this would pass the folder's storage limit or file limit (its files,
 * unfinished uploads and streaming requests together). Not the disk's state: only the admin can make
 * room (delete files, raise the limit), so clients do not retry it on their own.
 */
export class FolderQuotaExceededError extends HttpError<'FOLDER_QUOTA_EXCEEDED'> {
  constructor() {
    super('FOLDER_QUOTA_EXCEEDED', 413, FOLDER_QUOTA_DETAIL);
  }
}
