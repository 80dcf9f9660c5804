/**
 * npm run bench:admin-reads [-- --uploaders=24] [-- --batch=4] [-- --seconds=30] [-- --records=300] [-- --blob-store=disk] [-- --server-nice=-10] [-- --smoke]
 *
 * How quickly the admin's screens answer while uploads stream in (issue 26: under 28 uploaders on
 * two cores the folder and file listings' p99 rose to 346-756 ms, 16-58 times idle). The rig of
 * npm run bench:scale (tests/scale/rig.ts: Swift+s3api, two server processes with BLOB_STORE=s3
 * on a fresh PostgreSQL schema, nginx round-robin) on the same ports 9450-9462 (so not at the same
 * time as bench:scale):
 *   - a folder of --records small files (the listing the admin reads) and an admin signed in;
 *   - idle: the admin reads GET /api/folders/ and GET /api/folders/{id}/files, one after the
 *     other, for a third of --seconds;
 *   - loaded: the same reads while --uploaders tus uploaders (4 MiB PATCHes of 6-20 MiB files, then
 *     `complete`, over and over) and --batch multipart uploaders (5 files a request) send through
 *     nginx for --seconds;
 *   - p50, p95, p99 and max of each listing in both phases, and the uploaded MB/s;
 *   - JSON under bench-results/admin-reads-<timestamp>.json.
 * --blob-store=disk keeps the blobs in one DATA_DIR both processes share instead of the rig's S3
 * store (Swift then sits idle): the same load without the store's processes on the same cores.
 * --server-nice=<n> starts both server processes at that nice value (-10: ahead of the rig's S3
 * store, nginx and this process's own uploaders on the same cores; negative values need root):
 * what the processes answer when they get the CPU, apart from what the rest of the machine takes.
 * --cpu-prof=<dir> runs both server processes with node's --cpu-prof into <dir> (a .cpuprofile
 * each, written when they stop): where their time goes under this load. --loop-delay loads
 * bench/loop-delay-probe.cjs into both and reports, per process, the event loop's delay over the
 * loaded phase (the p99 of its per-second p99s, and the max): what the process's own work blocked.
 * The uploaders' ciphertext is made once before the run (node:crypto), so this process spends its
 * time sending, not encrypting. Everything it starts is stopped by its own handle.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { generateRsaKeyPair } from '../server/crypto/index.ts';
import type { Folder } from '../server/db/repositories/index.ts';
import { TestClient, type TestResponse } from '../tests/server/http-client.ts';
import { MultipartBody, sealForUpload, sendRaw, tusCreate, tusHead, tusPatch, type SealedUpload } from '../tests/server/upload-helpers.ts';
import { startRig, type Rig } from '../tests/scale/rig.ts';

const MiB = 1024 * 1024;
/** BENCH_RIG_PORT moves the rig's ports (the S3 store on it and the four after it, nginx on it + 10, the processes on + 11 and + 12). */
const RIG_PORT = Number(process.env.BENCH_RIG_PORT ?? 9450);
const S3_PORT = RIG_PORT;
const NGINX_PORT = RIG_PORT + 10;
const PORTS = { a: RIG_PORT + 11, b: RIG_PORT + 12 };
const BUCKET = 'sealdrop-bench-reads';
const CHUNK = 4 * MiB;
const READ_PAUSE_MS = 50;

const argv = process.argv.slice(2);
/** The text after `--name=`, when given. */
const optionText = (name: string) => argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
const numberOption = (name: string, fallback: number) => {
  const value = optionText(name) ?? fallback;
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed < 0) throw new Error(`--${name} must be a number, not ${value}`);
  return parsed;
};
const niceOption = (value: string) => {
  const nice = Number(value);
  if (!Number.isInteger(nice) || nice < -20 || nice > 19) throw new Error(`--server-nice must be a whole number from -20 to 19, not ${value}`);
  return nice;
};
const blobStoreOption = (value: string): 's3' | 'disk' => {
  if (value !== 's3' && value !== 'disk') throw new Error(`--blob-store must be s3 or disk, not ${value}`);
  return value;
};
/** --smoke (npm run bench:smoke): 2 + 1 uploaders for 3 s over 25 records; figures that mean nothing. */
const SMOKE = argv.includes('--smoke');
const UPLOADERS = numberOption('uploaders', SMOKE ? 2 : 24);
const BATCH_UPLOADERS = numberOption('batch', SMOKE ? 1 : 4);
const SECONDS = numberOption('seconds', SMOKE ? 3 : 30);
const RECORDS = numberOption('records', SMOKE ? 25 : 300);
const CPU_PROFILE_DIR = optionText('cpu-prof');
const LOOP_DELAY = argv.includes('--loop-delay');
const SERVER_NICE_TEXT = optionText('server-nice');
const SERVER_NICE = SERVER_NICE_TEXT === undefined ? undefined : niceOption(SERVER_NICE_TEXT);
const BLOB_STORE = blobStoreOption(optionText('blob-store') ?? 's3');
const LOOP_PROBE = fileURLToPath(new URL('./loop-delay-probe.cjs', import.meta.url));

