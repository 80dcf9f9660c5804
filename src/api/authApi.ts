// Endpoints of docs/api.md "Authentication and profile" (the key routes come with the keys feature).
// No login password is ever a field here: screens send the authentication secret derived from it
// (features/auth/accountSecrets.ts), the one exception being an old account's first sign-in.

import type {
  AuthSecretBody,
  BindLoginBody,
  ChangePasswordBody,
  CodeBody,
  LoginCodeBody,
  LoginResponse,
  PreloginBody,
  PreloginResponse,
  ProfileUpdateBody,
  SignedInResponse,
  TotpSetupResponse,
  UpgradeLoginBody,
  User,
} from '../../contract/auth.ts';
import type { DetailResponse, VerifiedResponse } from '../../contract/common.ts';
import type { LogoutResponse } from '../../contract/sso.ts';
import { baseApi } from './baseApi.ts';

export const authApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getCurrentUser: build.query<User, void>({
      query: () => '/auth/users/me',
    }),
    // The account's KDF parameters (docs/api.md "Pre-login"); every name gets an answer.
    prelogin: build.mutation<PreloginResponse, PreloginBody>({
      query: (body) => ({ url: '/auth/prelogin', method: 'POST', body }),
    }),
    // The token endpoint takes form fields, not JSON. The secret step signs in (auth slice).
    login: build.mutation<LoginResponse, { username: string; auth_secret: string }>({
      query: ({ username, auth_secret }) => ({
        url: '/auth/token',
        method: 'POST',
        body: new URLSearchParams({ username, auth_secret }),
      }),
    }),
    // An account of the old scheme, once: the password itself. The auth slice does not sign in on
    // it: the account is upgraded first (features/auth/signIn.ts), then the session is confirmed.
    loginWithPassword: build.mutation<LoginResponse, { username: string; password: string }>({
      query: ({ username, password }) => ({
        url: '/auth/token',
        method: 'POST',
        body: new URLSearchParams({ username, password }),
      }),
    }),
    // `upgradeFollows`: the code step of an account of the old scheme, signed in only once upgraded.
    loginWithCode: build.mutation<LoginResponse, LoginCodeBody & { upgradeFollows?: boolean }>({
      query: ({ username, code }) => ({ url: '/auth/token/2fa', method: 'POST', body: { username, code } }),
    }),
    upgradeLogin: build.mutation<SignedInResponse, UpgradeLoginBody>({
      query: (body) => ({ url: '/auth/upgrade-login', method: 'POST', body }),
    }),
    bindLogin: build.mutation<SignedInResponse, BindLoginBody>({
      query: (body) => ({ url: '/auth/bind-login', method: 'POST', body }),
    }),
    logout: build.mutation<LogoutResponse, void>({
      query: () => ({ url: '/auth/logout', method: 'POST' }),
    }),
    // The language of the account's notification e-mails: the one picked in the header's menu.
    setAccountLanguage: build.mutation<void, { language: string }>({
      query: (body) => ({ url: '/auth/users/me/language', method: 'PUT', body }),
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
    disableTwoFactor: build.mutation<User, AuthSecretBody>({
      query: (body) => ({ url: '/auth/2fa/disable', method: 'POST', body }),
    }),
    verifyPassword: build.mutation<VerifiedResponse, AuthSecretBody>({
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
  useSetAccountLanguageMutation,
  useStartTwoFactorSetupMutation,
  useEnableTwoFactorMutation,
  useDisableTwoFactorMutation,
  useVerifyPasswordMutation,
  useChangePasswordMutation,
} = authApi;
