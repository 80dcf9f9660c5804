/**
 * The ciphertext of one file, fetched with the page's cookies (same origin) and read in the pieces
 * the decryptor asks for (ciphertextPieces.ts). The response must be a success and carry the
 * headers the plan names; the IV header must match the IV the plan decrypts with. When the
 * connection drops mid-body, the rest is fetched again with a byte range (If-Range on the ETag, so a
 * changed blob is never stitched onto the old one): a flaky network costs a few retries, not the
 * whole download.
 */
import { ciphertextPieces, type CiphertextPieces } from './ciphertextPieces.ts';
import { DownloadError, type DownloadFailureFacts } from './downloadErrors.ts';

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

/** What the server answered, as facts: its detail when the body carries one, else its status line. */
async function answerFacts(response: Response): Promise<DownloadFailureFacts> {
  try {
    const body: unknown = await response.json();
    if (typeof body === 'object' && body !== null && typeof (body as { detail?: unknown }).detail === 'string') {
      return { detail: (body as { detail: string }).detail };
    }
  } catch {
    // Not JSON: fall through to the status line.
  }
  return { status: response.status, statusText: response.statusText };
}

function networkFailure(request: CiphertextRequest, error: unknown): DownloadError {
  if (request.signal.aborted) return new DownloadError('ABORTED');
  if (error instanceof DownloadError) return error;
  return new DownloadError('HTTP', { case: 'network', file: request.name });
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
    if (!response.headers.get(name)) throw new DownloadError('HEADERS', { case: 'missing-header', file: request.name });
  }
  const iv = response.headers.get(IV_HEADER);
  if (iv !== null && iv.trim() !== request.iv) throw new DownloadError('HEADERS', { case: 'invalid-iv', file: request.name });
}

/** Resolves once the response headers arrived and passed the checks; the body streams afterwards. */
export async function openCiphertext(request: CiphertextRequest): Promise<CiphertextPieces> {
  const first = await fetchOnce(request, {});
  if (!first.ok) throw new DownloadError('HTTP', { file: request.name, ...(await answerFacts(first)) });
  checkHeaders(request, first);
  if (!first.body) throw new DownloadError('SIZE_MISMATCH', { file: request.name });
  const total = Number(first.headers.get('content-length') ?? Number.NaN);
  const etag = first.headers.get('etag');
  const maxResumes = request.maxResumes ?? 3;
  const resumeDelayMs = request.resumeDelayMs ?? 500;

  let pieces = ciphertextPieces(first.body);
  /** Bytes handed on; a piece cut short by a failure was never handed on, so it is fetched again. */
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
      throw new DownloadError('HTTP', { case: 'not-resumable', file: request.name });
    }
    pieces = ciphertextPieces(response.body);
  }

  return {
    async read(size) {
      for (;;) {
        let piece: Uint8Array | null;
        try {
          piece = await pieces.read(size);
        } catch (error) {
          await resume(error);
          continue;
        }
        if (piece === null) {
          // A body that ends early without an error (a proxy closing the connection) is resumed too.
          if (Number.isFinite(total) && received < total) {
            await resume(new Error('connection closed early'));
            continue;
          }
          return null;
        }
        received += piece.byteLength;
        return piece;
      }
    },
    async cancel(reason) {
      await pieces.cancel(reason).catch(() => undefined);
    },
  };
}
