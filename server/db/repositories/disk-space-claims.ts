// Claims on the room above the disk store's free-space reserve (migration 0018), shared by every
// process on the data directory. A grant runs in one transaction that first updates the single
// disk_space_turn row: on SQLite that takes the database's write lock, on PostgreSQL the row's lock,
// so grants of all processes take turns, and each sees every claim committed before it. Inside its
// turn the caller measures the free space (after the other writers' bytes are on disk and their
// claims updated), and the claim is stored only if it fits.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import { deleteExpired } from '../expiry.ts';

export function createDiskSpaceClaimsRepository(db: Kysely<Database>) {
  return {
    /** Bytes the live claims of every writer hold, granted and not yet written. */
    async claimed(now: number): Promise<number> {
      const row = await db
        .selectFrom('disk_space_claims')
        .select(sql<number | string | null>`sum(bytes)`.as('bytes'))
        .where('expires_at', '>', now)
        .executeTakeFirstOrThrow();
      return Number(row.bytes ?? 0);
    },

    /**
     * In claim `id`'s turn (see the header): `decide` gets what the other live claims hold and
     * answers the bytes the claim holds from now on, until `expiresAt`; null refuses (false,
     * nothing of the claim changed). Expired claims (writers that died) are forgotten on the way.
     */
    async claim(id: string, now: number, expiresAt: number, decide: (claimedByOthers: number) => Promise<number | null>): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        // An upsert, so the turn is taken even if the row were missing.
        await trx
          .insertInto('disk_space_turn')
          .values({ id: 1, turn: 1 })
          .onConflict((oc) => oc.column('id').doUpdateSet({ turn: sql`disk_space_turn.turn + 1` }))
          .execute();
        await deleteExpired(trx, 'disk_space_claims', now, 'expires_at');
        const others = await trx
          .selectFrom('disk_space_claims')
          .select(sql<number | string | null>`sum(bytes)`.as('bytes'))
          .where('id', '!=', id)
          .executeTakeFirstOrThrow();
        const bytes = await decide(Number(others.bytes ?? 0));
        if (bytes === null) return false;
        await trx
          .insertInto('disk_space_claims')
          .values({ id, bytes, expires_at: expiresAt })
          .onConflict((oc) => oc.column('id').doUpdateSet({ bytes, expires_at: expiresAt }))
          .execute();
        return true;
      });
    },

    /** The writer is done: its claim goes. */
    async release(id: string): Promise<void> {
      await db.deleteFrom('disk_space_claims').where('id', '=', id).execute();
    },
  };
}

export type DiskSpaceClaimsRepository = ReturnType<typeof createDiskSpaceClaimsRepository>;
