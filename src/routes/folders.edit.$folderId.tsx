import { createRoute } from '@tanstack/react-router';
import { EditFolderPage } from '../features/folders/EditFolderPage.tsx';
import { Route as authenticatedRoute } from './_authenticated.tsx';
import { parseFolderId } from './routeParams.ts';

export const Route = createRoute({
  getParentRoute: () => authenticatedRoute,
  path: 'folders/edit/$folderId',
  params: {
    parse: ({ folderId }) => ({ folderId: parseFolderId(folderId) }),
    stringify: ({ folderId }) => ({ folderId: folderId === null ? '' : String(folderId) }),
  },
  component: function EditFolderRoute() {
    const { folderId } = Route.useParams();
    return <EditFolderPage folderId={folderId} />;
  },
});