interface LoopDelay {
  at: number;
  p99: number;
  max: number;
}

/** The probe's per-second lines of a process between `from` and `to` (ms since the epoch). */
function loopDelayOf(lines: readonly string[], from: number, to: number): { p99OfSeconds: number; max: number; seconds: number } {
  const seconds: LoopDelay[] = [];
  for (const line of lines) {
    if (!line.startsWith('{"loopDelay"')) continue;
    const { loopDelay } = JSON.parse(line) as { loopDelay: LoopDelay };
    if (loopDelay.at >= from && loopDelay.at <= to) seconds.push(loopDelay);
  }
  const p99s = seconds.map((s) => s.p99).sort((x, y) => x - y);
  return { p99OfSeconds: p99s[Math.min(p99s.length - 1, Math.floor(0.99 * p99s.length))] ?? NaN, max: Math.max(...seconds.map((s) => s.max)), seconds: seconds.length };
}

const say = (line: string) => process.stdout.write(`${line}\n`);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Latencies {
  p50: number;
  p95: number;
  p99: number;
  max: number;
  count: number;
}

function summarise(samples: number[]): Latencies {
  const sorted = [...samples].sort((x, y) => x - y);
  const at = (q: number) => Number((sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN).toFixed(1));
  return { p50: at(0.5), p95: at(0.95), p99: at(0.99), max: Number((sorted.at(-1) ?? NaN).toFixed(1)), count: sorted.length };
}

/**
 * The server's own time for the listings (fastify's responseTime of 'request completed', joined to
 * 'incoming request' by reqId) between `from` and `to`: what the process took, against what the
 * admin waited (the rest is nginx, the network stack and the machine's scheduling).
 */
function serverTimes(records: ReadonlyArray<Record<string, unknown>>, from: number, to: number): Record<'folders' | 'files', number[]> {
  const urls = new Map<string, string>();
  const times = { folders: [] as number[], files: [] as number[] };
  for (const record of records) {
    const time = Number(record.time);
    const reqId = String(record.reqId ?? '');
    const req = record.req as { method?: string; url?: string } | undefined;
    if (req?.method === 'GET' && req.url) urls.set(reqId, req.url);
    if (record.msg !== 'request completed' || time < from || time > to) continue;
    const url = urls.get(reqId) ?? '';
    const name = url === '/api/folders/' ? 'folders' : /^\/api\/folders\/\d+\/files$/.test(url) ? 'files' : null;
    if (name) times[name].push(Number(record.responseTime));
  }
  return times;
}

/** Reads both listings one after the other until `until()`; the milliseconds of each answer. */
async function readListings(admin: TestClient, folderId: number, until: () => boolean): Promise<Record<'folders' | 'files', number[]>> {
  const times = { folders: [] as number[], files: [] as number[] };
  while (!until()) {
    for (const [name, path] of [['folders', '/api/folders/'], ['files', `/api/folders/${folderId}/files`]] as const) {
      const started = performance.now();
      const answer = await admin.get(path);
      if (answer.status !== 200) throw new Error(`GET ${path}: HTTP ${answer.status}`);
      times[name].push(performance.now() - started);
      await pause(READ_PAUSE_MS);
    }
  }
  return times;
}

/** A request's answer, or status 0 when the connection failed. */
async function statusOf(send: () => Promise<TestResponse>): Promise<TestResponse | { status: 0 }> {
  try {
    return await send();
  } catch {
    return { status: 0 };
  }
}

/** One tus uploader: whole files, one after the other, until `until()`; the bytes it had acknowledged. */
async function tusUploader(url: string, target: Folder, files: readonly SealedUpload[], first: number, until: () => boolean): Promise<number> {
  const client = new TestClient(url);
  let sent = 0;
  for (let n = first; !until(); n++) {
    const file = files[n % files.length]!;
    const created = await statusOf(() => tusCreate(client, target, file.sealed.length, { filename: `u${first}-${n}.bin`, plainSize: file.plain.length, encryptedKey: file.encryptedKey, iv: file.iv }));
    if (created.status !== 201) continue;
    const location = (created as TestResponse).headers.get('location')!;
    let offset = 0;
    while (offset < file.sealed.length && !until()) {
      const answer = await statusOf(() => tusPatch(client, location, offset, file.sealed.subarray(offset, offset + CHUNK)));
      if (answer.status === 204) {
        const next = Number((answer as TestResponse).headers.get('upload-offset'));
        sent += next - offset;
        offset = next;
      } else {
        const head = await statusOf(() => tusHead(client, location));
        if (head.status === 200) offset = Number((head as TestResponse).headers.get('upload-offset'));
      }
    }
    if (offset >= file.sealed.length) {
      await statusOf(() => client.post(`/api/upload/${target.linkToken}/complete`, { uploads: [{ upload_id: location.split('/').pop()!, file_hash: file.hash }] }));
    }
  }
  return sent;
}

