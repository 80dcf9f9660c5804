// Measures a server process's memory while HEADs poll a tus upload whose PATCH is in flight on the
// same process (issue 26: 801–1041 MiB RSS under load, 219 MiB without the polling). Starts an
// in-process test server for the data (SQLite, disk store) and a second `node server/main.ts` on
// the same data, sends one PATCH of --mib MiB (default 256) to that process at full speed, with or
// without HEAD requests every 50 ms on it, and prints the process's RSS at rest and at its peak
// (VmRSS sampled every 50 ms from /proc, and VmHWM). --mbps paces the PATCH (a client's link);
// --s3 <endpoint> puts the bytes in a fresh bucket on that S3 server instead of on disk. Linux only.
//   node --import tsx scripts/head-polling-rss.ts [--mib 256] [--mbps 40] [--s3 http://127.0.0.1:9410]
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from '../tests/server/harness.ts';
import { freshBucket } from '../tests/storage/s3-test-bucket.ts';
import { TestClient } from '../tests/server/http-client.ts';
import { createUploadFolder, openTusPatch, tusCreate, tusHead } from '../tests/server/upload-helpers.ts';

const MiB = 1024 * 1024;
const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const option = (name: string) => {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? process.argv[index + 1] : undefined;
};
const plainMiB = Number(option('mib') ?? 256);
/** MiB per second the PATCH is sent at (0: as fast as the server takes it). */
const mibPerSecond = Number(option('mbps') ?? 0);
const s3 = option('s3');

async function statusMiB(pid: number, field: 'VmRSS' | 'VmHWM'): Promise<number> {
  const text = await readFile(`/proc/${pid}/status`, 'utf8');
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text);
  return match ? Math.round(Number(match[1]) / 1024) : NaN;
}

async function main(): Promise<void> {
  const bucketEnv = s3 ? (await freshBucket(s3, 'rss')).env : {};
  const server = await startServer({ env: { ...bucketEnv, UPLOAD_MAX_FILE_MB: String(plainMiB + 1), UPLOAD_SWEEP_INTERVAL_MINUTES: '0' } });
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...server.env, PORT: '0', HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    const baseUrl = await new Promise<string>((resolve, reject) => {
      let output = '';
      const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 30_000);
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const match = /running at (http:\/\/\S+)/.exec(output);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]!);
        }
      });
    });
    const pid = child.pid!;
    const folder = await createUploadFolder(server);
    const client = new TestClient(baseUrl);
    await client.primeCsrf();
    const plainSize = plainMiB * MiB;
    const cipherSize = server.app.uploads.sizes.encryptedLength(plainSize);
    const piece = randomBytes(MiB);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const idle = await statusMiB(pid, 'VmRSS');
    const results: Record<string, unknown> = { plainMiB, mibPerSecond, store: s3 ? 's3' : 'disk', idleRssMiB: idle };

    for (const polling of [false, true]) {
      const created = await tusCreate(client, folder, cipherSize, { filename: 'rss.bin', plainSize });
      const location = created.headers.get('location')!;
      let peak = 0;
      let heads = 0;
      let done = false;
      const sampler = (async () => {
        while (!done) {
          peak = Math.max(peak, await statusMiB(pid, 'VmRSS'));
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      })();
      const poller = (async () => {
        while (polling && !done) {
          await tusHead(client, location);
          heads++;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      })();
      const { request, answered } = openTusPatch(baseUrl, client, location, 0, cipherSize);
      let sent = 0;
      const began = Date.now();
      const write = () => {
        while (sent < cipherSize) {
          const chunk = piece.subarray(0, Math.min(MiB, cipherSize - sent));
          sent += chunk.length;
          if (sent >= cipherSize) {
            request.end(chunk);
            return;
          }
          const ahead = mibPerSecond > 0 ? sent / MiB / mibPerSecond - (Date.now() - began) / 1000 : 0;
          if (!request.write(chunk)) {
            request.once('drain', write);
            return;
          }
          if (ahead > 0) {
            setTimeout(write, ahead * 1000);
            return;
          }
        }
      };
      write();
      const status = await answered;
      done = true;
      await Promise.all([sampler, poller]);
      const offset = (await tusHead(client, location)).headers.get('upload-offset');
      results[polling ? 'withHeadPolling' : 'withoutPolling'] = { patchStatus: status, finalOffset: Number(offset), heads, peakRssMiB: peak };
    }
    results.hwmMiB = await statusMiB(pid, 'VmHWM');
    console.log(JSON.stringify(results));
  } finally {
    child.kill('SIGTERM');
    await server.close();
  }
}

await main();
