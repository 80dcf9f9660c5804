/**
 * npm run bench:kdf [-- --repeat N] [--sign-in] [--smoke]
 *
 * The cost of one password guess, which sets the login KDF's parameters (crypto/kdf.ts,
 * ARGON2_DEFAULT_COST) and the offline-attack arithmetic of docs/security.md:
 *   - in headless Chromium, inside a Web Worker (where the app runs it): hash-wasm argon2id at a
 *     grid of costs;
 *   - in node: @node-rs/argon2 (native, a defender's or an attacker's CPU core) at the same costs,
 *     and PBKDF2-SHA256 (OpenSSL) at the old schemes' iteration counts, for comparison.
 * Prints the medians and writes everything as JSON under bench-results/. `--sign-in` measures a
 * whole sign-in through the built app instead (bench/sign-in.ts). `--smoke` (npm run bench:smoke):
 * every cost once.
 */
import { pbkdf2Sync } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { hashRaw } from '@node-rs/argon2';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/support/environment.mjs';
import { benchSignIn } from './sign-in.ts';
import { median } from './median.ts';

const args = process.argv.slice(2);
const SMOKE = args.includes('--smoke');
const REPEAT = args.includes('--repeat') ? Math.max(1, Number(args[args.indexOf('--repeat') + 1])) : SMOKE ? 1 : 5;
const root = (path: string) => fileURLToPath(new URL(`../${path}`, import.meta.url));
const ARGON2_GRID = [
  { memoryKiB: 19_456, passes: 2 },
  { memoryKiB: 32_768, passes: 3 },
  { memoryKiB: 65_536, passes: 2 },
  { memoryKiB: 65_536, passes: 3 },
] as const;
const PBKDF2_ITERATIONS = [150_000, 250_000] as const;
/** A run that stalls fails the bench instead of hanging it. */
const STEP_TIMEOUT_MS = 5 * 60 * 1000;

interface Row {
  readonly what: string;
  readonly where: 'chromium-worker' | 'node-native';
  readonly ms: number[];
  readonly medianMs: number;
}

/** Runs in a classic Web Worker (from a Blob URL) that loads hash-wasm's UMD build and times each call. */
async function browserRows(umd: string): Promise<Row[]> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, timeout: 60_000 });
  try {
    const page = await browser.newPage();
    page.setDefaultTimeout(STEP_TIMEOUT_MS);
    await page.setContent('<!doctype html><title>bench:kdf</title>');
    {
      const source = `${umd}
        ;(async () => {
          const { grid, repeat } = ${JSON.stringify({ grid: ARGON2_GRID, repeat: REPEAT })};
          const salt = new Uint8Array(16);
          const rows = [];
          for (const cost of grid) {
            const ms = [];
            for (let i = 0; i < repeat; i++) {
              const start = performance.now();
              await hashwasm.argon2id({ password: 'benchmark password', salt, memorySize: cost.memoryKiB, iterations: cost.passes, parallelism: 1, hashLength: 32, outputType: 'binary' });
              ms.push(performance.now() - start);
            }
            rows.push({ what: 'argon2id m=' + cost.memoryKiB + ' KiB t=' + cost.passes + ' p=1', ms });
          }
          postMessage(rows);
        })().catch((error) => postMessage(String(error)));`;
      const measured = await page.evaluate(
        ([text, timeoutMs]) =>
          new Promise<{ what: string; ms: number[] }[] | string>((resolve) => {
            const worker = new Worker(URL.createObjectURL(new Blob([text], { type: 'text/javascript' })));
            setTimeout(() => resolve('the KDF worker did not answer in time'), timeoutMs);
            worker.onmessage = (event) => resolve(event.data);
            worker.onerror = (event) => resolve(event.message);
          }),
        [source, STEP_TIMEOUT_MS] as const,
      );
      if (typeof measured === 'string') throw new Error(`bench:kdf in Chromium failed: ${measured}`);
      return measured.map((row) => ({ ...row, where: 'chromium-worker' as const, medianMs: median(row.ms) }));
    }
  } finally {
    await browser.close();
  }
}

async function nodeRows(): Promise<Row[]> {
  const rows: Row[] = [];
  for (const cost of ARGON2_GRID) {
    const ms: number[] = [];
    for (let i = 0; i < REPEAT; i++) {
      const start = performance.now();
      await hashRaw('benchmark password', { algorithm: 2, memoryCost: cost.memoryKiB, timeCost: cost.passes, parallelism: 1, outputLen: 32, salt: Buffer.alloc(16) });
      ms.push(performance.now() - start);
    }
    rows.push({ what: `argon2id m=${cost.memoryKiB} KiB t=${cost.passes} p=1`, where: 'node-native', ms, medianMs: median(ms) });
  }
  for (const count of PBKDF2_ITERATIONS) {
    const ms: number[] = [];
    for (let i = 0; i < REPEAT; i++) {
      const start = performance.now();
      pbkdf2Sync('benchmark password', Buffer.alloc(16), count, 32, 'sha256');
      ms.push(performance.now() - start);
    }
    rows.push({ what: `PBKDF2-SHA256 ${count}`, where: 'node-native', ms, medianMs: median(ms) });
  }
  return rows;
}

if (args.includes('--sign-in')) {
  await benchSignIn(REPEAT);
  process.exit(0);
}

const umd = await readFile(root('node_modules/hash-wasm/dist/argon2.umd.min.js'), 'utf8');
const startLoad = loadavg();
const rows = [...(await browserRows(umd)), ...(await nodeRows())];
for (const row of rows) {
  console.log(`${row.where.padEnd(16)} ${row.what.padEnd(34)} median ${row.medianMs.toFixed(0).padStart(5)} ms  (${row.ms.map((v) => v.toFixed(0)).join(', ')})`);
}
const result = {
  date: new Date().toISOString(),
  repeat: REPEAT,
  smoke: SMOKE,
  cpu: cpus()[0]?.model,
  cores: cpus().length,
  loadAverageBefore: startLoad,
  loadAverageAfter: loadavg(),
  rows,
};
await mkdir(root('bench-results'), { recursive: true });
const file = root(`bench-results/kdf-${result.date.replace(/[:.]/g, '-')}.json`);
await writeFile(file, `${JSON.stringify(result, null, 2)}\n`);
console.log(`load average ${startLoad.map((v) => v.toFixed(2)).join(' ')} -> ${result.loadAverageAfter.map((v) => v.toFixed(2)).join(' ')}; written to ${file}`);
