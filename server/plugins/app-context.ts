// Makes the configuration and the clock available to every plugin and route. The clock is
// injectable so tests can move time (session expiry, TOTP steps, rate-limit windows) without
// sleeping.
import type { Config } from '../config.ts';
import { globalPlugin } from './global-plugin.ts';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    /** Current time in epoch milliseconds. */
    now(): number;
  }
}

export const appContextPlugin = globalPlugin<{ config: Config; clock: () => number }>(
  'app-context',
  async (app, { config, clock }) => {
    app.decorate('config', config);
    app.decorate('now', clock);
  },
);
