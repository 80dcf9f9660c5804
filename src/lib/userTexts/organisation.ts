// Texts of the features for organisations: the activity log, upload notifications, webhooks.
import type { ActivityKind } from '../../../contract/activity.ts';
import { defineMessages } from '../../i18n/defineMessages.ts';
import { t, textsOf } from '../../i18n/language.ts';
import { withTexts } from './withTexts.ts';

const kinds = defineMessages({
  signInSucceeded: { id: 'organisation.activity.kind.signInSucceeded', defaultMessage: 'Signed in' },
  signInFailed: { id: 'organisation.activity.kind.signInFailed', defaultMessage: 'Sign-in failed (wrong password)' },
  signInSecondFactorFailed: { id: 'organisation.activity.kind.signInSecondFactorFailed', defaultMessage: 'Sign-in failed (wrong 2FA code)' },
  publicKeyStored: { id: 'organisation.activity.kind.publicKeyStored', defaultMessage: 'Public key stored' },
  privateKeyStored: { id: 'organisation.activity.kind.privateKeyStored', defaultMessage: 'Encrypted private key stored' },
  passwordChanged: { id: 'organisation.activity.kind.passwordChanged', defaultMessage: 'Login password changed' },
  profileUpdated: { id: 'organisation.activity.kind.profileUpdated', defaultMessage: 'Profile changed' },
  twoFactorEnabled: { id: 'organisation.activity.kind.twoFactorEnabled', defaultMessage: 'Two-factor sign-in turned on' },
  twoFactorDisabled: { id: 'organisation.activity.kind.twoFactorDisabled', defaultMessage: 'Two-factor sign-in turned off' },
  passkeyAdded: { id: 'organisation.activity.kind.passkeyAdded', defaultMessage: 'Passkey added' },
  passkeyRenamed: { id: 'organisation.activity.kind.passkeyRenamed', defaultMessage: 'Passkey renamed' },
  passkeyRemoved: { id: 'organisation.activity.kind.passkeyRemoved', defaultMessage: 'Passkey removed' },
  passkeyFailed: { id: 'organisation.activity.kind.passkeyFailed', defaultMessage: 'Passkey refused' },
  folderCreated: { id: 'organisation.activity.kind.folderCreated', defaultMessage: 'Folder created' },
  folderUpdated: { id: 'organisation.activity.kind.folderUpdated', defaultMessage: 'Folder changed' },
  folderDeleted: { id: 'organisation.activity.kind.folderDeleted', defaultMessage: 'Folder deleted' },
  folderExpired: { id: 'organisation.activity.kind.folderExpired', defaultMessage: 'Folder expired (upload link closed)' },
  filesUploaded: { id: 'organisation.activity.kind.filesUploaded', defaultMessage: 'Files uploaded' },
  fileDownloaded: { id: 'organisation.activity.kind.fileDownloaded', defaultMessage: 'File downloaded by you' },
  filesDeleted: { id: 'organisation.activity.kind.filesDeleted', defaultMessage: 'Files deleted' },
  filesRetentionDeleted: { id: 'organisation.activity.kind.filesRetentionDeleted', defaultMessage: 'Files deleted by retention' },
  linkCreated: { id: 'organisation.activity.kind.linkCreated', defaultMessage: 'Download link created' },
  linkDeleted: { id: 'organisation.activity.kind.linkDeleted', defaultMessage: 'Download link deleted' },
  linkDownloaded: { id: 'organisation.activity.kind.linkDownloaded', defaultMessage: 'File downloaded through a link' },
  activityPruned: { id: 'organisation.activity.kind.activityPruned', defaultMessage: 'Older entries removed (retention)' },
  accountJoined: { id: 'organisation.activity.kind.accountJoined', defaultMessage: 'Account created from an invitation' },
  memberInvited: { id: 'organisation.activity.kind.memberInvited', defaultMessage: 'Person invited to the organisation' },
  memberDisabled: { id: 'organisation.activity.kind.memberDisabled', defaultMessage: 'Account disabled' },
  memberEnabled: { id: 'organisation.activity.kind.memberEnabled', defaultMessage: 'Account enabled again' },
  teamShared: { id: 'organisation.activity.kind.teamShared', defaultMessage: 'Folder shared with a team' },
  teamChanged: { id: 'organisation.activity.kind.teamChanged', defaultMessage: 'Folder members changed' },
  orgRecoveryEnabled: { id: 'organisation.activity.kind.orgRecoveryEnabled', defaultMessage: 'Organisation recovery turned on (admins can restore access)' },
  orgRecoveryDisabled: { id: 'organisation.activity.kind.orgRecoveryDisabled', defaultMessage: 'Organisation recovery turned off (all copies deleted)' },
  orgRecoveryAdminCopyGranted: { id: 'organisation.activity.kind.orgRecoveryAdminCopyGranted', defaultMessage: 'Organisation key given to another admin' },
  orgRecoveryCopyStored: { id: 'organisation.activity.kind.orgRecoveryCopyStored', defaultMessage: 'Your key stored for organisation recovery' },
  orgRecoveryRestored: { id: 'organisation.activity.kind.orgRecoveryRestored', defaultMessage: 'Access restored by an organisation admin' },
  memberAccessRestored: { id: 'organisation.activity.kind.memberAccessRestored', defaultMessage: "A member's access restored by you" },
});

