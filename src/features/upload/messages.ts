// The upload page's own texts: its screens (gates, drop area, queue, progress, unfinished uploads),
// the sizes and times it shows, the files it refuses, and the receipt it saves. The texts the rest
// of the app shares live in src/lib/userTexts/upload.ts.
import { defineMessages } from '../../i18n/defineMessages.ts';

export const pageMessages = defineMessages({
  titleForLink: { id: 'upload.page.titleForLink', defaultMessage: 'Upload Files for "{title}"' },
  title: { id: 'upload.page.title', defaultMessage: 'Secure File Upload' },
  encrypted: { id: 'upload.page.encrypted', defaultMessage: 'Your files are end-to-end encrypted.' },
  loading: { id: 'upload.page.loading', defaultMessage: 'Loading upload link...' },
});

export const gateMessages = defineMessages({
  sending: { id: 'upload.gate.sending', defaultMessage: 'Sending...' },
  passwordLabel: { id: 'upload.passwordGate.label', defaultMessage: 'Link password' },
  passwordIntro: { id: 'upload.passwordGate.intro', defaultMessage: 'This upload link is protected. Enter the password you were given to continue.' },
  passwordContinue: { id: 'upload.passwordGate.continue', defaultMessage: 'Continue' },
  passwordChecking: { id: 'upload.passwordGate.checking', defaultMessage: 'Checking...' },
  emailLabel: { id: 'upload.emailGate.label', defaultMessage: 'E-mail verification' },
  emailIntro: { id: 'upload.emailGate.intro', defaultMessage: 'Confirm your e-mail address: we will send you a 6-digit code to enter on the next step.' },
  emailField: { id: 'upload.emailGate.field', defaultMessage: 'Your e-mail address' },
  sendCode: { id: 'upload.emailGate.sendCode', defaultMessage: 'Send Code' },
  codeLabel: { id: 'upload.codeGate.label', defaultMessage: 'Verification code' },
  codeIntro: {
    id: 'upload.codeGate.intro',
    defaultMessage: 'We sent a 6-digit code to <b>{email}</b>. It is valid for 10 minutes.',
    description: '<b> marks the address in bold',
  },
  verifyCode: { id: 'upload.codeGate.verify', defaultMessage: 'Verify Code' },
  verifying: { id: 'upload.codeGate.verifying', defaultMessage: 'Verifying...' },
  changeEmail: { id: 'upload.codeGate.changeEmail', defaultMessage: 'Go Back (Change Email)' },
  resendCode: { id: 'upload.codeGate.resend', defaultMessage: 'Resend Code' },
});

export const dropMessages = defineMessages({
  paused: { id: 'upload.drop.paused', defaultMessage: 'Adding files is paused while the upload runs' },
  dropHere: { id: 'upload.drop.dropHere', defaultMessage: 'Drag and drop files or folders here' },
  limits: { id: 'upload.drop.limits', defaultMessage: 'Folders keep their structure. Up to 5120 MB per file.' },
  selectFiles: { id: 'upload.drop.selectFiles', defaultMessage: 'Select Files' },
  selectFolder: { id: 'upload.drop.selectFolder', defaultMessage: 'Select Folder' },
});

export const workspaceMessages = defineMessages({
  filesHeading: { id: 'upload.workspace.filesHeading', defaultMessage: 'Files ({count})' },
  pending: { id: 'upload.workspace.pending', defaultMessage: '{count} pending' },
  inProgress: { id: 'upload.workspace.inProgress', defaultMessage: '{count} in progress' },
  uploaded: { id: 'upload.workspace.uploaded', defaultMessage: '{count} uploaded' },
  failed: { id: 'upload.workspace.failed', defaultMessage: '{count} failed' },
  preparing: { id: 'upload.workspace.preparing', defaultMessage: 'Preparing...' },
  uploading: { id: 'upload.workspace.uploading', defaultMessage: 'Uploading...' },
  uploadCount: { id: 'upload.workspace.uploadCount', defaultMessage: 'Upload {count, plural, one {# file} other {# files}}' },
  uploadFiles: { id: 'upload.workspace.uploadFiles', defaultMessage: 'Upload Files' },
  retryFailed: { id: 'upload.workspace.retryFailed', defaultMessage: 'Retry Failed ({count})' },
  downloadReceipt: { id: 'upload.workspace.downloadReceipt', defaultMessage: 'Download Receipt' },
});

