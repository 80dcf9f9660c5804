// The Prometheus series of one process (prom-client), named and documented in docs/operations.md
// ("Metrics"). Each process has its own registry; Prometheus scrapes every process and sums.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { SweepReport } from '../upload/sweep.ts';
import type { DeliveryReport } from '../webhooks/deliverer.ts';
import type { MetricsRecorder, UploadTransport } from './metrics-recorder.ts';

const MiB = 1024 * 1024;
/** Request durations: API calls take milliseconds, uploads and downloads minutes. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800];
/** tus PATCH sizes: the browser sends 64 MiB chunks, a cut PATCH anything below. */
const PATCH_BUCKETS = [64 * 1024, MiB, 4 * MiB, 16 * MiB, 32 * MiB, 64 * MiB, 128 * MiB, 512 * MiB];

const SWEEP_REMOVALS: ReadonlyArray<keyof Omit<SweepReport, 'ran'>> = [
  'abandonedUploads',
  'orphanBlobs',
  'unfinishedWrites',
  'expiredGrants',
  'staleCodes',
  'expiredBatchKeys',
];

export interface PrometheusMetricsOptions {
  /** Upload requests being served right now (read when scraped). */
  uploadsInFlight: () => number;
}

export class PrometheusMetrics implements MetricsRecorder {
  readonly registry = new Registry();
  private readonly requestSeconds: Histogram<'method' | 'route' | 'status'>;
  private readonly bytesReceived: Counter<'transport'>;
  private readonly filesStoredTotal: Counter<'transport'>;
  private readonly bytesStored: Counter<'transport'>;
  private readonly patchBytes: Histogram;
  private readonly refusals: Counter<'route'>;
  private readonly sweepRuns: Counter<'outcome'>;
  private readonly sweepRemoved: Counter<'kind'>;
  private readonly mail: Counter<'outcome'>;
  private readonly webhooks: Counter<'outcome'>;

  constructor(options: PrometheusMetricsOptions) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.requestSeconds = new Histogram({
      name: 'sealdrop_http_request_duration_seconds',
      help: 'Time from a request arriving to its answer being sent (or the connection ending), by route pattern.',
      labelNames: ['method', 'route', 'status'],
      buckets: DURATION_BUCKETS,
      registers,
    });
    new Gauge({
      name: 'sealdrop_uploads_in_flight',
      help: 'Upload requests (tus, multipart) being served right now.',
      registers,
      collect() {
        this.set(options.uploadsInFlight());
      },
    });
    this.bytesReceived = new Counter({
      name: 'sealdrop_upload_bytes_received_total',
      help: 'Ciphertext bytes upload requests brought in (tus PATCH bytes written to the store, multipart request bodies).',
      labelNames: ['transport'],
      registers,
    });
    this.filesStoredTotal = new Counter({
      name: 'sealdrop_files_stored_total',
      help: 'Uploaded files that became file records.',
      labelNames: ['transport'],
      registers,
    });
    this.bytesStored = new Counter({
      name: 'sealdrop_stored_bytes_total',
      help: 'Ciphertext bytes of the uploaded files that became file records.',
      labelNames: ['transport'],
      registers,
    });
    this.patchBytes = new Histogram({
      name: 'sealdrop_tus_patch_bytes',
      help: 'Bytes one tus PATCH (or creation with upload) wrote to the store.',
      buckets: PATCH_BUCKETS,
      registers,
    });
    this.refusals = new Counter({
      name: 'sealdrop_attempt_limit_refusals_total',
      help: 'Requests refused with 429 by an attempt limit (passwords, codes, code requests), by route pattern.',
      labelNames: ['route'],
      registers,
    });
    this.sweepRuns = new Counter({
      name: 'sealdrop_upload_sweep_runs_total',
      help: 'Upload sweep passes: ran, skipped (another process held the lease) or failed.',
      labelNames: ['outcome'],
      registers,
    });
    this.sweepRemoved = new Counter({
      name: 'sealdrop_upload_sweep_removed_total',
      help: 'What the upload sweep removed, by kind.',
      labelNames: ['kind'],
      registers,
    });
    this.mail = new Counter({
      name: 'sealdrop_mail_messages_total',
      help: 'Messages handed to the SMTP server (or written to the outbox), or refused.',
      labelNames: ['outcome'],
      registers,
    });
    this.webhooks = new Counter({
      name: 'sealdrop_webhook_deliveries_total',
      help: 'Webhook delivery attempts: delivered, to be retried, or given up.',
      labelNames: ['outcome'],
      registers,
    });
    // Series with labels appear once something happened; these start at 0 so a dashboard sees them.
    for (const transport of ['tus', 'multipart'] as const) {
      this.bytesReceived.inc({ transport }, 0);
      this.filesStoredTotal.inc({ transport }, 0);
      this.bytesStored.inc({ transport }, 0);
    }
  }

  requestFinished({ method, route, status, seconds }: { method: string; route: string; status: number; seconds: number }): void {
    this.requestSeconds.observe({ method, route, status: String(status) }, seconds);
    if (status === 429) this.refusals.inc({ route });
  }

  uploadBytesReceived(transport: UploadTransport, bytes: number): void {
    if (bytes <= 0) return;
    this.bytesReceived.inc({ transport }, bytes);
    if (transport === 'tus') this.patchBytes.observe(bytes);
  }

  filesStored(transport: UploadTransport, files: number, cipherBytes: number): void {
    if (files <= 0) return;
    this.filesStoredTotal.inc({ transport }, files);
    this.bytesStored.inc({ transport }, cipherBytes);
  }

  sweepFinished(outcome: { report: SweepReport } | { failed: true }): void {
    if ('failed' in outcome) {
      this.sweepRuns.inc({ outcome: 'failed' });
      return;
    }
    const { report } = outcome;
    this.sweepRuns.inc({ outcome: report.ran ? 'ran' : 'skipped' });
    for (const kind of SWEEP_REMOVALS) if (report[kind] > 0) this.sweepRemoved.inc({ kind: snake(kind) }, report[kind]);
  }

  mailSent(outcome: 'sent' | 'failed'): void {
    this.mail.inc({ outcome });
  }

  webhookDeliveries(report: DeliveryReport): void {
    for (const outcome of ['delivered', 'retrying', 'failed'] as const) if (report[outcome] > 0) this.webhooks.inc({ outcome }, report[outcome]);
  }
}

const snake = (name: string): string => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
