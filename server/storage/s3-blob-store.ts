// Blobs as objects in one S3 bucket (AWS S3 or any store that speaks its API), under the same keys
// as the disk store's relative paths. Both directions stream:
// - put: the body goes up as a multipart upload in PART_BYTES parts, at most QUEUE_PARTS of them
//   buffered at a time (@aws-sdk/lib-storage; a body smaller than one part is a single PUT), so a
//   5 GiB file costs a few dozen MiB of memory, never its size. The object exists under its key
//   only once the upload is completed, which S3 acknowledges after storing it durably; a failed
//   or refused put aborts the multipart upload, so nothing is left under the key.
// - get: a ranged GET, the response body handed on as it arrives.
import { Transform, type Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  AbortMultipartUploadCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import {
  BlobStoreError,
  checkBlobKey,
  type BlobInfo,
  type BlobStore,
  type ByteRange,
  type PutOptions,
  type StoredEntry,
} from './blob-store.ts';
import { isS3NotFound } from './s3-client.ts';
import { codedError } from '../../contract/coded-error.ts';

/** 8 MiB parts: a 5 GiB file is 640 parts, well within S3's 10,000. */
export const PART_BYTES = 8 * 1024 * 1024;
const QUEUE_PARTS = 2;

export type BucketProblem = 'missing' | 'forbidden' | 'unreachable';

export class S3BucketError extends codedError('S3_BUCKET_UNAVAILABLE') {
  constructor(
    readonly problem: BucketProblem,
    message: string,
  ) {
    super(message);
  }
}

export class S3BlobStore implements BlobStore {
  constructor(
    readonly client: S3Client,
    readonly bucket: string,
  ) {}

  /** Fails with a one-line S3BucketError when the bucket is missing, refuses us, or cannot be reached. */
  async checkBucket(endpointName: string): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
    } catch (error) {
      const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      if (status === 404) {
        throw new S3BucketError('missing', `S3 bucket "${this.bucket}" does not exist at ${endpointName}`);
      }
      if (status === 403 || status === 401) {
        throw new S3BucketError('forbidden', `S3 bucket "${this.bucket}" at ${endpointName} refused access (check AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY)`);
      }
      const reason = error instanceof Error ? (error as NodeJS.ErrnoException).code ?? error.name : String(error);
      throw new S3BucketError('unreachable', `S3 bucket "${this.bucket}" at ${endpointName} is unreachable (${status ?? reason})`);
    }
  }

  async put(key: string, body: Readable, options: PutOptions = {}): Promise<BlobInfo> {
    checkBlobKey(key);
    let size = 0;
    let refusal: BlobStoreError | undefined;
    const limit = options.maxBytes ?? Number.POSITIVE_INFINITY;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        size += chunk.length;
        if (size > limit) {
          refusal = new BlobStoreError('BLOB_TOO_LARGE', `Blob exceeds ${limit} bytes`);
          callback(refusal);
        } else callback(null, chunk);
      },
    });
    // The source's failure (a client gone away) ends the upload as the counter's would.
    body.once('error', (error) => counter.destroy(error));
    body.pipe(counter);
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: key, Body: counter },
      partSize: PART_BYTES,
      queueSize: QUEUE_PARTS,
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (error) {
      // As a stream pipeline would: the source is of no more use.
      body.unpipe(counter);
      body.destroy();
      throw refusal ?? error;
    }
    return { size };
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    const info = await this.stat(key);
    if (!info) throw new BlobStoreError('BLOB_NOT_FOUND', 'No such blob');
    let header: string | undefined;
    if (range) {
      const end = range.end ?? info.size - 1;
      if (range.start < 0 || end < range.start || end >= info.size) {
        throw new BlobStoreError('BLOB_BAD_RANGE', 'Range outside the blob');
      }
      header = `bytes=${range.start}-${end}`;
    }
    try {
      const answer = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key, Range: header }));
      return answer.Body as Readable;
    } catch (error) {
      if (isS3NotFound(error)) throw new BlobStoreError('BLOB_NOT_FOUND', 'No such blob');
      throw error;
    }
  }

  async stat(key: string): Promise<BlobInfo | null> {
    checkBlobKey(key);
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { size: head.ContentLength ?? 0 };
    } catch (error) {
      if (isS3NotFound(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    checkBlobKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async *list(): AsyncGenerator<StoredEntry> {
    let token: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, ContinuationToken: token }));
      for (const object of page.Contents ?? []) {
        const key = object.Key;
        if (key === undefined) continue;
        yield {
          key,
          modifiedAt: object.LastModified?.getTime() ?? 0,
          unfinished: false,
          remove: () => this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key })).then(() => undefined),
        };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token !== undefined);

    let keyMarker: string | undefined;
    let uploadIdMarker: string | undefined;
    for (;;) {
      const page = await this.client.send(
        new ListMultipartUploadsCommand({ Bucket: this.bucket, KeyMarker: keyMarker, UploadIdMarker: uploadIdMarker }),
      );
      for (const upload of page.Uploads ?? []) {
        const { Key: key, UploadId: uploadId } = upload;
        if (key === undefined || uploadId === undefined) continue;
        yield {
          key,
          modifiedAt: upload.Initiated?.getTime() ?? 0,
          unfinished: true,
          remove: () => this.abortUpload(key, uploadId),
        };
      }
      if (!page.IsTruncated) break;
      keyMarker = page.NextKeyMarker;
      uploadIdMarker = page.NextUploadIdMarker;
    }
  }

  private async abortUpload(key: string, uploadId: string): Promise<void> {
    try {
      await this.client.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId }));
    } catch (error) {
      if (!isS3NotFound(error)) throw error;
    }
  }
}
