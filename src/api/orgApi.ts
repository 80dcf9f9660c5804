// Endpoints of docs/api.md "Organisation": the members page of organisation admins (accounts,
// invitations), the directory of active accounts, and the invitee's open and accept calls. The
// accept body carries the authentication secret the browser derived, never the password.
import type { SignedInResponse } from '../../contract/auth.ts';
import type {
  AcceptInvitationBody,
  Directory,
  Invitation,
  InvitationBody,
  InvitationList,
  InvitationTokenBody,
  OpenInvitation,
  OrgAccount,
  OrgAccountList,
} from '../../contract/organisation.ts';
import { baseApi } from './baseApi.ts';

const ACCOUNTS = { type: 'OrgAccounts', id: 'LIST' } as const;
const INVITATIONS = { type: 'Invitations', id: 'LIST' } as const;

export const orgApi = baseApi.enhanceEndpoints({ addTagTypes: ['OrgAccounts', 'Invitations'] }).injectEndpoints({
  endpoints: (build) => ({
    listAccounts: build.query<OrgAccountList, void>({
      query: () => '/org/accounts',
      providesTags: [ACCOUNTS],
    }),
    disableAccount: build.mutation<OrgAccount, number>({
      query: (id) => ({ url: `/org/accounts/${id}/disable`, method: 'POST' }),
      invalidatesTags: [ACCOUNTS],
    }),
    enableAccount: build.mutation<OrgAccount, number>({
      query: (id) => ({ url: `/org/accounts/${id}/enable`, method: 'POST' }),
      invalidatesTags: [ACCOUNTS],
    }),
    listInvitations: build.query<InvitationList, void>({
      query: () => '/org/invitations',
      providesTags: [INVITATIONS],
    }),
    invite: build.mutation<Invitation, InvitationBody>({
      query: (body) => ({ url: '/org/invitations', method: 'POST', body }),
      // A failed mail still saved the invitation: the list shows it either way.
      invalidatesTags: [INVITATIONS],
    }),
    resendInvitation: build.mutation<Invitation, number>({
      query: (id) => ({ url: `/org/invitations/${id}/resend`, method: 'POST' }),
      invalidatesTags: [INVITATIONS],
    }),
    revokeInvitation: build.mutation<Invitation, number>({
      query: (id) => ({ url: `/org/invitations/${id}/revoke`, method: 'POST' }),
      invalidatesTags: [INVITATIONS],
    }),
    directory: build.query<Directory, void>({
      query: () => '/org/directory',
    }),
    openInvitation: build.mutation<OpenInvitation, InvitationTokenBody>({
      query: (body) => ({ url: '/invitations/open', method: 'POST', body }),
    }),
    acceptInvitation: build.mutation<SignedInResponse, AcceptInvitationBody>({
      query: (body) => ({ url: '/invitations/accept', method: 'POST', body }),
      invalidatesTags: [ACCOUNTS, INVITATIONS],
    }),
  }),
});

export const {
  useListAccountsQuery,
  useDisableAccountMutation,
  useEnableAccountMutation,
  useListInvitationsQuery,
  useInviteMutation,
  useResendInvitationMutation,
  useRevokeInvitationMutation,
  useDirectoryQuery,
  useOpenInvitationMutation,
  useAcceptInvitationMutation,
} = orgApi;
