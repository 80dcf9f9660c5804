// What the server tells its metrics (docs/operations.md, "Metrics"). Call sites record events
// through this interface whether metrics are on or off: off, it is `noMetrics`, which does nothing,
// so no call site branches on the configuration.
import type { SweepReport } from '../upload/sweep.ts';
import type { DeliveryReport } from '../webhooks/deliverer.ts';

export type UploadTransport = 'tus' | 'multipart';

export interface MetricsRecorder {
  /** One HTTP request answered (or cut off): its route (Fastify's pattern, or `unmatched`), status and duration. */
  requestFinished(request: { method: string; route: string; status: number; seconds: number }): void;
  /** Bytes an upload request brought into the store (a tus PATCH's accepted bytes, a multipart body). */
  uploadBytesReceived(transport: UploadTransport, bytes: number): void;
  /** Files that became file records, and their ciphertext bytes. */
  filesStored(transport: UploadTransport, files: number, cipherBytes: number): void;
  /** One sweep pass: ran (with what it removed), skipped (another process held the lease), or failed. */
  sweepFinished(outcome: { report: SweepReport } | { failed: true }): void;
  /** One message handed to the mail server (or the outbox), or refused. */
  mailSent(outcome: 'sent' | 'failed'): void;
  /** One webhook delivery pass's results. */
  webhookDeliveries(report: DeliveryReport): void;
}

export const noMetrics: MetricsRecorder = {
  requestFinished() {},
  uploadBytesReceived() {},
  filesStored() {},
  sweepFinished() {},
  mailSent() {},
  webhookDeliveries() {},
};
