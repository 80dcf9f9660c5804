// Opens the database the configuration names: a SQLite file under DATA_DIR (the default) or
// PostgreSQL (DATABASE_URL), and brings its schema up to date before anything else touches it.
import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { Kysely, PostgresDialect, SqliteDialect, type DatabaseConnection, type DatabaseIntrospector, type Driver, type TransactionSettings } from 'kysely';
import type { DatabaseConfig } from '../config.ts';
import type { SqlDialect } from './migrations/dialect-helpers.ts';
import { migrateToLatest } from './migrate.ts';
import { OwnSchemaIntrospector } from './own-schema-introspector.ts';
import type { Database } from './schema.ts';

export interface OpenDatabase {
  db: Kysely<Database>;
  dialect: SqlDialect;
  close(): Promise<void>;
}

const PG_INT8_OID = 20;

/**
 * Kysely's SQLite driver with one change: no ROLLBACK when SQLite has already ended the
 * transaction. On SQLITE_FULL (a full disk) SQLite rolls the transaction back itself; Kysely's
 * ROLLBACK then failed with "cannot rollback - no transaction is active", and that error replaced
 * the real one (a delete on a full disk answered 500 with only that in the log). Now the caller,
 * the log and the upload write path (storage-errors.ts isNoSpaceError) see SQLITE_FULL itself.
 */
class CauseKeepingDriver implements Driver {
  constructor(
    private readonly driver: Driver,
    private readonly sqlite: BetterSqlite3.Database,
  ) {}
  init(): Promise<void> {
    return this.driver.init();
  }
  acquireConnection(): Promise<DatabaseConnection> {
    return this.driver.acquireConnection();
  }
  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.driver.beginTransaction(connection, settings);
  }
  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.driver.commitTransaction(connection);
  }
  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    if (this.sqlite.inTransaction) await this.driver.rollbackTransaction(connection);
  }
  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.driver.releaseConnection(connection);
  }
  destroy(): Promise<void> {
    return this.driver.destroy();
  }
}

class CauseKeepingSqliteDialect extends SqliteDialect {
  constructor(private readonly sqlite: BetterSqlite3.Database) {
    super({ database: sqlite });
  }
  override createDriver(): Driver {
    return new CauseKeepingDriver(super.createDriver(), this.sqlite);
  }
}

function sqliteDialect(file: string): SqliteDialect {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new BetterSqlite3(file);
  // WAL lets the admin CLI write while the server reads; the busy timeout makes the rare
  // concurrent writer wait instead of failing with SQLITE_BUSY.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  return new CauseKeepingSqliteDialect(sqlite);
}

/** Kysely's PostgreSQL dialect, introspecting only the server's own schema (own-schema-introspector.ts). */
class OwnSchemaPostgresDialect extends PostgresDialect {
  constructor(
    config: ConstructorParameters<typeof PostgresDialect>[0],
    private readonly schema: string | null,
  ) {
    super(config);
  }
  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new OwnSchemaIntrospector(db, this.schema);
  }
}

function postgresDialect(url: string, schema: string | null): PostgresDialect {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    // Times are epoch milliseconds in bigint columns; they fit a JS number exactly.
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === PG_INT8_OID && format !== 'binary'
          ? (value: string) => Number(value)
          : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
    },
    // The schema name is validated as a plain identifier by the configuration.
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  return new OwnSchemaPostgresDialect({ pool }, schema);
}

export async function openDatabase(config: DatabaseConfig): Promise<OpenDatabase> {
  const dialect: SqlDialect = config.kind;
  const db = new Kysely<Database>({
    dialect: config.kind === 'sqlite' ? sqliteDialect(config.file) : postgresDialect(config.url, config.schema),
  });
  try {
    await migrateToLatest(db, dialect, config.kind === 'postgres' ? config.schema : null);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return { db, dialect, close: () => db.destroy() };
}
