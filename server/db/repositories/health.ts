// The readiness probe's question to the database: does it answer a query at all.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.ts';

export function createHealthRepository(db: Kysely<Database>) {
  return {
    async ping(): Promise<void> {
      await sql`select 1`.execute(db);
    },
  };
}
