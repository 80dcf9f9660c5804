// Starts the server: reads the configuration (a bad value stops here with one clear line),
// builds the app, listens, and says how to create the first admin when there is none.
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import { serverClock } from './clock.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';

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

function stopOnSignals(app: FastifyInstance): void {
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      if (stopping) return;
      stopping = true;
      app.log.info({ signal }, 'shutting down');
      app.close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
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
  const app = await buildApp(config, { clock: serverClock(process.env.E2E_CLOCK_OFFSET_FILE) });
  stopOnSignals(app);
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
