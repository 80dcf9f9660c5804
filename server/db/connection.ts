// Opens the database the configuration names: a SQLite file under DATA_DIR (the default) or
// PostgreSQL (DATABASE_URL), and brings its schema up to date before anything else touches it.
import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import type { DatabaseConfig } from '../config.ts';
import type { SqlDialect } from './migrations/dialect-helpers.ts';
import { migrateToLatest } from './migrate.ts';
import type { Database } from './schema.ts';

export interface OpenDatabase {
  db: Kysely<Database>;
  dialect: SqlDialect;
  close(): Promise<void>;
}

const PG_INT8_OID = 20;

function sqliteDialect(file: string): SqliteDialect {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new BetterSqlite3(file);
  // WAL lets the admin CLI write while the server reads; the busy timeout makes the rare
  // concurrent writer wait instead of failing with SQLITE_BUSY.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  return new SqliteDialect({ database: sqlite });
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
  return new PostgresDialect({ pool });
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
