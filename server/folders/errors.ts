// The one answer for a folder the signed-in admin may not see: 404 "Folder not found", the same for
// a folder that does not exist and one that belongs to another admin, so ids reveal nothing.
// The error handler answers it as {detail, code}.
import { defineHttpError } from '../errors.ts';

export class FolderNotFoundError extends defineHttpError('FOLDER_NOT_FOUND', 404, 'Folder not found') {}
