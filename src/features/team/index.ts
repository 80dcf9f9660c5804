// The team feature's door (docs/team-folders.md): the folder page's members section, and the one
// way the files and links features open a file's key (a personal folder's with the account key, a
// team folder's with the folder's epoch keys, opened and checked here).
export { MembersSection } from './MembersSection.tsx';
export { useFileKeyOpener, useOpenTeam } from './useTeamAccess.ts';
export { fileKeyOpener, type FileKeyOpener, type FileKeyPool, type KeyedFile } from './fileKeys.ts';
export { TeamNotOpenError } from './teamErrors.ts';
export { selectFolderTeam } from './teamSlice.ts';
