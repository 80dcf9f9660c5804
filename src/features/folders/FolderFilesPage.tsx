// The route (src/routes/folders.view.$folderId.tsx) imports the screen from here; it lives in the
// files feature.
export { FolderFilesPage } from '../files/FolderFilesPage.tsx';
