// Sends a file's ciphertext from the blob store, streamed (never buffered), for both the admin
// download and the download-link download. One byte range is honoured so that an interrupted
// download can continue where it stopped; the ETag (stable, since a blob never changes under its
// key) lets a client make the resume conditional with If-Range.
//
// `onCompleted` runs only when the whole file reached the client: a response with every byte, or
// the resume of an interrupted download (`Range: bytes=N-` made conditional with `If-Range` on the
// current ETag, as the page's downloader sends it), handed over completely: the raw response's
// 'finish' event, which Node does not emit when the client aborts or the blob stream fails. Any
// other range that happens to include the last byte (`bytes=-1`, a probe of the end) does not
// count as a download.
import { pipeline, type Readable, type Transform } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sha256Hex } from '../auth/tokens.ts';
import { defineHttpError } from '../errors.ts';
import { BlobStoreError, type BlobStore } from '../storage/blob-store.ts';
import { resolveRange } from './byte-range.ts';
import { RecycledBlobBody } from './recycled-blob-body.ts';
import { attachmentDisposition } from '../../contract/content-disposition.ts';
import { FileNotFoundError } from './errors.ts';
import { defineMessages } from '../i18n/messages.ts';

/** The details in English; the error handler answers each in the request's language (server/i18n). */
const details = defineMessages({
  RANGE_NOT_SATISFIABLE: { id: 'server.ciphertextResponse.rangeNotSatisfiable', defaultMessage: 'Requested range not satisfiable' },
});

export interface CiphertextDownload {
  blobKey: string;
  /** The name the browser saves under (Content-Disposition). */
  filename: string;
  /** Extra headers for the decrypting client (x-encryption-iv, x-encrypted-key, x-file-size). */
  headers: Record<string, string>;
  onCompleted?: () => Promise<void>;
  /** Sees every byte of the response on its way out (a download link counts whole receipts). */
  meter?: ResponseMeter;
}

/** A stream the response's bytes pass through; `end` is inclusive, `size` the whole ciphertext's. */
export interface ResponseMeter {
  open(range: { start: number; end: number; size: number }): Transform;
}

export class RangeNotSatisfiableError extends defineHttpError('RANGE_NOT_SATISFIABLE', 416, details.RANGE_NOT_SATISFIABLE) {}

/** A range from an offset to the end, as a client resuming a download asks for it. */
const RESUME_RANGE = /^bytes=\d+-$/;

/**
 * The blob's bytes [start, end] (inclusive): read into a few reused buffers where the store can
 * read into buffers (recycled-blob-body.ts), else as the store's own stream.
 */
async function openBody(
  blobs: BlobStore,
  blobKey: string,
  range: { start: number; end: number; partial: boolean },
  pendingAfterBody: () => number,
): Promise<Readable> {
  if (blobs.openReader) return new RecycledBlobBody(await blobs.openReader(blobKey), range.start, range.end - range.start + 1, pendingAfterBody);
  return blobs.get(blobKey, range.partial ? { start: range.start, end: range.end } : undefined);
}

function etagFor(blobKey: string, size: number): string {
  return `"${sha256Hex(blobKey).slice(0, 32)}-${size.toString(16)}"`;
}

export async function sendCiphertext(
  request: FastifyRequest,
  reply: FastifyReply,
  blobs: BlobStore,
  download: CiphertextDownload,
): Promise<FastifyReply> {
  const info = await blobs.stat(download.blobKey);
  if (!info) {
    // A record whose blob is gone: deleted a moment ago by a concurrent request, or storage lost it.
    request.log.warn({ fileBlob: sha256Hex(download.blobKey).slice(0, 16) }, 'file record without a blob');
    throw new FileNotFoundError();
  }
  const { size } = info;
  const etag = etagFor(download.blobKey, size);

  const ifRange = request.headers['if-range'];
  const rangeHeader = ifRange === undefined || ifRange === etag ? request.headers.range : undefined;
  const range = resolveRange(rangeHeader, size);
  if (range.kind === 'unsatisfiable') {
    reply.header('content-range', `bytes */${size}`);
    throw new RangeNotSatisfiableError();
  }
  const start = range.kind === 'partial' ? range.start : 0;
  const end = range.kind === 'partial' ? range.end : size - 1;
  const length = end - start + 1;

  // The bytes still on their way out after the body: the meter's (below) and the response's.
  let metered: Transform | undefined;
  const pendingAfterBody = () => (metered ? metered.writableLength + metered.readableLength : 0) + reply.raw.writableLength;
  let body: Readable | undefined;
  if (length > 0) {
    try {
      body = await openBody(blobs, download.blobKey, { start, end, partial: range.kind === 'partial' }, pendingAfterBody);
    } catch (error) {
      if (error instanceof BlobStoreError && error.code === 'BLOB_NOT_FOUND') throw new FileNotFoundError();
      throw error;
    }
  }

  reply
    .header('content-type', 'application/octet-stream')
    .header('content-disposition', attachmentDisposition(download.filename))
    .header('accept-ranges', 'bytes')
    .header('cache-control', 'no-store')
    .header('etag', etag)
    .header('content-length', String(length));
  for (const [name, value] of Object.entries(download.headers)) reply.header(name, value);
  if (range.kind === 'partial') reply.code(206).header('content-range', `bytes ${start}-${end}/${size}`);

  const onCompleted = download.onCompleted;
  const whole = start === 0 && end === size - 1;
  const resumed = range.kind === 'partial' && end === size - 1 && ifRange === etag && RESUME_RANGE.test(rangeHeader ?? '');
  if (onCompleted && (whole || resumed)) {
    reply.raw.once('finish', () => {
      request.server.background.run(onCompleted, (error) => request.log.error({ err: error }, 'after-download update failed'));
    });
  }
  if (body && download.meter) {
    metered = download.meter.open({ start, end, size });
    // A meter that refuses before the first byte went out leaves the answer to the error handler:
    // it must not go out under the ciphertext's headers, which Fastify has already put on the raw
    // response (an error body is JSON, of another length).
    metered.once('error', () => {
      if (reply.raw.headersSent) return;
      const names = ['content-type', 'content-disposition', 'accept-ranges', 'etag', 'content-length', 'content-range', ...Object.keys(download.headers)];
      for (const name of names) {
        reply.removeHeader(name);
        reply.raw.removeHeader(name);
      }
    });
    // Either side failing or closing early ends both (the response is cut; the meter records what went out).
    pipeline(body, metered, () => undefined);
    return reply.send(metered);
  }
  return reply.send(body ?? '');
}
