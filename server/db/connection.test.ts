// A transaction that fails because the disk is full reports SQLITE_FULL, not the failed ROLLBACK
// that followed it (SQLite had already rolled back): SQLite's page limit stands in for a full disk.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type OpenDatabase } from './connection.ts';

let open: OpenDatabase | undefined;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sealdrop-connection-'));

afterEach(async () => {
  await open?.close();
  open = undefined;
});

describe('SQLite transactions on a full disk', () => {
  it('reject with SQLITE_FULL itself, and the connection goes on working', async () => {
    open = await openDatabase({ kind: 'sqlite', file: path.join(dir, 'full.db') });
    const { db } = open;
    const pages = (await sql<{ page_count: number }>`pragma page_count`.execute(db)).rows[0]!.page_count;
    await sql.raw(`pragma max_page_count = ${pages + 2}`).execute(db);

    const failure = await db
      .transaction()
      .execute(async (trx) => {
        for (let i = 0; i < 50; i++) {
          await trx.insertInto('failure_counters').values({ key: `k${i}-${'x'.repeat(2000)}`, failures: 1, reset_at: 0 }).execute();
        }
      })
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(failure).toMatchObject({ code: 'SQLITE_FULL' });

    await sql.raw('pragma max_page_count = 1073741823').execute(db);
    await db.insertInto('failure_counters').values({ key: 'after', failures: 1, reset_at: 0 }).execute();
    expect(await db.selectFrom('failure_counters').select('key').execute()).toEqual([{ key: 'after' }]);
  });
});
