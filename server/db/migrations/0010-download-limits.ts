// Download limits on links: a link may allow each of its files to be fetched at most
// `max_downloads` times (null: no limit). A fetch is counted once per recipient and file:
// `download_link_fetches` remembers which recipient (a random cookie token, stored hashed) has
// already been counted, so a ranged, resumed or repeated fetch by the same browser counts once.
// `download_count` and `last_download_at` are what the admin's link list shows.
import type { SchemaMigration } from './dialect-helpers.ts';

export const downloadLimits: SchemaMigration = {
  async up(db) {
    await db.schema.alterTable('download_links').addColumn('max_downloads', 'integer').execute();
    await db.schema
      .alterTable('download_link_files')
      .addColumn('download_count', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.alterTable('download_link_files').addColumn('last_download_at', 'bigint').execute();

    await db.schema
      .createTable('download_link_fetches')
      .addColumn('link_id', 'integer', (c) => c.notNull().references('download_links.id').onDelete('cascade'))
      .addColumn('file_id', 'integer', (c) => c.notNull().references('files.id').onDelete('cascade'))
      .addColumn('recipient_hash', 'varchar(64)', (c) => c.notNull())
      .addColumn('fetched_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('download_link_fetches_pk', ['link_id', 'file_id', 'recipient_hash'])
      .execute();
    // The cascade from files looks fetches up by file id.
    await db.schema.createIndex('download_link_fetches_file_id').on('download_link_fetches').column('file_id').execute();
  },
};
