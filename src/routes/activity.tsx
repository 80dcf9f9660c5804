import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { Route as authenticatedRoute } from './_authenticated.tsx';
import { followsLanguage } from '../i18n/LanguageProvider.tsx';

/** Loaded when the route is first visited (or preloaded on intent), so other screens do not carry it. */
const ActivityPage = lazyRouteComponent(() => import('../features/activity/ActivityPage.tsx'), 'ActivityPage');

interface ActivitySearch {
  folder_id?: number;
}

export const Route = createRoute({
  getParentRoute: () => authenticatedRoute,
  path: 'activity',
  validateSearch: (search: Record<string, unknown>): ActivitySearch => {
    const folderId = Number(search.folder_id);
    return Number.isSafeInteger(folderId) && folderId > 0 ? { folder_id: folderId } : {};
  },
  component: followsLanguage(function ActivityRoute() {
    const { folder_id } = Route.useSearch();
    return <ActivityPage folderId={folder_id} />;
  }),
});
