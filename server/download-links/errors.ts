// Errors of the download-link routes. Each has a fixed code and status; the detail texts are the
// contract of docs/api.md ("This link has expired." is shown by the download page as it is).
// The error handler turns any 4xx error into {detail: message}.

/** Unknown or deleted token, or another admin's link: the same answer, so tokens reveal nothing. */
export class LinkNotFoundError extends Error {
  readonly code = 'LINK_NOT_FOUND';
  readonly statusCode = 404;
  constructor() {
    super('Download link not found.');
    this.name = 'LinkNotFoundError';
  }
}

export class LinkExpiredError extends Error {
  readonly code = 'LINK_EXPIRED';
  readonly statusCode = 410;
  constructor() {
    super('This link has expired.');
    this.name = 'LinkExpiredError';
  }
}

/** A file of a password-protected link requested without a grant from verify-password. */
export class LinkPasswordRequiredError extends Error {
  readonly code = 'LINK_PASSWORD_REQUIRED';
  readonly statusCode = 401;
  constructor() {
    super('Password required');
    this.name = 'LinkPasswordRequiredError';
  }
}

export class LinkWithoutPasswordError extends Error {
  readonly code = 'LINK_WITHOUT_PASSWORD';
  readonly statusCode = 400;
  constructor() {
    super('This link is not password protected.');
    this.name = 'LinkWithoutPasswordError';
  }
}
