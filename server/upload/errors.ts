// Errors of the anonymous upload routes. Each has a fixed `code`; the status and the detail the
// client sees come from this table (the texts are the contract in docs/api.md; some are the
// spec's exact strings). The app's error handler answers each as {detail, code}.
import type { ServerErrorCode } from '../../contract/errors.ts';
import { defineHttpError, httpErrorTable, type HttpErrorEntry } from '../errors.ts';
import { english } from '../i18n/intl.ts';
import { defineMessages, type LocalisedText } from '../i18n/messages.ts';

/** The details in English; the error handler answers each in the request's language (server/i18n). */
const details = defineMessages({
  FILE_TOO_LARGE: { id: 'server.upload.fileTooLarge', defaultMessage: 'File too large (max {maxMegabytes} MB)' },
  LINK_INVALID: { id: 'server.upload.linkInvalid', defaultMessage: 'Link invalid/expired.' },
  LINK_PASSWORD_REQUIRED: { id: 'server.upload.linkPasswordRequired', defaultMessage: 'Link password required.' },
  INCORRECT_LINK_PASSWORD: { id: 'server.upload.incorrectLinkPassword', defaultMessage: 'Incorrect password' },
  EMAIL_VERIFICATION_REQUIRED: { id: 'server.upload.emailVerificationRequired', defaultMessage: 'E-mail verification required.' },
  EMAIL_NOT_ALLOWED: { id: 'server.upload.emailNotAllowed', defaultMessage: 'This e-mail address is not allowed to upload to this link.' },
  INVALID_CODE: { id: 'server.upload.invalidCode', defaultMessage: 'Invalid or expired verification code.' },
  EMAIL_NOT_REQUIRED: { id: 'server.upload.emailNotRequired', defaultMessage: 'This link does not use e-mail verification.' },
  PUBLIC_KEY_MISSING: { id: 'server.upload.publicKeyMissing', defaultMessage: 'Recipient public key is missing or not configured.' },
  ARRAY_LENGTH_MISMATCH: { id: 'server.upload.arrayLengthMismatch', defaultMessage: 'Mismatch in lengths of file data arrays provided for upload' },
  NOT_MULTIPART: { id: 'server.upload.notMultipart', defaultMessage: 'The upload must be a multipart/form-data request.' },
  MALFORMED_MULTIPART: { id: 'server.upload.malformedMultipart', defaultMessage: 'Malformed multipart request.' },
  NO_FILES: { id: 'server.upload.noFiles', defaultMessage: 'No files were provided.' },
  TOO_MANY_PARTS: { id: 'server.upload.tooManyParts', defaultMessage: 'Too many files or fields in one request.' },
});

export const UPLOAD_ERRORS = {
  /** Unknown, inactive or expired link: the same answer on every route, so a token reveals nothing. */
  LINK_INVALID: { status: 404, detail: details.LINK_INVALID },
  LINK_PASSWORD_REQUIRED: { status: 401, detail: details.LINK_PASSWORD_REQUIRED },
  INCORRECT_LINK_PASSWORD: { status: 401, detail: details.INCORRECT_LINK_PASSWORD },
  EMAIL_VERIFICATION_REQUIRED: { status: 401, detail: details.EMAIL_VERIFICATION_REQUIRED },
  EMAIL_NOT_ALLOWED: { status: 403, detail: details.EMAIL_NOT_ALLOWED },
  INVALID_CODE: { status: 400, detail: details.INVALID_CODE },
  EMAIL_NOT_REQUIRED: { status: 400, detail: details.EMAIL_NOT_REQUIRED },
  PUBLIC_KEY_MISSING: { status: 404, detail: details.PUBLIC_KEY_MISSING },
  ARRAY_LENGTH_MISMATCH: { status: 400, detail: details.ARRAY_LENGTH_MISMATCH },
  NOT_MULTIPART: { status: 400, detail: details.NOT_MULTIPART },
  MALFORMED_MULTIPART: { status: 400, detail: details.MALFORMED_MULTIPART },
  NO_FILES: { status: 400, detail: details.NO_FILES },
  TOO_MANY_PARTS: { status: 413, detail: details.TOO_MANY_PARTS },
} as const satisfies { [Code in ServerErrorCode]?: HttpErrorEntry };

export type UploadErrorCode = keyof typeof UPLOAD_ERRORS;

export class UploadError extends httpErrorTable(UPLOAD_ERRORS) {}

/** 413: a file is larger than the limit. The detail names the limit the way the page does. */
export class FileTooLargeError extends defineHttpError('FILE_TOO_LARGE', 413, fileTooLargeText) {}

function fileTooLargeText(maxFileBytes: number): LocalisedText {
  return { message: details.FILE_TOO_LARGE, values: { maxMegabytes: String(Math.floor(maxFileBytes / (1024 * 1024))) } };
}

/** The detail in English, for the tus answers (their body is written before the error handler). */
export function fileTooLargeDetail(maxFileBytes: number): string {
  return english(fileTooLargeText(maxFileBytes));
}
