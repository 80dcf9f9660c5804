// The texts of the admin's download links (spec section 2 and 5): the create dialog, 'Download Link
// Ready', the 'Active Download Links' list. The messages shared with validation live in
// src/lib/userTexts/links.ts (CREATE_LINK_MESSAGES).
import { defineMessages } from '../../i18n/defineMessages.ts';

export const LINK_MESSAGES = defineMessages({
  createButton: { id: 'links.create.button', defaultMessage: 'Create Download Link...' },
  dialogTitle: { id: 'links.create.title', defaultMessage: 'Create Download Link' },
  formLabel: { id: 'links.create.formLabel', defaultMessage: 'Create download link' },
  summaryOne: { id: 'links.create.summaryOne', defaultMessage: 'The link will share "{name}".' },
  summaryMany: {
    id: 'links.create.summaryMany',
    defaultMessage: 'The link will share {count, plural, one {# file} other {# files}}: {names}.',
    description: 'names: up to three quoted file names (links.create.quotedName), comma-separated',
  },
  summaryManyMore: {
    id: 'links.create.summaryManyMore',
    defaultMessage: 'The link will share {count, plural, one {# file} other {# files}}: {names} and {more} more.',
    description: 'names: the first three quoted file names (links.create.quotedName), comma-separated; more: how many are not named',
  },
  quotedName: { id: 'links.create.quotedName', defaultMessage: '"{name}"', description: 'A file name in quotation marks, in a list of names' },
  protect: { id: 'links.create.protect', defaultMessage: 'Protect with a password' },
  protectHint: { id: 'links.create.protectHint', defaultMessage: 'The recipient enters this password to unlock the files. It never leaves your browser.' },
  protectOffHint: {
    id: 'links.create.protectOffHint',
    defaultMessage: 'The decryption keys travel inside the link itself: anyone holding the full link can download.',
  },
  password: { id: 'links.create.password', defaultMessage: 'Link password' },
  passwordHint: { id: 'links.create.passwordHint', defaultMessage: 'Suggested for you; you may type your own.' },
  newPassword: { id: 'links.create.newPassword', defaultMessage: 'New password' },
  confirmPassword: { id: 'links.create.confirmPassword', defaultMessage: 'Confirm link password' },
  expires: { id: 'links.create.expires', defaultMessage: 'Link expires' },
  expiresHint: { id: 'links.create.expiresHint', defaultMessage: 'After this date and time (your local time) the link stops working.' },
  expiresOffHint: { id: 'links.create.expiresOffHint', defaultMessage: 'The link works until you delete it.' },
  limitDownloads: { id: 'links.create.limitDownloads', defaultMessage: 'Limit downloads' },
  limitHint: {
    id: 'links.create.limitHint',
    defaultMessage:
      'Each file can be downloaded this many times, once per recipient browser (resuming is free). Downloading all files as one ZIP counts once for each file. After that the link answers as expired.',
  },
  limitOffHint: { id: 'links.create.limitOffHint', defaultMessage: 'Files can be downloaded any number of times.' },
  downloadsPerFile: { id: 'links.create.downloadsPerFile', defaultMessage: 'Downloads per file' },
  cancel: { id: 'links.create.cancel', defaultMessage: 'Cancel' },
  creating: { id: 'links.create.creating', defaultMessage: 'Creating...' },
  submit: { id: 'links.create.submit', defaultMessage: 'Create Link' },

  readyTitle: { id: 'links.ready.title', defaultMessage: 'Download Link Ready' },
  readyKeysInLink: {
    id: 'links.ready.keysInLink',
    defaultMessage:
      'This link carries the decryption keys after its "#". The keys are not stored anywhere else: copy the full link now. Copy Link in the list below gives only the address without them.',
  },
  readyNoKeys: { id: 'links.ready.noKeys', defaultMessage: 'Send this link to the recipient. It holds no keys: the files open only with the password.' },
  readyLink: { id: 'links.ready.link', defaultMessage: 'Download link' },
  readyCopy: { id: 'links.ready.copy', defaultMessage: 'Copy' },
  readyCopyLink: { id: 'links.ready.copyLink', defaultMessage: 'Copy download link' },
  readyCopyLinkFailed: { id: 'links.ready.copyLinkFailed', defaultMessage: 'Failed to copy link to clipboard.' },
  readyPassword: { id: 'links.ready.password', defaultMessage: 'Link password' },
  readyCopyPassword: { id: 'links.ready.copyPassword', defaultMessage: 'Copy link password' },
  readyCopyPasswordFailed: { id: 'links.ready.copyPasswordFailed', defaultMessage: 'Failed to copy password.' },
  readyClose: { id: 'links.ready.close', defaultMessage: 'Close' },

  listTitle: { id: 'links.list.title', defaultMessage: 'Active Download Links' },
  listLabel: { id: 'links.list.label', defaultMessage: 'Active download links' },
  listError: { id: 'links.list.error', defaultMessage: 'Error: {message}' },
  deleted: { id: 'links.list.deleted', defaultMessage: 'Download link deleted.' },
  deleteTitle: { id: 'links.list.deleteTitle', defaultMessage: 'Delete download link' },

  itemLabel: { id: 'links.item.label', defaultMessage: 'Download link created {created}', description: 'created: date and time' },
  field: { id: 'links.item.field', defaultMessage: '{label}:', description: 'A field name before its value: "Erstellt: 11/25/2026, 2:03:06 AM"' },
  downloadLimit: { id: 'links.item.downloadLimit', defaultMessage: 'Download limit' },
  sharedFiles: { id: 'links.item.sharedFiles', defaultMessage: 'Shared files' },
  fileDownloads: { id: 'links.item.fileDownloads', defaultMessage: '({downloads})', description: 'After a file name: how often it was downloaded' },
  keysHint: {
    id: 'links.item.keysHint',
    defaultMessage: "Copy Link gives the address without the decryption keys; share the full link from 'Download Link Ready'.",
  },
  copyLink: { id: 'links.item.copyLink', defaultMessage: 'Copy Link' },
  copyLinkFailed: { id: 'links.item.copyLinkFailed', defaultMessage: 'Failed to copy link to clipboard.' },
  delete: { id: 'links.item.delete', defaultMessage: 'Delete' },

  created: { id: 'links.display.created', defaultMessage: 'Erstellt', description: "German in the English app too: the spec's label" },
  validUntil: { id: 'links.display.validUntil', defaultMessage: 'Gültig bis', description: "German in the English app too: the spec's label" },
  passwordProtected: { id: 'links.display.passwordProtected', defaultMessage: 'Password Protected' },
  public: { id: 'links.display.public', defaultMessage: 'Public (No Password)' },
  loading: { id: 'links.display.loading', defaultMessage: 'Loading links...' },
  empty: { id: 'links.display.empty', defaultMessage: 'No active download links for this folder.' },
  limitReached: { id: 'links.display.limitReached', defaultMessage: 'Download limit reached' },
  notDownloaded: { id: 'links.display.notDownloaded', defaultMessage: 'not downloaded yet' },
  downloads: { id: 'links.display.downloads', defaultMessage: '{count, plural, one {# download} other {# downloads}}' },
  downloadsOfLimit: { id: 'links.display.downloadsOfLimit', defaultMessage: '{count} of {limit} downloads' },
  lastDownload: {
    id: 'links.display.lastDownload',
    defaultMessage: '{downloads}, last {date}',
    description: 'downloads: links.display.downloads or links.display.downloadsOfLimit; date: date and time of the last download',
  },
  fileCount: { id: 'links.display.fileCount', defaultMessage: '{count, plural, one {# file} other {# files}}' },
  perFileLimit: { id: 'links.display.downloadsPerFile', defaultMessage: '{count, plural, one {# download per file} other {# downloads per file}}' },
});
