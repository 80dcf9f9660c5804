// What the team feature asks of the crypto worker pool (docs/team-folders.md; how to call it:
// workers/team-operations.ts). The pool checks the signed chain, opens the folder's epoch keys and
// signs new versions; this thread only holds handles and the verified view the worker produced.
import type { CryptoPool } from '../../../workers/index.ts';

export type { FolderKeysHandle, MemberInput, SeenChain, TeamChange, VerifiedMember, VerifiedTeam } from '../../../workers/index.ts';

/** The pool as this feature uses it. */
export type TeamPool = Pick<CryptoPool, 'openTeam' | 'unwrapFolderFileKey' | 'shareFolder' | 'changeTeam' | 'releaseKey'>;
