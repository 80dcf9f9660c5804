// The server the Playwright suite runs against: a fresh data directory every run, then the same
// path as `npm start` (build when stale, serve app + API on one port).
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { E2E_CLOCK_OFFSET_FILE, E2E_DATA_DIR, E2E_PORT } from '../e2e/support/environment.mjs';

rmSync(E2E_DATA_DIR, { recursive: true, force: true });
rmSync(E2E_CLOCK_OFFSET_FILE, { force: true });
const start = fileURLToPath(new URL('./start.mjs', import.meta.url));
const server = spawn(process.execPath, [start], {
  stdio: 'inherit',
  env: { ...process.env, PORT: String(E2E_PORT), HOST: '127.0.0.1', DATA_DIR: E2E_DATA_DIR, E2E_CLOCK_OFFSET_FILE },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 1));
