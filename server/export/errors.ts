// Why an export cannot be made. The first two become HTTP answers on the export route; the CLI
// prints their message as one line.
import { codedError } from '../../contract/coded-error.ts';
import { defineHttpError } from '../errors.ts';
import { defineMessages, type LocalisedText } from '../i18n/messages.ts';

const LISTED_IDS = 10;

const details = defineMessages({
  filesNotFound: { id: 'server.export.filesNotFound', defaultMessage: 'Files not found in this folder: {ids}' },
  blobMissing: { id: 'server.export.blobMissing', defaultMessage: 'The stored data of these files is missing: {ids}' },
  idList: { id: 'server.export.idList', defaultMessage: '{shown}{more, plural, =0 {} other { and # more}}', description: 'shown: up to ten file ids, comma-separated' },
});

function listIds(ids: readonly number[]): LocalisedText {
  return { message: details.idList, values: { shown: ids.slice(0, LISTED_IDS).join(', '), more: Math.max(0, ids.length - LISTED_IDS) } };
}

/** Some requested ids are not files of the folder (missing, or another folder's: the same answer). */
export class ExportFilesNotFoundError extends defineHttpError(
  'EXPORT_FILES_NOT_FOUND',
  404,
  (fileIds: readonly number[]) => ({ message: details.filesNotFound, values: { ids: listIds(fileIds) } }),
) {
  constructor(readonly fileIds: readonly number[]) {
    super(fileIds);
  }
}

/** A file record whose blob is gone: an export without it would not be complete, so none is made. */
export class ExportBlobMissingError extends defineHttpError(
  'EXPORT_BLOB_MISSING',
  404,
  (fileIds: readonly number[]) => ({ message: details.blobMissing, values: { ids: listIds(fileIds) } }),
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
