// Endpoints of docs/api.md "Storage": the admin's storage at a glance (the dashboard's panel, the
// create form's defaults) and a folder's unfinished uploads with cancelling one. Cancelling gives
// the folder's room back at once, so the folder (its usage) and the overview reload.
import type { StorageOverview } from '../../contract/storage.ts';
import type { UnfinishedUploadResponse } from '../../contract/files.ts';
import { baseApi } from './baseApi.ts';

export type { StorageOverview, UnfinishedUploadResponse as UnfinishedUpload };

export interface CancelUploadRequest {
  folderId: number;
  uploadId: string;
}

const uploadsOf = (folderId: number) => ({ type: 'FolderUploads' as const, id: folderId });

export const storageApi = baseApi.enhanceEndpoints({ addTagTypes: ['Storage', 'FolderUploads', 'Folder'] }).injectEndpoints({
  endpoints: (build) => ({
    getStorageOverview: build.query<StorageOverview, void>({
      query: () => '/storage',
      providesTags: ['Storage'],
    }),
    listUnfinishedUploads: build.query<UnfinishedUploadResponse[], number>({
      query: (folderId) => `/folders/${folderId}/uploads`,
      providesTags: (_uploads, _error, folderId) => [uploadsOf(folderId)],
    }),
    cancelUnfinishedUpload: build.mutation<void, CancelUploadRequest>({
      query: ({ folderId, uploadId }) => ({ url: `/folders/${folderId}/uploads/${uploadId}`, method: 'DELETE' }),
      invalidatesTags: (_result, _error, { folderId }) => [uploadsOf(folderId), 'Storage', { type: 'Folder', id: 'LIST' }, { type: 'Folder', id: folderId }],
    }),
  }),
});

export const { useGetStorageOverviewQuery, useListUnfinishedUploadsQuery, useCancelUnfinishedUploadMutation } = storageApi;
