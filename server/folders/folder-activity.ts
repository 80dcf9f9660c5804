// What happens in a folder is written to its owner's activity log (the folder's one log, read by
// every member), naming the member who acted: `by` is their username whenever the folder is a
// team folder or someone other than the owner acted. A personal folder's entries stay as before.
import type { FastifyInstance } from 'fastify';
import type { ActivityKind } from '../../contract/activity.ts';
import type { ActivityFacts } from '../activity/activity-log.ts';

export interface FolderActor {
  id: number;
  username: string;
}

export interface ActedFolder {
  id: number;
  ownerId: number;
  currentKeyEpoch?: number | null;
}

export async function recordFolderActivity(
  app: Pick<FastifyInstance, 'activity'>,
  actor: FolderActor,
  folder: ActedFolder,
  kind: ActivityKind,
  facts: Omit<ActivityFacts, 'folderId'> = {},
): Promise<void> {
  const named = actor.id !== folder.ownerId || (folder.currentKeyEpoch ?? null) !== null;
  const details = named ? { ...facts.details, by: actor.username, by_user_id: actor.id } : facts.details;
  await app.activity.record(folder.ownerId, kind, { ...facts, folderId: folder.id, ...(details ? { details } : {}) });
}
