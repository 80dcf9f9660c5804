// The key epoch an upload sealed its file keys to (docs/team-folders.md, "Operations"): a team
// folder's uploads name its current epoch (tus metadata and the multipart batch field `key_epoch`),
// a personal folder's name none. An upload naming another epoch than the folder's current one is
// refused FOLDER_KEY_CHANGED at creation, so the page fetches the new public key and seals again:
// after a member's removal, nothing new is sealed to a key the removed member holds.
import { KEY_EPOCH_TEXT_PATTERN } from '../../contract/team-folders.ts';
import type { Repositories } from '../db/repositories/index.ts';
import { FolderKeyChangedError } from '../folders/team-errors.ts';

/** The epoch as sent (text): a number, null when absent or empty, or undefined when malformed. */
export function parseKeyEpoch(text: string | undefined): number | null | undefined {
  if (text === undefined || text === '') return null;
  return KEY_EPOCH_TEXT_PATTERN.test(text) ? Number(text) : undefined;
}

/** Throws FOLDER_KEY_CHANGED unless `sent` is the folder's current epoch (null for a personal folder). */
export async function requireCurrentKeyEpoch(repos: Repositories, folderId: number, sent: number | null): Promise<void> {
  const current = await repos.teamFolders.currentEpoch(folderId);
  if ((current?.epoch ?? null) !== sent) throw new FolderKeyChangedError();
}
