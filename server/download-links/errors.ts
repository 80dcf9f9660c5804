// Errors of the download-link routes. Each has a fixed code and status; the detail texts are the
// contract of docs/api.md ("This link has expired." is shown by the download page as it is).
// The error handler answers each as {detail, code}.
import { defineHttpError } from '../errors.ts';
import { defineMessages } from '../i18n/messages.ts';

/** The details in English; the error handler answers each in the request's language (server/i18n). */
const details = defineMessages({
  HOST_NOT_ALLOWED: { id: 'server.downloadLinks.hostNotAllowed', defaultMessage: 'This server answers at {publicUrl} only; open it through that address.' },
  LINK_NOT_FOUND: { id: 'server.downloadLinks.linkNotFound', defaultMessage: 'Download link not found.' },
  LINK_EXPIRED: { id: 'server.downloadLinks.linkExpired', defaultMessage: 'This link has expired.' },
  LINK_PASSWORD_REQUIRED: { id: 'server.downloadLinks.linkPasswordRequired', defaultMessage: 'Password required' },
  LINK_WITHOUT_PASSWORD: { id: 'server.downloadLinks.linkWithoutPassword', defaultMessage: 'This link is not password protected.' },
});

/** Unknown or deleted token, or another admin's link: the same answer, so tokens reveal nothing. */
export class LinkNotFoundError extends defineHttpError('LINK_NOT_FOUND', 404, details.LINK_NOT_FOUND) {}

export class LinkExpiredError extends defineHttpError('LINK_EXPIRED', 410, details.LINK_EXPIRED) {}

/** A file of a password-protected link requested without a grant from verify-password. */
export class LinkPasswordRequiredError extends defineHttpError('LINK_PASSWORD_REQUIRED', 401, details.LINK_PASSWORD_REQUIRED) {}

export class LinkWithoutPasswordError extends defineHttpError('LINK_WITHOUT_PASSWORD', 400, details.LINK_WITHOUT_PASSWORD) {}

/** 421: an address was to be built for a Host other than PUBLIC_URL's (a forged or misrouted request). */
export class HostNotAllowedError extends defineHttpError(
  'HOST_NOT_ALLOWED',
  421,
  (publicUrl: string) => ({ message: details.HOST_NOT_ALLOWED, values: { publicUrl } }),
) {}
