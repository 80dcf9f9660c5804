// Direct to disk where the browser has the File System Access API (docs/download.md): the save
// and folder dialogs. The download itself is startDownload's 'disk-file' or 'disk-folder'.
export { canSaveFile, canSaveToFolder, pickDirectory, pickSaveFile } from './pickers.ts';
