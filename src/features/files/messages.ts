// The admin files screen's own texts: its page, toolbar, tree, download progress and dialogs. The
// texts the rest of the app shares live in src/lib/userTexts/files.ts.
import { defineMessages } from '../../i18n/defineMessages.ts';

export const pageMessages = defineMessages({
  title: { id: 'files.page.title', defaultMessage: 'Files in Folder' },
  titleWithFolder: { id: 'files.page.titleWithFolder', defaultMessage: 'Files in Folder: {title}' },
  summary: { id: 'files.page.summary', defaultMessage: '{count, plural, one {# file} other {# files}} · {size}' },
  error: { id: 'files.page.error', defaultMessage: 'Error: {message}' },
  region: { id: 'files.page.region', defaultMessage: 'Files of {title}' },
});

export const toolbarMessages = defineMessages({
  toolbar: { id: 'files.toolbar.label', defaultMessage: 'File actions' },
  selectAll: { id: 'files.toolbar.selectAll', defaultMessage: 'Select all files' },
  selectedCount: { id: 'files.toolbar.selectedCount', defaultMessage: '{selected} / {total} selected' },
  showAll: { id: 'files.toolbar.showAll', defaultMessage: 'Show All' },
  neverDownloaded: { id: 'files.toolbar.neverDownloaded', defaultMessage: 'Never Downloaded' },
  downloadSelected: { id: 'files.toolbar.downloadSelected', defaultMessage: 'Download Selected' },
  downloadAll: { id: 'files.toolbar.downloadAll', defaultMessage: 'Download All ({count})' },
  deleteSelected: { id: 'files.toolbar.deleteSelected', defaultMessage: 'Delete Selected' },
  exportTitle: {
    id: 'files.toolbar.exportTitle',
    defaultMessage: 'Download the stored encrypted files with a manifest, for recovery without the server. No key is needed.',
  },
  exportSelected: { id: 'files.toolbar.exportSelected', defaultMessage: 'Export Encrypted ({count} selected)' },
  export: { id: 'files.toolbar.export', defaultMessage: 'Export Encrypted' },
});

export const treeMessages = defineMessages({
  table: { id: 'files.tree.table', defaultMessage: 'Files' },
  name: { id: 'files.tree.name', defaultMessage: 'Name' },
  uploaded: { id: 'files.tree.uploaded', defaultMessage: 'Uploaded' },
  lastDownloaded: { id: 'files.tree.lastDownloaded', defaultMessage: 'Last Downloaded' },
  size: { id: 'files.tree.size', defaultMessage: 'Size' },
  action: { id: 'files.tree.action', defaultMessage: 'Action' },
  download: { id: 'files.tree.download', defaultMessage: 'Download' },
  fileCount: { id: 'files.tree.fileCount', defaultMessage: '{count, plural, one {# file} other {# files}}' },
  matchingCount: { id: 'files.tree.matchingCount', defaultMessage: '{matching} of {count, plural, one {# file} other {# files}}' },
  selectFolder: { id: 'files.tree.selectFolder', defaultMessage: 'Select folder {path}' },
  expand: { id: 'files.tree.expand', defaultMessage: 'Expand {path}' },
  collapse: { id: 'files.tree.collapse', defaultMessage: 'Collapse {path}' },
  downloadFolder: { id: 'files.tree.downloadFolder', defaultMessage: 'Download folder {path}' },
  selectFile: { id: 'files.tree.selectFile', defaultMessage: 'Select {path}' },
  downloadFile: { id: 'files.tree.downloadFile', defaultMessage: 'Download {name}' },
  duplicateHint: { id: 'files.tree.duplicateHint', defaultMessage: 'Another uploaded file has exactly the same content' },
  compactDate: { id: 'files.tree.compactDate', defaultMessage: '{label}: {date}', description: "A date under a file's name on a phone: the column's name, then the date" },
});

export const progressMessages = defineMessages({
  region: { id: 'files.progress.region', defaultMessage: 'Download progress' },
  downloading: { id: 'files.progress.downloading', defaultMessage: 'Downloading {label}', description: 'label: a file name, a ZIP name, or files.progress.toFolder' },
  toFolder: { id: 'files.progress.toFolder', defaultMessage: 'to "{folder}"', description: 'What is downloaded when the files go into a folder the user picked' },
  fileCount: { id: 'files.progress.fileCount', defaultMessage: '({count} files)' },
  percent: { id: 'files.progress.percent', defaultMessage: '{percent}%' },
  preparing: { id: 'files.progress.preparing', defaultMessage: 'Preparing: unlocking the file keys and starting the download...' },
  sentOfTotal: { id: 'files.progress.sentOfTotal', defaultMessage: '{sent} of {total}' },
  timeLeft: { id: 'files.progress.timeLeft', defaultMessage: '{duration} left' },
  cancel: { id: 'files.progress.cancel', defaultMessage: 'Cancel' },
});

export const dialogMessages = defineMessages({
  deleteTitle: { id: 'files.delete.title', defaultMessage: 'Delete files' },
  cancel: { id: 'files.saveChoice.cancel', defaultMessage: 'Cancel' },
});
