// The public download page's texts (spec sections 2, 4, 5, 8 and 9).

export const DOWNLOAD_PAGE_MESSAGES = {
  title: 'Secure File Download',
  loading: 'Loading download details...',
  passwordPrompt: 'This download is password protected.',
  unlock: 'Unlock Files',
  unlocking: 'Unlocking...',
  filesReady: 'Files ready for download:',
  downloadAll: 'Download All as ZIP',
  /** Where the browser can write to a folder (File System Access API; docs/download.md). */
  saveAllToFolder: 'Save All to Folder...',
  saveAllToFolderHint: "Saves every file, decrypted, into a folder you choose. Nothing there is overwritten: a file whose name is taken gets a number, like 'report (2).pdf'.",
  savingToFolder: 'Saving to folder...',
  tokenMissing: 'Download link token is missing.',
  keysMissing: 'Decryption keys are missing from the link. The link is incomplete or was copied incorrectly.',
  keysInvalid: 'No valid decryption keys found in the link.',
  expired: 'This link has expired.',
  decryptionFailed: 'Decryption failed: Incorrect password or corrupted data.',
  passwordRequired: 'Please enter the password.',
  /** A password link made before links pinned their protection in the address: it still opens. */
  olderProtection: 'This link uses an older password protection: the server could weaken it unnoticed. Ask the sender for a new link if you can.',
  /** The server's KDF parameters differ from the link's pin or are below the default cost: nothing was derived or sent. */
  kdfRefused: "This link's password protection was changed on the way to you, so your password was not used and nothing was sent. Ask the sender for a new link.",
  keyNotFound: (file: string) => `Decryption key for "${file}" not found.`,
  allFailed: 'All files failed to download.',
  someFailed: (count: number) => `Download complete, but ${count} ${count === 1 ? 'file' : 'files'} failed.`,
  zipDone: 'Download complete.',
  noFiles: 'No files selected for ZIP download.',
  noFilesLeft: 'The files of this link are no longer available.',
} as const;

/** The public ZIP's name (spec section 9). */
export const PUBLIC_ZIP_NAME = 'download-archive.zip';

