// Endpoints of docs/api.md "Activity log": a page of entries and the chain check. The export is a
// plain download link (activityExportUrl), so the browser saves the file itself.
import type { ActivityPage, ActivityKind } from '../../contract/activity.ts';
import { baseApi } from './baseApi.ts';

export interface ActivityFilters {
  folderId?: number | undefined;
  kinds?: readonly ActivityKind[] | undefined;
  /** ISO 8601 instants. */
  from?: string | undefined;
  to?: string | undefined;
}

export interface ActivityPageRequest extends ActivityFilters {
  beforeSeq?: number | undefined;
  limit: number;
}

function filterParams(filters: ActivityFilters): Record<string, string> {
  const params: Record<string, string> = {};
  if (filters.folderId !== undefined) params.folder_id = String(filters.folderId);
  if (filters.kinds !== undefined && filters.kinds.length > 0) params.kind = filters.kinds.join(',');
  if (filters.from) params.from = filters.from;
  if (filters.to) params.to = filters.to;
  return params;
}

/** The address of the filtered log as a CSV or JSON file. */
export function activityExportUrl(filters: ActivityFilters, format: 'csv' | 'json'): string {
  return `/api/activity/export?${new URLSearchParams({ ...filterParams(filters), format }).toString()}`;
}

export const activityApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getActivity: build.query<ActivityPage, ActivityPageRequest>({
      query: ({ beforeSeq, limit, ...filters }) => ({
        url: '/activity',
        params: { ...filterParams(filters), limit: String(limit), ...(beforeSeq !== undefined ? { before_seq: String(beforeSeq) } : {}) },
      }),
      keepUnusedDataFor: 0,
    }),
    verifyActivity: build.query<{ ok: boolean; entries: number; first_broken_seq: number | null }, void>({
      query: () => '/activity/verify',
      keepUnusedDataFor: 0,
    }),
  }),
});

export const { useGetActivityQuery, useVerifyActivityQuery } = activityApi;
