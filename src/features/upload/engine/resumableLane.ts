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
// deleted once the file is stored. A file given a resume point (`UploadFile.resume`, built from
// that journal by a later page or a later attempt) is continued with the same key and IV from the
// server's offset, its hash continuing from the stored snapshot; any other file first discards what an earlier attempt left at its path, so a
// changed file always starts over with a fresh key and IV (docs/format.md, "Resuming").

import { RetryBudget, withRetries } from '../transport/retryBudget.ts';
import { isTransportError } from '../transport/transportError.ts';
import type { TusSent } from '../transport/tusUpload.ts';
import type { EncryptionSessionLike, FileIdentity, ResumableTransport, UploadFile, UploadJournal } from './enginePorts.ts';
import { asProcessingFailure, hashingFailed } from './processingFailure.ts';
import type { RunContext } from './runContext.ts';

export class ResumableLane {
  constructor(
    private readonly run: RunContext,
    private readonly transport: ResumableTransport,
    private readonly journal: UploadJournal,
  ) {}

  async send(file: UploadFile): Promise<void> {
    if (this.run.aborted) return;
    const { events, settings } = this.run;
    const identity: FileIdentity = {
      linkToken: settings.linkToken,
      relativePath: file.relativePath,
      name: file.name,
      size: file.size,
      lastModified: file.lastModified,
    };
    const onWaiting = (waiting: boolean) => events.waiting(file.id, waiting);
    try {
      events.statusChanged(file.id, 'hashing');
      await this.run.checkContent(file);
      events.statusChanged(file.id, 'encrypting');
      const session = await this.run.open(file);
      try {
        events.statusChanged(file.id, 'pending');
        // A resumed file needs nothing more here: the session's hash starts from the stored
        // snapshot, and the records between it and the server's offset are hashed when the upload
        // continues (or, with no snapshot, the whole file beside the upload: workers/encryption-job.ts).
        if (file.resume === undefined) {
          // A leftover from an earlier attempt cannot be continued with this session's new key.
          await this.journal.discardEarlier(identity);
          await this.journal.opened(identity, session);
        }
        this.run.announceSending();
        events.statusChanged(file.id, 'uploading');
        const sent = await this.transfer(file, session, identity, onWaiting);
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
      } finally {
        await this.run.close(session);
      }
    } catch (error) {
      if (isTransportError(error, 'aborted')) return;
      this.run.fail(file, asProcessingFailure(error));
    }
  }

  /** All of the ciphertext on the server, resuming the same upload after each retryable failure. */
  private transfer(file: UploadFile, session: EncryptionSessionLike, identity: FileIdentity, onWaiting: (waiting: boolean) => void): Promise<TusSent> {
    const { events, settings } = this.run;
    const budget = new RetryBudget();
    let uploadUrl = file.resume?.uploadUrl ?? undefined;
    let storedRecords = file.resume?.hash?.records;
    return withRetries(
      () =>
        this.transport.sendLarge({
          linkToken: settings.linkToken,
          range: session,
          metadata: {
            filename: file.name,
            relativePath: file.relativePath,
            encryptedKey: session.wrappedKey ?? '',
            iv: session.iv,
            plainSize: file.size,
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
