// Endpoints of docs/api.md "Upload (anonymous)" that are plain request/response calls: the link's
// status, its gates and the recipient's public key. Sending files (multipart and tus, with
// progress and resume) is not a query; it lives in features/upload/transport.

import { baseApi } from './baseApi.ts';
import type { MessageResponse, PublicKeyResponse, UploadLinkStatus, VerifiedResponse } from './types.ts';

const linkPath = (linkToken: string, rest = '') => `/upload/${encodeURIComponent(linkToken)}${rest}`;

export const uploadApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getUploadLinkStatus: build.query<UploadLinkStatus, string>({
      query: (linkToken) => linkPath(linkToken, '/status'),
    }),
    verifyUploadPassword: build.mutation<VerifiedResponse, { linkToken: string; link_password: string }>({
      query: ({ linkToken, link_password }) => ({ url: linkPath(linkToken, '/verify-password'), method: 'POST', body: { link_password } }),
    }),
    requestUploadCode: build.mutation<MessageResponse, { linkToken: string; uploader_email: string }>({
      query: ({ linkToken, uploader_email }) => ({ url: linkPath(linkToken, '/request-code'), method: 'POST', body: { uploader_email } }),
    }),
    verifyUploadCode: build.mutation<VerifiedResponse, { linkToken: string; uploader_email: string; verification_code: string }>({
      query: ({ linkToken, ...body }) => ({ url: linkPath(linkToken, '/verify-code'), method: 'POST', body }),
    }),
    getUploadPublicKey: build.query<PublicKeyResponse, string>({
      query: (linkToken) => linkPath(linkToken, '/public-key'),
      // Fetched afresh at every upload start: the owner may have set or replaced the key meanwhile.
      keepUnusedDataFor: 0,
    }),
  }),
});

export const {
  useGetUploadLinkStatusQuery,
  useVerifyUploadPasswordMutation,
  useRequestUploadCodeMutation,
  useVerifyUploadCodeMutation,
} = uploadApi;
