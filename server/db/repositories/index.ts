// Every repository, built over one Kysely instance. Repositories are the only code that runs SQL.
import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import { createActivityLogRepository } from './activity-log.ts';
import { createDiskSpaceClaimsRepository } from './disk-space-claims.ts';
import { createDownloadLinkGrantsRepository, createDownloadLinksRepository } from './download-links.ts';
import { createFailureCountersRepository } from './failure-counters.ts';
import { createFilesRepository } from './files.ts';
import { createFolderUsageRepository } from './folder-usage.ts';
import { createFoldersRepository } from './folders.ts';
import { createHealthRepository } from './health.ts';
import { createInvitationsRepository } from './invitations.ts';
import { createPasskeyChallengesRepository } from './passkey-challenges.ts';
import { createPasskeysRepository } from './passkeys.ts';
import { createPendingLoginsRepository } from './pending-logins.ts';
import { createServerSecretsRepository } from './server-secrets.ts';
import { createOldSchemeSignInRepository } from './old-scheme-sign-in.ts';
import { createOrgRecoveryRepository } from './org-recovery.ts';
import { createSessionsRepository } from './sessions.ts';
import { createDeviceApprovalsRepository } from './device-approvals.ts';
import { createSsoIdentitiesRepository } from './sso-identities.ts';
import { createTrustedDevicesRepository } from './trusted-devices.ts';
import { createTaskLeasesRepository } from './task-leases.ts';
import { createTeamFoldersRepository } from './team-folders.ts';
import { createTotpStepsRepository } from './totp-steps.ts';
import { createUploadBatchesRepository } from './upload-batches.ts';
import { createUploadGrantsRepository } from './upload-grants.ts';
import { createUploadNotificationsRepository } from './upload-notifications.ts';
import { createUploadSessionsRepository } from './upload-sessions.ts';
import { createUsersRepository } from './users.ts';
import { createVerificationCodesRepository } from './verification-codes.ts';
import { createWebhooksRepository } from './webhooks.ts';

export function createRepositories(db: Kysely<Database>) {
  return {
    users: createUsersRepository(db),
    invitations: createInvitationsRepository(db),
    serverSecrets: createServerSecretsRepository(db),
    oldSchemeSignIn: createOldSchemeSignInRepository(db),
    sessions: createSessionsRepository(db),
    totpSteps: createTotpStepsRepository(db),
    failureCounters: createFailureCountersRepository(db),
    pendingLogins: createPendingLoginsRepository(db),
    passkeys: createPasskeysRepository(db),
    passkeyChallenges: createPasskeyChallengesRepository(db),
    ssoIdentities: createSsoIdentitiesRepository(db),
    trustedDevices: createTrustedDevicesRepository(db),
    deviceApprovals: createDeviceApprovalsRepository(db),
    orgRecovery: createOrgRecoveryRepository(db),
    folders: createFoldersRepository(db),
    teamFolders: createTeamFoldersRepository(db),
    files: createFilesRepository(db),
    folderUsage: createFolderUsageRepository(db),
    diskSpaceClaims: createDiskSpaceClaimsRepository(db),
    downloadLinks: createDownloadLinksRepository(db),
    downloadLinkGrants: createDownloadLinkGrantsRepository(db),
    uploadGrants: createUploadGrantsRepository(db),
    verificationCodes: createVerificationCodesRepository(db),
    uploadSessions: createUploadSessionsRepository(db),
    taskLeases: createTaskLeasesRepository(db),
    uploadNotifications: createUploadNotificationsRepository(db),
    webhooks: createWebhooksRepository(db),
    activityLog: createActivityLogRepository(db),
    uploadBatches: createUploadBatchesRepository(db),
    health: createHealthRepository(db),
  };
}

export type Repositories = ReturnType<typeof createRepositories>;
export type { AccountListing, LoginSecret, LoginUpgradeOutcome, RewrappedKeyData, SignInCandidate, User } from './users.ts';
export type { AcceptOutcome, Invitation, InvitationRefusal } from './invitations.ts';
export { invitationRefusal } from './invitations.ts';
export type { Session } from './sessions.ts';
export type { StoredPasskey } from './passkeys.ts';
export type { TrustedDevice } from './trusted-devices.ts';
export type { DeviceApproval } from './device-approvals.ts';
export type { OrgRecoveryKey, OrgRecoveryOverview } from './org-recovery.ts';
export type { PasskeyChallengePurpose } from './passkey-challenges.ts';
export { UsernameTakenError } from './users.ts';
export type { AccountFolder, Folder, FolderChanges, FolderSort, FolderSortKey, NewFolder, SortOrder } from './folders.ts';
export { FOLDER_SORT_KEYS } from './folders.ts';
export type { ExpiredFile, FileRecord, NewFileRecord } from './files.ts';
export { KeyEpochChangedError } from './files.ts';
export type { Usage } from './folder-usage.ts';
export type { DownloadLink, DownloadLinkWithFiles, LinkedFile, NewDownloadLink } from './download-links.ts';
export type { UploadGrant } from './upload-grants.ts';
export type { VerificationCode } from './verification-codes.ts';
export type { UploadSession, NewUploadSession } from './upload-sessions.ts';
export type { UploadLinkFolder } from './folders.ts';
export type { NotificationSettings, UploadEvent } from './upload-notifications.ts';
export type { WebhookDelivery, WebhookEndpoint } from './webhooks.ts';
export type { ActivityFilter } from './activity-log.ts';
export type { KeyEpoch, StoredManifest, TeamMemberRow } from './team-folders.ts';
