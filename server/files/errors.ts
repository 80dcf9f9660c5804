// The one answer for a file the caller may not see: 404 "File not found", the same for a file that
// does not exist, one in another admin's folder and one outside a download link, so ids reveal
// nothing. The error handler answers it as {detail, code}.
import { defineHttpError } from '../errors.ts';
import { defineMessages } from '../i18n/messages.ts';

/** The details in English; the error handler answers each in the request's language (server/i18n). */
const details = defineMessages({
  FILE_NOT_FOUND: { id: 'server.files.fileNotFound', defaultMessage: 'File not found' },
  UPLOAD_NOT_FOUND: { id: 'server.files.uploadNotFound', defaultMessage: 'Upload not found' },
});

export class FileNotFoundError extends defineHttpError('FILE_NOT_FOUND', 404, details.FILE_NOT_FOUND) {}

/** An unfinished upload that is not in the admin's folder (or no longer exists: completed, swept). */
export class UploadNotFoundError extends defineHttpError('UPLOAD_NOT_FOUND', 404, details.UPLOAD_NOT_FOUND) {}
