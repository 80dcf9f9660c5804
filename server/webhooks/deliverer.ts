// Delivers queued webhook events (docs/api.md "Webhooks"). A pass claims due deliveries (each by
// one process), POSTs each signed body with a timeout (transport.ts: never to a refused address), and records the outcome: any 2xx is
// delivered; anything else, a timeout or a refused connection is retried with exponential backoff
// up to MAX_ATTEMPTS, then marked failed. Nothing here runs inside the request that caused the event.
// What the admin reads of a failure is the receiver's HTTP status when one answered, else only
// DELIVERY_FAILED: a refused address, a name that does not resolve, a refused or reset connection,
// a TLS failure and a timeout read alike, so the list cannot be used to map what the server can
// reach. The reason goes to the server log.
import type { FastifyBaseLogger } from 'fastify';
import type { Repositories, WebhookDelivery } from '../db/repositories/index.ts';
import { endpointSecret, signatureHeader } from './signing-secret.ts';
import type { AddressPolicy } from './address-policy.ts';
import { postWebhook, WebhookAddressRefusedError, type HostResolver } from './transport.ts';

export const MAX_ATTEMPTS = 8;
/** The last error of every delivery that got no HTTP answer. */
export const DELIVERY_FAILED = 'Delivery failed';
const FIRST_RETRY_MS = 30_000;
const MAX_RETRY_MS = 6 * 3_600_000;
const CLAIM_MS = 60_000;
const PER_PASS = 50;
const KEEP_FINISHED_MS = 30 * 24 * 3_600_000;

export interface DelivererDeps {
  repos: Repositories;
  signingKey: Buffer;
  log: FastifyBaseLogger;
  timeoutMs: number;
  policy: AddressPolicy;
  resolve?: HostResolver;
}

export interface DeliveryReport {
  delivered: number;
  retrying: number;
  failed: number;
}

/** The wait before attempt `attempts + 1`: 30 s, 1, 2, 4 ... minutes, at most 6 hours. */
export function retryDelayMs(attempts: number): number {
  return Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), MAX_RETRY_MS);
}

export async function deliverDue(deps: DelivererDeps, now: number): Promise<DeliveryReport> {
  const report: DeliveryReport = { delivered: 0, retrying: 0, failed: 0 };
  const claimed = await deps.repos.webhooks.claimDue(now, CLAIM_MS, PER_PASS);
  await Promise.all(claimed.map((delivery) => deliverOne(deps, delivery, now, report)));
  await deps.repos.webhooks.deleteFinishedBefore(now - KEEP_FINISHED_MS);
  return report;
}

async function deliverOne(deps: DelivererDeps, delivery: WebhookDelivery, now: number, report: DeliveryReport): Promise<void> {
  const endpoint = await deps.repos.webhooks.endpointById(delivery.endpointId);
  if (!endpoint) return; // removed meanwhile: its deliveries went with it (cascade)
  const timestamp = Math.floor(Date.now() / 1000);
  let statusCode: number | null = null;
  let error: string | null = null;
  let cause: string | null = null;
  try {
    statusCode = await postWebhook({
      url: endpoint.url,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Sealdrop-Webhooks/1',
        'sealdrop-event': delivery.eventType,
        'sealdrop-delivery': delivery.eventId,
        // Also inside the signature header (and so signed); on its own for receivers' logs and tools.
        'sealdrop-timestamp': String(timestamp),
        'sealdrop-signature': signatureHeader(endpointSecret(deps.signingKey, endpoint), timestamp, delivery.payload),
      },
      body: delivery.payload,
      timeoutMs: deps.timeoutMs,
    }, { policy: deps.policy, resolve: deps.resolve });
    if (statusCode >= 200 && statusCode < 300) {
      await deps.repos.webhooks.finish(delivery.id, { status: 'delivered', statusCode, error: null, nextAttemptAt: now, now });
      report.delivered += 1;
      return;
    }
    error = `HTTP ${statusCode}`;
    cause = error;
  } catch (failure) {
    error = DELIVERY_FAILED;
    cause = describe(failure);
  }
  const giveUp = delivery.attempts >= MAX_ATTEMPTS;
  await deps.repos.webhooks.finish(delivery.id, {
    status: giveUp ? 'failed' : 'pending',
    statusCode,
    error,
    nextAttemptAt: now + retryDelayMs(delivery.attempts),
    now,
  });
  if (giveUp) report.failed += 1;
  else report.retrying += 1;
  deps.log.warn({ deliveryId: delivery.id, attempt: delivery.attempts, statusCode, cause, gaveUp: giveUp }, 'webhook delivery failed');
}

/** The reason, for the server log only: a code or a short message, never the URL or a header. */
function describe(cause: unknown): string {
  if (cause instanceof WebhookAddressRefusedError) return cause.message;
  if (cause instanceof Error) {
    if (cause.name === 'AbortError' && (cause.cause as Error | undefined)?.name === 'TimeoutError') return 'Timed out';
    const code = (cause as { code?: unknown }).code;
    return (typeof code === 'string' ? code : cause.message).slice(0, 300);
  }
  return 'Unknown error';
}
