// Endpoints of docs/team-folders.md, "API": a folder's signed member list with this account's
// envelopes, sharing a personal folder, a new version of the list, and a member's own notification
// choice. The answers are never trusted as they come: the crypto worker checks the whole chain
// (src/features/team) before anything in them is shown or used.
import type { ChangeTeamRequest, ShareTeamRequest, TeamAnswer, TeamMeResponse, TeamWriteResponse } from '../../contract/team-folders.ts';
import { baseApi } from './baseApi.ts';

export interface ShareTeamCall {
  folderId: number;
  body: ShareTeamRequest;
}

export interface ChangeTeamCall {
  folderId: number;
  body: ChangeTeamRequest;
}

export interface TeamNotifyCall {
  folderId: number;
  notify: boolean;
}

const team = (folderId: number) => ({ type: 'Team' as const, id: folderId });
// A share or a change alters the folder's role and team flag on the dashboard and its files' keys.
const afterWrite = (folderId: number) => [
  team(folderId),
  { type: 'Folder' as const, id: folderId },
  { type: 'Folder' as const, id: 'LIST' },
  { type: 'FolderFiles' as const, id: folderId },
];

export const teamApi = baseApi.enhanceEndpoints({ addTagTypes: ['Team', 'Folder', 'FolderFiles'] }).injectEndpoints({
  endpoints: (build) => ({
    getTeam: build.query<TeamAnswer, number>({
      query: (folderId) => `/folders/${folderId}/team`,
      providesTags: (_answer, _error, folderId) => [team(folderId)],
    }),
    shareFolder: build.mutation<TeamWriteResponse, ShareTeamCall>({
      query: ({ folderId, body }) => ({ url: `/folders/${folderId}/team`, method: 'POST', body }),
      invalidatesTags: (_result, _error, { folderId }) => afterWrite(folderId),
    }),
    changeTeam: build.mutation<TeamWriteResponse, ChangeTeamCall>({
      query: ({ folderId, body }) => ({ url: `/folders/${folderId}/team/versions`, method: 'POST', body }),
      invalidatesTags: (_result, _error, { folderId }) => afterWrite(folderId),
    }),
    setTeamNotify: build.mutation<TeamMeResponse, TeamNotifyCall>({
      query: ({ folderId, notify }) => ({ url: `/folders/${folderId}/team/me`, method: 'PUT', body: { notify } }),
      invalidatesTags: (_result, _error, { folderId }) => [team(folderId)],
    }),
  }),
});

export const { useGetTeamQuery, useShareFolderMutation, useChangeTeamMutation, useSetTeamNotifyMutation } = teamApi;
