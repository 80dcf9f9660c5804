// The one check of what an account may do with a folder (docs/team-folders.md, roles): its owner
// may do everything, a manager edits settings, links, members and deletes files, a reader lists,
// downloads and decrypts. Every folder route asks here before it reads or writes: a folder the
// account is not a member of answers 404 like a missing one, a member whose role is too weak 403.
import { TEAM_ROLE_RANK, type TeamRole } from '../../contract/team-folders.ts';
import type { AccountFolder, FileRecord, Repositories } from '../db/repositories/index.ts';
import { FileNotFoundError } from '../files/errors.ts';
import { FolderNotFoundError, FolderRoleRequiredError } from './errors.ts';

/** Whether `role` is at least `minRole` (owner > manager > reader). */
export function hasFolderRole(role: TeamRole, minRole: TeamRole): boolean {
  return TEAM_ROLE_RANK[role] >= TEAM_ROLE_RANK[minRole];
}

/**
 * The folder with the account's role, if the account holds at least `minRole` in it. Repository
 * calls that are scoped by owner then take `folder.ownerId`: the check is made here, once.
 */
export async function requireFolderRole(repos: Repositories, userId: number, folderId: number, minRole: TeamRole): Promise<AccountFolder> {
  const folder = await repos.folders.findForAccount(userId, folderId);
  if (!folder) throw new FolderNotFoundError();
  if (!hasFolderRole(folder.myRole, minRole)) throw new FolderRoleRequiredError(minRole);
  return folder;
}

/** A file with its folder, if the account holds at least `minRole` there; 404 "File not found" for a non-member. */
export async function requireFileRole(
  repos: Repositories,
  userId: number,
  fileId: number,
  minRole: TeamRole,
): Promise<{ file: FileRecord; folder: AccountFolder }> {
  const file = await repos.files.findById(fileId);
  const folder = file && (await repos.folders.findForAccount(userId, file.folderId));
  if (!file || !folder) throw new FileNotFoundError();
  if (!hasFolderRole(folder.myRole, minRole)) throw new FolderRoleRequiredError(minRole);
  return { file, folder };
}
