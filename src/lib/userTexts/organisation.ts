// Texts of the features for organisations: the activity log, upload notifications, webhooks.
import type { ActivityKind } from '../../../contract/activity.ts';

export const ACTIVITY_LABELS: Record<ActivityKind, string> = {
  'sign_in.succeeded': 'Signed in',
  'sign_in.failed': 'Sign-in failed (wrong password)',
  'sign_in.second_factor_failed': 'Sign-in failed (wrong 2FA code)',
  'public_key.stored': 'Public key stored',
  'private_key.stored': 'Encrypted private key stored',
  'password.changed': 'Login password changed',
  'profile.updated': 'Profile changed',
  'two_factor.enabled': 'Two-factor sign-in turned on',
  'two_factor.disabled': 'Two-factor sign-in turned off',
  'passkey.added': 'Passkey added',
  'passkey.renamed': 'Passkey renamed',
  'passkey.removed': 'Passkey removed',
  'passkey.failed': 'Passkey refused',
  'folder.created': 'Folder created',
  'folder.updated': 'Folder changed',
  'folder.deleted': 'Folder deleted',
  'folder.expired': 'Folder expired (upload link closed)',
  'files.uploaded': 'Files uploaded',
  'file.downloaded': 'File downloaded by you',
  'files.deleted': 'Files deleted',
  'files.retention_deleted': 'Files deleted by retention',
  'link.created': 'Download link created',
  'link.deleted': 'Download link deleted',
  'link.downloaded': 'File downloaded through a link',
  'activity.pruned': 'Older entries removed (retention)',
  'account.joined': 'Account created from an invitation',
  'member.invited': 'Person invited to the organisation',
  'member.disabled': 'Account disabled',
  'member.enabled': 'Account enabled again',
  'team.shared': 'Folder shared with a team',
  'team.changed': 'Folder members changed',
};

export const ACTIVITY_TEXTS = {
  title: 'Activity',
  subtitle: 'Everything that happened in your account, newest first. Each entry is chained to the one before, so a changed or removed entry shows.',
  folderTitle: 'Folder activity',
  empty: 'No activity yet.',
  loadOlder: 'Load older entries',
  viewAll: 'View all activity',
  chainOk: (entries: number) => `Chain verified: ${entries} entries intact`,
  chainBroken: (seq: number) => `Chain broken at entry ${seq}: the log was changed outside the app`,
  exportCsv: 'Export CSV',
  exportJson: 'Export JSON',
} as const;

export const NOTIFICATION_TEXTS = {
  title: 'Upload notifications',
  off: 'Off',
  each: 'An e-mail for each upload (sent once the uploader has been quiet for a few minutes)',
  digest: 'A daily summary',
  includeNames: 'Include file names and paths in the e-mail',
  includeNamesHint: 'Names are metadata: leave this off if they should not sit in a mailbox.',
  noAddress: 'Add an e-mail address in your profile to receive upload notifications.',
  saved: 'Notification settings saved.',
  save: 'Save Notifications',
} as const;

export const WEBHOOK_TEXTS = {
  title: 'Webhooks',
  description:
    'Send signed events (uploads, links, downloads through links, deletions) to your own system. Each request carries a Sealdrop-Signature header made with the signing secret.',
  url: 'Webhook URL',
  save: 'Save Webhook',
  remove: 'Remove Webhook',
  secret: 'Signing secret',
  newSecret: 'New Secret',
  test: 'Send Test Event',
  testQueued: 'Test event queued.',
  saved: 'Webhook saved.',
  removed: 'Webhook removed.',
  deliveries: 'Recent deliveries',
  noDeliveries: 'No deliveries yet.',
} as const;

/** The settings an activity entry says were changed (a folder's, a profile's), as the screens name them. */
export const CHANGED_SETTING_LABELS: Readonly<Record<string, string>> = {
  title: 'title',
  description: 'description',
  linkPassword: 'link password',
  requireEmailVerification: 'e-mail verification',
  allowedEmails: 'allowed e-mail addresses',
  performMimeCheck: 'content check',
  isActive: 'active',
  expirationDate: 'expiry',
  storageLimitBytes: 'storage limit',
  fileLimit: 'file limit',
  retentionDays: 'automatic deletion',
  username: 'username',
  email: 'e-mail',
};
