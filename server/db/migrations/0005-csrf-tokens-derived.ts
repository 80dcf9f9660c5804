// The CSRF token bound to a session is no longer stored: it is derived from the session token
// (server/auth/tokens.ts csrfTokenForSession), so the database holds no usable CSRF token. Sessions
// made before this change have no derivable token; they end, and their users sign in again.
import type { SchemaMigration } from './dialect-helpers.ts';

export const csrfTokensDerived: SchemaMigration = {
  async up(db) {
    await db.deleteFrom('sessions').execute();
    await db.schema.alterTable('sessions').dropColumn('csrf_token').execute();
  },
};
