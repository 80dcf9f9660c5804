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
// The gaps: parts are uploaded several at once, so a listing may hold a part whose predecessor is
// still uploading, or was lost when its PATCH failed. Only parts 1, 2, 3… up to the first missing
// one count, and the parts a failed PATCH left are marked on the tail after which they would
// otherwise count (see splitAtGap).
//
// The listings: a ListParts answer is parsed on the event loop, about 40 ms of CPU at 640 parts
// (docs/operations.md), and the stock store lists twice per PATCH (the offset check, then the
// write). Both run under the upload's lock (tus-locker.ts), so the write takes the count the
// offset check made for the same request: one listing per PATCH, one per HEAD.
import type { Readable } from 'node:stream';
import { S3Store } from '@tus/s3-store';
import { ERRORS, Upload } from '@tus/server';
import { codedError } from '../../contract/coded-error.ts';

/** S3 metadata key of a tail: the number of the last part it follows. */
const FOLLOWS_PART = 'follows-part';
/**
 * S3 metadata key of a tail: the parts listed after the one it follows when the PATCH that put it
 * began, as "number:ETag" pairs. A failed PATCH left them (see splitAtGap); none holds bytes a
 * PATCH acknowledged, so the count stops before any of them until a PATCH stores that number again
 * (a new ETag). A PATCH sends at most 64 MiB (TUS_CHUNK_BYTES), 8 parts, which S3's 2 KB of
 * metadata holds.
 */
const STALE_PARTS = 'stale-parts';
/** Listings kept for a write to take (one per upload being written; the oldest go first). */
const LISTINGS_KEPT = 1000;

type Metadata = Parameters<S3Store['uploadPart']>[0];
type PartBody = Parameters<S3Store['uploadPart']>[1];
type Part = Awaited<ReturnType<S3Store['retrieveParts']>>[number];

interface WriteInProgress {
  /** What was stored when the write began (from its request's offset check). */
  atStart: StoredBytes | undefined;
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

/** An upload's parts as one listing found them. */
interface Listing {
  /** Parts 1, 2, 3… up to the first one missing. */
  readonly run: Part[];
  /** The parts listed after that gap: not acknowledged (still uploading, or left by a failed PATCH). */
  readonly afterGap: Part[];
}

/** The short tail "<id>.part", as its S3 metadata describes it. */
interface Tail {
  readonly bytes: number;
  /** The last part it follows (null: a tail of an earlier version, without the mark). */
  readonly follows: number | null;
  /** ETags of parts after it that a failed PATCH left, by part number (see STALE_PARTS). */
  readonly stale: ReadonlyMap<number, string>;
}

interface StoredBytes {
  /** The listing the figures come from. */
  readonly listing: Listing;
  /** The parts counted: the listing's run, cut after the part a counted tail follows. */
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

/**
 * Splits a listing at its first missing part number. A PATCH uploads up to 8 parts at once, so its
 * short final part is often stored before the 8 MiB part ahead of it: a listing made then holds
 * part 2 without part 1 (seen in CI, tus-concurrent-patches on S3). A part after a gap is not
 * acknowledged yet, or is left from a PATCH whose earlier part failed: counted, it moved the offset
 * a HEAD reported below or above what was stored, and the next PATCH numbered its parts after it.
 * @tus/s3-store says its listing "retrieves only consecutive parts" and does not.
 *
 * Parts left by a failed PATCH become part of the run again once the parts before them are stored,
 * though no PATCH acknowledged their bytes. The PATCH that stores those parts marks them (its tail,
 * or an empty one, carries their numbers and ETags), and the count stops before a marked part.
 */
function splitAtGap(parts: readonly Part[]): Listing {
  const run: Part[] = [];
  for (const part of parts) {
    if (part.PartNumber !== run.length + 1) break;
    run.push(part);
  }
  return { run, afterGap: parts.slice(run.length) };
}

function lastPartOf(parts: readonly Part[]): number {
  return parts.reduce((last, part) => Math.max(last, part.PartNumber ?? 0), 0);
}

/** An ETag as S3 metadata can carry it (without the quotes S3 puts around it). */
const bareEtag = (etag: string | undefined) => (etag ?? '').replaceAll('"', '');

function tailFrom(bytes: number, metadata: Record<string, string> | undefined): Tail {
  const follows = Number(metadata?.[FOLLOWS_PART]);
  const stale = new Map<number, string>();
  for (const pair of (metadata?.[STALE_PARTS] ?? '').split(',')) {
    const [number, etag] = pair.split(':');
    if (number && etag) stale.set(Number(number), etag);
  }
  return { bytes, follows: Number.isInteger(follows) ? follows : null, stale };
}

/** Whether the part is one the tail marks as a failed PATCH's (the same number and ETag). */
const markedStale = (tail: Tail, part: Part) => tail.stale.get(part.PartNumber ?? 0) === bareEtag(part.ETag);

/** Whether a stored part holds the tail's bytes: the run goes on after the part it follows, with a part put since. */
function absorbed(tail: Tail, run: readonly Part[]): boolean {
  if (tail.follows === null || run.length <= tail.follows) return false;
  return !markedStale(tail, run[tail.follows]!);
}

/**
 * The parts listed after `lastPart` when a write began, as STALE_PARTS carries them. The write
 * holds the upload's lock and counted what was acknowledged, so such a part (in the run behind a
 * marked one, or after the gap) is a failed PATCH's.
 */
function staleParts(listing: Listing | undefined, lastPart: number): string {
  if (!listing) return '';
  return [...listing.run, ...listing.afterGap]
    .filter((part) => (part.PartNumber ?? 0) > lastPart)
    .map((part) => `${part.PartNumber}:${bareEtag(part.ETag)}`)
    .join(',');
}

export class TailSafeS3Store extends S3Store {
  /** Writes of this process, by upload (one at a time per upload: the shared locker). */
  private readonly writes = new Map<string, WriteInProgress>();
  /** The newest count of each upload's stored bytes, by the order their listings were started. */
  private readonly counts = new Map<string, { started: number; stored: StoredBytes }>();
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
    for (let attempt = 1; ; attempt++) {
      const started = ++this.listingsStarted;
      const listing = splitAtGap(await super.retrieveParts(id));
      const lastPart = lastPartOf(listing.run);
      if (tail && tail.follows !== null && tail.follows > lastPart) {
        if (attempt < LISTINGS_PER_OFFSET) continue;
        throw new StalePartListingError(id, tail.follows, lastPart);
      }
      const tailCounts = tail !== null && !absorbed(tail, listing.run);
      // A tail that counts ends the offset: the parts after it are still uploading or were left by
      // a failed PATCH. After one that a part took, the count stops before a part it marks.
      const firstMarked = tail ? listing.run.findIndex((part) => markedStale(tail, part)) : -1;
      const parts = tailCounts && tail.follows !== null ? listing.run.slice(0, tail.follows) : firstMarked >= 0 ? listing.run.slice(0, firstMarked) : listing.run;
      const stored = { listing, parts, partBytes: parts.reduce((sum, part) => sum + (part.Size ?? 0), 0), tailBytes: tailCounts ? tail.bytes : 0 };
      this.keepCount(id, started, stored);
      return stored;
    }
  }

