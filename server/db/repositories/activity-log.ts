// The activity log's rows. Appending is the service's job (server/activity/activity-log.ts computes
// the chain); here: the last entry of an account, inserting one (a concurrent append with the same
// seq fails on the unique (user_id, seq) constraint and is retried by the service), reading pages
// with filters, reading the whole chain in order, and removing an account's oldest entries.
import type { Kysely, Selectable } from 'kysely';
import type { ActivityLogTable, Database } from '../schema.ts';
import { rowMapper, rowValues } from '../row-mapping.ts';
import { changedRows } from '../claims.ts';
import type { StoredEntry } from '../../activity/chain.ts';

export interface ActivityFilter {
  folderId?: number | undefined;
  kinds?: readonly string[] | undefined;
  /** Inclusive, epoch ms. */
  from?: number | undefined;
  /** Exclusive, epoch ms. */
  to?: number | undefined;
  /** Only entries older than this seq (the next page). */
  beforeSeq?: number | undefined;
}


// The row id orders nothing (seq does) and is not part of the chain.
const toEntry = rowMapper<Selectable<ActivityLogTable>, StoredEntry>()({ numbers: ['seq', 'at'], omit: ['id'] });

export function createActivityLogRepository(db: Kysely<Database>) {
  return {
    async last(userId: number): Promise<{ seq: number; hash: string } | undefined> {
      const row = await db.selectFrom('activity_log').select(['seq', 'hash']).where('user_id', '=', userId).orderBy('seq', 'desc').limit(1).executeTakeFirst();
      return row && { seq: Number(row.seq), hash: row.hash };
    },

    async insert(entry: StoredEntry): Promise<void> {
      await db
        .insertInto('activity_log')
        .values(rowValues(entry, ['userId', 'seq', 'at', 'kind', 'folderId', 'details', 'ipHash', 'prevHash', 'hash']))
        .execute();
    },

    /** Newest first, at most `limit`. */
    async page(userId: number, filter: ActivityFilter, limit: number): Promise<StoredEntry[]> {
      let query = db.selectFrom('activity_log').selectAll().where('user_id', '=', userId);
      if (filter.folderId !== undefined) query = query.where('folder_id', '=', filter.folderId);
      if (filter.kinds !== undefined && filter.kinds.length > 0) query = query.where('kind', 'in', [...filter.kinds]);
      if (filter.from !== undefined) query = query.where('at', '>=', filter.from);
      if (filter.to !== undefined) query = query.where('at', '<', filter.to);
      if (filter.beforeSeq !== undefined) query = query.where('seq', '<', filter.beforeSeq);
      const rows = await query.orderBy('seq', 'desc').limit(limit).execute();
      return rows.map(toEntry);
    },

    /** The account's chain in seq order, from `afterSeq` on, `limit` at a time. */
    async chain(userId: number, afterSeq: number, limit: number): Promise<StoredEntry[]> {
      const rows = await db.selectFrom('activity_log').selectAll().where('user_id', '=', userId).where('seq', '>', afterSeq).orderBy('seq', 'asc').limit(limit).execute();
      return rows.map(toEntry);
    },

    /** Accounts with entries older than `at`, and the largest seq among those entries. */
    async oldEntriesByAccount(at: number): Promise<Array<{ userId: number; throughSeq: number }>> {
      const rows = await db
        .selectFrom('activity_log')
        .select(['user_id', (eb) => eb.fn.max('seq').as('through_seq')])
        .where('at', '<', at)
        .groupBy('user_id')
        .execute();
      return rows.map((row) => ({ userId: row.user_id, throughSeq: Number(row.through_seq) }));
    },

    /** Deletes an account's entries up to and including `seq`; how many were deleted. */
    async deleteThrough(userId: number, seq: number): Promise<number> {
      const result = await db.deleteFrom('activity_log').where('user_id', '=', userId).where('seq', '<=', seq).executeTakeFirst();
      return changedRows(result);
    },
  };
}

export type ActivityLogRepository = ReturnType<typeof createActivityLogRepository>;
