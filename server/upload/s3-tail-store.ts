// @tus/s3-store with its short tail kept safe and its part listings counted (found
// under load).
//
// The tail: a PATCH whose last bytes do not fill an S3 part (5 MiB) leaves them in the object
// "<id>.part", and the next PATCH puts them in front of its own bytes. The stock write() deletes the
// tail as soon as that PATCH starts, long before its bytes are in a stored part again: meanwhile
// every process's HEAD reports the offset without them (3 MiB acknowledged, 0 reported), and a
// process that dies in that window loses bytes it had acknowledged. Here the tail stays until a new
// tail replaces it (one atomic put) or a stored part holds its bytes; it then goes. Each tail
// carries, in its S3 metadata, the number of the last part it follows: a part numbered above that
// holds the tail's bytes, so such a tail is neither counted in the offset nor put in front of a
// PATCH again, also after a crash between that part and the tail's removal. A new tail is put only
// after the parts before it are stored, so the offset any process computes never drops below one
// already acknowledged. A tail without the mark (an earlier version's) is counted as before.
//
// The listings: a ListParts answer is parsed on the event loop, about 40 ms of CPU at 640 parts
// (docs/operations.md), and the stock store lists twice per PATCH (the offset check, then the
// write). Both run under the upload's lock (tus-locker.ts), so the write takes the listing the
// offset check made for the same request: one listing per PATCH, one per HEAD.
import type { Readable } from 'node:stream';
import { S3Store } from '@tus/s3-store';
import { ERRORS, Upload } from '@tus/server';
import { codedError } from '../../contract/coded-error.ts';

/** S3 metadata key of a tail: the number of the last part it follows. */
const FOLLOWS_PART = 'follows-part';
/** Listings kept for a write to take (one per upload being written; the oldest go first). */
const LISTINGS_KEPT = 1000;

type Metadata = Parameters<S3Store['uploadPart']>[0];
type PartBody = Parameters<S3Store['uploadPart']>[1];
type Part = Awaited<ReturnType<S3Store['retrieveParts']>>[number];

interface WriteInProgress {
  /** The parts stored when the write began (the listing of its offset check). */
  partsAtStart: Part[] | undefined;
  /** Whether a tail was there when it began. */
  hadTail: boolean;
  /** Whether it put a new tail. */
  putTail: boolean;
  /** The highest part number it has stored (a part counts once S3 has acknowledged it). */
  lastPart: number;
  /** Whether a part upload of it failed. */
  partFailed: boolean;
  /** The part uploads it has started (settled either way). */
  parts: Array<Promise<unknown>>;
}

interface StoredBytes {
  /** The listing the figures come from. */
  readonly parts: Part[];
  readonly partBytes: number;
  readonly tailBytes: number;
}

/**
 * Listings of an upload's parts made for one offset before giving up on one that holds the parts
 * its tail follows (a listing that lacks one of them is made again).
 */
const LISTINGS_PER_OFFSET = 4;

/** Every listing of the parts lacked a part that the upload's tail follows: no offset is reported. */
export class StalePartListingError extends codedError('STALE_PART_LISTING') {
  constructor(readonly uploadId: string, readonly tailFollows: number, readonly lastListedPart: number) {
    super(`the part listing of upload ${uploadId} ends at part ${lastListedPart}, its tail follows part ${tailFollows}`);
  }
}

/** A part of this PATCH was not stored, so the tail after it is not put either. */
export class PartUploadFailedError extends codedError('PART_UPLOAD_FAILED') {
  constructor(readonly uploadId: string) {
    super(`a part of upload ${uploadId} was not stored; its tail is not put`);
  }
}

/** Whether an S3 client error carries one of these codes (as its name, or as `Code`). */
export function hasS3Code(error: unknown, codes: readonly string[]): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { name, Code } = error as { name?: unknown; Code?: unknown };
  return (typeof name === 'string' && codes.includes(name)) || (typeof Code === 'string' && codes.includes(Code));
}

