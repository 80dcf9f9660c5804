// The answers for a folder the signed-in account may not see or may not change: 404 "Folder not
// found", the same for a folder that does not exist and one the account is neither owner nor
// member of, so ids reveal nothing; 403 FOLDER_ROLE_REQUIRED for a member whose role is too weak
// (a member knows the folder exists). The error handler answers them as {detail, code}.
import { defineHttpError } from '../errors.ts';
import { defineMessages } from '../i18n/messages.ts';

/** The details in English; the error handler answers each in the request's language (server/i18n). */
const details = defineMessages({
  FOLDER_NOT_FOUND: { id: 'server.folders.folderNotFound', defaultMessage: 'Folder not found' },
  FOLDER_ROLE_REQUIRED: {
    id: 'server.folders.roleRequired',
    defaultMessage: 'Your role in this folder does not allow this (it needs {role, select, owner {the owner} other {a {role} or the owner}})',
  },
});

export class FolderNotFoundError extends defineHttpError('FOLDER_NOT_FOUND', 404, details.FOLDER_NOT_FOUND) {}

export class FolderRoleRequiredError extends defineHttpError(
  'FOLDER_ROLE_REQUIRED',
  403,
  (role: string) => ({ message: details.FOLDER_ROLE_REQUIRED, values: { role } }),
) {}
