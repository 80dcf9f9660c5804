// The S3 client every S3 user here shares the settings of (the blob store, the tus store, the
// migrate-blobs command): region, endpoint, path style and keys from the configuration, and two
// adjustments that keep it working with S3-compatible stores as well as AWS itself:
// - checksums only when an operation requires them: otherwise the SDK sends streamed bodies in
//   the aws-chunked encoding with trailing checksums, which many stores (OpenStack Swift's s3api
//   among them) refuse with 501;
// - a Content-MD5 header on DeleteObjects, which S3's API requires and current SDKs no longer add
//   on their own (they send a CRC32 checksum instead, which those stores ignore and then refuse).
import { createHash } from 'node:crypto';
import { S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import type { BlobStoreConfig } from '../config.ts';

export type S3StoreConfig = Extract<BlobStoreConfig, { kind: 's3' }>;

export function s3ClientConfig(config: S3StoreConfig): S3ClientConfig {
  return {
    region: config.region,
    ...(config.endpoint === null ? {} : { endpoint: config.endpoint }),
    forcePathStyle: config.forcePathStyle,
    ...(config.credentials === null ? {} : { credentials: config.credentials }),
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // Uploads of large parts on a busy machine: no client-side timeout shorter than the store's own.
    maxAttempts: 3,
  };
}

/** Any client with a middleware stack (S3Client, or the S3 aggregate class @tus/s3-store uses). */
interface WithMiddleware {
  middlewareStack: S3Client['middlewareStack'];
}

interface HttpLikeRequest {
  headers: Record<string, string>;
  body?: unknown;
}

export function addDeleteObjectsContentMd5(client: WithMiddleware): void {
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const request = args.request as HttpLikeRequest;
      if (context.commandName === 'DeleteObjectsCommand' && typeof request.body === 'string') {
        request.headers['content-md5'] = createHash('md5').update(request.body).digest('base64');
      }
      return next(args);
    },
    { step: 'build', name: 'sealdropDeleteObjectsContentMd5', override: true },
  );
}

export function createS3Client(config: S3StoreConfig): S3Client {
  const client = new S3Client(s3ClientConfig(config));
  addDeleteObjectsContentMd5(client);
  return client;
}

/** Whether an S3 error means "no such object / upload" rather than a failure. */
export function isS3NotFound(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { name, $metadata } = error as { name?: unknown; $metadata?: { httpStatusCode?: number } };
  return name === 'NotFound' || name === 'NoSuchKey' || name === 'NoSuchUpload' || $metadata?.httpStatusCode === 404;
}
