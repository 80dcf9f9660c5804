// The one answer for a file the caller may not see: 404 "File not found", the same for a file that
// does not exist, one in another admin's folder and one outside a download link, so ids reveal
// nothing. The error handler turns any 4xx error into {detail: message}.
export class FileNotFoundError extends Error {
  readonly code = 'FILE_NOT_FOUND';
  readonly statusCode = 404;
  constructor() {
    super('File not found');
    this.name = 'FileNotFoundError';
  }
}
