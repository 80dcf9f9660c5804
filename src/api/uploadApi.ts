// Endpoints of docs/api.md "Upload (anonymous)" that are plain request/response calls: the link's
// status, its gates and the recipient's public key. Sending files (multipart and tus, with
// progress and resume) is not a query; it lives in features/upload/transport.

import type { MessageResponse, VerifiedResponse } from '../../contract/common.ts';
import type { UploadPublicKeyResponse } from '../../contract/team-folders.ts';
import type { RequestCodeBody, UploadLinkStatus, VerifyCodeBody, VerifyUploadPasswordBody } from '../../contract/upload.ts';
import { baseApi } from './baseApi.ts';

type ForLink<Body> = Body & { linkToken: string };

const linkPath = (linkToken: string, rest = '') => `/upload/${encodeURIComponent(linkToken)}${rest}`;

export const uploadApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getUploadLinkStatus: build.query<UploadLinkStatus, string>({
      query: (linkToken) => linkPath(linkToken, '/status'),
    }),
    verifyUploadPassword: build.mutation<VerifiedResponse, ForLink<VerifyUploadPasswordBody>>({
      query: ({ linkToken, link_password }) => ({ url: linkPath(linkToken, '/verify-password'), method: 'POST', body: { link_password } }),
    }),
    requestUploadCode: build.mutation<MessageResponse, ForLink<RequestCodeBody>>({
      query: ({ linkToken, uploader_email }) => ({ url: linkPath(linkToken, '/request-code'), method: 'POST', body: { uploader_email } }),
    }),
    verifyUploadCode: build.mutation<VerifiedResponse, ForLink<VerifyCodeBody>>({
      query: ({ linkToken, ...body }) => ({ url: linkPath(linkToken, '/verify-code'), method: 'POST', body }),
    }),
    getUploadPublicKey: build.query<UploadPublicKeyResponse, string>({
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
