// Where the end-to-end server listens and keeps its data; shared by the Playwright config, the
// server launcher and the specs (which create accounts in the same data directory, as the admin CLI does).
import { fileURLToPath } from 'node:url';

export const E2E_PORT = Number(process.env.E2E_PORT ?? 8181);
export const E2E_BASE_URL = `http://127.0.0.1:${E2E_PORT}`;
// Per port, so that two Playwright runs on different E2E_PORTs never wipe each other's data.
export const E2E_DATA_DIR = fileURLToPath(new URL(`../../.tmp/e2e-data-${E2E_PORT}`, import.meta.url));
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];
