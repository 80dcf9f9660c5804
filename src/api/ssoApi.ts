// Endpoints of docs/api.md "Single sign-on": what the sign-in page offers, the key pair of an
// account without a password, trusted devices, the recovery copy and device approvals. The copies
// pass through as the crypto worker made them; the server cannot open them.
import type {
  ApprovalCreatedResponse,
  ApprovalRequestBody,
  ApprovalStatusResponse,
  ApproveBody,
  PendingApprovalsResponse,
  SsoKeyPairBody,
  SsoSettingsResponse,
  TrustDeviceBody,
  TrustedDevicesResponse,
  WrappedCopyResponse,
} from '../../contract/sso.ts';
import type { User } from '../../contract/auth.ts';
import { baseApi } from './baseApi.ts';

/** Where a browser navigates to sign in by single sign-on (docs/api.md "Single sign-on"). */
export const SSO_START_PATH = '/api/auth/sso/start';

/** The start, coming back to `next` (a path of this app) after /sso has unlocked the key. */
export function ssoStartPath(next?: string): string {
  return next === undefined ? SSO_START_PATH : `${SSO_START_PATH}?next=${encodeURIComponent(next)}`;
}

/** How long the sign-in page waits for what it offers (`GET /auth/sso`). */
export const SSO_SETTINGS_TIMEOUT_MS = 10_000;

const DEVICES = { type: 'TrustedDevices', id: 'ME' } as const;
const APPROVALS = { type: 'DeviceApprovals', id: 'ME' } as const;

export const ssoApi = baseApi.enhanceEndpoints({ addTagTypes: ['TrustedDevices', 'DeviceApprovals'] }).injectEndpoints({
  endpoints: (build) => ({
    // The sign-in page holds its choices until this answers (LoginPage.tsx); past the limit it
    // offers the password form, as when the call fails.
    ssoSettings: build.query<SsoSettingsResponse, void>({ query: () => ({ url: '/auth/sso', timeout: SSO_SETTINGS_TIMEOUT_MS }) }),
    createSsoKeyPair: build.mutation<User, SsoKeyPairBody>({
      query: (body) => ({ url: '/auth/sso/key-pair', method: 'POST', body }),
      invalidatesTags: [DEVICES],
    }),
    listTrustedDevices: build.query<TrustedDevicesResponse, void>({ query: () => '/auth/devices', providesTags: [DEVICES] }),
    trustDevice: build.mutation<void, TrustDeviceBody & { id: string }>({
      query: ({ id, ...body }) => ({ url: `/auth/devices/${id}`, method: 'PUT', body }),
      invalidatesTags: [DEVICES],
    }),
    deviceCopy: build.mutation<WrappedCopyResponse, { id: string }>({ query: ({ id }) => ({ url: `/auth/devices/${id}/copy` }) }),
    removeTrustedDevice: build.mutation<void, { id: string }>({
      query: ({ id }) => ({ url: `/auth/devices/${id}`, method: 'DELETE' }),
      invalidatesTags: [DEVICES],
    }),
    recoveryCopy: build.mutation<WrappedCopyResponse, void>({ query: () => ({ url: '/auth/recovery-copy' }) }),
    requestApproval: build.mutation<ApprovalCreatedResponse, ApprovalRequestBody>({
      query: (body) => ({ url: '/auth/device-approvals', method: 'POST', body }),
    }),
    approvalStatus: build.mutation<ApprovalStatusResponse, { id: string }>({ query: ({ id }) => ({ url: `/auth/device-approvals/${id}` }) }),
    pendingApprovals: build.query<PendingApprovalsResponse, void>({ query: () => '/auth/device-approvals', providesTags: [APPROVALS] }),
    approveDevice: build.mutation<void, ApproveBody & { id: string }>({
      query: ({ id, ...body }) => ({ url: `/auth/device-approvals/${id}/approve`, method: 'POST', body }),
      invalidatesTags: [APPROVALS],
    }),
    removeApproval: build.mutation<void, { id: string }>({
      query: ({ id }) => ({ url: `/auth/device-approvals/${id}`, method: 'DELETE' }),
      invalidatesTags: [APPROVALS],
    }),
  }),
});

export const { useSsoSettingsQuery, useListTrustedDevicesQuery, usePendingApprovalsQuery, useRemoveTrustedDeviceMutation } = ssoApi;
