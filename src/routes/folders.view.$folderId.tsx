import { createRoute } from '@tanstack/react-router';
import { FolderFilesPage } from '../features/folders/FolderFilesPage.tsx';
import { Route as authenticatedRoute } from './_authenticated.tsx';
import { parseFolderId } from './routeParams.ts';

export const Route = createRoute({
  getParentRoute: () => authenticatedRoute,
  path: 'folders/view/$folderId',
  params: {
    parse: ({ folderId }) => ({ folderId: parseFolderId(folderId) }),
    stringify: ({ folderId }) => ({ folderId: folderId === null ? '' : String(folderId) }),
  },
  component: function FolderFilesRoute() {
    const { folderId } = Route.useParams();
    return <FolderFilesPage folderId={folderId} />;
  },
});
