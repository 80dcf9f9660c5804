// Approvals of a new device by an unlocked one of the same account (docs/api.md "Single sign-on").
// A request is pending until an approver answers it (a conditional update: of two approvers racing,
// one wins) or it expires; the requester fetches the answer, then removes the request.
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, DeviceApprovalsTable } from '../schema.ts';
import { changedRows, refusableTransaction } from '../claims.ts';
import { rowMapper } from '../row-mapping.ts';

export interface DeviceApproval {
  id: string;
  userId: number;
  requesterSpki: string;
  requesterName: string;
  approverSpki: string | null;
  wrappedPrivateKey: string | null;
  createdAt: number;
  expiresAt: number;
  approvedAt: number | null;
}

const toApproval = rowMapper<Selectable<DeviceApprovalsTable>, DeviceApproval>()({
  numbers: ['created_at', 'expires_at', 'approved_at'],
});

export function createDeviceApprovalsRepository(db: Kysely<Database>) {
  /** The account's requests that have not expired, answered or not. */
  const live = (userId: number, now: number) =>
    db.selectFrom('device_approvals').selectAll().where('user_id', '=', userId).where('expires_at', '>', now);

  return {
    /** A new request, unless the account has `maxPending` live ones already (false). */
    async create(input: { id: string; userId: number; requesterSpki: string; requesterName: string; now: number; expiresAt: number }, maxPending: number): Promise<boolean> {
      return refusableTransaction(db, async (trx, refuse: (answer: false) => never) => {
        await trx.updateTable('users').set({ id: sql`id` }).where('id', '=', input.userId).execute();
        await trx.deleteFrom('device_approvals').where('user_id', '=', input.userId).where('expires_at', '<=', input.now).execute();
        const counted = await trx
          .selectFrom('device_approvals')
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .where('user_id', '=', input.userId)
          .executeTakeFirstOrThrow();
        if (Number(counted.n) >= maxPending) refuse(false);
        await trx
          .insertInto('device_approvals')
          .values({
            id: input.id,
            user_id: input.userId,
            requester_spki: input.requesterSpki,
            requester_name: input.requesterName,
            approver_spki: null,
            wrapped_private_key: null,
            created_at: input.now,
            expires_at: input.expiresAt,
            approved_at: null,
          })
          .execute();
        return true;
      });
    },

    /** The account's requests not yet answered nor expired, oldest first. */
    async listPending(userId: number, now: number): Promise<DeviceApproval[]> {
      const rows = await live(userId, now).where('approved_at', 'is', null).orderBy('created_at').execute();
      return rows.map(toApproval);
    },

    /** One request of the account, while it has not expired. */
    async find(userId: number, id: string, now: number): Promise<DeviceApproval | undefined> {
      const row = await live(userId, now).where('id', '=', id).executeTakeFirst();
      return row && toApproval(row);
    },

    /** Answers a pending request; false when it was answered, removed or expired meanwhile. */
    async approve(userId: number, id: string, answer: { approverSpki: string; wrappedPrivateKey: string }, now: number): Promise<boolean> {
      const result = await db
        .updateTable('device_approvals')
        .set({ approver_spki: answer.approverSpki, wrapped_private_key: answer.wrappedPrivateKey, approved_at: now })
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .where('approved_at', 'is', null)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return changedRows(result) === 1;
    },

    async remove(userId: number, id: string): Promise<boolean> {
      const result = await db.deleteFrom('device_approvals').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
      return changedRows(result) === 1;
    },
  };
}

export type DeviceApprovalsRepository = ReturnType<typeof createDeviceApprovalsRepository>;
