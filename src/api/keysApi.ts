// Endpoints of docs/api.md "Keys". The stored key data is tagged so that saving new key data (or a
// new public key, which drops the old wrapped private key on the server) refreshes the profile's
// key status.

import type { User } from '../../contract/auth.ts';
import type { EncryptedKeyBody, EncryptedKeyData, PublicKeyBody, PublicKeyResponse } from '../../contract/keys.ts';
import { baseApi } from './baseApi.ts';

const KEY_DATA = { type: 'KeyData', id: 'ME' } as const;

export const keysApi = baseApi.enhanceEndpoints({ addTagTypes: ['KeyData'] }).injectEndpoints({
  endpoints: (build) => ({
    getPublicKey: build.query<PublicKeyResponse, void>({
      query: () => '/auth/public-key',
      providesTags: [KEY_DATA],
    }),
    setPublicKey: build.mutation<User, PublicKeyBody>({
      query: (body) => ({ url: '/auth/public-key', method: 'PUT', body }),
      invalidatesTags: [KEY_DATA],
    }),
    getEncryptedKey: build.query<EncryptedKeyData, void>({
      query: () => '/auth/users/me/encrypted-key',
      providesTags: [KEY_DATA],
    }),
    saveEncryptedKey: build.mutation<User, EncryptedKeyBody>({
      query: (body) => ({ url: '/auth/users/me/encrypted-key', method: 'PUT', body }),
      invalidatesTags: [KEY_DATA],
    }),
  }),
});

export const { useGetPublicKeyQuery, useSetPublicKeyMutation, useGetEncryptedKeyQuery, useSaveEncryptedKeyMutation } = keysApi;
