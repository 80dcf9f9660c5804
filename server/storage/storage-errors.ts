// Refusals for want of room. STORAGE_FULL: the server's disk (the free-space reserve reached, or the
// file system itself full); FOLDER_QUOTA_EXCEEDED: the folder's own limits. The upload page tells
// the uploader what happened and what to do by these codes.
import { defineHttpError } from '../errors.ts';
import { defineMessages } from '../i18n/messages.ts';
import { english } from '../i18n/intl.ts';

/** The details in English; the error handler answers each in the request's language (server/i18n). */
const details = defineMessages({
  STORAGE_FULL: { id: 'server.storage.storageFull', defaultMessage: 'The server has no room for this upload right now.' },
  DISK_FULL: { id: 'server.storage.diskFull', defaultMessage: "The server's disk is full, so this could not be saved. Try again once space has been freed." },
  FOLDER_QUOTA: { id: 'server.storage.folderQuota', defaultMessage: "This upload would pass the folder's storage or file limit." },
});

export const STORAGE_FULL_DETAIL = english(details.STORAGE_FULL);

export class StorageFullError extends defineHttpError('STORAGE_FULL', 507, details.STORAGE_FULL) {}

/**
 * The codes of a write that found no room: the file system's (ENOSPC, EDQUOT), SQLite's on it
 * (SQLITE_FULL), and PostgreSQL's disk_full (SQLSTATE 53100) on the database server's own disk.
 */
const NO_SPACE_CODES: ReadonlySet<unknown> = new Set(['ENOSPC', 'EDQUOT', 'SQLITE_FULL', '53100']);

/** A write that failed because the file system (or the database on it) has no room left. */
export function isNoSpaceError(error: unknown): boolean {
  if (error instanceof StorageFullError) return true;
  if (typeof error !== 'object' || error === null) return false;
  return NO_SPACE_CODES.has((error as { code?: unknown }).code);
}

export const DISK_FULL_DETAIL = english(details.DISK_FULL);

/**
 * DISK_FULL: a write of the server's own (a sign-in's counter or session, a sign-out, a delete, the
 * sweep) found no room on the disk or the database's disk. That write was not committed (steps
 * before it may have been); the answer is 507 with this text, never a 500, so the admin knows
 * what to free.
 */
export class DiskFullError extends defineHttpError('DISK_FULL', 507, details.DISK_FULL) {
  constructor(override readonly cause: unknown) {
    super();
  }
}

/** The file system's own ENOSPC (or SQLite's SQLITE_FULL) met while writing: logged with it as cause. */
export class NoSpaceWriteError extends StorageFullError {
  constructor(override readonly cause: unknown) {
    super();
  }
}

export const FOLDER_QUOTA_DETAIL = english(details.FOLDER_QUOTA);

/**
 * FOLDER_QUOTA_EXCEEDED: storing this would pass the folder's storage limit or file limit (its files,
 * unfinished uploads and streaming requests together). Not the disk's state: only the admin can make
 * room (delete files, raise the limit), so clients do not retry it on their own.
 */
export class FolderQuotaExceededError extends defineHttpError('FOLDER_QUOTA_EXCEEDED', 413, details.FOLDER_QUOTA) {}
