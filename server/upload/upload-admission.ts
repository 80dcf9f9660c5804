// What a multipart request may store, decided while its body streams: before a file's first byte
// it takes one more file from its folder's limits, and before each piece of bytes it takes those
// bytes from the folder's limits (a claim in the shared database, folder-usage.ts) and from the
// disk's free-space reserve (a lease, free-space.ts). The first piece that would pass either is
// refused (FOLDER_QUOTA_EXCEEDED, STORAGE_FULL) before it is written.
//
// The claim grows in grants that double from exactly what the first piece (or file) needs up to
// CLAIM_GRANT_BYTES (CLAIM_GRANT_FILES), so a large body costs one database write per MiB rather
// than one per piece, while a small request takes exactly what it sends and holds at most about
// twice what it has sent (parallel requests near a limit do not refuse each other for room none
// of them uses). When a grant does not fit, exactly what the piece needs is tried before refusing,
// so a request is refused only when its own bytes would pass the limit. While the body streams its
// encrypted bytes count; the claim is settled with the files' records (the ledger then holds
// exactly their plaintext sizes) or given back when the request fails; the sweep gives back the
// claim of a request that died (after UPLOAD_ABANDON_HOURS).
//
// A request can fail while one of its takes is still on its way to the database (the client went
// mid-body while a piece was being admitted). Giving back waits for those takes first: a claim
// opened after it was given back would hold the folder's room until the sweep, and two
// transactions on the same claim at once can deadlock each other.
import { randomUUID } from 'node:crypto';
import { finished, Transform, type Readable } from 'node:stream';
import type { FolderUsageRepository, Usage } from '../db/repositories/folder-usage.ts';
import type { SpaceGuard, SpaceLease } from '../storage/free-space.ts';
import { FolderQuotaExceededError } from '../storage/storage-errors.ts';
import { codedError } from '../../contract/coded-error.ts';

export const CLAIM_GRANT_BYTES = 1024 * 1024;
export const CLAIM_GRANT_FILES = 8;

export interface AdmissionDeps {
  usage: FolderUsageRepository;
  folderId: number;
  space: SpaceGuard;
  now: () => number;
  /** How long a claim lives after its last grant before the sweep gives it back. */
  claimTtlMs: number;
}

/** A take asked for after the request gave back what it took (its stream was already failing). */
export class AdmissionEndedError extends codedError('ADMISSION_ENDED') {}

export class UploadAdmission {
  private claimId: string | null = null;
  private readonly granted: Usage = { bytes: 0, files: 0 };
  private readonly used: Usage = { bytes: 0, files: 0 };
  /** The last grant of each kind: the next one doubles it. */
  private readonly lastGrant: Usage = { bytes: 0, files: 0 };
  private readonly lease: SpaceLease;
  /** Takes still running (settled, never rejecting): abandon waits for them before it gives back. */
  private readonly takes = new Set<Promise<void>>();
  private ended = false;

  constructor(private readonly deps: AdmissionDeps) {
    this.lease = deps.space.lease();
  }

  /** One more file; FolderQuotaExceededError when the folder's file limit leaves no room. */
  admitFile(): Promise<void> {
    return this.tracked(() => this.take('files', 1, CLAIM_GRANT_FILES));
  }

  /** `bytes` more of the current file, from the folder's limits and then from the disk's reserve. */
  admitBytes(bytes: number): Promise<void> {
    return this.tracked(async () => {
      await this.take('bytes', bytes, CLAIM_GRANT_BYTES);
      await this.lease.take(bytes);
      // Handed on to the blob store, which writes with a small buffer (backpressure): counted as
      // written, so the lease promises no more than the pieces still on their way.
      this.lease.wrote(this.used.bytes);
    });
  }

  /**
   * `file` with every piece admitted before it is passed on. A refusal (or the store failing)
   * ends the returned stream with the error; the rest of `file` is then read and dropped, never
   * left unread: the multipart parser stops at an unread part, and a request body left unread
   * wedges its keep-alive connection (the client's next request on it is never parsed).
   */
  admitted(file: Readable): Readable {
    const gate = new Transform({
      transform: (chunk: Buffer, _encoding, callback) => {
        this.admitBytes(chunk.length).then(
          () => callback(null, chunk),
          (error: unknown) => callback(error as Error),
        );
      },
    });
    // A part that fails or ends early (the client went away mid-body: the parser destroys it,
    // possibly without an error) must fail the store's write too, or it would wait forever.
    finished(file, (error) => {
      if (error) gate.destroy(error);
    });
    // A refusal can come before the store reads from `gate` (it may first create a directory): the
    // store's pipeline still sees the error (the stream is destroyed with it), never an unhandled event.
    gate.on('error', () => undefined);
    gate.once('close', () => {
      if (file.readableEnded) return;
      file.unpipe(gate);
      file.resume();
    });
    return file.pipe(gate);
  }

  /** The claim to settle with the request's records (undefined: it took nothing). */
  claimToSettle(): { id: string; folderId: number } | undefined {
    return this.claimId === null ? undefined : { id: this.claimId, folderId: this.deps.folderId };
  }

  /** The request succeeded (its claim was settled with its records): the disk lease goes back. */
  async finish(): Promise<void> {
    await this.lease.release();
  }

  /** The request failed: everything it took goes back, once the takes still running have ended. */
  async abandon(): Promise<void> {
    this.ended = true;
    await Promise.all(this.takes);
    await this.lease.release();
    if (this.claimId !== null) await this.deps.usage.releaseClaim(this.claimId);
  }

  private tracked(work: () => Promise<void>): Promise<void> {
    if (this.ended) return Promise.reject(new AdmissionEndedError('this request already gave back what it took'));
    const running = work();
    const settled = running.then(
      () => undefined,
      () => undefined,
    );
    this.takes.add(settled);
    void settled.then(() => this.takes.delete(settled));
    return running;
  }

  private async take(kind: keyof Usage, amount: number, maxGrant: number): Promise<void> {
    const need = this.used[kind] + amount - this.granted[kind];
    if (need > 0) {
      const grant = Math.max(need, Math.min(this.lastGrant[kind] * 2, maxGrant));
      if (!(await this.grow(kind, grant)) && !(need < grant && (await this.grow(kind, need)))) throw new FolderQuotaExceededError();
    }
    this.used[kind] += amount;
  }

  private async grow(kind: keyof Usage, amount: number): Promise<boolean> {
    const { usage, folderId, now, claimTtlMs } = this.deps;
    const expiresAt = now() + claimTtlMs;
    if (this.claimId === null) {
      this.claimId = randomUUID();
      await usage.openClaim(this.claimId, folderId, expiresAt);
    }
    const more = { bytes: 0, files: 0, [kind]: amount };
    if (!(await usage.growClaim(this.claimId, folderId, more, expiresAt))) return false;
    this.granted[kind] += amount;
    this.lastGrant[kind] = amount;
    return true;
  }
}
