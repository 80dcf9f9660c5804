// The server the Playwright suite runs against: a fresh data directory every run, then the same
// path as `npm start` (build when stale, serve app + API on one port).
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { E2E_BASE_URL, E2E_DATA_DIR, E2E_PORT } from '../e2e/support/environment.mjs';

rmSync(E2E_DATA_DIR, { recursive: true, force: true });
const start = fileURLToPath(new URL('./start.mjs', import.meta.url));
const server = spawn(process.execPath, [start], {
  stdio: 'inherit',
  // Every sign-in, re-entered password and opened download link of the whole suite comes from
  // 127.0.0.1: the per-address limits (300 pre-logins, 100 new link recipients per 15 minutes by
  // default) would end the run, not protect anything.
  // PUBLIC_URL: webhooks are saved only with it; WEBHOOK_ALLOWED_NETWORKS lets the webhook spec's
  // receiver on loopback take deliveries (loopback is refused by default).
  env: {
    ...process.env,
    PORT: String(E2E_PORT),
    HOST: '127.0.0.1',
    DATA_DIR: E2E_DATA_DIR,
    RATE_LIMIT_PRELOGIN_PER_IP: '1000000',
    RATE_LIMIT_LINK_RECIPIENTS_PER_IP: '1000000',
    PUBLIC_URL: E2E_BASE_URL,
    WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1/32,::1/128',
  },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 1));
