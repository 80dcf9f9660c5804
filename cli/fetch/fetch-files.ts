// The loop both fetch commands share (a download link's files, a team folder's files): each file
// streamed from the server through recover's decrypt-to-disk, a progress line while it runs, the
// file named with its reason and skipped when it fails, and one summary line at the end.
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { decryptToDisk, fileFailureReason, formatBytes, megabytesPerSecond, ProgressLine, type ExpectedFile } from '../../server/recovery/index.ts';
import { type ApiSession, errorOf } from '../shared/api-session.ts';
import { ApiRequestError, EXIT } from '../shared/errors.ts';
import { withRetries } from '../shared/retry.ts';

/** One file to fetch: how it is shown, where the server serves its ciphertext, and how it opens. */
export interface FileToFetch {
  /** The printable path of the lines written about it. */
  shown: string;
  size: number;
  /** The API path that streams its ciphertext. */
  path: string;
  /** Its key, IV and what the plaintext must be; throws when the file cannot be opened (it is then named and skipped). */
  open(): { key: Buffer; iv: Buffer; expected: ExpectedFile };
}

export interface FetchFilesOptions {
  outputDir: string;
  force: boolean;
  signal: AbortSignal;
}

export async function fetchFiles(session: ApiSession, files: readonly FileToFetch[], { outputDir, force, signal }: FetchFilesOptions): Promise<number> {
  const progress = new ProgressLine(process.stderr);
  const startedAt = performance.now();
  let fetched = 0;
  let bytes = 0;
  for (const file of files) {
    signal.throwIfAborted();
    try {
      const { key, iv, expected } = file.open();
      progress.start(expected.name, file.size);
      await decryptToDisk(
        key,
        iv,
        expected,
        async () => {
          const response = await withRetries(async () => {
            const answer = await session.send({ method: 'GET', path: file.path, signal, timeoutMs: null });
            if (!answer.ok || answer.body === null) throw await errorOf(answer);
            return answer;
          }, { signal });
          const length = Number(response.headers.get('content-length'));
          return { stream: Readable.fromWeb(response.body! as NodeReadableStream), bytes: Number.isSafeInteger(length) ? length : null };
        },
        { outputDir, force, signal, onProgress: (plain) => progress.update(plain) },
      );
      progress.finish();
      fetched++;
      bytes += file.size;
      console.log(`fetched ${file.shown} (${formatBytes(file.size)})`);
    } catch (error) {
      progress.finish();
      if (signal.aborted) throw signal.reason;
      const reason = error instanceof ApiRequestError ? `the server refused it: ${error.detail} [${error.code}]` : fileFailureReason(error);
      console.error(`FAILED ${file.shown}: ${reason}`);
    }
  }
  const seconds = (performance.now() - startedAt) / 1000;
  console.log(`Fetched ${fetched} of ${files.length} files: ${formatBytes(bytes)} (${bytes} bytes) in ${seconds.toFixed(1)} s, ${megabytesPerSecond(bytes, seconds * 1000).toFixed(0)} MB/s.`);
  return fetched === files.length ? EXIT.ok : EXIT.someFailed;
}
