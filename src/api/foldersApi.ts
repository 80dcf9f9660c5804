// Endpoints of docs/api.md "Folders". Tags keep the dashboard and the edit screen fresh: creating,
// updating or deleting a folder invalidates the list (every sort order) and that folder's details.

import type { Folder, FolderListQuery, FolderPayload } from '../../contract/folders.ts';
import type { NotificationSettings } from '../../contract/notifications.ts';
import { baseApi } from './baseApi.ts';

export interface FolderUpdateRequest {
  id: number;
  payload: FolderPayload;
}

const LIST = { type: 'Folder', id: 'LIST' } as const;

export interface NotificationSettingsUpdate {
  folderId: number;
  settings: NotificationSettings;
}

export const foldersApi = baseApi.enhanceEndpoints({ addTagTypes: ['Folder', 'FolderNotifications'] }).injectEndpoints({
  endpoints: (build) => ({
    listFolders: build.query<Folder[], FolderListQuery>({
      query: ({ sort_by, sort_order }) => ({ url: '/folders/', params: { sort_by, sort_order } }),
      providesTags: (folders) => [LIST, ...(folders ?? []).map((folder) => ({ type: 'Folder' as const, id: folder.id }))],
    }),
    getFolder: build.query<Folder, number>({
      query: (id) => `/folders/${id}`,
      providesTags: (_folder, _error, id) => [{ type: 'Folder', id }],
    }),
    createFolder: build.mutation<Folder, FolderPayload>({
      query: (body) => ({ url: '/folders/', method: 'POST', body }),
      invalidatesTags: [LIST],
    }),
    updateFolder: build.mutation<Folder, FolderUpdateRequest>({
      query: ({ id, payload }) => ({ url: `/folders/${id}`, method: 'PUT', body: payload }),
      invalidatesTags: (_folder, _error, { id }) => [LIST, { type: 'Folder', id }],
    }),
    getFolderNotifications: build.query<NotificationSettings, number>({
      query: (id) => `/folders/${id}/notifications`,
      providesTags: (_settings, _error, id) => [{ type: 'FolderNotifications', id }],
    }),
    saveFolderNotifications: build.mutation<NotificationSettings, NotificationSettingsUpdate>({
      query: ({ folderId, settings }) => ({ url: `/folders/${folderId}/notifications`, method: 'PUT', body: settings }),
      invalidatesTags: (_settings, _error, { folderId }) => [{ type: 'FolderNotifications', id: folderId }],
    }),
    deleteFolder: build.mutation<void, number>({
      query: (id) => ({ url: `/folders/${id}`, method: 'DELETE' }),
      invalidatesTags: (_result, _error, id) => [LIST, { type: 'Folder', id }],
    }),
  }),
});

export const {
  useListFoldersQuery,
  useGetFolderQuery,
  useCreateFolderMutation,
  useUpdateFolderMutation,
  useDeleteFolderMutation,
  useGetFolderNotificationsQuery,
  useSaveFolderNotificationsMutation,
} = foldersApi;
