// The idempotency keys of multipart upload requests and the answers they got (migration 0013).
// A key is recorded together with its request's files (files.createMany), never on its own.
import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import { deleteBefore } from '../expiry.ts';

export function createUploadBatchesRepository(db: Kysely<Database>) {
  return {
    /** The stored answer (parsed JSON) of the request that recorded `key` for this folder. */
    async findResult(folderId: number, key: string): Promise<unknown> {
      const row = await db
        .selectFrom('upload_batches')
        .select('result')
        .where('folder_id', '=', folderId)
        .where('idempotency_key', '=', key)
        .executeTakeFirst();
      return row === undefined ? undefined : (JSON.parse(row.result) as unknown);
    },

    /** Forgets keys recorded before `before` (the upload sweep); returns how many. */
    async deleteRecordedBefore(before: number): Promise<number> {
      return deleteBefore(db, 'upload_batches', 'created_at', before);
    },
  };
}
