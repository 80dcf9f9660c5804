// The answers for a folder the signed-in account may not see or may not change: 404 "Folder not
// found", the same for a folder that does not exist and one the account is neither owner nor
// member of, so ids reveal nothing; 403 FOLDER_ROLE_REQUIRED for a member whose role is too weak
// (a member knows the folder exists). The error handler answers them as {detail, code}.
import { defineHttpError } from '../errors.ts';

export class FolderNotFoundError extends defineHttpError('FOLDER_NOT_FOUND', 404, 'Folder not found') {}

export class FolderRoleRequiredError extends defineHttpError(
  'FOLDER_ROLE_REQUIRED',
  403,
  (role: string) => `Your role in this folder does not allow this (it needs ${role === 'owner' ? 'the owner' : `a ${role} or the owner`})`,
) {}
