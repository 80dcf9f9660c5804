// The worker's refusal of a folder's signed member list (TEAM_MANIFEST_INVALID, docs/team-folders.md):
// told by its class and code (TeamManifestInvalidError crosses the worker boundary with its reason
// and the members the server listed without a signature), never by its message.
import { isTeamManifestInvalidError } from '../../../workers/index.ts';

export interface ManifestRefusal {
  reason: string;
  unlisted: { userId: number; username: string }[];
}

/** The refusal, or null when `error` is something else (network, a locked key). */
export function manifestRefusal(error: unknown): ManifestRefusal | null {
  if (!isTeamManifestInvalidError(error)) return null;
  return { reason: error.reason, unlisted: error.unlisted.map(({ userId, username }) => ({ userId, username })) };
}