/** The object is not there. */
export const isNotFound = (error: unknown) => hasS3Code(error, ['NotFound', 'NoSuchKey']);
/** The multipart upload is gone: completed (or aborted). */
export const isMissingUpload = (error: unknown) => hasS3Code(error, ['NoSuchUpload', 'NoSuchKey']);

function lastPartOf(parts: readonly Part[]): number {
  return parts.reduce((last, part) => Math.max(last, part.PartNumber ?? 0), 0);
}

/** The part a tail follows, from its S3 metadata (null: a tail of an earlier version, without the mark). */
function followsPart(metadata: Record<string, string> | undefined): number | null {
  const follows = Number(metadata?.[FOLLOWS_PART]);
  return Number.isInteger(follows) ? follows : null;
}

/** Whether a tail that follows part `follows` comes before part `lastPart`: a stored part holds its bytes. */
function absorbed(follows: number | null, lastPart: number): boolean {
  return follows !== null && lastPart > follows;
}

export class TailSafeS3Store extends S3Store {
  /** Writes of this process, by upload (one at a time per upload: the shared locker). */
  private readonly writes = new Map<string, WriteInProgress>();
  /** The newest listing of each upload's parts, by the order the listings were started. */
  private readonly listings = new Map<string, { started: number; parts: Part[] }>();
  private listingsStarted = 0;

  override async getUpload(id: string): Promise<Upload> {
    let metadata: Metadata;
    try {
      metadata = await this.getMetadata(id);
    } catch {
      throw ERRORS.FILE_NOT_FOUND;
    }
    const { file } = metadata;
    let stored: StoredBytes;
    try {
      stored = await this.storedBytes(id);
    } catch (error) {
      // The info object is there and the multipart upload is not: it was completed.
      if (isMissingUpload(error)) return new Upload({ ...file, offset: file.size ?? 0, size: file.size, metadata: file.metadata, storage: file.storage });
      throw error;
    }
    return new Upload({ ...file, offset: stored.partBytes + stored.tailBytes, size: file.size, storage: file.storage });
  }

  /**
   * The bytes in stored parts and in the tail that counts with them. Readers take no lock, so a
   * PATCH on any process may store parts, put a new tail or remove the old one while this looks.
   * The tail is looked at first: a tail is put only after the parts before it are stored, and
   * removed only after a stored part holds its bytes, so a listing made after the look holds every
   * part the tail follows, or the part that took its bytes (the tail then no longer counts). Listed
   * first, a listing from before such a PATCH with the tail gone or replaced after it reported an
   * offset below one already acknowledged (seen in CI). A listing that still lacks a part the tail
   * follows, one lagging behind the store, is made again.
   */
  async storedBytes(id: string): Promise<StoredBytes> {
    const tail = await this.tailOf(id);
    for (let listing = 1; ; listing++) {
      const parts = await this.retrieveParts(id);
      const lastPart = lastPartOf(parts);
      if (tail && tail.follows !== null && tail.follows > lastPart) {
        if (listing < LISTINGS_PER_OFFSET) continue;
        throw new StalePartListingError(id, tail.follows, lastPart);
      }
      const partBytes = parts.reduce((sum, part) => sum + (part.Size ?? 0), 0);
      return { parts, partBytes, tailBytes: !tail || absorbed(tail.follows, lastPart) ? 0 : tail.bytes };
    }
  }

