// The large-file lane: one file at a time per call, streamed over tus while the pool encrypts the
// range being asked for (transport/ciphertextSource.ts) and hashes the plaintext on the way. When a
// request fails, the retry budget decides whether and when to go on; the next attempt continues
// the same upload from the offset the server reports, so only the unacknowledged part of one chunk
// is sent again. After the last byte the hash completes the upload (`POST .../complete`), which is
// when the server creates the file record.
//
// Every step is written to the journal (resume/uploadJournal.ts): before the first byte the file's
// key (wrapped) and IV, then the upload's URL and each offset the server confirms, with the newest
// snapshot of the plaintext's hash within it (written only when it changed); the entry is
// deleted once the file is stored. Before each chunk leaves, the journal gets the content
// signature of everything handed to the network (signedCiphertextRange.ts). A file given a resume
// point (`UploadFile.resume`, built from that journal by a later page or a later attempt) is
// continued with the same key, IV and format from the server's offset, its hash continuing from
// the stored snapshot, but only after the file as read now matched that signature and the format
// and length the first page used; otherwise, like any other file, it first discards what an earlier
// attempt left at its path and starts over with a fresh key and IV (docs/format.md, "Resuming and
// nonce reuse").

import { isCryptoError } from '../../../../crypto/index.ts';
import { SourceReadError } from '../transport/ciphertextSource.ts';
import { RetryBudget, withRetries } from '../transport/retryBudget.ts';
import { isTransportError } from '../transport/transportError.ts';
import type { TusSent } from '../transport/tusUpload.ts';
import type { EncryptionSessionLike, FileIdentity, ResumableTransport, ResumePoint, UploadFile, UploadJournal } from './enginePorts.ts';
import { asProcessingFailure, encryptionFailed, hashingFailed } from './processingFailure.ts';
import type { RunContext } from './runContext.ts';
import { ResumeUnverifiedError, SignedCiphertextRange } from './signedCiphertextRange.ts';
import type { HashPlacement } from './uploadLimits.ts';

/** A resume point that must not be continued: the file starts over with a fresh key and IV. */
const RESUME_REFUSED = Symbol('resume refused');

/** Whether `error` says that the file or the server is not what the resume point promised. */
function refusesResume(error: unknown): boolean {
  const cause = error instanceof SourceReadError ? error.cause : error;
  return cause instanceof ResumeUnverifiedError || isCryptoError(cause, 'SOURCE_CHANGED');
}

export class ResumableLane {
  constructor(
    private readonly run: RunContext,
    private readonly transport: ResumableTransport,
    private readonly journal: UploadJournal,
  ) {}

  /** `hashPlacement`: where the pool hashes the file, for as many files as the run streams at once. */
  async send(file: UploadFile, hashPlacement?: HashPlacement): Promise<void> {
    if (this.run.aborted) return;
    const identity: FileIdentity = {
      linkToken: this.run.settings.linkToken,
      relativePath: file.relativePath,
      name: file.name,
      size: file.size,
      lastModified: file.lastModified,
    };
    try {
      this.run.events.statusChanged(file.id, 'hashing');
      await this.run.checkContent(file);
      if ((await this.sendWith(file, identity, hashPlacement)) === RESUME_REFUSED) {
        const { resume: _refused, ...fresh } = file;
        await this.sendWith(fresh, identity, hashPlacement);
      }
    } catch (error) {
      if (isTransportError(error, 'aborted')) return;
      this.run.fail(file, asProcessingFailure(error));
    }
  }

