// Rows with a lifetime: a deadline column (expires_at, reset_at) or a time after which they are
// forgotten (used_at, created_at, notified_at). Whether a row is live and how the sweep removes
// the dead ones is the same for every such table: live means the deadline lies after `now`; the
// sweep deletes at the deadline (`<= now`) and, for a cut-off, strictly before it.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from './schema.ts';

/** Tables that have `Column`. */
export type TableWith<Column extends string> = { [Table in keyof Database]: Column extends keyof Database[Table] ? Table : never }[keyof Database];

/** Columns of `Table` that hold a time (epoch ms). */
type TimeColumn<Table extends keyof Database> = {
  [Column in keyof Database[Table] & string]: Database[Table][Column] extends number | null ? Column : never;
}[keyof Database[Table] & string];

/** Deletes the rows of `table` whose `deadline` is at or before `now`; how many it deleted. */
export async function deleteExpired<Table extends keyof Database>(
  db: Kysely<Database>,
  table: Table,
  now: number,
  deadline: TimeColumn<Table>,
): Promise<number> {
  return deleteWhere(db, table, sql`${sql.ref(deadline)} <= ${now}`);
}

/** Deletes the rows of `table` whose `time` lies before `cutoff`; how many it deleted. */
export async function deleteBefore<Table extends keyof Database>(
  db: Kysely<Database>,
  table: Table,
  time: TimeColumn<Table>,
  cutoff: number,
): Promise<number> {
  return deleteWhere(db, table, sql`${sql.ref(time)} < ${cutoff}`);
}

/**
 * Whether `table` holds a row matching every column of `match` whose `expires_at` lies after
 * `now` (a pending login, a password grant): one indexed lookup, nothing read back.
 */
export async function hasLiveRow<Table extends TableWith<'expires_at'>>(
  db: Kysely<Database>,
  table: Table,
  match: { readonly [Column in keyof Database[Table] & string]?: string | number },
  now: number,
): Promise<boolean> {
  const conditions = [sql`expires_at > ${now}`];
  for (const [column, value] of Object.entries(match)) {
    // A value left out by mistake must not widen the match to every row.
    if (value === undefined) throw new TypeError(`hasLiveRow: no value for ${column}`);
    conditions.push(sql`${sql.ref(column)} = ${value}`);
  }
  const { rows } = await sql`select 1 from ${sql.table(table)} where ${sql.join(conditions, sql` and `)} limit 1`.execute(db);
  return rows.length > 0;
}

// Written with Kysely's sql template rather than its builder: the builder's types cannot follow a
// table name that is a type parameter (every method becomes a union of all tables' signatures).
async function deleteWhere(db: Kysely<Database>, table: keyof Database, condition: RawBuilder<unknown>): Promise<number> {
  const result = await sql`delete from ${sql.table(table)} where ${condition}`.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}
