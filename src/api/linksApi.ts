// Endpoints of docs/api.md "Download links": the admin's (create, list a folder's active links,
// delete) and the recipient's (status, verify-password). The ciphertext route is fetched by the
// streaming download service, not through RTK Query. A folder's link list is tagged by folder id,
// so creating or deleting a link refreshes the 'Active Download Links' section.

import type {
  CreateLinkBody,
  CreateLinkResponse,
  DownloadLink,
  DownloadLinkStatus,
  SharedFile,
  VerifyLinkPasswordBody,
  VerifyLinkPasswordResponse,
} from '../../contract/download-links.ts';
import { baseApi } from './baseApi.ts';

// The features name these through this module; they are declared once, in the contract.
export type { DownloadLink, SharedFile, CreateLinkBody as CreateDownloadLinkRequest };

export interface VerifyLinkPasswordRequest {
  linkToken: string;
  /** The verifier derived from the password. */
  verifier: string;
}

interface CreateDownloadLinkArgs {
  folderId: number;
  body: CreateLinkBody;
}

interface DeleteDownloadLinkArgs {
  folderId: number;
  linkToken: string;
}

const folderLinks = (folderId: number) => ({ type: 'DownloadLink' as const, id: `folder-${folderId}` });

export const linksApi = baseApi.enhanceEndpoints({ addTagTypes: ['DownloadLink'] }).injectEndpoints({
  endpoints: (build) => ({
    listFolderLinks: build.query<DownloadLink[], number>({
      query: (folderId) => `/download/links/folder/${folderId}`,
      providesTags: (_links, _error, folderId) => [folderLinks(folderId)],
    }),
    createDownloadLink: build.mutation<CreateLinkResponse, CreateDownloadLinkArgs>({
      query: ({ body }) => ({ url: '/download/links', method: 'POST', body }),
      invalidatesTags: (_result, _error, { folderId }) => [folderLinks(folderId)],
    }),
    deleteDownloadLink: build.mutation<void, DeleteDownloadLinkArgs>({
      // The spec's path parameter reads "id"; the admin screen identifies a link by its token.
      query: ({ linkToken }) => ({ url: `/download/links/${encodeURIComponent(linkToken)}`, method: 'DELETE' }),
      invalidatesTags: (_result, _error, { folderId }) => [folderLinks(folderId)],
    }),
    getDownloadLinkStatus: build.query<DownloadLinkStatus, string>({
      query: (linkToken) => `/download/${encodeURIComponent(linkToken)}/status`,
      // A recipient's page must see a deleted or expired link at once, never a cached answer.
      keepUnusedDataFor: 0,
    }),
    verifyDownloadLinkPassword: build.mutation<VerifyLinkPasswordResponse, VerifyLinkPasswordRequest>({
      query: ({ linkToken, verifier }) => ({
        url: `/download/${encodeURIComponent(linkToken)}/verify-password`,
        method: 'POST',
        body: { password: verifier } satisfies VerifyLinkPasswordBody,
      }),
    }),
  }),
});

export const {
  useListFolderLinksQuery,
  useCreateDownloadLinkMutation,
  useDeleteDownloadLinkMutation,
  useGetDownloadLinkStatusQuery,
  useVerifyDownloadLinkPasswordMutation,
} = linksApi;

