// The repository helpers on a real SQLite database: a refused transaction leaves nothing behind,
// the sweeps delete exactly up to their bound, and a live-row check matches every column it names.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { changedRows, claimedOne, refusableTransaction } from './claims.ts';
import { openDatabase, type OpenDatabase } from './connection.ts';
import { deleteBefore, deleteExpired, hasLiveRow } from './expiry.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sealdrop-claims-'));
let open: OpenDatabase;
let counter = 0;

beforeEach(async () => {
  counter += 1;
  open = await openDatabase({ kind: 'sqlite', file: path.join(dir, `claims-${counter}.db`) });
});

afterEach(async () => {
  await open.close();
});

async function counters(): Promise<string[]> {
  const rows = await open.db.selectFrom('failure_counters').select('key').orderBy('key').execute();
  return rows.map((row) => row.key);
}

describe('refusableTransaction', () => {
  it('rolls back what the transaction wrote before the refusal and answers the refusal', async () => {
    const answer = await refusableTransaction(open.db, async (trx, refuse: (answer: 'full') => never) => {
      await trx.insertInto('failure_counters').values({ key: 'written', failures: 1, reset_at: 0 }).execute();
      const grown = await trx.updateTable('failure_counters').set({ failures: 2 }).where('key', '=', 'absent').executeTakeFirst();
      if (!claimedOne(grown)) refuse('full');
      return 'done' as const;
    });
    expect(answer).toBe('full');
    expect(await counters()).toEqual([]);
  });

  it('commits and answers the work when nothing refuses; other errors pass through, rolled back', async () => {
    expect(await refusableTransaction(open.db, async (trx) => changedRows(await trx.insertInto('failure_counters').values({ key: 'kept', failures: 1, reset_at: 0 }).executeTakeFirst()))).toBe(1);
    const failure = new Error('disk on fire');
    await expect(
      refusableTransaction(open.db, async (trx) => {
        await trx.insertInto('failure_counters').values({ key: 'dropped', failures: 1, reset_at: 0 }).execute();
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(await counters()).toEqual(['kept']);
  });
});

describe('expiry', () => {
  it('deleteExpired deletes at and before the deadline, deleteBefore strictly before the cut-off', async () => {
    await open.db.insertInto('failure_counters').values([
      { key: 'a', failures: 1, reset_at: 99 },
      { key: 'b', failures: 1, reset_at: 100 },
      { key: 'c', failures: 1, reset_at: 101 },
    ]).execute();
    expect(await deleteBefore(open.db, 'failure_counters', 'reset_at', 100)).toBe(1);
    expect(await counters()).toEqual(['b', 'c']);
    expect(await deleteExpired(open.db, 'failure_counters', 100, 'reset_at')).toBe(1);
    expect(await counters()).toEqual(['c']);
  });

  it('hasLiveRow matches every column it is given and only rows whose deadline is after now', async () => {
    await open.db.insertInto('disk_space_claims').values({ id: 'claim-1', bytes: 10, expires_at: 100 }).execute();
    expect(await hasLiveRow(open.db, 'disk_space_claims', { id: 'claim-1' }, 99)).toBe(true);
    expect(await hasLiveRow(open.db, 'disk_space_claims', { id: 'claim-1' }, 100)).toBe(false);
    expect(await hasLiveRow(open.db, 'disk_space_claims', { id: 'claim-1', bytes: 11 }, 99)).toBe(false);
    expect(await hasLiveRow(open.db, 'disk_space_claims', { id: "claim-1' or '1'='1" }, 99)).toBe(false);
    // A value missing by mistake must not turn the check into "any live row".
    await expect(hasLiveRow(open.db, 'disk_space_claims', { id: undefined }, 99)).rejects.toThrow(TypeError);
  });
});
