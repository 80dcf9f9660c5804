// The language an account chose in the app (locales/languages.ts): its notification e-mails are
// written in it. NULL: never chosen, English.
import type { SchemaMigration } from './dialect-helpers.ts';

export const accountLanguage: SchemaMigration = {
  async up(db) {
    await db.schema.alterTable('users').addColumn('language', 'varchar(16)').execute();
  },
};
