// A connection of a test's own to the server's database, only to read it: how many rows each table
// holds (to bound what anonymous requests can add) and which rate-limit counters exist.
import { sql } from 'kysely';
import { loadConfig } from '../../server/config.ts';
import { openDatabase, type OpenDatabase } from '../../server/db/connection.ts';
import type { TestServer } from './harness.ts';

export async function observeDatabase(server: TestServer): Promise<OpenDatabase> {
  return openDatabase(loadConfig(server.env).database);
}

/** Rows per table of the server's own schema (the migrator's bookkeeping included). */
export async function rowsPerTable(database: OpenDatabase): Promise<Map<string, number>> {
  const tables = await database.db.introspection.getTables({ withInternalKyselyTables: true });
  const counts = new Map<string, number>();
  for (const table of tables) {
    const row = await database.db
      .selectFrom(sql.table(table.name).as('t'))
      .select(sql<number | string>`count(*)`.as('n'))
      .executeTakeFirstOrThrow();
    counts.set(table.name, Number(row.n));
  }
  return counts;
}

/** What each table gained between two counts (tables that grew only). */
export function rowsAdded(before: Map<string, number>, after: Map<string, number>): Record<string, number> {
  const added: Record<string, number> = {};
  for (const [table, count] of after) {
    const grew = count - (before.get(table) ?? 0);
    if (grew > 0) added[table] = grew;
  }
  return added;
}

/** Keys of the rate-limit counters starting with `prefix`. */
export async function counterKeys(database: OpenDatabase, prefix: string): Promise<string[]> {
  const rows = await database.db.selectFrom('failure_counters').select('key').where('key', 'like', `${prefix}%`).execute();
  return rows.map((row) => row.key);
}
