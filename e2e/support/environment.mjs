// Where the end-to-end server listens and keeps its data; shared by the Playwright config, the
// server launcher and the specs (which create accounts in the same data directory, as the admin CLI does).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const E2E_PORT = Number(process.env.E2E_PORT ?? 8181);
export const E2E_BASE_URL = `http://127.0.0.1:${E2E_PORT}`;
/**
 * The ports of the specs that start a server or a proxy of their own next to the suite's server,
 * one each, so that any two specs may run at once (passkeys and the single-sign-on specs keep
 * theirs in their files, E2E_PORT + 80 and + 90 and up; resume, resume-handles, download-liveness
 * and upload's restart have fixed ports of their own: docs/operations.md, "Test suite").
 */
export const SPEC_PORTS = {
  cliServer: E2E_PORT + 1,
  cliProxy: E2E_PORT + 2,
  storageServer: E2E_PORT + 3,
  hostileKdfProxy: E2E_PORT + 4,
  hostileServerProxy: E2E_PORT + 5,
  teamFoldersProxy: E2E_PORT + 6,
};
// Per port, so that two Playwright runs on different E2E_PORTs never wipe each other's data.
export const E2E_DATA_DIR = fileURLToPath(new URL(`../../.tmp/e2e-data-${E2E_PORT}`, import.meta.url));
/** Debian's Chromium, the desktop browser users run: the benchmarks measure it. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const HEADLESS_SHELL_PATH = '/usr/bin/chromium-headless-shell';
/**
 * The end-to-end specs' Chromium: Debian's headless shell when it is installed (.ci/run installs
 * it), the same version and engine without the desktop browser around it, which is what
 * Playwright runs headless specs in by default. The suite passes in both, and the shell costs less
 * CPU, of which the browsers are CI's largest user (measured: docs/operations.md, "Test suite").
 * E2E_CHROMIUM_PATH picks another.
 */
export const E2E_CHROMIUM_PATH = process.env.E2E_CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL_PATH) ? HEADLESS_SHELL_PATH : CHROMIUM_PATH);
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/**
 * The suite's pages ask for reduced motion (the app honours it: src/app/theme.ts), so spinners and
 * indeterminate bars stand still while a spec waits on a KDF or a transfer: an animating spinner
 * kept Chromium's compositor drawing frames on the cores the specs share (docs/operations.md,
 * "Test suite"). The axe specs keep the default motion, which is what they check colours under.
 */
export const E2E_REDUCED_MOTION = 'reduce';
