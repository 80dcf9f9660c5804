// Endpoints of docs/api.md "Files (admin)": a folder's file records and deleting files. The
// ciphertext route (GET /folders/download/{fileId}) is fetched by the service worker's streaming
// download, not through RTK Query. Deleting files or finishing a download changes the folder's
// files and the dashboard's 'New files' hint, so both are invalidated.

import { baseApi } from './baseApi.ts';

/** Spec section 3, File record (admin), with the key data docs/api.md adds for downloads and links. */
export interface FileRecord {
  id: number;
  original_filename: string;
  /** '<upload id>/<directories>/<name>': the first segment is dropped, the middle ones are the path. */
  stored_filename: string;
  /** The directory directly ('.' for the root). */
  relative_path: string;
  /** Plaintext bytes. */
  file_size: number;
  /** SHA-256 hex of the plaintext. */
  file_hash: string;
  /** base64: the file key wrapped with the admin's public key. */
  encrypted_key: string;
  /** base64 IV of the file. */
  encryption_iv: string;
  upload_time: string;
  /** null: never downloaded by the admin. */
  last_downloaded_admin: string | null;
}

export interface DeleteFilesError {
  file_id: number;
  detail: string;
}

/** Spec section 3, Delete-files response. */
export interface DeleteFilesResponse {
  deleted: number;
  errors: DeleteFilesError[];
}

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
      query: ({ fileIds }) => ({ url: '/folders/files/delete', method: 'POST', body: { file_ids: fileIds } }),
      invalidatesTags: (_result, _error, { folderId }) => [folderFiles(folderId), { type: 'Folder', id: 'LIST' }, { type: 'Folder', id: folderId }],
    }),
  }),
});

export const { useListFolderFilesQuery, useDeleteFilesMutation } = filesApi;

/** After a finished download: last_downloaded_admin changed, and maybe the folder's 'New files' hint. */
export function filesDownloaded(folderId: number) {
  return filesApi.util.invalidateTags([folderFiles(folderId), { type: 'Folder', id: 'LIST' }, { type: 'Folder', id: folderId }]);
}
