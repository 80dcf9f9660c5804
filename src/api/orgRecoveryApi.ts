// Endpoints of docs/api.md "Organisation recovery": the policy as organisation admins manage it
// (turn on with a key made in the browser, turn off, give another admin a copy, restore a member's
// access) and the member's own copy. The copies pass through as the crypto worker made them.
import type {
  AdminCopyBody,
  EnableOrgRecoveryBody,
  MemberCopyBody,
  MemberRecoveryState,
  OrgRecoveryMember,
  OrgRecoveryStatus,
  RestoreBody,
} from '../../contract/org-recovery.ts';
import { baseApi } from './baseApi.ts';

const STATUS = { type: 'OrgRecovery', id: 'STATUS' } as const;
const MINE = { type: 'MemberRecovery', id: 'ME' } as const;

export const orgRecoveryApi = baseApi.enhanceEndpoints({ addTagTypes: ['OrgRecovery', 'OrgRecoveryMember', 'MemberRecovery'] }).injectEndpoints({
  endpoints: (build) => ({
    orgRecoveryStatus: build.query<OrgRecoveryStatus, void>({ query: () => '/org/recovery', providesTags: [STATUS] }),
    enableOrgRecovery: build.mutation<OrgRecoveryStatus, EnableOrgRecoveryBody>({
      query: (body) => ({ url: '/org/recovery', method: 'POST', body }),
      invalidatesTags: [STATUS, MINE],
    }),
    disableOrgRecovery: build.mutation<void, void>({
      query: () => ({ url: '/org/recovery', method: 'DELETE' }),
      invalidatesTags: [STATUS, MINE, 'OrgRecoveryMember'],
    }),
    grantAdminCopy: build.mutation<void, AdminCopyBody & { accountId: number }>({
      query: ({ accountId, ...body }) => ({ url: `/org/recovery/admins/${accountId}/copy`, method: 'PUT', body }),
      invalidatesTags: [STATUS],
    }),
    orgRecoveryMember: build.query<OrgRecoveryMember, number>({
      query: (accountId) => `/org/recovery/members/${accountId}`,
      providesTags: (_result, _error, accountId) => [{ type: 'OrgRecoveryMember', id: accountId }],
    }),
    restoreMemberAccess: build.mutation<void, RestoreBody & { accountId: number; approvalId: string }>({
      query: ({ accountId, approvalId, ...body }) => ({ url: `/org/recovery/members/${accountId}/approvals/${approvalId}/restore`, method: 'POST', body }),
      invalidatesTags: (_result, _error, { accountId }) => [STATUS, { type: 'OrgRecoveryMember', id: accountId }],
    }),
    memberRecoveryState: build.query<MemberRecoveryState, void>({ query: () => '/auth/org-recovery-copy', providesTags: [MINE] }),
    storeMemberCopy: build.mutation<void, MemberCopyBody>({
      query: (body) => ({ url: '/auth/org-recovery-copy', method: 'PUT', body }),
      invalidatesTags: [MINE],
    }),
  }),
});

export const {
  useOrgRecoveryStatusQuery,
  useEnableOrgRecoveryMutation,
  useDisableOrgRecoveryMutation,
  useGrantAdminCopyMutation,
  useOrgRecoveryMemberQuery,
  useRestoreMemberAccessMutation,
  useMemberRecoveryStateQuery,
} = orgRecoveryApi;
