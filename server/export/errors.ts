// Why an export cannot be made. The first two become HTTP answers on the export route; the CLI
// prints their message as one line.
import { codedError } from '../../contract/coded-error.ts';
import { defineHttpError } from '../errors.ts';

const LISTED_IDS = 10;

function listIds(ids: readonly number[]): string {
  const shown = ids.slice(0, LISTED_IDS).join(', ');
  return ids.length > LISTED_IDS ? `${shown} and ${ids.length - LISTED_IDS} more` : shown;
}

/** Some requested ids are not files of the folder (missing, or another folder's: the same answer). */
export class ExportFilesNotFoundError extends defineHttpError(
  'EXPORT_FILES_NOT_FOUND',
  404,
  (fileIds: readonly number[]) => `Files not found in this folder: ${listIds(fileIds)}`,
) {
  constructor(readonly fileIds: readonly number[]) {
    super(fileIds);
  }
}

/** A file record whose blob is gone: an export without it would not be complete, so none is made. */
export class ExportBlobMissingError extends defineHttpError(
  'EXPORT_BLOB_MISSING',
  404,
  (fileIds: readonly number[]) => `The stored data of these files is missing: ${listIds(fileIds)}`,
) {
  constructor(readonly fileIds: readonly number[]) {
    super(fileIds);
  }
}

/** The CLI's target exists and holds something, or is not a directory. */
export class ExportTargetError extends codedError('EXPORT_TARGET') {}

/** The CLI was given a folder id that names no folder. */
export class ExportFolderNotFoundError extends codedError('EXPORT_FOLDER_NOT_FOUND') {
  constructor(folderId: number) {
    super(`No folder with id ${folderId}.`);
  }
}
