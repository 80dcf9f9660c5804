// The few places where SQLite and PostgreSQL DDL differ, so that each migration is written once.
import type { ColumnDefinitionBuilder, CreateTableBuilder, Kysely } from 'kysely';

export type SqlDialect = 'sqlite' | 'postgres';

/** A step of the schema's history. `dialect` is given for the rare DDL that must differ. */
export interface SchemaMigration {
  up(db: Kysely<any>, dialect: SqlDialect): Promise<void>;
}

/** Adds an auto-numbered integer primary key named `id`. */
export function withIdColumn<T extends string>(
  table: CreateTableBuilder<T, never>,
  dialect: SqlDialect,
): CreateTableBuilder<T, 'id'> {
  return table.addColumn('id', 'integer', (col: ColumnDefinitionBuilder) =>
    dialect === 'postgres' ? col.primaryKey().generatedByDefaultAsIdentity() : col.primaryKey().autoIncrement(),
  );
}
