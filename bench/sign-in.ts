/**
 * npm run bench:kdf -- --sign-in [--repeat N]
 *
 * The time a sign-in takes as an admin feels it (issue 27: under ~1.5 s on the reference machine):
 * from the click on Sign In to the dashboard (name and password typed at a person's pace first),
 * through the real login page of the built app (dist/, `npm run build` first) in headless
 * Chromium, against a real server on a fresh data directory.
 * It covers the pre-login call, argon2id in a crypto worker at the default cost, the server's
 * argon2id check and the first dashboard render. Median of N (default 5) sign-ins, each in a new
 * browser context; JSON under bench-results/.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/support/environment.mjs';
import { median } from './median.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const USERNAME = 'bench-sign-in';
const PASSWORD = 'bench sign-in password';
const START_TIMEOUT_MS = 60_000;
const SIGN_IN_TIMEOUT_MS = 60_000;
const TYPING_DELAY_MS = 60;

async function startServer(dataDir: string): Promise<{ url: string; stop(): Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, STATIC_DIR: path.join(ROOT, 'dist'), PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start:\n${output}`)), START_TIMEOUT_MS);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Sealdrop is running at (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`the server exited with ${code}:\n${output}`)));
  });
  return {
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/**
 * Where a sign-in's time goes, from the click (ms): until the pre-login answer; the derivation
 * (pre-login answered to the token request sent: argon2id in the worker, and the worker's start
 * on a fresh page); the token call (the server's argon2id check and the session); the rest until
 * the dashboard's heading (its calls and first render).
 */
const PHASES = ['prelogin', 'derivation', 'token', 'dashboard'] as const;
type SignInPhases = Record<(typeof PHASES)[number], number>;

interface RequestMarks {
  preloginAnswered?: number;
  tokenSent?: number;
  tokenAnswered?: number;
}

function watchSignInRequests(page: Page): RequestMarks {
  const marks: RequestMarks = {};
  page.on('request', (request) => {
    if (request.url().endsWith('/api/auth/token')) marks.tokenSent ??= performance.now();
  });
  page.on('requestfinished', (request) => {
    if (request.url().endsWith('/api/auth/prelogin')) marks.preloginAnswered ??= performance.now();
    if (request.url().endsWith('/api/auth/token')) marks.tokenAnswered ??= performance.now();
  });
  return marks;
}

function phasesOf(marks: RequestMarks, start: number, total: number): SignInPhases {
  const { preloginAnswered, tokenSent, tokenAnswered } = marks;
  if (preloginAnswered === undefined || tokenSent === undefined || tokenAnswered === undefined) throw new Error('the sign-in made no pre-login or token call');
  return {
    prelogin: preloginAnswered - start,
    derivation: tokenSent - preloginAnswered,
    token: tokenAnswered - tokenSent,
    dashboard: start + total - tokenAnswered,
  };
}

export async function benchSignIn(repeat: number): Promise<void> {
  if (!existsSync(path.join(ROOT, 'dist/index.html'))) throw new Error('no built app in dist/: run `npm run build` first');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'sealdrop-bench-sign-in-'));
  const created = spawnSync(process.execPath, ['--import', 'tsx', 'server/cli.ts', 'create-user', USERNAME, '--password-stdin'], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir },
    input: `${PASSWORD}\n`,
  });
  if (created.status !== 0) throw new Error(`create-user failed: ${created.stderr.toString()}`);
  const server = await startServer(dataDir);
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, timeout: START_TIMEOUT_MS });
  const startLoad = loadavg();
  const ms: number[] = [];
  const phases: SignInPhases[] = [];
  try {
    for (let i = 0; i < repeat; i++) {
      const context = await browser.newContext();
      const page = await context.newPage();
      page.setDefaultTimeout(SIGN_IN_TIMEOUT_MS);
      await page.goto(`${server.url}/login`);
      // Typed as a person types (about 2 s for both fields): what the page does meanwhile (start
      // its crypto workers) is not part of the wait after the click.
      await page.getByLabel('Username', { exact: true }).pressSequentially(USERNAME, { delay: TYPING_DELAY_MS });
      await page.getByLabel('Password', { exact: true }).pressSequentially(PASSWORD, { delay: TYPING_DELAY_MS });
      const marks = watchSignInRequests(page);
      const start = performance.now();
      await page.getByRole('button', { name: 'Sign In' }).click();
      await page.getByRole('heading', { name: 'Admin Dashboard' }).waitFor();
      const total = performance.now() - start;
      ms.push(total);
      phases.push(phasesOf(marks, start, total));
      await context.close();
    }
  } finally {
    await browser.close();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  const medianPhases = Object.fromEntries(PHASES.map((phase) => [phase, median(phases.map((p) => p[phase]))])) as SignInPhases;
  const result = { date: new Date().toISOString(), repeat, cpu: cpus()[0]?.model, cores: cpus().length, loadAverageBefore: startLoad, loadAverageAfter: loadavg(), ms, medianMs: median(ms), phases, medianPhasesMs: medianPhases };
  console.log(`sign-in (click to dashboard) median ${result.medianMs.toFixed(0)} ms  (${ms.map((v) => v.toFixed(0)).join(', ')})`);
  console.log(`  medians: ${PHASES.map((phase) => `${phase} ${medianPhases[phase].toFixed(0)} ms`).join(', ')}`);
  await mkdir(path.join(ROOT, 'bench-results'), { recursive: true });
  const file = path.join(ROOT, `bench-results/sign-in-${result.date.replace(/[:.]/g, '-')}.json`);
  await writeFile(file, `${JSON.stringify(result, null, 2)}\n`);
  console.log(`load average ${startLoad.map((v) => v.toFixed(2)).join(' ')} -> ${result.loadAverageAfter.map((v) => v.toFixed(2)).join(' ')}; written to ${file}`);
}
