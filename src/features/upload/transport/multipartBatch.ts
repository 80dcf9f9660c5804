// Small files go to the server several at a time in the spec's one-request multipart upload
// (POST /api/upload/{link_token}; docs/api.md "One request: multipart"): per file a `files` part
// with the ciphertext and, in the same order, its wrapped key, IV, relative path, SHA-256 and
// plaintext size. The server stores all of a request or, if the request breaks off, none of it,
// so a failed batch is simply sent again (see retryBudget.ts).

import { RetryBudget } from './retryBudget.ts';
import { isTransportError } from './transportError.ts';
import { jsonBody, sendXhr, uploadUrl } from './xhrRequest.ts';

export interface EncryptedFile {
  /** The file name as the user has it (the multipart filename). */
  name: string;
  relativePath: string;
  plainSize: number;
  ciphertext: Blob;
  encryptedKey: string;
  iv: string;
  sha256: string;
}

export interface SendHooks {
  signal: AbortSignal;
  /** Body bytes sent so far of the whole request. */
  onProgress: (loaded: number, total: number) => void;
  onWaiting: (waiting: boolean) => void;
}

export function multipartBody(files: readonly EncryptedFile[]): FormData {
  const form = new FormData();
  for (const file of files) {
    form.append('files', file.ciphertext, file.name);
    form.append('encrypted_keys', file.encryptedKey);
    form.append('encryption_ivs', file.iv);
    form.append('relative_paths', file.relativePath);
    form.append('file_hashes', file.sha256);
    form.append('file_sizes', String(file.plainSize));
  }
  return form;
}

/** Sends one batch, retrying as the budget allows; resolves with the response body (an Upload result, unchecked). */
export async function sendMultipartBatch(linkToken: string, files: readonly EncryptedFile[], hooks: SendHooks): Promise<unknown> {
  const budget = new RetryBudget();
  const body = multipartBody(files);
  for (;;) {
    try {
      const response = await sendXhr({ method: 'POST', url: uploadUrl(linkToken), body, signal: hooks.signal, onUploadProgress: hooks.onProgress });
      return jsonBody(response);
    } catch (error) {
      if (!isTransportError(error) || !(await budget.beforeRetry(error, hooks.signal, hooks.onWaiting))) throw error;
    }
  }
}

/** POST .../complete for finished tus uploads; resolves with the response body (an Upload result, unchecked). */
export async function completeUploads(
  linkToken: string,
  uploads: ReadonlyArray<{ upload_id: string; file_hash: string }>,
  hooks: Omit<SendHooks, 'onProgress'>,
): Promise<unknown> {
  const budget = new RetryBudget();
  const body = JSON.stringify({ uploads });
  for (;;) {
    try {
      const response = await sendXhr({
        method: 'POST',
        url: uploadUrl(linkToken, '/complete'),
        body,
        headers: { 'Content-Type': 'application/json' },
        signal: hooks.signal,
      });
      return jsonBody(response);
    } catch (error) {
      if (!isTransportError(error) || !(await budget.beforeRetry(error, hooks.signal, hooks.onWaiting))) throw error;
    }
  }
}
