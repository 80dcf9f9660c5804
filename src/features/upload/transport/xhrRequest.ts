// One HTTP request through XMLHttpRequest, which (unlike fetch over HTTP/1.1) reports upload
// progress and measured fastest for large bodies in Chromium here. Same origin, so the session
// and grant cookies go along; state-changing methods carry the CSRF header.

import { CSRF_HEADER, isMutatingMethod, readCsrfToken } from '../../../api/csrf.ts';
import { TransportError } from './transportError.ts';

export interface XhrRequest {
  method: string;
  url: string;
  body?: XMLHttpRequestBodyInit | null;
  headers?: Record<string, string>;
  /** Bytes of the body sent so far and the body's total. */
  onUploadProgress?: (loaded: number, total: number) => void;
  signal: AbortSignal;
}

export interface XhrResponse {
  status: number;
  statusText: string;
  text: string;
}

export function sendXhr(request: XhrRequest): Promise<XhrResponse> {
  return new Promise((resolve, reject) => {
    if (request.signal.aborted) {
      reject(TransportError.aborted());
      return;
    }
    const xhr = new XMLHttpRequest();
    xhr.open(request.method, request.url);
    for (const [name, value] of Object.entries(request.headers ?? {})) xhr.setRequestHeader(name, value);
    if (isMutatingMethod(request.method)) {
      const token = readCsrfToken();
      if (token) xhr.setRequestHeader(CSRF_HEADER, token);
    }
    const onAbort = () => xhr.abort();
    const finish = () => request.signal.removeEventListener('abort', onAbort);
    request.signal.addEventListener('abort', onAbort);
    if (request.onUploadProgress) {
      const report = request.onUploadProgress;
      xhr.upload.onprogress = (event) => report(event.loaded, event.total);
    }
    xhr.onload = () => {
      finish();
      resolve({ status: xhr.status, statusText: xhr.statusText, text: xhr.responseText });
    };
    xhr.onerror = () => {
      finish();
      reject(TransportError.network());
    };
    xhr.ontimeout = xhr.onerror;
    xhr.onabort = () => {
      finish();
      reject(TransportError.aborted());
    };
    xhr.send(request.body ?? null);
  });
}

/** The JSON body of a 2xx answer; an error answer becomes a TransportError. */
export function jsonBody(response: XhrResponse): unknown {
  if (response.status < 200 || response.status >= 300) throw TransportError.http(response.status, response.statusText, response.text);
  try {
    return JSON.parse(response.text) as unknown;
  } catch {
    return null;
  }
}

export function uploadUrl(linkToken: string, rest = ''): string {
  const origin = globalThis.location?.origin ?? '';
  return `${origin}/api/upload/${encodeURIComponent(linkToken)}${rest}`;
}
