// The one answer for a folder the signed-in admin may not see: 404 "Folder not found", the same for
// a folder that does not exist and one that belongs to another admin, so ids reveal nothing.
// The error handler turns any 4xx error into {detail: message}.
export class FolderNotFoundError extends Error {
  readonly code = 'FOLDER_NOT_FOUND';
  readonly statusCode = 404;
  constructor() {
    super('Folder not found');
    this.name = 'FolderNotFoundError';
  }
}
