import { createRoute } from '@tanstack/react-router';
import { CreateFolderPage } from '../features/folders/CreateFolderPage.tsx';
import { Route as authenticatedRoute } from './_authenticated.tsx';

export const Route = createRoute({
  getParentRoute: () => authenticatedRoute,
  path: 'folders/new',
  component: CreateFolderPage,
});
