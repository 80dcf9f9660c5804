import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { Route as authenticatedRoute } from './_authenticated.tsx';
import { parseFolderId } from './routeParams.ts';
import { followsLanguage } from '../i18n/LanguageProvider.tsx';

/** Loaded when the route is first visited (or preloaded on intent), so other screens do not carry it. */
const FolderFilesPage = lazyRouteComponent(() => import('../features/files/FolderFilesPage.tsx'), 'FolderFilesPage');

export const Route = createRoute({
  getParentRoute: () => authenticatedRoute,
  path: 'folders/view/$folderId',
  params: {
    parse: ({ folderId }) => ({ folderId: parseFolderId(folderId) }),
    stringify: ({ folderId }) => ({ folderId: folderId === null ? '' : String(folderId) }),
  },
  component: followsLanguage(function FolderFilesRoute() {
    const { folderId } = Route.useParams();
    return <FolderFilesPage folderId={folderId} />;
  }),
});