export const progressMessages = defineMessages({
  region: { id: 'upload.progress.region', defaultMessage: 'Overall progress' },
  percent: { id: 'upload.progress.percent', defaultMessage: 'Encrypting and uploading: {percent}%' },
  filesDone: { id: 'upload.progress.filesDone', defaultMessage: '{done} of {total} files done' },
  bar: { id: 'upload.progress.bar', defaultMessage: 'Overall upload progress' },
});

export const queueMessages = defineMessages({
  list: { id: 'upload.queue.list', defaultMessage: 'Files to upload' },
  pending: { id: 'upload.status.pending', defaultMessage: 'Pending' },
  hashing: { id: 'upload.status.hashing', defaultMessage: 'Hashing' },
  encrypting: { id: 'upload.status.encrypting', defaultMessage: 'Encrypting' },
  uploading: { id: 'upload.status.uploading', defaultMessage: 'Uploading' },
  uploadingPercent: { id: 'upload.status.uploadingPercent', defaultMessage: 'Uploading {percent}%' },
  success: { id: 'upload.status.uploaded', defaultMessage: 'Uploaded' },
  error: { id: 'upload.status.failed', defaultMessage: 'Failed' },
  offline: { id: 'upload.queue.offline', defaultMessage: 'Connection lost: continuing automatically when it is back' },
  retryTooltip: { id: 'upload.queue.retryTooltip', defaultMessage: 'Retry this file' },
  retryFile: { id: 'upload.queue.retryFile', defaultMessage: 'Retry {name}' },
  removeTooltip: { id: 'upload.queue.removeTooltip', defaultMessage: 'Remove from the list' },
  removeFile: { id: 'upload.queue.removeFile', defaultMessage: 'Remove {name}' },
  fileProgress: { id: 'upload.queue.fileProgress', defaultMessage: 'Progress of {name}' },
});

export const unfinishedMessages = defineMessages({
  region: { id: 'upload.unfinished.region', defaultMessage: 'Unfinished uploads' },
  title: { id: 'upload.unfinished.title', defaultMessage: 'Unfinished uploads ({count})' },
  continueHint: {
    id: 'upload.unfinished.continueHint',
    defaultMessage:
      'Press Continue Upload to carry on where they stopped, without sending again what is already stored (the browser may ask you to allow reading the files again), or select the same files or folder again and press Upload.',
  },
  reselectHint: {
    id: 'upload.unfinished.reselectHint',
    defaultMessage: 'Select the same files or folder again and press Upload: they continue where they stopped, without sending again what is already stored.',
  },
  delivered: {
    id: 'upload.unfinished.delivered',
    defaultMessage: '{count, plural, one {# file} other {# files}} of that upload arrived before the interruption and will not be sent again.',
  },
  opening: { id: 'upload.unfinished.opening', defaultMessage: 'Opening files...' },
  continueUpload: { id: 'upload.unfinished.continueUpload', defaultMessage: 'Continue Upload' },
  files: { id: 'upload.unfinished.files', defaultMessage: 'Unfinished files' },
  discard: { id: 'upload.unfinished.discard', defaultMessage: 'Discard' },
  stored: { id: 'upload.unfinished.stored', defaultMessage: '{stored} of {total} stored' },
  selectedAgain: { id: 'upload.unfinished.selectedAgain', defaultMessage: 'selected again: continues when you press Upload' },
  changedSince: { id: 'upload.unfinished.changedSince', defaultMessage: 'changed since: will be sent again from the start' },
  denied: { id: 'upload.unfinished.denied', defaultMessage: 'the browser did not allow reading it again: select it again' },
  missing: { id: 'upload.unfinished.missing', defaultMessage: 'no longer found where it was: select it again' },
  changed: { id: 'upload.unfinished.changed', defaultMessage: 'changed since: select it again (it will be sent from the start)' },
});

export const transferMessages = defineMessages({
  sentOfTotal: { id: 'upload.transfer.sentOfTotal', defaultMessage: '{sent} of {total}' },
  secondsLeft: { id: 'upload.transfer.secondsLeft', defaultMessage: '{seconds} s left' },
  minutesLeft: { id: 'upload.transfer.minutesLeft', defaultMessage: '{minutes} min {seconds} s left' },
  hoursLeft: { id: 'upload.transfer.hoursLeft', defaultMessage: '{hours} h {minutes} min left' },
});

