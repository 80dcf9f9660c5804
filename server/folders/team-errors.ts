// The refusals of team folder writes and of uploads to a team folder (docs/team-folders.md,
// "Error codes"). The detail of TEAM_MANIFEST_INVALID names the rule the write broke, so a
// browser's developer (or the command line) sees why; the browser branches on the code only.
import { defineHttpError } from '../errors.ts';

export class TeamManifestInvalidError extends defineHttpError(
  'TEAM_MANIFEST_INVALID',
  400,
  (reason: string = 'it does not follow the rules') => `The folder's member list was refused: ${reason}`,
) {}

export class TeamChangedError extends defineHttpError(
  'TEAM_CHANGED',
  409,
  "The folder's members or files changed meanwhile; nothing was stored. Load the folder again and retry.",
) {}

export class TeamExistsError extends defineHttpError('TEAM_EXISTS', 409, 'This folder is shared already') {}

export class FolderKeyChangedError extends defineHttpError(
  'FOLDER_KEY_CHANGED',
  409,
  "The folder's key changed; fetch its public key again and encrypt with the new one",
) {}
