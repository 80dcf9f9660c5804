/**
 * The ciphertext of one file as a stream, fetched with the page's cookies (same origin). The
 * response must be a success and carry the headers the plan names; the IV header must match the
 * IV the plan decrypts with. When the connection drops mid-body, the rest is fetched again with a
 * byte range (If-Range on the ETag, so a changed blob is never stitched onto the old one): a
 * flaky network costs a few retries, not the whole download.
 */
import { DOWNLOAD_MESSAGES, DownloadError } from './downloadErrors.ts';

export interface CiphertextRequest {
  readonly url: string;
  /** For messages. */
  readonly name: string;
  readonly iv: string;
  readonly requiredHeaders: readonly string[];
  readonly signal: AbortSignal;
  readonly fetch?: typeof fetch;
  /** Range requests after a dropped connection, before giving up. */
  readonly maxResumes?: number;
  readonly resumeDelayMs?: number;
}

const IV_HEADER = 'x-encryption-iv';

async function errorDetail(response: Response): Promise<string> {
  try {
    const body: unknown = await response.json();
    if (typeof body === 'object' && body !== null && typeof (body as { detail?: unknown }).detail === 'string') {
      return (body as { detail: string }).detail;
    }
  } catch {
    // Not JSON: fall through to the status line.
  }
  return `Error: ${response.status} - ${response.statusText || 'Request failed'}`;
}

function networkFailure(request: CiphertextRequest, error: unknown): DownloadError {
  if (request.signal.aborted) return new DownloadError('ABORTED', DOWNLOAD_MESSAGES.aborted);
  if (error instanceof DownloadError) return error;
  return new DownloadError('HTTP', DOWNLOAD_MESSAGES.http(request.name, 'Network Error: Could not connect to the server.'));
}

async function fetchOnce(request: CiphertextRequest, headers: Record<string, string>): Promise<Response> {
  const fetcher = request.fetch ?? fetch;
  try {
    return await fetcher(request.url, { credentials: 'same-origin', cache: 'no-store', headers, signal: request.signal });
  } catch (error) {
    throw networkFailure(request, error);
  }
}

function checkHeaders(request: CiphertextRequest, response: Response): void {
  for (const name of request.requiredHeaders) {
    if (!response.headers.get(name)) throw new DownloadError('HEADERS', DOWNLOAD_MESSAGES.missingEncryptionData(request.name));
  }
  const iv = response.headers.get(IV_HEADER);
  if (iv !== null && iv.trim() !== request.iv) throw new DownloadError('HEADERS', DOWNLOAD_MESSAGES.invalidIv);
}

/** Resolves once the response headers arrived and passed the checks; the body streams afterwards. */
export async function openCiphertext(request: CiphertextRequest): Promise<ReadableStream<Uint8Array>> {
  const first = await fetchOnce(request, {});
  if (!first.ok) throw new DownloadError('HTTP', DOWNLOAD_MESSAGES.http(request.name, await errorDetail(first)));
  checkHeaders(request, first);
  if (!first.body) throw new DownloadError('SIZE_MISMATCH', DOWNLOAD_MESSAGES.incomplete);
  const total = Number(first.headers.get('content-length') ?? Number.NaN);
  const etag = first.headers.get('etag');
  const maxResumes = request.maxResumes ?? 3;
  const resumeDelayMs = request.resumeDelayMs ?? 500;

  let reader = first.body.getReader();
  let received = 0;
  let resumes = 0;

  async function resume(cause: unknown): Promise<void> {
    if (request.signal.aborted) throw networkFailure(request, cause);
    if (!Number.isFinite(total) || received >= total || resumes >= maxResumes) throw networkFailure(request, cause);
    resumes += 1;
    await new Promise((resolve) => setTimeout(resolve, resumeDelayMs * resumes));
    const headers: Record<string, string> = { range: `bytes=${received}-` };
    if (etag) headers['if-range'] = etag;
    const response = await fetchOnce(request, headers);
    const range = /^bytes (\d+)-\d+\/(\d+)$/.exec(response.headers.get('content-range') ?? '');
    if (response.status !== 206 || !range || Number(range[1]) !== received || Number(range[2]) !== total || !response.body) {
      await response.body?.cancel().catch(() => undefined);
      throw new DownloadError('HTTP', DOWNLOAD_MESSAGES.http(request.name, 'the file changed or cannot be resumed'));
    }
    reader = response.body.getReader();
  }

  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        for (;;) {
          let result: ReadableStreamReadResult<Uint8Array>;
          try {
            result = await reader.read();
          } catch (error) {
            await resume(error);
            continue;
          }
          if (result.done) {
            // A body that ends early without an error (a proxy closing the connection) is resumed too.
            if (Number.isFinite(total) && received < total) {
              await resume(new Error('connection closed early'));
              continue;
            }
            controller.close();
            return;
          }
          received += result.value.byteLength;
          controller.enqueue(result.value);
          return;
        }
      },
      async cancel(reason) {
        await reader.cancel(reason).catch(() => undefined);
      },
    },
    { highWaterMark: 0 },
  );
}
