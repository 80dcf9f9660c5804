// The S3 server the S3 tests use: TEST_S3_ENDPOINT, a local Swift with s3api (npm run s3-server,
// started by .ci/run). Each test file makes a bucket of its own on it.
import { randomBytes } from 'node:crypto';
import { createBucket, localS3Client, localS3Env } from '../../scripts/s3-server/s3-server.ts';

export const s3Endpoint = process.env.TEST_S3_ENDPOINT || undefined;

export interface TestBucket {
  bucket: string;
  endpoint: string;
  /** The server's environment for BLOB_STORE=s3 on this bucket. */
  env: Record<string, string>;
}

export async function freshBucket(endpoint: string, purpose: string): Promise<TestBucket> {
  const bucket = `sealdrop-${purpose}-${randomBytes(4).toString('hex')}`;
  await createBucket(endpoint, bucket);
  return { bucket, endpoint, env: localS3Env(endpoint, bucket) };
}

export { localS3Client };
