/**
 * The page's one door into workers/ (`npm run lint` refuses imports of any other module here from
 * src/): the crypto pool and its key handles, the service worker's download protocol and its
 * errors, and the dedicated worker that saves a download straight to disk. Everything else in this
 * folder is the workers' own business.
 */
export {
  CryptoPool,
  MAX_POOL_SIZE,
  TEAM_OPERATION_LIMITS,
  type TeamOperationLimits,
  type CryptoPoolOptions,
  type OpenEncryptionOptions,
  type SmallFileEncryption,
  type SsoKeyPair,
  type ApprovalRequest,
} from './pool.ts';
export { EncryptionSession } from './encryption-session.ts';
export type { SentSignature } from './sent-signature.ts';
export { WHOLE_FILE_MAX_BYTES } from './whole-file-encryption.ts';
export type {
  ApprovalRequestHandle,
  FileKeyHandle,
  FolderKeysHandle,
  HandleKind,
  KeyHandle,
  LinkFileKeyHandle,
  PrivateKeyHandle,
  FileKeysMessage,
  PasskeyKeySource,
  SsoKeySource,
} from './pool-types.ts';
/** Team folders: the pool's openTeam, unwrapFolderFileKey, shareFolder and changeTeam (how to call them: workers/team-operations.ts). */
export type { MemberInput, ShareFolderInput, TeamChange, VerifiedTeam } from './team-operations.ts';
export {
  TeamManifestInvalidError,
  isTeamManifestInvalidError,
  TEAM_MANIFEST_INVALID,
  TEAM_MANIFEST_INVALID_REASONS,
  type TeamManifestInvalidReason,
  type UnlistedMember,
  type SeenChain,
  type VerifiedMember,
  type VerifiedEpoch,
} from '../crypto/index.ts';
export {
  PLAN_MESSAGE,
  KEEPALIVE_MESSAGE,
  CLAIM_MESSAGE,
  downloadPath,
  type PlanEntry,
  type DownloadPlan,
  type KeepaliveMessage,
  type ClaimMessage,
  type ClaimReply,
  type StatusMessage,
  type ControlMessage,
} from './download-service/protocol.ts';
export { DOWNLOAD_SERVICE_MESSAGES } from './download-service/messages.ts';
export { DownloadError, isDownloadError, type DownloadErrorCode, type DownloadFailureFacts } from './download-service/downloadErrors.ts';
export { fromWireError, type WireDownloadError } from './wire-errors.ts';
/** The pool's errors arrive as crypto's CryptoError (wire-errors.ts); the app shell tells them by code. */
export { isCryptoError } from '../crypto/index.ts';
/** Whether a pre-login block is bound to an account name (scheme 3): the app shell's sign-in check. */
export { isBoundAccountKdfParams, newAccountKdfParams, PASSKEY_PRF_SALT } from '../crypto/index.ts';
export type { NewRecoveryKey } from './crypto-worker-api.ts';
/** Accounts without a password: the pool's device, recovery-key and approval calls (docs/format.md, "The private key after a single sign-on"). */
export type { DeviceApproval, RecoveryKeyText } from '../crypto/index.ts';
/** The organisation recovery policy's pool calls (docs/format.md, "The organisation recovery key"). */
export type { CreatedOrgRecoveryKey, MemberRestore, OrgKeyCopy } from './crypto-worker-api.ts';
export { DIRECT_PLAN_MESSAGE, type DirectPlan, type DirectTarget } from './download-service/direct/directProtocol.ts';
export { sanitizeName, uniqueEntryPaths } from './download-service/treePaths.ts';
export { createDirectDownloadWorker } from './download-service/direct/createDirectDownloadWorker.ts';
export { BUILD_IDENTITY_MESSAGE, isBuildIdentityReply, type BuildIdentity, type BuildIdentityReply, type BuildIdentityRequest } from './build-identity/protocol.ts';
export { settleWithin } from './deadline.ts';
