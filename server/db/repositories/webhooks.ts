// Webhook endpoints (one per admin) and their delivery queue. A delivery is claimed by one process
// at a time with a conditional update (claimed_until), so several processes deliver each event
// once; the outcome of every attempt is kept for the admin's profile page.
import type { Kysely, Selectable } from 'kysely';
import type { Database, WebhookDeliveriesTable, WebhookDeliveryStatus, WebhookEndpointsTable } from '../schema.ts';
import { changedRows, claimEach } from '../claims.ts';
import { rowMapper } from '../row-mapping.ts';

export interface WebhookEndpoint {
  id: number;
  userId: number;
  url: string;
  secretNonce: string;
  createdAt: number;
}

export interface WebhookDelivery {
  id: number;
  endpointId: number;
  eventId: string;
  eventType: string;
  payload: string;
  createdAt: number;
  status: WebhookDeliveryStatus;
  attempts: number;
  nextAttemptAt: number;
  lastStatusCode: number | null;
  lastError: string | null;
  completedAt: number | null;
}

const toEndpoint = rowMapper<Selectable<WebhookEndpointsTable>, WebhookEndpoint>()({ numbers: ['created_at'] });

const toDelivery = rowMapper<Selectable<WebhookDeliveriesTable>, WebhookDelivery>()({
  numbers: ['created_at', 'next_attempt_at', 'completed_at'],
  // Which process holds the delivery is the queue's business, not the record's.
  omit: ['claimed_until'],
});

export function createWebhooksRepository(db: Kysely<Database>) {
  return {
    async endpointOf(userId: number): Promise<WebhookEndpoint | undefined> {
      const row = await db.selectFrom('webhook_endpoints').selectAll().where('user_id', '=', userId).executeTakeFirst();
      return row && toEndpoint(row);
    },

    async endpointById(id: number): Promise<WebhookEndpoint | undefined> {
      const row = await db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirst();
      return row && toEndpoint(row);
    },

    /** Sets the admin's endpoint. A new nonce (a new secret) only when asked: changing the URL keeps it. */
    async saveEndpoint(input: { userId: number; url: string; newSecretNonce: string | null; now: number }): Promise<void> {
      const existing = await db.selectFrom('webhook_endpoints').select(['id', 'secret_nonce']).where('user_id', '=', input.userId).executeTakeFirst();
      if (existing) {
        await db
          .updateTable('webhook_endpoints')
          .set({ url: input.url, ...(input.newSecretNonce !== null ? { secret_nonce: input.newSecretNonce } : {}) })
          .where('id', '=', existing.id)
          .execute();
        return;
      }
      if (input.newSecretNonce === null) throw new Error('a new endpoint needs a secret nonce');
      await db
        .insertInto('webhook_endpoints')
        .values({ user_id: input.userId, url: input.url, secret_nonce: input.newSecretNonce, created_at: input.now })
        .onConflict((conflict) => conflict.column('user_id').doUpdateSet({ url: input.url }))
        .execute();
    },

    async deleteEndpoint(userId: number): Promise<boolean> {
      const result = await db.deleteFrom('webhook_endpoints').where('user_id', '=', userId).executeTakeFirst();
      return changedRows(result) > 0;
    },

    async enqueue(input: { endpointId: number; eventId: string; eventType: string; payload: string; now: number }): Promise<number> {
      const row = await db
        .insertInto('webhook_deliveries')
        .values({
          endpoint_id: input.endpointId,
          event_id: input.eventId,
          event_type: input.eventType,
          payload: input.payload,
          created_at: input.now,
          status: 'pending',
          next_attempt_at: input.now,
          claimed_until: null,
          last_status_code: null,
          last_error: null,
          completed_at: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },

    /**
     * Claims up to `limit` due deliveries for this process until `now + claimMs`. Each claim is a
     * conditional update, so a delivery another process claimed first is skipped.
     */
    async claimDue(now: number, claimMs: number, limit: number): Promise<WebhookDelivery[]> {
      const due = await db
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('status', '=', 'pending')
        .where('next_attempt_at', '<=', now)
        .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
        .orderBy('id')
        .limit(limit)
        .execute();
      return claimEach(due, async ({ id }) => {
        const row = await db
          .updateTable('webhook_deliveries')
          .set((eb) => ({ claimed_until: now + claimMs, attempts: eb('attempts', '+', 1) }))
          .where('id', '=', id)
          .where('status', '=', 'pending')
          .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
          .returningAll()
          .executeTakeFirst();
        return row && toDelivery(row);
      });
    },

    async finish(id: number, outcome: { status: WebhookDeliveryStatus; statusCode: number | null; error: string | null; nextAttemptAt: number; now: number }): Promise<void> {
      await db
        .updateTable('webhook_deliveries')
        .set({
          status: outcome.status,
          last_status_code: outcome.statusCode,
          last_error: outcome.error,
          next_attempt_at: outcome.nextAttemptAt,
          claimed_until: null,
          completed_at: outcome.status === 'pending' ? null : outcome.now,
        })
        .where('id', '=', id)
        .execute();
    },

    async recent(endpointId: number, limit: number): Promise<WebhookDelivery[]> {
      const rows = await db.selectFrom('webhook_deliveries').selectAll().where('endpoint_id', '=', endpointId).orderBy('id', 'desc').limit(limit).execute();
      return rows.map(toDelivery);
    },

    async deleteFinishedBefore(before: number): Promise<void> {
      await db.deleteFrom('webhook_deliveries').where('status', '!=', 'pending').where('completed_at', '<', before).execute();
    },
  };
}

export type WebhooksRepository = ReturnType<typeof createWebhooksRepository>;
