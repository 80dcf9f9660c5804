// The admin files screen's texts (spec sections 2, 5 and 8) and how it writes sizes and durations.

export const FILES_MESSAGES = {
  notAuthenticated: 'Not authenticated.',
  loading: 'Loading folder contents...',
  folderEmpty: 'This folder is empty.',
  filterEmpty: "No files match the 'Never Downloaded' filter.",
  directoryEmpty: 'Empty',
  duplicate: '(Dup)',
  noSelection: 'No files selected for ZIP download.',
  deleteNoSelection: 'Select the files to delete first.',
  deleteConfirm: (count: number) => `Are you sure you want to delete ${count} files?`,
  deletePartial: (count: number) => `Failed to delete ${count} file(s). See console for details.`,
  deleteNone: 'Failed to delete any of the selected files.',
  deleted: (count: number) => (count === 1 ? '1 file deleted.' : `${count} files deleted.`),
  downloadFailed: (message: string) => `Download failed: ${message}`,
  downloadCancelled: 'Download cancelled.',
  downloadDone: (name: string) => `Downloaded ${name}.`,
  /** Where the File System Access API lets several files be saved as a folder (docs/download.md). */
  saveChoiceTitle: (count: number) => `Download ${count} files`,
  saveToFolder: 'Save to Folder...',
  saveToFolderDetail: "Choose a folder: the files are decrypted straight into it, with their subfolders. Nothing there is overwritten: a file whose name is taken gets a number, like 'report (2).pdf'.",
  downloadZip: 'Download as ZIP',
  downloadZipDetail: (zipName: string) => `One archive, ${zipName}, saved by your browser like any download.`,
  savedToFolder: (count: number, folder: string) => `Saved ${count === 1 ? '1 file' : `${count} files`} to "${folder}".`,
  directoryNoMatch: (directory: string) => `No files in "${directory}" match the 'Never Downloaded' filter.`,
  exportStarted: (count: number) =>
    `Exporting ${count === 1 ? '1 file' : `${count} files`} encrypted: your browser saves the ZIP (ciphertext and manifest).`,
  exportTooMany: (count: number, max: number) =>
    `${count} files selected: an encrypted export takes at most ${max} selected files, or the whole folder with nothing selected.`,
} as const;

/** Spec section 2: sizes in KB with one decimal. */
export function formatSizeKb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`;
}

export function formatDuration(seconds: number): string {
  if (seconds < 1) return 'less than a second';
  if (seconds < 60) return `${Math.round(seconds)} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${Math.round(seconds % 60)} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}
