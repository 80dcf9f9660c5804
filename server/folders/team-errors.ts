// The refusals of team folder writes and of uploads to a team folder (docs/team-folders.md,
// "Error codes"). The detail of TEAM_MANIFEST_INVALID names the rule the write broke, so a
// browser's developer (or the command line) sees why; the browser branches on the code only.
import { defineHttpError } from '../errors.ts';
import { defineMessages } from '../i18n/messages.ts';

/** The details in English; the error handler answers each in the request's language (server/i18n). */
const details = defineMessages({
  TEAM_MANIFEST_INVALID: { id: 'server.team.manifestInvalid', defaultMessage: "The folder's member list was refused: {reason}", description: 'reason: a technical reason, in English' },
  TEAM_EXISTS: { id: 'server.team.teamExists', defaultMessage: 'This folder is shared already' },
  TEAM_CHANGED: { id: 'server.team.teamChanged', defaultMessage: "The folder's members or files changed meanwhile; nothing was stored. Load the folder again and retry." },
  FOLDER_KEY_CHANGED: { id: 'server.team.folderKeyChanged', defaultMessage: "The folder's key changed; fetch its public key again and encrypt with the new one" },
});

export class TeamManifestInvalidError extends defineHttpError(
  'TEAM_MANIFEST_INVALID',
  400,
  (reason: string = 'it does not follow the rules') => ({ message: details.TEAM_MANIFEST_INVALID, values: { reason } }),
) {}

export class TeamChangedError extends defineHttpError(
  'TEAM_CHANGED',
  409,
  details.TEAM_CHANGED,
) {}

export class TeamExistsError extends defineHttpError('TEAM_EXISTS', 409, details.TEAM_EXISTS) {}

export class FolderKeyChangedError extends defineHttpError(
  'FOLDER_KEY_CHANGED',
  409,
  details.FOLDER_KEY_CHANGED,
) {}