export const ACTIVITY_LABELS: Readonly<Record<ActivityKind, string>> = textsOf({
  'sign_in.succeeded': kinds.signInSucceeded,
  'sign_in.failed': kinds.signInFailed,
  'sign_in.second_factor_failed': kinds.signInSecondFactorFailed,
  'public_key.stored': kinds.publicKeyStored,
  'private_key.stored': kinds.privateKeyStored,
  'password.changed': kinds.passwordChanged,
  'profile.updated': kinds.profileUpdated,
  'two_factor.enabled': kinds.twoFactorEnabled,
  'two_factor.disabled': kinds.twoFactorDisabled,
  'passkey.added': kinds.passkeyAdded,
  'passkey.renamed': kinds.passkeyRenamed,
  'passkey.removed': kinds.passkeyRemoved,
  'passkey.failed': kinds.passkeyFailed,
  'folder.created': kinds.folderCreated,
  'folder.updated': kinds.folderUpdated,
  'folder.deleted': kinds.folderDeleted,
  'folder.expired': kinds.folderExpired,
  'files.uploaded': kinds.filesUploaded,
  'file.downloaded': kinds.fileDownloaded,
  'files.deleted': kinds.filesDeleted,
  'files.retention_deleted': kinds.filesRetentionDeleted,
  'link.created': kinds.linkCreated,
  'link.deleted': kinds.linkDeleted,
  'link.downloaded': kinds.linkDownloaded,
  'activity.pruned': kinds.activityPruned,
  'account.joined': kinds.accountJoined,
  'member.invited': kinds.memberInvited,
  'member.disabled': kinds.memberDisabled,
  'member.enabled': kinds.memberEnabled,
  'team.shared': kinds.teamShared,
  'team.changed': kinds.teamChanged,
  'org_recovery.enabled': kinds.orgRecoveryEnabled,
  'org_recovery.disabled': kinds.orgRecoveryDisabled,
  'org_recovery.admin_copy_granted': kinds.orgRecoveryAdminCopyGranted,
  'org_recovery.copy_stored': kinds.orgRecoveryCopyStored,
  'org_recovery.restored': kinds.orgRecoveryRestored,
  'member.access_restored': kinds.memberAccessRestored,
} satisfies Record<ActivityKind, unknown>);

const activity = defineMessages({
  title: { id: 'organisation.activity.title', defaultMessage: 'Activity' },
  subtitle: {
    id: 'organisation.activity.subtitle',
    defaultMessage: 'Everything that happened in your account, newest first. Each entry is chained to the one before, so a changed or removed entry shows.',
  },
  folderTitle: { id: 'organisation.activity.folderTitle', defaultMessage: 'Folder activity' },
  empty: { id: 'organisation.activity.empty', defaultMessage: 'No activity yet.' },
  loadOlder: { id: 'organisation.activity.loadOlder', defaultMessage: 'Load older entries' },
  viewAll: { id: 'organisation.activity.viewAll', defaultMessage: 'View all activity' },
  chainOk: { id: 'organisation.activity.chainOk', defaultMessage: 'Chain verified: {entries} entries intact', description: 'entries: how many log entries were checked' },
  chainBroken: { id: 'organisation.activity.chainBroken', defaultMessage: 'Chain broken at entry {seq}: the log was changed outside the app', description: 'seq: the number of the first entry that does not fit the chain' },
  exportCsv: { id: 'organisation.activity.exportCsv', defaultMessage: 'Export CSV' },
  exportJson: { id: 'organisation.activity.exportJson', defaultMessage: 'Export JSON' },
});

