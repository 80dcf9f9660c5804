import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { Route as authenticatedRoute } from './_authenticated.tsx';
import { parseFolderId } from './routeParams.ts';
import { followsLanguage } from '../i18n/LanguageProvider.tsx';

/** Loaded when the route is first visited (or preloaded on intent), so other screens do not carry it. */
const EditFolderPage = lazyRouteComponent(() => import('../features/folders/EditFolderPage.tsx'), 'EditFolderPage');

export const Route = createRoute({
  getParentRoute: () => authenticatedRoute,
  path: 'folders/edit/$folderId',
  params: {
    parse: ({ folderId }) => ({ folderId: parseFolderId(folderId) }),
    stringify: ({ folderId }) => ({ folderId: folderId === null ? '' : String(folderId) }),
  },
  component: followsLanguage(function EditFolderRoute() {
    const { folderId } = Route.useParams();
    return <EditFolderPage folderId={folderId} />;
  }),
});