  /** One session of the file: resumed from `file.resume` if it has one, else with a fresh key and IV. */
  private async sendWith(file: UploadFile, identity: FileIdentity, hashPlacement?: HashPlacement): Promise<typeof RESUME_REFUSED | undefined> {
    const { events, settings } = this.run;
    const onWaiting = (waiting: boolean) => events.waiting(file.id, waiting);
    events.statusChanged(file.id, 'encrypting');
    const session = await this.run.open(file, hashPlacement);
    let refused = false;
    try {
      events.statusChanged(file.id, 'pending');
      let verifiedEnd = 0;
      if (file.resume === undefined) {
        // A leftover from an earlier attempt cannot be continued with this session's new key.
        await this.journal.discardEarlier(identity);
        await this.journal.opened(identity, session);
      } else {
        // A resumed file's hash needs nothing more here: the session's hash starts from the stored
        // snapshot, and the records between it and the server's offset are hashed when the upload
        // continues (or, with no snapshot, the whole file beside the upload: workers/encryption-job.ts).
        const checked = await this.checkResume(session, file.resume);
        if (checked === RESUME_REFUSED) {
          refused = true;
          return RESUME_REFUSED;
        }
        verifiedEnd = checked;
      }
      this.run.announceSending();
      events.statusChanged(file.id, 'uploading');
      let sent: TusSent;
      try {
        sent = await this.transfer(file, session, identity, verifiedEnd, onWaiting);
      } catch (error) {
        if (file.resume === undefined || !refusesResume(error)) throw error;
        refused = true;
        return RESUME_REFUSED;
      }
      let sha256: string;
      try {
        sha256 = await session.sha256();
      } catch (error) {
        throw hashingFailed(error);
      }
      const completion = [{ upload_id: sent.uploadId, file_hash: sha256 }];
      const body = await withRetries(
        () => this.transport.complete(settings.linkToken, completion, { signal: settings.signal }),
        new RetryBudget(),
        settings.signal,
        onWaiting,
      );
      this.journal.completed(identity);
      this.run.settle([file], body, () => sha256);
      return undefined;
    } finally {
      this.run.close(session);
      // What the earlier page left (entry, wrapped key, tus upload) goes before the file starts over.
      if (refused) await this.journal.discardEarlier(identity);
    }
  }

  /**
   * Whether the resumed session is the one the first page had: the same format and encrypted
   * length, and the file as read now gives the stored signature of what may have been sent.
   * Resolves with the ciphertext length that check vouches for, or RESUME_REFUSED.
   */
  private async checkResume(session: EncryptionSessionLike, resume: ResumePoint): Promise<number | typeof RESUME_REFUSED> {
    const sameFormat = session.formatVersion === resume.format.version && session.recordSize === resume.format.recordSize;
    if (!sameFormat || session.encryptedLength !== resume.encryptedLength) return RESUME_REFUSED;
    if (!resume.sent) return 0;
    try {
      return await session.verifySent(resume.sent);
    } catch (error) {
      if (refusesResume(error)) return RESUME_REFUSED;
      throw encryptionFailed(error);
    }
  }

  /** All of the ciphertext on the server, resuming the same upload after each retryable failure. */
  private transfer(file: UploadFile, session: EncryptionSessionLike, identity: FileIdentity, verifiedEnd: number, onWaiting: (waiting: boolean) => void): Promise<TusSent> {
    const { events, settings } = this.run;
    const budget = new RetryBudget();
    const range = new SignedCiphertextRange(session, (signature) => this.journal.sent(identity, signature), verifiedEnd);
    let uploadUrl = file.resume?.uploadUrl ?? undefined;
    let storedRecords = file.resume?.hash?.records;
    return withRetries(
      () =>
        this.transport.sendLarge({
          linkToken: settings.linkToken,
          range,
          metadata: {
            filename: file.name,
            relativePath: file.relativePath,
            encryptedKey: session.wrappedKey ?? '',
            iv: session.iv,
            plainSize: file.size,
            keyEpoch: settings.keyEpoch,
          },
          signal: settings.signal,
          resumeUrl: uploadUrl,
          onProgress: (bytes, total) => events.progressed(file.id, total > 0 ? bytes / total : 1),
          onChunkAccepted: (offset) => {
            budget.progressMade();
            this.journal.confirmed(identity, offset);
            // Only saved work: a snapshot that cannot be had costs hashing it again after a reload.
            session.hashCheckpoint(offset).then(
              (checkpoint) => {
                if (!checkpoint || checkpoint.records === storedRecords) return;
                storedRecords = checkpoint.records;
                this.journal.hashCheckpoint(identity, checkpoint);
              },
              () => undefined,
            );
          },
          onCreated: (url) => {
            uploadUrl = url;
            this.journal.created(identity, url);
          },
        }),
      budget,
      settings.signal,
      onWaiting,
    );
  }
}
