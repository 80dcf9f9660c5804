// The public download page's texts (spec sections 2, 4, 5, 8 and 9).
import { defineMessages } from '../../i18n/defineMessages.ts';
import { t } from '../../i18n/language.ts';

const messages = defineMessages({
  title: { id: 'recipient.page.title', defaultMessage: 'Secure File Download' },
  loading: { id: 'recipient.page.loading', defaultMessage: 'Loading download details...' },
  passwordPrompt: { id: 'recipient.password.prompt', defaultMessage: 'This download is password protected.' },
  unlock: { id: 'recipient.password.unlock', defaultMessage: 'Unlock Files' },
  unlocking: { id: 'recipient.password.unlocking', defaultMessage: 'Unlocking...' },
  filesReady: { id: 'recipient.ready.filesReady', defaultMessage: 'Files ready for download:' },
  downloadAll: { id: 'recipient.ready.downloadAll', defaultMessage: 'Download All as ZIP' },
  saveAllToFolder: { id: 'recipient.ready.saveAllToFolder', defaultMessage: 'Save All to Folder...' },
  saveAllToFolderHint: {
    id: 'recipient.ready.saveAllToFolderHint',
    defaultMessage: "Saves every file, decrypted, into a folder you choose. Nothing there is overwritten: a file whose name is taken gets a number, like 'report (2).pdf'.",
  },
  savingToFolder: { id: 'recipient.ready.savingToFolder', defaultMessage: 'Saving to folder...' },
  tokenMissing: { id: 'recipient.page.tokenMissing', defaultMessage: 'Download link token is missing.' },
  keysMissing: {
    id: 'recipient.page.keysMissing',
    defaultMessage: 'Decryption keys are missing from the link. The link is incomplete or was copied incorrectly.',
  },
  keysInvalid: { id: 'recipient.page.keysInvalid', defaultMessage: 'No valid decryption keys found in the link.' },
  expired: { id: 'recipient.page.expired', defaultMessage: 'This link has expired.' },
  decryptionFailed: { id: 'recipient.password.decryptionFailed', defaultMessage: 'Decryption failed: Incorrect password or corrupted data.' },
  passwordRequired: { id: 'recipient.password.required', defaultMessage: 'Please enter the password.' },
  olderProtection: {
    id: 'recipient.password.olderProtection',
    defaultMessage: 'This link uses an older password protection: the server could weaken it unnoticed. Ask the sender for a new link if you can.',
  },
  kdfRefused: {
    id: 'recipient.password.kdfRefused',
    defaultMessage: "This link's password protection was changed on the way to you, so your password was not used and nothing was sent. Ask the sender for a new link.",
  },
  keyNotFound: { id: 'recipient.ready.keyNotFound', defaultMessage: 'Decryption key for "{file}" not found.' },
  allFailed: { id: 'recipient.zip.allFailed', defaultMessage: 'All files failed to download.' },
  someFailed: { id: 'recipient.zip.someFailed', defaultMessage: 'Download complete, but {count, plural, one {# file} other {# files}} failed.' },
  zipDone: { id: 'recipient.zip.done', defaultMessage: 'Download complete.' },
  noFiles: { id: 'recipient.zip.noFiles', defaultMessage: 'No files selected for ZIP download.' },
  noFilesLeft: { id: 'recipient.ready.noFilesLeft', defaultMessage: 'The files of this link are no longer available.' },
});

/** The download page's texts, each read in the current language when used. */
export const DOWNLOAD_PAGE_MESSAGES = {
  get title() {
    return t(messages.title);
  },
  get loading() {
    return t(messages.loading);
  },
  get passwordPrompt() {
    return t(messages.passwordPrompt);
  },
  get unlock() {
    return t(messages.unlock);
  },
  get unlocking() {
    return t(messages.unlocking);
  },
  get filesReady() {
    return t(messages.filesReady);
  },
  get downloadAll() {
    return t(messages.downloadAll);
  },
  /** Where the browser can write to a folder (File System Access API; docs/download.md). */
  get saveAllToFolder() {
    return t(messages.saveAllToFolder);
  },
  get saveAllToFolderHint() {
    return t(messages.saveAllToFolderHint);
  },
  get savingToFolder() {
    return t(messages.savingToFolder);
  },
  get tokenMissing() {
    return t(messages.tokenMissing);
  },
  get keysMissing() {
    return t(messages.keysMissing);
  },
  get keysInvalid() {
    return t(messages.keysInvalid);
  },
  get expired() {
    return t(messages.expired);
  },
  get decryptionFailed() {
    return t(messages.decryptionFailed);
  },
  get passwordRequired() {
    return t(messages.passwordRequired);
  },
  /** A password link made before links pinned their protection in the address: it still opens. */
  get olderProtection() {
    return t(messages.olderProtection);
  },
  /** The server's KDF parameters differ from the link's pin or are below the default cost: nothing was derived or sent. */
  get kdfRefused() {
    return t(messages.kdfRefused);
  },
  keyNotFound: (file: string) => t(messages.keyNotFound, { file }),
  get allFailed() {
    return t(messages.allFailed);
  },
  someFailed: (count: number) => t(messages.someFailed, { count }),
  get zipDone() {
    return t(messages.zipDone);
  },
  get noFiles() {
    return t(messages.noFiles);
  },
  get noFilesLeft() {
    return t(messages.noFilesLeft);
  },
};

/** The public ZIP's name (spec section 9). */
export const PUBLIC_ZIP_NAME = 'download-archive.zip';