export const ACTIVITY_TEXTS = withTexts(
  textsOf({
    title: activity.title,
    subtitle: activity.subtitle,
    folderTitle: activity.folderTitle,
    empty: activity.empty,
    loadOlder: activity.loadOlder,
    viewAll: activity.viewAll,
    exportCsv: activity.exportCsv,
    exportJson: activity.exportJson,
  }),
  {
    chainOk: (entries: number) => t(activity.chainOk, { entries }),
    // An entry's number names it: no thousands separator.
    chainBroken: (seq: number) => t(activity.chainBroken, { seq: String(seq) }),
  },
);

const notifications = defineMessages({
  title: { id: 'organisation.notifications.title', defaultMessage: 'Upload notifications' },
  off: { id: 'organisation.notifications.off', defaultMessage: 'Off' },
  each: { id: 'organisation.notifications.each', defaultMessage: 'An e-mail for each upload (sent once the uploader has been quiet for a few minutes)' },
  digest: { id: 'organisation.notifications.digest', defaultMessage: 'A daily summary' },
  includeNames: { id: 'organisation.notifications.includeNames', defaultMessage: 'Include file names and paths in the e-mail' },
  includeNamesHint: { id: 'organisation.notifications.includeNamesHint', defaultMessage: 'Names are metadata: leave this off if they should not sit in a mailbox.' },
  noAddress: { id: 'organisation.notifications.noAddress', defaultMessage: 'Add an e-mail address in your profile to receive upload notifications.' },
  saved: { id: 'organisation.notifications.saved', defaultMessage: 'Notification settings saved.' },
  save: { id: 'organisation.notifications.save', defaultMessage: 'Save Notifications' },
});

export const NOTIFICATION_TEXTS = textsOf(notifications);

const webhooks = defineMessages({
  title: { id: 'organisation.webhooks.title', defaultMessage: 'Webhooks' },
  description: {
    id: 'organisation.webhooks.description',
    defaultMessage:
      'Send signed events (uploads, links, downloads through links, deletions) to your own system. Each request carries a Sealdrop-Signature header made with the signing secret.',
  },
  url: { id: 'organisation.webhooks.url', defaultMessage: 'Webhook URL' },
  save: { id: 'organisation.webhooks.save', defaultMessage: 'Save Webhook' },
  remove: { id: 'organisation.webhooks.remove', defaultMessage: 'Remove Webhook' },
  secret: { id: 'organisation.webhooks.secret', defaultMessage: 'Signing secret' },
  newSecret: { id: 'organisation.webhooks.newSecret', defaultMessage: 'New Secret' },
  test: { id: 'organisation.webhooks.test', defaultMessage: 'Send Test Event' },
  testQueued: { id: 'organisation.webhooks.testQueued', defaultMessage: 'Test event queued.' },
  saved: { id: 'organisation.webhooks.saved', defaultMessage: 'Webhook saved.' },
  removed: { id: 'organisation.webhooks.removed', defaultMessage: 'Webhook removed.' },
  deliveries: { id: 'organisation.webhooks.deliveries', defaultMessage: 'Recent deliveries' },
  noDeliveries: { id: 'organisation.webhooks.noDeliveries', defaultMessage: 'No deliveries yet.' },
});

export const WEBHOOK_TEXTS = textsOf(webhooks);

const settings = defineMessages({
  title: { id: 'organisation.activity.setting.title', defaultMessage: 'title' },
  description: { id: 'organisation.activity.setting.description', defaultMessage: 'description' },
  linkPassword: { id: 'organisation.activity.setting.linkPassword', defaultMessage: 'link password' },
  requireEmailVerification: { id: 'organisation.activity.setting.requireEmailVerification', defaultMessage: 'e-mail verification' },
  allowedEmails: { id: 'organisation.activity.setting.allowedEmails', defaultMessage: 'allowed e-mail addresses' },
  performMimeCheck: { id: 'organisation.activity.setting.performMimeCheck', defaultMessage: 'content check' },
  isActive: { id: 'organisation.activity.setting.isActive', defaultMessage: 'active' },
  expirationDate: { id: 'organisation.activity.setting.expirationDate', defaultMessage: 'expiry' },
  storageLimitBytes: { id: 'organisation.activity.setting.storageLimitBytes', defaultMessage: 'storage limit' },
  fileLimit: { id: 'organisation.activity.setting.fileLimit', defaultMessage: 'file limit' },
  retentionDays: { id: 'organisation.activity.setting.retentionDays', defaultMessage: 'automatic deletion' },
  username: { id: 'organisation.activity.setting.username', defaultMessage: 'username' },
  email: { id: 'organisation.activity.setting.email', defaultMessage: 'e-mail' },
});

/** The settings an activity entry says were changed (a folder's, a profile's), as the screens name them. */
export const CHANGED_SETTING_LABELS: Readonly<Record<string, string>> = textsOf(settings);
