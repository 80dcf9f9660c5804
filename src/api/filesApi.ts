// Endpoints of docs/api.md "Files (admin)": a folder's file records and deleting files. The
// ciphertext route (GET /folders/download/{fileId}) is fetched by the service worker's streaming
// download, not through RTK Query. Deleting files or finishing a download changes the folder's
// files and the dashboard's 'New files' hint, so both are invalidated.

import type { DeleteFilesBody, DeleteFilesResponse, FileRecord } from '../../contract/files.ts';
import { baseApi } from './baseApi.ts';

// The features name the record through this module; it is declared once, in the contract.
export type { FileRecord };

/** The mutation's argument: the folder is named too, to refresh its list. */
export interface DeleteFilesRequest {
  folderId: number;
  fileIds: number[];
}

/** The admin ciphertext route of a file (headers x-encrypted-key, x-encryption-iv, x-file-size). */
export function adminFileDownloadUrl(fileId: number): string {
  return `/api/folders/download/${fileId}`;
}

const folderFiles = (folderId: number) => ({ type: 'FolderFiles' as const, id: folderId });

export const filesApi = baseApi.enhanceEndpoints({ addTagTypes: ['FolderFiles', 'Folder'] }).injectEndpoints({
  endpoints: (build) => ({
    listFolderFiles: build.query<FileRecord[], number>({
      query: (folderId) => `/folders/${folderId}/files`,
      providesTags: (_files, _error, folderId) => [folderFiles(folderId)],
    }),
    deleteFiles: build.mutation<DeleteFilesResponse, DeleteFilesRequest>({
      query: ({ fileIds }) => ({ url: '/folders/files/delete', method: 'POST', body: { file_ids: fileIds } satisfies DeleteFilesBody }),
      invalidatesTags: (_result, _error, { folderId }) => [folderFiles(folderId), { type: 'Folder', id: 'LIST' }, { type: 'Folder', id: folderId }],
    }),
  }),
});

export const { useListFolderFilesQuery, useDeleteFilesMutation } = filesApi;

/** After a finished download: last_downloaded_admin changed, and maybe the folder's 'New files' hint. */
export function filesDownloaded(folderId: number) {
  return filesApi.util.invalidateTags([folderFiles(folderId), { type: 'Folder', id: 'LIST' }, { type: 'Folder', id: folderId }]);
}
