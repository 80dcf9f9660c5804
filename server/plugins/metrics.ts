// `app.metrics`: the Prometheus series of this process when METRICS_TOKEN or METRICS_PORT is set
// (server/metrics), otherwise a recorder that does nothing. Times every request (hijacked ones
// too: the end is the response's close), and serves GET /metrics on the app's port behind the
// bearer token, or on METRICS_PORT. Where /metrics is not served, it answers 404 (never the app page).
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors.ts';
import { scrape, startMetricsListener } from '../metrics/metrics-endpoint.ts';
import { noMetrics, type MetricsRecorder } from '../metrics/metrics-recorder.ts';
import { PrometheusMetrics } from '../metrics/prometheus-metrics.ts';
import { globalPlugin } from './global-plugin.ts';

declare module 'fastify' {
  interface FastifyInstance {
    metrics: MetricsRecorder;
    /** The separate metrics listener's port, when METRICS_PORT is set. */
    metricsPort: number | null;
  }
}

function timeEveryRequest(app: FastifyInstance, metrics: PrometheusMetrics): void {
  app.addHook('onRequest', async (request, reply) => {
    const startedAt = performance.now();
    reply.raw.once('close', () => {
      metrics.requestFinished({
        method: request.method,
        route: request.routeOptions.url ?? 'unmatched',
        status: reply.raw.statusCode,
        seconds: (performance.now() - startedAt) / 1000,
      });
    });
  });
}

export const metricsPlugin = globalPlugin('metrics', async (app) => {
  const config = app.config.metrics;
  app.decorate('metricsPort', null);
  if (config === null) {
    app.decorate('metrics', noMetrics);
  } else {
    const metrics = new PrometheusMetrics({ uploadsInFlight: () => app.lifecycle.uploads.count });
    app.decorate('metrics', metrics);
    timeEveryRequest(app, metrics);
    if (config.port === null) {
      app.get('/metrics', { config: { public: true } }, async (request, reply) => {
        const answer = await scrape(metrics.registry, request.headers.authorization, config.token);
        if (answer.status === 401) void reply.header('www-authenticate', 'Bearer');
        return reply.code(answer.status).header('cache-control', 'no-store').type(answer.type).send(answer.body);
      });
      return;
    }
    // Started with the app, so a busy METRICS_PORT stops the start with its error.
    const listener = await startMetricsListener(metrics.registry, { host: config.host, port: config.port, token: config.token });
    app.metricsPort = listener.port;
    app.addHook('onClose', () => listener.close());
  }
  app.get('/metrics', { config: { public: true } }, async () => {
    throw new ApiError('NOT_FOUND');
  });
});
