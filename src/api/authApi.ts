// Endpoints of docs/api.md "Authentication and profile" (the key routes come with the keys feature).

import type {
  ChangePasswordBody,
  CodeBody,
  LoginBody,
  LoginCodeBody,
  LoginResponse,
  PasswordBody,
  ProfileUpdateBody,
  TotpSetupResponse,
  User,
} from '../../contract/auth.ts';
import type { DetailResponse, VerifiedResponse } from '../../contract/common.ts';
import { baseApi } from './baseApi.ts';

export const authApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getCurrentUser: build.query<User, void>({
      query: () => '/auth/users/me',
    }),
    // The token endpoint takes form fields, not JSON.
    login: build.mutation<LoginResponse, LoginBody>({
      query: ({ username, password }) => ({
        url: '/auth/token',
        method: 'POST',
        body: new URLSearchParams({ username, password }),
      }),
    }),
    loginWithCode: build.mutation<LoginResponse, LoginCodeBody>({
      query: (body) => ({ url: '/auth/token/2fa', method: 'POST', body }),
    }),
    logout: build.mutation<DetailResponse, void>({
      query: () => ({ url: '/auth/logout', method: 'POST' }),
    }),
    updateProfile: build.mutation<User, ProfileUpdateBody>({
      query: (body) => ({ url: '/auth/users/me', method: 'PUT', body }),
    }),
    startTwoFactorSetup: build.mutation<TotpSetupResponse, void>({
      query: () => ({ url: '/auth/2fa/setup', method: 'POST' }),
    }),
    enableTwoFactor: build.mutation<User, CodeBody>({
      query: (body) => ({ url: '/auth/2fa/enable', method: 'POST', body }),
    }),
    disableTwoFactor: build.mutation<User, PasswordBody>({
      query: (body) => ({ url: '/auth/2fa/disable', method: 'POST', body }),
    }),
    verifyPassword: build.mutation<VerifiedResponse, PasswordBody>({
      query: (body) => ({ url: '/auth/verify-password', method: 'POST', body }),
    }),
    changePassword: build.mutation<DetailResponse, ChangePasswordBody>({
      query: (body) => ({ url: '/auth/change-password', method: 'POST', body }),
    }),
  }),
});

export const {
  useLoginMutation,
  useLoginWithCodeMutation,
  useLogoutMutation,
  useUpdateProfileMutation,
  useStartTwoFactorSetupMutation,
  useEnableTwoFactorMutation,
  useDisableTwoFactorMutation,
  useVerifyPasswordMutation,
  useChangePasswordMutation,
} = authApi;
