// A server starting in its own PostgreSQL schema while another schema of the same database is
// dropped (another instance retired, a test server closing) must still migrate: Kysely's own
// introspector looked every schema in the database up by name, and one dropped between its catalog
// scan and that lookup failed the start with "schema ... does not exist" (CI, test:pg).
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/connection.ts';

const databaseUrl = process.env.DATABASE_URL;
const created: string[] = [];

async function withClient<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

// skip-reason: needs PostgreSQL (DATABASE_URL); npm run test:pg sets it, .ci/run runs that
describe.skipIf(!databaseUrl)('migrating on PostgreSQL while other schemas come and go', () => {
  afterAll(async () => {
    await withClient(databaseUrl!, async (client) => {
      for (const schema of created) await client.query(`drop schema if exists "${schema}" cascade`);
    });
  });

  // Thirty migrating starts: on a two-core machine also running the benchmarks they can take
  // several times as long as alone (docs/operations.md, "CI on that machine").
  it('starts every time, and finds its own tables when it starts again', { timeout: 120_000 }, async () => {
    const prefix = `race_${randomBytes(3).toString('hex')}`;
    let churning = true;
    // Schemas with tables (the catalog rows the introspection scans), dropped as soon as made.
    const churn = withClient(databaseUrl!, async (client) => {
      for (let i = 0; churning; i++) {
        const schema = `${prefix}_churn_${i}`;
        await client.query(`create schema "${schema}"`);
        for (let t = 0; t < 5; t++) await client.query(`create table "${schema}".t${t} (id serial primary key, v text)`);
        await client.query(`drop schema "${schema}" cascade`);
      }
    });
    try {
      for (let i = 0; i < 15; i++) {
        const schema = `${prefix}_own_${i}`;
        created.push(schema);
        const first = await openDatabase({ kind: 'postgres', url: databaseUrl!, schema });
        await first.close();
        // Started again: the migrations already ran, so it must see its own bookkeeping tables.
        const again = await openDatabase({ kind: 'postgres', url: databaseUrl!, schema });
        const users = await again.db.selectFrom('users').select('id').execute();
        await again.close();
        expect(users).toEqual([]);
      }
    } finally {
      churning = false;
      await churn;
    }
  });
});