  /** Keeps the newest count of an upload for its next write to take (see the header). */
  private keepCount(id: string, started: number, stored: StoredBytes): void {
    const newest = this.counts.get(id);
    if (newest && newest.started > started) return;
    this.counts.delete(id);
    this.counts.set(id, { started, stored });
    if (this.counts.size > LISTINGS_KEPT) this.counts.delete(this.counts.keys().next().value!);
  }

  private async tailOf(id: string): Promise<Tail | null> {
    try {
      const data = await this.client.headObject({ Bucket: this.bucket, Key: this.partKey(id, true) });
      return tailFrom(data.ContentLength ?? 0, data.Metadata);
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  /**
   * The stock write numbers its parts after the last one this returns, and completes the upload
   * with what it returns at the end.
   */
  protected override async retrieveParts(id: string, partNumberMarker?: string): Promise<Part[]> {
    // The stock listing pages through itself with a marker: only whole listings are counted.
    if (partNumberMarker !== undefined) return super.retrieveParts(id, partNumberMarker);
    const write = this.writes.get(id);
    if (write && write.atStart === undefined) {
      // The write's first listing: the count its request's offset check just made under the same lock.
      const newest = this.counts.get(id);
      this.counts.delete(id);
      write.atStart = newest?.stored ?? (await this.storedBytes(id));
      return write.atStart.parts;
    }
    return splitAtGap(await super.retrieveParts(id)).run;
  }

  override async write(src: Readable, id: string, offset: number): Promise<number> {
    const write: WriteInProgress = { atStart: undefined, hadTail: false, putTail: false, lastPart: 0, partFailed: false, parts: [] };
    this.writes.set(id, write);
    let written: number | undefined;
    try {
      written = await super.write(src, id, offset);
      return written;
    } finally {
      this.writes.delete(id);
      const stale = staleParts(write.atStart?.listing, write.lastPart);
      const stored = !write.putTail && !write.partFailed && write.lastPart > 0;
      if (stored && stale !== '' && (written === undefined || written < ((await this.getMetadata(id)).file.size ?? 0))) {
        // No tail of its own marks the failed PATCH's parts after its own (it ended on a part
        // boundary, or putting its tail failed): an empty tail does, in place of the one it took.
        await this.putTail(id, Buffer.alloc(0), write.lastPart, stale).catch(() => undefined);
      } else if (write.hadTail && stored) {
        // Its bytes are in a part this write stored, and no new tail replaced it. After a failed
        // part the tail stays: the part that would hold its bytes may be the one missing.
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
    const atStart = write?.atStart ?? (await this.storedBytes(id));
    const follows = write?.lastPart || lastPartOf(atStart.parts);
    const etag = await this.putTail(id, readStream, follows, staleParts(atStart.listing, follows));
    if (write) write.putTail = true;
    return etag;
  }

  /** Puts (or replaces, in one put) the tail, marked with the part it follows. */
  private async putTail(id: string, body: Readable | Buffer, follows: number, stale: string): Promise<string> {
    const data = await this.client.putObject({
      Bucket: this.bucket,
      Key: this.partKey(id, true),
      Body: body,
      Tagging: this.useCompleteTag('false'),
      Metadata: { [FOLLOWS_PART]: String(follows), ...(stale === '' ? {} : { [STALE_PARTS]: stale }) },
    });
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
    const run = (write?.atStart ?? (await this.storedBytes(id))).listing.run;
    if (absorbed(tailFrom(data.ContentLength ?? 0, data.Metadata), run)) {
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
