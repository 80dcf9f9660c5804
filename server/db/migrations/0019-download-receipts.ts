// A link's download is counted when a recipient has received the whole file, not at its first
// byte (docs/api.md, "Download limits"). `download_link_fetches` now also holds recipients still
// on their way: `served_ranges` is the ciphertext a recipient has been sent so far (merged byte
// ranges, JSON, a bounded number of them), `counted_at` is set when those ranges covered the file
// and the download was counted. Rows from before were counted at their first byte: they keep
// counting (counted_at = fetched_at).
//
// `server_secrets` gets the key recipient cookies are signed with, so that a cookie the server
// never issued is a new recipient (and is rate-limited as one), the same in every process.
import { randomBytes } from 'node:crypto';
import type { SchemaMigration } from './dialect-helpers.ts';

export const downloadReceipts: SchemaMigration = {
  async up(db) {
    await db.schema.alterTable('download_link_fetches').addColumn('served_ranges', 'text').execute();
    await db.schema.alterTable('download_link_fetches').addColumn('counted_at', 'bigint').execute();
    await db.updateTable('download_link_fetches').set((eb) => ({ counted_at: eb.ref('fetched_at') })).execute();
    await db.insertInto('server_secrets').values({ name: 'link-recipient', value: randomBytes(32).toString('base64url') }).execute();
  },
};
