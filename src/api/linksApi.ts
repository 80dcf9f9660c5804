// Endpoints of docs/api.md "Download links": the admin's (create, list a folder's active links,
// delete) and the recipient's (status, verify-password). The ciphertext route is fetched by the
// streaming download service, not through RTK Query. A folder's link list is tagged by folder id,
// so creating or deleting a link refreshes the 'Active Download Links' section.

import { baseApi } from './baseApi.ts';

/** POST /download/links. `password` is the VERIFIER derived from the link password, never the password. */
export interface CreateDownloadLinkRequest {
  file_ids: number[];
  password: string | null;
  /** ISO 8601 with a time zone, or null for a link that never expires. */
  expiration_date: string | null;
  /** Password links only: JSON map file id -> 'wrappedKey:ivPlusCiphertext'. Never sent without a password. */
  reencrypted_keys_json?: string;
}

export interface CreateDownloadLinkResponse {
  link_token: string;
  /** {origin}/download/{link_token}, without any keys. */
  full_url: string;
  has_password: boolean;
  expiration_date: string | null;
}

/** One entry of a folder's active links (spec section 3, Download link). */
export interface DownloadLink {
  link_token: string;
  creation_date: string;
  expiration_date: string | null;
  has_password: boolean;
  file_count: number;
  files: string[];
}

export interface SharedFile {
  id: number;
  original_filename: string;
  /** Plaintext bytes. */
  file_size: number;
  /** base64 IV of the ciphertext (equals the file route's x-encryption-iv). */
  encryption_iv: string;
}

/** GET /download/{link_token}/status. */
export interface DownloadLinkStatus {
  requires_password: boolean;
  files: SharedFile[];
  /** Password links: base64 KDF block the verifier is derived with (not secret). */
  kdf_params?: string;
}

export interface VerifyLinkPasswordRequest {
  linkToken: string;
  /** The verifier derived from the password. */
  verifier: string;
}

export interface VerifyLinkPasswordResponse {
  /** file id -> 'wrappedKey:ivPlusCiphertext'. */
  reencrypted_keys: Record<string, string>;
}

interface CreateDownloadLinkArgs {
  folderId: number;
  body: CreateDownloadLinkRequest;
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
    createDownloadLink: build.mutation<CreateDownloadLinkResponse, CreateDownloadLinkArgs>({
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
        body: { password: verifier },
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

