// What the team feature asks of the crypto worker pool (docs/team-folders.md; the seam with
// workers/team-operations.ts). The pool checks the signed chain, opens the folder's epoch keys and
// signs new versions; this thread only holds handles and the verified view the worker produced.
import type { CryptoPool, FileKeyHandle, PrivateKeyHandle } from '../../../workers/index.ts';
import type { ChangeTeamRequest, ShareTeamRequest, TeamAnswer, TeamRole } from '../../../contract/team-folders.ts';

declare const folderKeysBrand: unique symbol;

/** The opened epoch keys of one folder, held in the pool's workers. */
export interface FolderKeysHandle {
  readonly id: string;
  readonly kind: 'folder';
  readonly [folderKeysBrand]: 'folder';
}

export interface VerifiedMember {
  userId: number;
  username: string;
  role: TeamRole;
  keyHash: string;
}

/** The member list as the worker verified it (every rule of docs/team-folders.md held). */
export interface VerifiedTeam {
  folderId: number;
  seq: number;
  firstHash: string;
  headHash: string;
  members: VerifiedMember[];
  epochs: { epoch: number; keyHash: string; createdAt: string }[];
  currentEpoch: number;
  /** Member rows the server sent that the signed list does not name. */
  unlisted: { userId: number; username: string }[];
}

/** What this browser saw of a folder's chain before (rule 6), remembered per account and folder. */
export type SeenChain = { firstHash: string; seq: number } | null;

export interface MemberInput {
  userId: number;
  username: string;
  role: TeamRole;
  publicKeySpki: string;
}

export interface TeamChange {
  add?: MemberInput[];
  remove?: number[];
  setRole?: { userId: number; role: 'manager' | 'reader' }[];
}

export interface TeamPool {
  openTeam(privateKey: PrivateKeyHandle, team: TeamAnswer, seen: SeenChain): Promise<{ team: VerifiedTeam; folderKeys: FolderKeysHandle }>;
  unwrapFolderFileKey(folderKeys: FolderKeysHandle, epoch: number, encryptedKey: string): Promise<FileKeyHandle>;
  shareFolder(
    privateKey: PrivateKeyHandle,
    input: { folderId: number; owner: MemberInput; members: MemberInput[]; files: { file_id: number; encrypted_key: string }[] },
  ): Promise<ShareTeamRequest>;
  changeTeam(privateKey: PrivateKeyHandle, folderKeys: FolderKeysHandle, team: VerifiedTeam, change: TeamChange): Promise<ChangeTeamRequest>;
}

/** The pool as this feature uses it. */
export type TeamCryptoPool = TeamPool & Pick<CryptoPool, 'unwrapFileKey'>;

/** The app's pool seen through this feature's seam (one place to adapt if the pool's names move). */
export function teamPoolOf(pool: CryptoPool): TeamCryptoPool {
  return pool as unknown as TeamCryptoPool;
}
