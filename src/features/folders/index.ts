// What other features use from the folders feature: a folder's status (dashboard) and the
// invalid-id screen (files).
export { folderStatus, type FolderStatus } from './folderStatus.ts';
export { InvalidFolderId } from './InvalidFolderId.tsx';
