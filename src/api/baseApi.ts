// The single RTK Query API for /api. Cookies go with every call; POST/PUT/PATCH/DELETE copy the
// csrftoken cookie into x-csrftoken. Feature endpoints are added with baseApi.injectEndpoints.

import {
  createApi,
  fetchBaseQuery,
  type BaseQueryFn,
  type FetchArgs,
  type FetchBaseQueryError,
  type FetchBaseQueryMeta,
} from '@reduxjs/toolkit/query/react';
import { currentLanguage } from '../i18n/language.ts';
import { CSRF_HEADER, isMutatingMethod, readCsrfToken } from './csrf.ts';
import { describeApiError } from './errors.ts';
import { sessionEnded } from './sessionEvents.ts';

/** An RTK Query error plus the HTTP reason phrase, which the spec's 'Error: status - message' needs. */
export type ApiQueryError = FetchBaseQueryError & { statusText?: string };

// Absolute so that the same code runs under Node's fetch in tests; same origin in the browser.
function apiBaseUrl(): string {
  const origin = globalThis.location?.origin;
  return origin && origin !== 'null' ? `${origin}/api` : '/api';
}

function methodOf(args: string | FetchArgs): string {
  return typeof args === 'string' ? 'GET' : (args.method ?? 'GET');
}

const rawBaseQuery = fetchBaseQuery({
  baseUrl: apiBaseUrl(),
  credentials: 'include',
  prepareHeaders: (headers, { arg }) => {
    // The server words its error details, and the e-mails a request causes (an upload code), in
    // the language the page shows, which may differ from the browser's own.
    headers.set('accept-language', currentLanguage());
    if (isMutatingMethod(methodOf(arg))) {
      const token = readCsrfToken();
      if (token) headers.set(CSRF_HEADER, token);
    }
    return headers;
  },
});

const baseQuery: BaseQueryFn<string | FetchArgs, unknown, ApiQueryError, object, FetchBaseQueryMeta> = async (
  args,
  api,
  extraOptions,
) => {
  const result = await rawBaseQuery(args, api, extraOptions);
  if (!result.error) return result;
  const error: ApiQueryError = { ...result.error, statusText: result.meta?.response?.statusText ?? '' };
  // Any call can discover that the session died; the route guard then sends the user to /login.
  if (describeApiError(error).code === 'session-expired') api.dispatch(sessionEnded({ reason: 'expired' }));
  return { ...result, error };
};

export const baseApi = createApi({
  reducerPath: 'api',
  baseQuery,
  endpoints: () => ({}),
});
