// Errors of the download-link routes. Each has a fixed code and status; the detail texts are the
// contract of docs/api.md ("This link has expired." is shown by the download page as it is).
// The error handler answers each as {detail, code}.
import { defineHttpError } from '../errors.ts';

/** Unknown or deleted token, or another admin's link: the same answer, so tokens reveal nothing. */
export class LinkNotFoundError extends defineHttpError('LINK_NOT_FOUND', 404, 'Download link not found.') {}

export class LinkExpiredError extends defineHttpError('LINK_EXPIRED', 410, 'This link has expired.') {}

/** A file of a password-protected link requested without a grant from verify-password. */
export class LinkPasswordRequiredError extends defineHttpError('LINK_PASSWORD_REQUIRED', 401, 'Password required') {}

export class LinkWithoutPasswordError extends defineHttpError('LINK_WITHOUT_PASSWORD', 400, 'This link is not password protected.') {}

/** 421: an address was to be built for a Host other than PUBLIC_URL's (a forged or misrouted request). */
export class HostNotAllowedError extends defineHttpError(
  'HOST_NOT_ALLOWED',
  421,
  (publicUrl: string) => `This server answers at ${publicUrl} only; open it through that address.`,
) {}