  /** The tail's size and the part it follows (null: a tail of an earlier version, without the mark). */
  private async tailOf(id: string): Promise<{ bytes: number; follows: number | null } | null> {
    try {
      const data = await this.client.headObject({ Bucket: this.bucket, Key: this.partKey(id, true) });
      return { bytes: data.ContentLength ?? 0, follows: followsPart(data.Metadata) };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  protected override async retrieveParts(id: string, partNumberMarker?: string): Promise<Part[]> {
    // The stock listing pages through itself with a marker: only whole listings are counted.
    if (partNumberMarker !== undefined) return super.retrieveParts(id, partNumberMarker);
    const write = this.writes.get(id);
    if (write && write.partsAtStart === undefined) {
      // The write's first listing: the one its request's offset check just made under the same lock.
      const newest = this.listings.get(id);
      this.listings.delete(id);
      if (newest) return (write.partsAtStart = newest.parts);
    }
    const started = ++this.listingsStarted;
    const parts = await super.retrieveParts(id);
    const newest = this.listings.get(id);
    if (!newest || newest.started < started) {
      this.listings.delete(id);
      this.listings.set(id, { started, parts });
      if (this.listings.size > LISTINGS_KEPT) this.listings.delete(this.listings.keys().next().value!);
    }
    if (write && write.partsAtStart === undefined) write.partsAtStart = parts;
    return parts;
  }

  override async write(src: Readable, id: string, offset: number): Promise<number> {
    const write: WriteInProgress = { partsAtStart: undefined, hadTail: false, putTail: false, lastPart: 0, partFailed: false, parts: [] };
    this.writes.set(id, write);
    try {
      return await super.write(src, id, offset);
    } finally {
      this.writes.delete(id);
      // Its bytes are in a part this write stored, and no new tail replaced it. After a failed
      // part the tail stays: the part that would hold its bytes may be the one missing.
      if (write.hadTail && !write.putTail && !write.partFailed && write.lastPart > 0) {
        await this.client.deleteObject({ Bucket: this.bucket, Key: this.partKey(id, true) }).catch(() => undefined);
      }
    }
  }

  /** The stock write() deletes the tail before its bytes are stored again: it stays (see the header). */
  protected override async deleteIncompletePart(): Promise<void> {}

  protected override uploadPart(metadata: Metadata, readStream: PartBody, partNumber: number): Promise<string> {
    const uploading = super.uploadPart(metadata, readStream, partNumber);
    const write = this.writes.get(metadata.file.id);
    if (write) {
      write.parts.push(
        uploading.then(
          () => void (write.lastPart = Math.max(write.lastPart, partNumber)),
          () => void (write.partFailed = true),
        ),
      );
    }
    return uploading;
  }

  protected override async uploadIncompletePart(id: string, readStream: Readable): Promise<string> {
    const write = this.writes.get(id);
    // The parts before this tail are stored first: until then the tail it replaces still counts.
    if (write) await Promise.all(write.parts);
    // A tail after a missing part would be counted at the wrong offset: the PATCH fails instead,
    // and the client sends these bytes again from the offset HEAD reports.
    if (write?.partFailed) {
      readStream.destroy();
      throw new PartUploadFailedError(id);
    }
    const follows = write ? write.lastPart || lastPartOf(write.partsAtStart ?? (await this.retrieveParts(id))) : lastPartOf(await this.retrieveParts(id));
    const data = await this.client.putObject({
      Bucket: this.bucket,
      Key: this.partKey(id, true),
      Body: readStream,
      Tagging: this.useCompleteTag('false'),
      Metadata: { [FOLLOWS_PART]: String(follows) },
    });
    if (write) write.putTail = true;
    return data.ETag ?? '';
  }

  protected override async getIncompletePart(id: string): Promise<Readable | undefined> {
    let data;
    try {
      data = await this.client.getObject({ Bucket: this.bucket, Key: this.partKey(id, true) });
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
    const write = this.writes.get(id);
    const parts = write?.partsAtStart ?? (await this.retrieveParts(id));
    if (absorbed(followsPart(data.Metadata), lastPartOf(parts))) {
      (data.Body as Readable | undefined)?.destroy();
      return undefined;
    }
    if (write) write.hadTail = true;
    return data.Body as Readable;
  }

  protected override async getIncompletePartSize(id: string): Promise<number | undefined> {
    return (await this.storedBytes(id)).tailBytes || undefined;
  }
}
