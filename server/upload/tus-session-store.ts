// The tus file store's "configstore" (where it keeps each upload's size and metadata), backed by
// the upload_sessions table instead of a JSON file beside the bytes. The row is written by the
// creation hook (which knows the folder and the uploader), so `set` has nothing to add; the
// offset is never stored, the file store reads it from the size of the bytes on disk. With the
// state in the database, any server process (and a restarted one) can continue an upload.
import { Upload, type KvStore } from '@tus/server';
import type { Repositories } from '../db/repositories/index.ts';

export class UploadSessionKvStore implements KvStore<Upload> {
  constructor(private readonly sessions: Repositories['uploadSessions']) {}

  async get(id: string): Promise<Upload | undefined> {
    const session = await this.sessions.find(id);
    if (!session) return undefined;
    return new Upload({
      id,
      size: session.uploadLength,
      offset: 0,
      metadata: session.metadata,
      creation_date: new Date(session.createdAt).toISOString(),
    });
  }

  async set(): Promise<void> {
    // The creation hook wrote the row; sizes are never deferred (refused at creation), so there is
    // nothing to update.
  }

  async delete(id: string): Promise<void> {
    await this.sessions.delete(id);
  }
}