export const selectionMessages = defineMessages({
  tooManyFiles: { id: 'upload.selection.tooManyFiles', defaultMessage: 'Too many files' },
  andMore: { id: 'upload.selection.andMore', defaultMessage: 'and {count} more' },
  tooLarge: { id: 'upload.selection.tooLarge', defaultMessage: 'Files too large (max {max} MB): {files}' },
  otherRejected: { id: 'upload.selection.otherRejected', defaultMessage: 'Other rejected files: {files}' },
});

export const processingMessages = defineMessages({
  encryptionFailed: { id: 'upload.processing.encryptionFailed', defaultMessage: 'Encryption failed: {reason}' },
  hashingFailed: { id: 'upload.processing.hashingFailed', defaultMessage: 'Hashing failed' },
});

/** A file whose first bytes do not fit its extension (contentSignature.ts); `kind` is one of signatureKinds. */
export const signatureMessages = defineMessages({
  mismatch: {
    id: 'upload.signature.mismatch',
    defaultMessage: 'File content does not match its type: a .{extension} file should be {kind}.',
    description: 'kind: what such a file should be, e.g. "a PDF document"',
  },
});

export const signatureKinds = defineMessages({
  png: { id: 'upload.signature.png', defaultMessage: 'a PNG image' },
  jpeg: { id: 'upload.signature.jpeg', defaultMessage: 'a JPEG image' },
  gif: { id: 'upload.signature.gif', defaultMessage: 'a GIF image' },
  webp: { id: 'upload.signature.webp', defaultMessage: 'a WebP image' },
  bmp: { id: 'upload.signature.bmp', defaultMessage: 'a BMP image' },
  tiff: { id: 'upload.signature.tiff', defaultMessage: 'a TIFF image' },
  ico: { id: 'upload.signature.ico', defaultMessage: 'an icon' },
  psd: { id: 'upload.signature.psd', defaultMessage: 'a Photoshop document' },
  pdf: { id: 'upload.signature.pdf', defaultMessage: 'a PDF document' },
  rtf: { id: 'upload.signature.rtf', defaultMessage: 'an RTF document' },
  zip: { id: 'upload.signature.zip', defaultMessage: 'a ZIP archive' },
  ole: { id: 'upload.signature.ole', defaultMessage: 'a legacy Microsoft Office document' },
  gzip: { id: 'upload.signature.gzip', defaultMessage: 'a gzip archive' },
  bzip2: { id: 'upload.signature.bzip2', defaultMessage: 'a bzip2 archive' },
  xz: { id: 'upload.signature.xz', defaultMessage: 'an xz archive' },
  sevenZip: { id: 'upload.signature.sevenZip', defaultMessage: 'a 7-Zip archive' },
  rar: { id: 'upload.signature.rar', defaultMessage: 'a RAR archive' },
  isoBmff: { id: 'upload.signature.isoBmff', defaultMessage: 'an MP4/QuickTime/HEIF file' },
  quicktime: { id: 'upload.signature.quicktime', defaultMessage: 'a QuickTime movie' },
  mp3: { id: 'upload.signature.mp3', defaultMessage: 'an MP3 file' },
  wav: { id: 'upload.signature.wav', defaultMessage: 'a WAV file' },
  avi: { id: 'upload.signature.avi', defaultMessage: 'an AVI file' },
  ogg: { id: 'upload.signature.ogg', defaultMessage: 'an Ogg file' },
  flac: { id: 'upload.signature.flac', defaultMessage: 'a FLAC file' },
  matroska: { id: 'upload.signature.matroska', defaultMessage: 'a Matroska/WebM file' },
  exe: { id: 'upload.signature.exe', defaultMessage: 'a Windows executable' },
  wasm: { id: 'upload.signature.wasm', defaultMessage: 'a WebAssembly module' },
});

/** The receipt the uploader saves (receipt.ts), a plain-text file. */
export const receiptMessages = defineMessages({
  heading: { id: 'upload.receipt.heading', defaultMessage: 'Upload Receipt (cumulative for this session)' },
  folder: { id: 'upload.receipt.folder', defaultMessage: 'Folder: {title}' },
  generatedOn: { id: 'upload.receipt.generatedOn', defaultMessage: 'Generated on: {date}' },
  total: { id: 'upload.receipt.total', defaultMessage: 'Total files: {count}' },
});
