// Starts the server: reads the configuration (a bad value stops here with one clear line),
// builds the app, listens, and says how to create the first admin when there is none. A stop
// signal shuts it down gracefully (server/lifecycle/graceful-shutdown.ts).
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { shutDownGracefully } from './lifecycle/graceful-shutdown.ts';
import { useOwnSpoolDirectory } from './spool-directory.ts';

function readConfig(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

/** SIGTERM or SIGINT: drain, let uploads finish or cut them at a flushed offset, exit within the grace time. */
function stopOnSignals(app: FastifyInstance, config: Config): void {
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      if (stopping) return;
      stopping = true;
      app.log.info({ signal }, 'shutting down');
      void shutDownGracefully(app, config.shutdown, { exit: (code) => process.exit(code) });
    });
  }
}

/** `kill -USR2 <pid>` runs the upload sweep now (it still takes the lease: one process at a time). */
function sweepOnSignal(app: FastifyInstance): void {
  process.on('SIGUSR2', () => {
    app.sweepUploads(Date.now()).then(
      (report) => app.log.info({ sweep: report }, 'upload sweep on SIGUSR2 finished'),
      (error: unknown) => app.log.error({ err: error }, 'upload sweep on SIGUSR2 failed'),
    );
  });
}

async function main(): Promise<void> {
  const config = readConfig();
  const spool = await useOwnSpoolDirectory();
  const app = await buildApp(config);
  if (spool.removed.length > 0) app.log.info({ processes: spool.removed }, 'removed spool files of processes that no longer run');
  stopOnSignals(app, config);
  sweepOnSignal(app);
  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : config.port;
  const shownHost = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  console.log(`Sealdrop is running at http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${port}`);
  if ((await app.repos.users.count()) === 0) {
    console.log('No user exists yet. Create the first admin with:');
    console.log('  npm run admin -- create-user <username>');
  }
}

main().catch((error: unknown) => {
  console.error('Sealdrop failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
