// Errors of the download-link routes. Each has a fixed code and status; the detail texts are the
// contract of docs/api.md ("This link has expired." is shown by the download page as it is).
// The error handler answers each as {detail, code}.
import { HttpError } from '../errors.ts';

/** Unknown or deleted token, or another admin's link: the same answer, so tokens reveal nothing. */
export class LinkNotFoundError extends HttpError<'LINK_NOT_FOUND'> {
  constructor() {
    super('LINK_NOT_FOUND', 404, 'Download link not found.');
  }
}

export class LinkExpiredError extends HttpError<'LINK_EXPIRED'> {
  constructor() {
    super('LINK_EXPIRED', 410, 'This link has expired.');
  }
}

/** A file of a password-protected link requested without a grant from verify-password. */
export class LinkPasswordRequiredError extends HttpError<'LINK_PASSWORD_REQUIRED'> {
  constructor() {
    super('LINK_PASSWORD_REQUIRED', 401, 'Password required');
  }
}

export class LinkWithoutPasswordError extends HttpError<'LINK_WITHOUT_PASSWORD'> {
  constructor() {
    super('LINK_WITHOUT_PASSWORD', 400, 'This link is not password protected.');
  }
}

/** 421: an address was to be built for a Host other than PUBLIC_URL's (a forged or misrouted request). */
export class HostNotAllowedError extends HttpError<'HOST_NOT_ALLOWED'> {
  constructor(publicUrl: string) {
    super('HOST_NOT_ALLOWED', 421, `This server answers at ${publicUrl} only; open it through that address.`);
  }
}
