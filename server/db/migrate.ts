// Runs the in-code migrations (migrations/index.ts) with Kysely's Migrator, which takes a lock
// so several server processes starting together against PostgreSQL migrate only once.
import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import type { SqlDialect } from './migrations/dialect-helpers.ts';
import { schemaMigrations } from './migrations/index.ts';
import { codedError } from '../../contract/coded-error.ts';

export class MigrationFailedError extends codedError('MIGRATION_FAILED') {
  constructor(migrationName: string, options: { cause: unknown }) {
    super(`Database migration "${migrationName}" failed`, options);
  }
}

function provider(dialect: SqlDialect): MigrationProvider {
  return {
    async getMigrations() {
      const entries: Record<string, Migration> = {};
      for (const [name, migration] of schemaMigrations) {
        entries[name] = { up: (db) => migration.up(db, dialect) };
      }
      return entries;
    },
  };
}

export async function migrateToLatest(db: Kysely<any>, dialect: SqlDialect, schema: string | null): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: provider(dialect),
    // With a dedicated PostgreSQL schema, keep Kysely's bookkeeping tables in it too (and let the
    // Migrator create the schema), so separate schemas never see each other's migration state.
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new MigrationFailedError(failed, { cause: error });
  }
}
