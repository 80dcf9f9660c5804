// The public download page's own texts: its screens and the per-file button. The texts the rest
// of the app shares live in src/lib/userTexts/recipient.ts.
import { defineMessages } from '../../i18n/defineMessages.ts';

export const pageMessages = defineMessages({
  decryptedHere: { id: 'recipient.page.decryptedHere', defaultMessage: 'Files are decrypted in your browser; the server never sees their content.' },
  error: { id: 'recipient.page.error', defaultMessage: 'Error: {message}' },
  unlockForm: { id: 'recipient.password.form', defaultMessage: 'Unlock files' },
  password: { id: 'recipient.password.field', defaultMessage: 'Password' },
  sharedFiles: { id: 'recipient.ready.sharedFiles', defaultMessage: 'Shared files' },
  fileButton: { id: 'recipient.ready.fileButton', defaultMessage: '{label} {name}', description: "The per-file button's accessible name: its label (Download, Done!...), then the file's name" },
  sizeAndPercent: { id: 'recipient.ready.sizeAndPercent', defaultMessage: '{size} · {percent}%', description: 'A file being downloaded: its size and how far it is' },
  fileProgress: { id: 'recipient.ready.fileProgress', defaultMessage: 'Progress of {name}' },
  preparingZip: { id: 'recipient.ready.preparingZip', defaultMessage: 'Preparing ZIP...' },
  batchPercent: { id: 'recipient.ready.batchPercent', defaultMessage: '{label} {percent}%', description: "A running ZIP or folder save: its label ('Preparing ZIP...') and how far it is" },
  folderProgress: { id: 'recipient.ready.folderProgress', defaultMessage: 'Progress of saving to the folder' },
  zipProgress: { id: 'recipient.ready.zipProgress', defaultMessage: 'Progress of the ZIP download' },
});

/** The per-file button (fileButtonState.ts). */
export const fileButtonMessages = defineMessages({
  idle: { id: 'recipient.fileButton.download', defaultMessage: 'Download' },
  starting: { id: 'recipient.fileButton.starting', defaultMessage: 'Starting...' },
  downloading: { id: 'recipient.fileButton.downloading', defaultMessage: 'Downloading...' },
  decrypting: { id: 'recipient.fileButton.decrypting', defaultMessage: 'Decrypting...' },
  done: { id: 'recipient.fileButton.done', defaultMessage: 'Done!' },
  failed: { id: 'recipient.fileButton.failed', defaultMessage: 'Failed' },
});
