/**
 * npm run bench:cli [-- --size-mib N] [-- --repeat N] [-- --smoke]
 *
 * The command-line clients against a real server process on this machine (loopback, disk blob
 * store): one file of N MiB (default 1024) of random bytes uploaded by `npm run upload` (encrypt +
 * SHA-256 + tus PATCHes of 64 MiB; the server writes and fdatasyncs each), then fetched back by
 * `npm run fetch` from a keys-in-fragment link (download + decrypt + write + fsync), `--repeat`
 * times (default 2). Each command runs as its own process; its wall time (process start included),
 * the rate over it and its peak RSS (sampled from /proc) are printed and written as JSON under
 * bench-results/. The fetched file is compared with the original. The server shares the machine's
 * two cores with the command, so these are end-to-end figures, not the ceiling of either side.
 * --smoke (npm run bench:smoke): 8 MiB, one run, the same comparisons; figures that mean nothing.
 */
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import { loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AdminClient } from '../e2e/support/api-client.ts';
import { formatFragment, unwrapFileKey } from '../server/crypto/index.ts';
import { PeakMemory } from './process-tree.ts';

const MiB = 1024 * 1024;
const args = process.argv.slice(2);
const option = (name: string, fallback: number) => (args.includes(name) ? Math.max(1, Number(args[args.indexOf(name) + 1])) : fallback);
const SMOKE = args.includes('--smoke');
const SIZE = option('--size-mib', SMOKE ? 8 : 1024) * MiB;
const REPEAT = option('--repeat', SMOKE ? 1 : 2);
const ROOT = fileURLToPath(new URL('../', import.meta.url));
const DIR = path.join(ROOT, '.tmp/bench-cli');

async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

async function timed(command: 'upload' | 'fetch', commandArgs: string[]): Promise<{ seconds: number; peakRssMiB: number }> {
  const startedAt = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'cli', `${command}.ts`), ...commandArgs], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  const memory = new PeakMemory(child.pid!);
  memory.start();
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  const seconds = (performance.now() - startedAt) / 1000;
  const { peakRssBytes } = await memory.stop();
  if (code !== 0) throw new Error(`${command} exited ${code}: ${stderr}`);
  return { seconds, peakRssMiB: Math.round(peakRssBytes / MiB) };
}

function sha256File(file: string): string {
  return createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

async function main(): Promise<void> {
  fs.rmSync(DIR, { recursive: true, force: true });
  fs.mkdirSync(DIR, { recursive: true });
  const dataDir = path.join(DIR, 'data');
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    stdio: 'ignore',
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, STATIC_DIR: path.join(DIR, 'no-app'), LOG_LEVEL: 'warn' },
  });
  try {
    for (let i = 0; i < 600 && (await fetch(`${base}/readyz`).catch(() => null))?.status !== 200; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    const { admin, keys } = await AdminClient.create(base, dataDir, 'bench-cli');
    const source = path.join(DIR, 'bench.bin');
    const fd = fs.openSync(source, 'w');
    for (let written = 0; written < SIZE; written += 16 * MiB) fs.writeSync(fd, randomBytes(Math.min(16 * MiB, SIZE - written)));
    fs.closeSync(fd);
    const digest = sha256File(source);
    const loadBefore = loadavg()[0]!;
    const runs: Array<Record<string, number>> = [];
    for (let run = 0; run < REPEAT; run++) {
      const folder = await admin.createFolder({ title: `bench ${run}`, perform_mime_check: false });
      const upload = await timed('upload', [`${base}/upload/${folder.link_token}`, source, '--json', '--state-dir', path.join(DIR, `state-${run}`)]);
      const [file] = await admin.listFiles(folder.id);
      if (!file || file.file_hash !== digest) throw new Error('the uploaded file is not the original');
      const response = await admin.request('POST', '/api/download/links', { file_ids: [file.id], password: null, reencrypted_keys_json: null, expiration_date: null });
      const { full_url } = (await response.json()) as { full_url: string };
      const key = unwrapFileKey(keys.privateKey, file.encrypted_key);
      const out = path.join(DIR, `fetched-${run}`);
      const fetched = await timed('fetch', [`${full_url}#${formatFragment(new Map([[String(file.id), key]]))}`, out]);
      if (sha256File(path.join(out, 'bench.bin')) !== digest) throw new Error('the fetched file is not the original');
      fs.rmSync(out, { recursive: true, force: true });
      const result = {
        uploadSeconds: Number(upload.seconds.toFixed(2)),
        uploadMBps: Math.round(SIZE / 1e6 / upload.seconds),
        uploadPeakRssMiB: upload.peakRssMiB,
        fetchSeconds: Number(fetched.seconds.toFixed(2)),
        fetchMBps: Math.round(SIZE / 1e6 / fetched.seconds),
        fetchPeakRssMiB: fetched.peakRssMiB,
      };
      runs.push(result);
      console.log(`run ${run + 1}: upload ${result.uploadMBps} MB/s (${result.uploadSeconds} s, peak RSS ${result.uploadPeakRssMiB} MiB), fetch ${result.fetchMBps} MB/s (${result.fetchSeconds} s, peak RSS ${result.fetchPeakRssMiB} MiB)`);
    }
    const report = { bench: 'cli', smoke: SMOKE, sizeBytes: SIZE, runs, loadBefore, loadAfter: loadavg()[0], at: new Date().toISOString() };
    fs.mkdirSync(path.join(ROOT, 'bench-results'), { recursive: true });
    const file = path.join(ROOT, 'bench-results', `cli-${Date.now()}.json`);
    fs.writeFileSync(file, JSON.stringify(report, null, 2));
    console.log(`written ${path.relative(ROOT, file)} (load ${loadBefore.toFixed(1)} -> ${loadavg()[0]!.toFixed(1)})`);
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    fs.rmSync(DIR, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
