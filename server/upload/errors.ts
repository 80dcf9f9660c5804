// Errors of the anonymous upload routes. Each has a fixed `code`; the status and the detail the
// client sees come from this table (the texts are the contract in docs/api.md; some are the
// spec's exact strings). The app's error handler answers each as {detail, code}.
import type { ServerErrorCode } from '../../contract/errors.ts';
import { defineHttpError, httpErrorTable, type HttpErrorEntry } from '../errors.ts';

export const UPLOAD_ERRORS = {
  /** Unknown, inactive or expired link: the same answer on every route, so a token reveals nothing. */
  LINK_INVALID: { status: 404, detail: 'Link invalid/expired.' },
  LINK_PASSWORD_REQUIRED: { status: 401, detail: 'Link password required.' },
  INCORRECT_LINK_PASSWORD: { status: 401, detail: 'Incorrect password' },
  EMAIL_VERIFICATION_REQUIRED: { status: 401, detail: 'E-mail verification required.' },
  EMAIL_NOT_ALLOWED: { status: 403, detail: 'This e-mail address is not allowed to upload to this link.' },
  INVALID_CODE: { status: 400, detail: 'Invalid or expired verification code.' },
  EMAIL_NOT_REQUIRED: { status: 400, detail: 'This link does not use e-mail verification.' },
  PUBLIC_KEY_MISSING: { status: 404, detail: 'Recipient public key is missing or not configured.' },
  ARRAY_LENGTH_MISMATCH: { status: 400, detail: 'Mismatch in lengths of file data arrays provided for upload' },
  NOT_MULTIPART: { status: 400, detail: 'The upload must be a multipart/form-data request.' },
  MALFORMED_MULTIPART: { status: 400, detail: 'Malformed multipart request.' },
  NO_FILES: { status: 400, detail: 'No files were provided.' },
  TOO_MANY_PARTS: { status: 413, detail: 'Too many files or fields in one request.' },
} as const satisfies { [Code in ServerErrorCode]?: HttpErrorEntry };

export type UploadErrorCode = keyof typeof UPLOAD_ERRORS;

export class UploadError extends httpErrorTable(UPLOAD_ERRORS) {}

/** 413: a file is larger than the limit. The detail names the limit the way the page does. */
export class FileTooLargeError extends defineHttpError('FILE_TOO_LARGE', 413, fileTooLargeDetail) {}

export function fileTooLargeDetail(maxFileBytes: number): string {
  return `File too large (max ${Math.floor(maxFileBytes / (1024 * 1024))} MB)`;
}
