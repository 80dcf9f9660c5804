// The admin files screen's texts (spec sections 2, 5 and 8) and how it writes sizes and durations.
import { defineMessages } from '../../i18n/defineMessages.ts';
import { currentIntl, t } from '../../i18n/language.ts';

const messages = defineMessages({
  notAuthenticated: { id: 'files.page.notAuthenticated', defaultMessage: 'Not authenticated.' },
  loading: { id: 'files.page.loading', defaultMessage: 'Loading folder contents...' },
  folderEmpty: { id: 'files.list.folderEmpty', defaultMessage: 'This folder is empty.' },
  filterEmpty: { id: 'files.list.filterEmpty', defaultMessage: "No files match the 'Never Downloaded' filter." },
  directoryEmpty: { id: 'files.tree.directoryEmpty', defaultMessage: 'Empty' },
  duplicate: { id: 'files.tree.duplicate', defaultMessage: '(Dup)', description: 'A short mark beside a file whose content another file has too' },
  noSelection: { id: 'files.download.noSelection', defaultMessage: 'No files selected for ZIP download.' },
  deleteNoSelection: { id: 'files.delete.noSelection', defaultMessage: 'Select the files to delete first.' },
  deleteConfirm: { id: 'files.delete.confirm', defaultMessage: '{count, plural, other {Are you sure you want to delete # files?}}' },
  deletePartial: { id: 'files.delete.partial', defaultMessage: '{count, plural, other {Failed to delete # file(s). See console for details.}}' },
  deleteNone: { id: 'files.delete.none', defaultMessage: 'Failed to delete any of the selected files.' },
  deleted: { id: 'files.delete.done', defaultMessage: '{count, plural, one {# file deleted.} other {# files deleted.}}' },
  downloadFailed: { id: 'files.download.failed', defaultMessage: 'Download failed: {message}' },
  downloadCancelled: { id: 'files.download.cancelled', defaultMessage: 'Download cancelled.' },
  downloadDone: { id: 'files.download.done', defaultMessage: 'Downloaded {name}.' },
  saveChoiceTitle: { id: 'files.saveChoice.title', defaultMessage: '{count, plural, other {Download # files}}' },
  saveToFolder: { id: 'files.saveChoice.saveToFolder', defaultMessage: 'Save to Folder...' },
  saveToFolderDetail: {
    id: 'files.saveChoice.saveToFolderDetail',
    defaultMessage:
      "Choose a folder: the files are decrypted straight into it, with their subfolders. Nothing there is overwritten: a file whose name is taken gets a number, like 'report (2).pdf'.",
  },
  downloadZip: { id: 'files.saveChoice.downloadZip', defaultMessage: 'Download as ZIP' },
  downloadZipDetail: { id: 'files.saveChoice.downloadZipDetail', defaultMessage: 'One archive, {zipName}, saved by your browser like any download.' },
  savedToFolder: { id: 'files.download.savedToFolder', defaultMessage: 'Saved {count, plural, one {# file} other {# files}} to "{folder}".' },
  directoryNoMatch: { id: 'files.download.directoryNoMatch', defaultMessage: "No files in \"{directory}\" match the 'Never Downloaded' filter." },
  exportStarted: {
    id: 'files.export.started',
    defaultMessage: 'Exporting {count, plural, one {# file} other {# files}} encrypted: your browser saves the ZIP (ciphertext and manifest).',
  },
  exportTooMany: {
    id: 'files.export.tooMany',
    defaultMessage: '{count} files selected: an encrypted export takes at most {max} selected files, or the whole folder with nothing selected.',
  },
  lessThanASecond: { id: 'files.duration.lessThanASecond', defaultMessage: 'less than a second' },
  seconds: { id: 'files.duration.seconds', defaultMessage: '{seconds} s' },
  minutes: { id: 'files.duration.minutes', defaultMessage: '{minutes} min {seconds} s' },
  hours: { id: 'files.duration.hours', defaultMessage: '{hours} h {minutes} min' },
});

/** The files screen's texts, each read in the current language when used. */
export const FILES_MESSAGES = {
  get notAuthenticated() {
    return t(messages.notAuthenticated);
  },
  get loading() {
    return t(messages.loading);
  },
  get folderEmpty() {
    return t(messages.folderEmpty);
  },
  get filterEmpty() {
    return t(messages.filterEmpty);
  },
  get directoryEmpty() {
    return t(messages.directoryEmpty);
  },
  get duplicate() {
    return t(messages.duplicate);
  },
  get noSelection() {
    return t(messages.noSelection);
  },
  get deleteNoSelection() {
    return t(messages.deleteNoSelection);
  },
  deleteConfirm: (count: number) => t(messages.deleteConfirm, { count }),
  deletePartial: (count: number) => t(messages.deletePartial, { count }),
  get deleteNone() {
    return t(messages.deleteNone);
  },
  deleted: (count: number) => t(messages.deleted, { count }),
  downloadFailed: (message: string) => t(messages.downloadFailed, { message }),
  get downloadCancelled() {
    return t(messages.downloadCancelled);
  },
  downloadDone: (name: string) => t(messages.downloadDone, { name }),
  /** Where the File System Access API lets several files be saved as a folder (docs/download.md). */
  saveChoiceTitle: (count: number) => t(messages.saveChoiceTitle, { count }),
  get saveToFolder() {
    return t(messages.saveToFolder);
  },
  get saveToFolderDetail() {
    return t(messages.saveToFolderDetail);
  },
  get downloadZip() {
    return t(messages.downloadZip);
  },
  downloadZipDetail: (zipName: string) => t(messages.downloadZipDetail, { zipName }),
  savedToFolder: (count: number, folder: string) => t(messages.savedToFolder, { count, folder }),
  directoryNoMatch: (directory: string) => t(messages.directoryNoMatch, { directory }),
  exportStarted: (count: number) => t(messages.exportStarted, { count }),
  exportTooMany: (count: number, max: number) => t(messages.exportTooMany, { count, max }),
};

/** Spec section 2: sizes in KB with one decimal (the number in the page's language: 1.5 KB, German 1,5 KB). */
export function formatSizeKb(bytes: number): string {
  return `${currentIntl().formatNumber(bytes / 1024, { minimumFractionDigits: 1, maximumFractionDigits: 1, useGrouping: false })} KB`;
}

export function formatDuration(seconds: number): string {
  if (seconds < 1) return t(messages.lessThanASecond);
  if (seconds < 60) return t(messages.seconds, { seconds: Math.round(seconds) });
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return t(messages.minutes, { minutes, seconds: Math.round(seconds % 60) });
  return t(messages.hours, { hours: Math.floor(minutes / 60), minutes: minutes % 60 });
}
