// The PostgreSQL introspection the migrator uses (which schemas and tables exist), limited to the
// server's own schema and joined by oid only. Hand-written because Kysely's PostgresIntrospector
// scans every schema of the database and looks each one up by name (has_schema_privilege,
// pg_get_serial_sequence): a schema another instance dropped between the scan and the lookup
// failed this server's start with "schema ... does not exist".
import { sql, type DatabaseIntrospector, type DatabaseMetadata, type Kysely, type SchemaMetadata, type TableMetadata } from 'kysely';

interface ColumnRow {
  schema: string;
  table: string;
  table_type: string;
  column: string;
  not_null: boolean;
  has_default: boolean;
  type: string;
  type_schema: string;
  identity: string;
}

export class OwnSchemaIntrospector implements DatabaseIntrospector {
  /** `schema` null: the first schema of the search path that exists (current_schema()). */
  constructor(
    private readonly db: Kysely<unknown>,
    private readonly schema: string | null,
  ) {}

  async getSchemas(): Promise<SchemaMetadata[]> {
    const { rows } = await sql<{ name: string }>`select nspname as name from pg_catalog.pg_namespace`.execute(this.db);
    return rows.map((row) => ({ name: row.name }));
  }

  async getTables(): Promise<TableMetadata[]> {
    const schema = this.schema === null ? sql`current_schema()` : sql`${this.schema}`;
    const { rows } = await sql<ColumnRow>`
      select ns.nspname as schema, c.relname as table, c.relkind as table_type,
             a.attname as column, a.attnotnull as not_null, a.atthasdef as has_default,
             typ.typname as type, tns.nspname as type_schema, a.attidentity as identity
        from pg_catalog.pg_class c
        join pg_catalog.pg_namespace ns on ns.oid = c.relnamespace
        join pg_catalog.pg_attribute a on a.attrelid = c.oid
        join pg_catalog.pg_type typ on typ.oid = a.atttypid
        join pg_catalog.pg_namespace tns on tns.oid = typ.typnamespace
       where ns.nspname = ${schema}
         and c.relkind in ('r', 'v', 'p')
         and a.attnum > 0 and not a.attisdropped
       order by c.relname, a.attnum`.execute(this.db);
    const tables = new Map<string, TableMetadata & { columns: TableMetadata['columns'][number][] }>();
    for (const row of rows) {
      let table = tables.get(row.table);
      if (table === undefined) {
        table = { name: row.table, schema: row.schema, isView: row.table_type === 'v', columns: [] };
        tables.set(row.table, table);
      }
      table.columns.push({
        name: row.column,
        dataType: row.type,
        dataTypeSchema: row.type_schema,
        isNullable: !row.not_null,
        hasDefaultValue: row.has_default,
        // Identity columns only: a serial's sequence is found by name, which is what this avoids.
        isAutoIncrementing: row.identity !== '',
      });
    }
    return [...tables.values()];
  }

  async getMetadata(): Promise<DatabaseMetadata> {
    return { tables: await this.getTables() };
  }
}
