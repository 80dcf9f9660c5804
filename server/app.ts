// Builds the Fastify application: the API under /api and the built browser app on the same
// origin. One plugin per concern, registered in dependency order.
import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import { loggerOptions, type LogDestination } from './logging.ts';
import type { HostResolver } from './webhooks/transport.ts';
import { refuseApiRoutesOutsideTheScope } from './plugins/api-access.ts';
import { activityPlugin } from './plugins/activity.ts';
import { appContextPlugin } from './plugins/app-context.ts';
import { attemptLimitsPlugin } from './plugins/attempt-limits.ts';
import { ballastPlugin } from './plugins/ballast.ts';
import { lifecyclePlugin } from './plugins/lifecycle.ts';
import { metricsPlugin } from './plugins/metrics.ts';
import { backgroundTasksPlugin } from './plugins/background-tasks.ts';
import { blobStorePlugin } from './plugins/blob-store.ts';
import { bodyParsersPlugin } from './plugins/body-parsers.ts';
import { databasePlugin } from './plugins/database.ts';
import { answerClientError, answerRouterError, answerUnmetExpectation, errorHandlerPlugin } from './plugins/error-handler.ts';
import { mailPlugin } from './plugins/mail.ts';
import { securityHeadersPlugin } from './plugins/security-headers.ts';
import { sessionsPlugin } from './plugins/sessions.ts';
import { staticAppPlugin } from './plugins/static-app.ts';
import { uploadNotificationsPlugin } from './plugins/upload-notifications.ts';
import { uploadSweepPlugin } from './plugins/upload-sweep.ts';
import { webhooksPlugin } from './plugins/webhooks.ts';
import { ssoProviderPlugin } from './plugins/sso-provider.ts';
import { uploadsPlugin } from './plugins/uploads.ts';
import { useZodSchemas } from './plugins/zod-schemas.ts';
import { routeCataloguePlugin } from './openapi/route-catalogue.ts';
import { apiRoutes } from './routes/index.ts';
import { healthRoutes } from './routes/health/index.ts';

export interface AppOptions {
  /** Current time in epoch milliseconds; tests pass a controllable clock. */
  clock?: () => number;
  /** Where log lines go (default standard output); tests capture them to check what is logged. */
  logStream?: LogDestination;
  /** How webhook receivers' names are resolved (default: the system resolver); tests map names to chosen addresses. */
  resolveHost?: HostResolver;
}

// A hop count trusts that many proxies in front of us (Fastify's types only know the other forms).
function trustProxyOption(value: Config['trustProxy']): boolean | string | ((address: string, hop: number) => boolean) {
  return typeof value === 'number' ? (_address, hop) => hop < value : value;
}

export async function buildApp(config: Config, options: AppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: loggerOptions(config.logLevel, options.logStream),
    trustProxy: trustProxyOption(config.trustProxy),
    bodyLimit: 1024 * 1024,
    // One spelling per route: no case folding, no `//` or trailing-slash aliases, and `;` stays
    // part of the path (Fastify 5's default useSemicolonDelimiter: false), so odd spellings find
    // no route. Tokens in paths are 43 characters; a longer parameter is refused with 414 before
    // any route runs. Checks do not depend on this: they run in the /api routes' scope.
    routerOptions: {
      caseSensitive: true,
      ignoreTrailingSlash: false,
      ignoreDuplicateSlashes: false,
      maxParamLength: 100,
    },
    frameworkErrors: answerRouterError,
    clientErrorHandler: answerClientError,
  });
  app.server.on('checkExpectation', answerUnmetExpectation);
  useZodSchemas(app);
  await app.register(appContextPlugin, { config, clock: options.clock ?? Date.now });
  await app.register(errorHandlerPlugin);
  await app.register(lifecyclePlugin);
  // Before the first route it lists (the operators' /metrics comes from the metrics plugin).
  await app.register(routeCataloguePlugin);
  await app.register(metricsPlugin);
  await app.register(databasePlugin);
  await app.register(backgroundTasksPlugin);
  await app.register(blobStorePlugin);
  await app.register(ballastPlugin);
  await app.register(securityHeadersPlugin);
  await app.register(bodyParsersPlugin);
  await app.register(sessionsPlugin);
  await app.register(attemptLimitsPlugin);
  await app.register(ssoProviderPlugin);
  await app.register(mailPlugin);
  await app.register(uploadsPlugin);
  await app.register(uploadSweepPlugin);
  await app.register(activityPlugin);
  await app.register(webhooksPlugin, { resolve: options.resolveHost });
  await app.register(uploadNotificationsPlugin);
  refuseApiRoutesOutsideTheScope(app);
  await app.register(apiRoutes, { prefix: '/api' });
  await app.register(healthRoutes);
  await app.register(staticAppPlugin);
  return app;
}
