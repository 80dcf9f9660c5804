// Direct to disk where the browser has the File System Access API (docs/download.md).
export { canSaveFile, canSaveToFolder, pickDirectory, pickSaveFile } from './pickers.ts';
export { saveFileToDisk, saveFilesToFolder, type FolderSaveOutcome } from './saveToDisk.ts';