/** One multipart uploader: 5 files a request, until `until()`; the bytes stored. */
async function batchUploader(url: string, target: Folder, files: readonly SealedUpload[], until: () => boolean): Promise<number> {
  const client = new TestClient(url);
  let sent = 0;
  for (let n = 0; !until(); n++) {
    const body = new MultipartBody().files(files.map((file, i) => ({ name: `b${n}-${i}.bin`, data: file.sealed, encryptedKey: file.encryptedKey, iv: file.iv, hash: file.hash })));
    const answer = await statusOf(() => sendRaw(client, 'POST', `/api/upload/${target.linkToken}`, body.build(), { 'content-type': body.contentType, 'idempotency-key': randomBytes(16).toString('hex') }));
    if (answer.status === 200) sent += files.reduce((sum, file) => sum + file.sealed.length, 0);
  }
  return sent;
}

async function main(): Promise<void> {
  const startedAt = new Date();
  const report: Record<string, unknown> = {
    bench: 'admin-reads',
    smoke: SMOKE,
    startedAt: startedAt.toISOString(),
    machine: { cpus: cpus().length, loadAverageAtStart: loadavg().map((l) => Number(l.toFixed(2))) },
    uploaders: UPLOADERS,
    batchUploaders: BATCH_UPLOADERS,
    seconds: SECONDS,
    records: RECORDS,
    blobStore: BLOB_STORE,
    serverNice: SERVER_NICE ?? 0,
  };
  let rig: Rig | undefined;
  let failure: Error | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    say(`\n${signal}: stopping the rig`);
    void (rig?.stop() ?? Promise.resolve()).finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    say(`bench:admin-reads: ${UPLOADERS} tus + ${BATCH_UPLOADERS} batch uploaders for ${SECONDS} s, blobs on ${BLOB_STORE}, servers at nice ${SERVER_NICE ?? 0}; load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores`);
    rig = await startRig({
      s3Port: S3_PORT,
      nginxPort: NGINX_PORT,
      ports: PORTS,
      bucket: BUCKET,
      label: 'bench:admin-reads',
      blobStore: BLOB_STORE,
      ...(SERVER_NICE === undefined ? {} : { serverNice: SERVER_NICE }),
      ...(CPU_PROFILE_DIR ? { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${CPU_PROFILE_DIR}`] } : {}),
      ...(LOOP_DELAY ? { env: { NODE_OPTIONS: `--require ${LOOP_PROBE}` } } : {}),
    });
    const { nginx } = rig;
    const username = `reads-${randomBytes(3).toString('hex')}`;
    const password = `pw-${randomBytes(12).toString('base64url')}`;
    rig.createUser(username, password);
    const admin = new TestClient(nginx.url);
    if ((await admin.login(username, password)).status !== 200) throw new Error('login failed');
    const keys = generateRsaKeyPair();
    await admin.put('/api/auth/public-key', { public_key_spki: keys.publicKeySpki });
    const readsFolder = (await admin.post('/api/folders/', { title: 'Reads', expires_in_days: 1 })).body as { id: number; link_token: string };
    const loadFolder = (await admin.post('/api/folders/', { title: 'Load', expires_in_days: 1 })).body as { id: number; link_token: string };
    for (let i = 0; i < 20; i++) await admin.post('/api/folders/', { title: `Other ${i}`, expires_in_days: 1 });

    // The listing the admin reads: --records small files, 25 a request.
    const small = Array.from({ length: 5 }, (_, i) => sealForUpload(randomBytes(3000 + 911 * i), keys.publicKeySpki));
    const seeder = new TestClient(nginx.url);
    for (let done = 0; done < RECORDS; done += 25) {
      const body = new MultipartBody().files(Array.from({ length: Math.min(25, RECORDS - done) }, (_, i) => ({ name: `r${done + i}.txt`, data: small[i % 5]!.sealed, encryptedKey: small[i % 5]!.encryptedKey, iv: small[i % 5]!.iv, hash: small[i % 5]!.hash, relativePath: `dir${i % 7}` })));
      const answer = await sendRaw(seeder, 'POST', `/api/upload/${readsFolder.link_token}`, body.build(), { 'content-type': body.contentType });
      if (answer.status !== 200) throw new Error(`seeding: HTTP ${answer.status}`);
    }
    const large = Array.from({ length: 4 }, (_, i) => sealForUpload(randomBytes((6 + 4 * i) * MiB + 333), keys.publicKeySpki));

    say('idle reads ...');
    const idleFrom = Date.now();
    const idleEnd = Date.now() + (SECONDS * 1000) / 3;
    const idle = await readListings(admin, readsFolder.id, () => Date.now() >= idleEnd);

    say('reads under load ...');
    const target = { linkToken: loadFolder.link_token } as Folder;
    const loadEnd = Date.now() + SECONDS * 1000;
    const over = () => Date.now() >= loadEnd;
    const uploadStarted = performance.now();
    const loadFrom = Date.now();
    const [loaded, tusBytes, batchBytes] = await Promise.all([
      readListings(admin, readsFolder.id, over),
      Promise.all(Array.from({ length: UPLOADERS }, (_, u) => tusUploader(nginx.url, target, large, u, over))),
      Promise.all(Array.from({ length: BATCH_UPLOADERS }, () => batchUploader(nginx.url, target, small, over))),
    ]);
    const uploadSeconds = (performance.now() - uploadStarted) / 1000;
    const loadTo = Date.now();
    // reqIds are per process: each process's lines are joined on their own.
    const perProcess = (from: number, to: number) => {
      const times = [rig!.a, rig!.b].map((server) => serverTimes(server.logRecords(), from, to));
      return { folders: times.flatMap((t) => t.folders), files: times.flatMap((t) => t.files) };
    };
    const idleServer = perProcess(idleFrom, loadFrom);
    const loadedServer = perProcess(loadFrom, loadTo);
    report.serverSideMs = {
      idle: { folders: summarise(idleServer.folders), files: summarise(idleServer.files) },
      loaded: { folders: summarise(loadedServer.folders), files: summarise(loadedServer.files) },
    };
    if (LOOP_DELAY) {
      report.loopDelayMs = {
        idle: Object.fromEntries([rig.a, rig.b].map((server) => [server.name, loopDelayOf(server.lines, idleFrom, loadFrom)])),
        loaded: Object.fromEntries([rig.a, rig.b].map((server) => [server.name, loopDelayOf(server.lines, loadFrom, loadTo)])),
      };
    }
    const uploaded = tusBytes.reduce((a, b) => a + b, 0) + batchBytes.reduce((a, b) => a + b, 0);
    // The uploaders swallow failed requests (a loaded rig answers some with errors): none stored at all is a broken upload path, not a figure.
    if (uploaded === 0) throw new Error('no upload was acknowledged while reading: the loaded phase measured nothing');

    report.idle = { folders: summarise(idle.folders), files: summarise(idle.files) };
    report.loaded = { folders: summarise(loaded.folders), files: summarise(loaded.files) };
    report.uploadedMBps = Number((uploaded / 1e6 / uploadSeconds).toFixed(1));
    for (const phase of ['idle', 'loaded'] as const) {
      for (const name of ['folders', 'files'] as const) {
        const l = (report[phase] as Record<string, Latencies>)[name]!;
        say(`${phase.padEnd(6)} ${name.padEnd(7)} p50 ${l.p50} ms, p95 ${l.p95} ms, p99 ${l.p99} ms, max ${l.max} ms (${l.count} reads)`);
      }
    }
    for (const phase of ['idle', 'loaded'] as const) {
      for (const name of ['folders', 'files'] as const) {
        const l = (report.serverSideMs as Record<string, Record<string, Latencies>>)[phase]![name]!;
        say(`${phase.padEnd(6)} ${name.padEnd(7)} in the server: p50 ${l.p50} ms, p99 ${l.p99} ms, max ${l.max} ms (${l.count})`);
      }
    }
    say(`uploaded ${report.uploadedMBps} MB/s through nginx while reading`);
    if (report.loopDelayMs) say(`event loop delay (per process: p99 of the per-second p99s, max): ${JSON.stringify(report.loopDelayMs)}`);
  } catch (error) {
    failure = error as Error;
    report.error = failure.stack ?? failure.message;
  } finally {
    report.loadAverageAtEnd = loadavg().map((l) => Number(l.toFixed(2)));
    report.ok = failure === undefined;
    await rig?.stop();
    const dir = fileURLToPath(new URL('../bench-results/', import.meta.url));
    await mkdir(dir, { recursive: true });
    const file = `${dir}admin-reads-${startedAt.toISOString().replace(/[:.]/g, '-')}.json`;
    await writeFile(file, `${JSON.stringify(report, null, 2)}\n`);
    say(`${failure ? 'FAILED' : 'ok'}: ${file}`);
  }
  if (failure) throw failure;
}

await main();
