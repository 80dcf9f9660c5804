// Endpoints of docs/api.md "Passkeys". The WebAuthn options and answers pass through as JSON; the
// PRF output never reaches these calls (src/features/passkeys/webauthn.ts strips it before sending).
import type {
  PasskeyAssertionBody,
  PasskeyList,
  Passkey,
  PasskeyRegistrationBody,
  PasskeyRenameBody,
  PasskeySignInResponse,
  ReauthBody,
  ReauthResponse,
  WebAuthnOptionsResponse,
} from '../../contract/passkeys.ts';
import type { DetailResponse } from '../../contract/common.ts';
import { baseApi } from './baseApi.ts';

const PASSKEYS = { type: 'Passkeys', id: 'ME' } as const;

export const passkeysApi = baseApi.enhanceEndpoints({ addTagTypes: ['Passkeys'] }).injectEndpoints({
  endpoints: (build) => ({
    passkeySignInOptions: build.mutation<WebAuthnOptionsResponse, void>({
      query: () => ({ url: '/auth/passkeys/sign-in/options', method: 'POST' }),
    }),
    passkeySignIn: build.mutation<PasskeySignInResponse, PasskeyAssertionBody>({
      query: (body) => ({ url: '/auth/passkeys/sign-in', method: 'POST', body }),
    }),
    passkeyReauthOptions: build.mutation<WebAuthnOptionsResponse, void>({
      query: () => ({ url: '/auth/passkeys/reauth/options', method: 'POST' }),
    }),
    reauthenticate: build.mutation<ReauthResponse, ReauthBody>({
      query: (body) => ({ url: '/auth/reauth', method: 'POST', body }),
    }),
    listPasskeys: build.query<PasskeyList, void>({
      query: () => '/auth/passkeys',
      providesTags: [PASSKEYS],
    }),
    passkeyRegistrationOptions: build.mutation<WebAuthnOptionsResponse, void>({
      query: () => ({ url: '/auth/passkeys/register/options', method: 'POST' }),
    }),
    registerPasskey: build.mutation<Passkey, PasskeyRegistrationBody>({
      query: (body) => ({ url: '/auth/passkeys', method: 'POST', body }),
      invalidatesTags: [PASSKEYS],
    }),
    renamePasskey: build.mutation<Passkey, PasskeyRenameBody & { id: number }>({
      query: ({ id, name }) => ({ url: `/auth/passkeys/${id}`, method: 'PATCH', body: { name } }),
      invalidatesTags: [PASSKEYS],
    }),
    removePasskey: build.mutation<DetailResponse, { id: number }>({
      query: ({ id }) => ({ url: `/auth/passkeys/${id}`, method: 'DELETE' }),
      invalidatesTags: [PASSKEYS],
    }),
  }),
});

export const { useListPasskeysQuery, useRenamePasskeyMutation, useRemovePasskeyMutation } = passkeysApi;
