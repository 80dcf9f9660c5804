/**
 * npm run bench:scale [-- --size=5g] [-- --chunk=64m] [-- --no-link] [-- --smoke]
 *
 * The deployment rig of npm run test:scale (tests/scale/rig.ts: Swift+s3api, two server processes
 * with BLOB_STORE=s3 on a fresh PostgreSQL schema, nginx round-robin), on its own ports 9450-9462,
 * end to end with one large file:
 *   - an admin with an RSA key pair (node:crypto, server/crypto) and a folder with an upload link;
 *   - a pseudo-random source of --size bytes (default 5g; e.g. 1g, 256m; at most 5 GiB, the app's
 *     limit), generated, hashed (SHA-256) and encrypted in the project's record format AS IT
 *     STREAMS (never the whole file in memory; one PATCH chunk plus the next one being prepared);
 *   - a resumable tus upload through nginx in PATCHes of --chunk bytes (default 64m), which
 *     round-robin lands on both processes (counted from nginx's X-Upstream header; both must have
 *     served PATCHes); completed through nginx;
 *   - the admin's download straight from the process that did NOT complete the upload, and (unless
 *     --no-link) a download link through nginx, each decrypted as it streams and its SHA-256
 *     compared with the source's;
 *   - MB/s (10^6 plaintext bytes per second) of upload and downloads, and the peak RSS of both
 *     server processes (VmRSS from /proc/<pid>/status every 200 ms, and the kernel's VmHWM), also
 *     this client's own peak RSS;
 *   - JSON under bench-results/scale-<timestamp>.json (also when a check fails, with the error).
 * Everything it starts is stopped by its own handle (PID), also on failure and on Ctrl-C.
 * --smoke (npm run bench:smoke): 16 MiB in 4 MiB PATCHes, the same checks; figures that mean nothing.
 */
import { createCipheriv, createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { cpus, loadavg } from 'node:os';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import type { Folder } from '../server/db/repositories/index.ts';
import { cipherLength, DecryptRecords, EncryptRecords, generateRsaKeyPair, unwrapFileKey, wrapFileKey } from '../server/crypto/index.ts';
import { TestClient } from '../tests/server/http-client.ts';
import { tusCreate, tusHead } from '../tests/server/upload-helpers.ts';
import { startRig, type Rig } from '../tests/scale/rig.ts';
import type { ServerProcess } from '../tests/scale/server-process.ts';

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;
const MAX_PLAIN = 5120 * MiB;
/** BENCH_RIG_PORT moves the rig's ports (the S3 store on it and the four after it, nginx on it + 10, the processes on + 11 and + 12). */
const RIG_PORT = Number(process.env.BENCH_RIG_PORT ?? 9450);
const S3_PORT = RIG_PORT;
const NGINX_PORT = RIG_PORT + 10;
const PORTS = { a: RIG_PORT + 11, b: RIG_PORT + 12 };
const BUCKET = 'sealdrop-bench-scale';
const SAMPLE_MS = 200;

const argv = process.argv.slice(2);
const option = (name: string) => {
  const inline = argv.find((arg) => arg.startsWith(`--${name}=`));
  if (inline) return inline.slice(name.length + 3);
  const index = argv.indexOf(`--${name}`);
  return index >= 0 ? argv[index + 1] : undefined;
};

function parseSize(text: string, what: string): number {
  const match = /^(\d+(?:\.\d+)?)([kmg]?)i?b?$/i.exec(text.trim());
  if (!match) throw new Error(`${what}: "${text}" is not a size (e.g. 5g, 1g, 256m)`);
  const unit = { '': 1, k: 1024, m: MiB, g: GiB }[match[2]!.toLowerCase() as '' | 'k' | 'm' | 'g'];
  return Math.round(Number(match[1]) * unit);
}

const SMOKE = argv.includes('--smoke');
const SIZE = parseSize(option('size') ?? (SMOKE ? '16m' : '5g'), '--size');
const CHUNK = parseSize(option('chunk') ?? (SMOKE ? '4m' : '64m'), '--chunk');
const LINK = !argv.includes('--no-link');
if (SIZE < 1 || SIZE > MAX_PLAIN) throw new Error(`--size must be between 1 byte and 5 GiB (the app's limit), not ${SIZE}`);
if (CHUNK < MiB) throw new Error('--chunk must be at least 1m');

const mb = (bytes: number) => bytes / 1e6;
const mibOf = (bytes: number) => Math.round(bytes / MiB);
const seconds = (since: number) => (performance.now() - since) / 1000;
const say = (line: string) => process.stdout.write(`${line}\n`);

// ---- memory of the server processes ----

async function statusKiB(pid: number, field: 'VmRSS' | 'VmHWM'): Promise<number> {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(await readFile(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0; // gone (restarted or stopped)
  }
}

class RssSampler {
  readonly peak = new Map<string, number>();
  private phasePeak = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly servers: ServerProcess[]) {}

  start(): void {
    const tick = async () => {
      for (const server of this.servers) {
        if (server.pid === undefined) continue;
        const rss = await statusKiB(server.pid, 'VmRSS');
        this.peak.set(server.name, Math.max(this.peak.get(server.name) ?? 0, rss));
        this.phasePeak.set(server.name, Math.max(this.phasePeak.get(server.name) ?? 0, rss));
      }
      const own = process.memoryUsage.rss();
      this.peak.set('client', Math.max(this.peak.get('client') ?? 0, own));
      this.phasePeak.set('client', Math.max(this.phasePeak.get('client') ?? 0, own));
    };
    this.timer = setInterval(() => void tick(), SAMPLE_MS);
  }

  /** Peak per process since the previous call, in MiB. */
  takePhase(): Record<string, number> {
    const out = Object.fromEntries([...this.phasePeak].map(([name, bytes]) => [name, mibOf(bytes)]));
    this.phasePeak = new Map();
    return out;
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

async function rssNow(servers: ServerProcess[]): Promise<Record<string, { rssMiB: number; hwmMiB: number }>> {
  const out: Record<string, { rssMiB: number; hwmMiB: number }> = {};
  for (const server of servers) {
    if (server.pid === undefined) continue;
    out[server.name] = { rssMiB: mibOf(await statusKiB(server.pid, 'VmRSS')), hwmMiB: mibOf(await statusKiB(server.pid, 'VmHWM')) };
  }
  return out;
}

// ---- the source: pseudo-random bytes, hashed and encrypted as they stream ----

/** `size` pseudo-random bytes (AES-256-CTR keystream), 4 MiB at a time, hashed into `hash`. */
async function* pseudoRandom(size: number, hash: ReturnType<typeof createHash>): AsyncGenerator<Buffer> {
  const stream = createCipheriv('aes-256-ctr', randomBytes(32), randomBytes(16));
  const zeros = Buffer.alloc(4 * MiB);
  for (let left = size; left > 0; left -= zeros.length) {
    const piece = stream.update(left >= zeros.length ? zeros : zeros.subarray(0, left));
    hash.update(piece);
    yield piece;
  }
}

/** Pulls exact-size pieces from a byte stream. */
class ChunkReader {
  private readonly iterator: AsyncIterator<Buffer>;
  private leftover: Buffer = Buffer.alloc(0);

  constructor(source: AsyncIterable<Buffer>) {
    this.iterator = source[Symbol.asyncIterator]();
  }

  async take(bytes: number): Promise<Buffer> {
    const out = Buffer.allocUnsafe(bytes);
    let filled = 0;
    while (filled < bytes) {
      if (this.leftover.length === 0) {
        const next = await this.iterator.next();
        if (next.done) throw new Error(`the encrypted stream ended ${bytes - filled} bytes early`);
        this.leftover = next.value;
      }
      const n = this.leftover.copy(out, filled, 0, Math.min(this.leftover.length, bytes - filled));
      filled += n;
      this.leftover = this.leftover.subarray(n);
    }
    return out;
  }
}

// ---- HTTP ----

const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });

function cookieHeader(client: TestClient): string {
  return [...client.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
}

interface PatchAnswer {
  status: number;
  offset: number;
  upstream: string;
  body: string;
}

function patch(client: TestClient, location: string, offset: number, body: Buffer): Promise<PatchAnswer> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${client.baseUrl}${location}`,
      {
        method: 'PATCH',
        agent,
        headers: {
          'tus-resumable': '1.0.0',
          'upload-offset': String(offset),
          'content-type': 'application/offset+octet-stream',
          'content-length': String(body.length),
          cookie: cookieHeader(client),
          'x-csrftoken': client.csrfToken ?? '',
        },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (piece: string) => (text += piece));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            offset: Number(response.headers['upload-offset'] ?? -1),
            upstream: String(response.headers['x-upstream'] ?? ''),
            body: text,
          }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

interface DownloadResult {
  from: string;
  upstream: string;
  cipherBytes: number;
  seconds: number;
  mbps: number;
  sha256: string;
  matches: boolean;
}

/** GETs `path` from `baseUrl`, decrypting as it streams; the plaintext's SHA-256 and the rate. */
function download(baseUrl: string, path: string, cookie: string, key: Buffer, iv: Buffer, expected: string, plainBytes: number): Promise<DownloadResult> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const request = http.get(`${baseUrl}${path}`, { agent, headers: cookie ? { cookie } : {} }, (response) => {
      if (response.statusCode !== 200) {
        response.resume();
        reject(new Error(`GET ${baseUrl}${path}: HTTP ${response.statusCode}`));
        return;
      }
      const hash = createHash('sha256');
      let cipherBytes = 0;
      let nextReport = GiB;
      pipeline(
        response,
        async function* (source: AsyncIterable<Buffer>) {
          for await (const piece of source) {
            cipherBytes += piece.length;
            if (cipherBytes >= nextReport) {
              say(`    ${mibOf(cipherBytes)} MiB, ${(mb(cipherBytes) / seconds(started)).toFixed(0)} MB/s`);
              nextReport += GiB;
            }
            yield piece;
          }
        },
        new DecryptRecords(key, iv),
        async (plain: AsyncIterable<Buffer>) => {
          for await (const piece of plain) hash.update(piece);
        },
      ).then(() => {
        const took = seconds(started);
        const sha256 = hash.digest('hex');
        resolve({
          from: baseUrl,
          upstream: String(response.headers['x-upstream'] ?? baseUrl.replace('http://', '')),
          cipherBytes,
          seconds: Number(took.toFixed(2)),
          mbps: Number((mb(plainBytes) / took).toFixed(1)),
          sha256,
          matches: sha256 === expected,
        });
      }, reject);
    });
    request.on('error', reject);
  });
}

// ---- the run ----

async function main(): Promise<void> {
  const startedAt = new Date();
  const cipherBytes = cipherLength(SIZE);
  const report: Record<string, unknown> = {
    bench: 'scale',
    smoke: SMOKE,
    startedAt: startedAt.toISOString(),
    machine: { cpus: cpus().length, loadAverageAtStart: loadavg().map((l) => Number(l.toFixed(2))) },
    plainBytes: SIZE,
    cipherBytes,
    patchChunkBytes: CHUNK,
    ports: { s3: S3_PORT, nginx: NGINX_PORT, ...PORTS },
  };
  let rig: Rig | undefined;
  let sampler: RssSampler | undefined;
  let failure: Error | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    say(`\n${signal}: stopping the rig`);
    sampler?.stop();
    void (rig?.stop() ?? Promise.resolve()).finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  try {
    say(`bench:scale: ${mibOf(SIZE)} MiB (${SIZE} bytes) through nginx in ${mibOf(CHUNK)} MiB PATCHes; load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores`);
    const rigStarted = performance.now();
    rig = await startRig({ s3Port: S3_PORT, nginxPort: NGINX_PORT, ports: PORTS, bucket: BUCKET, label: 'bench:scale' });
    const { a, b, nginx } = rig;
    const servers = [a, b];
    const byAddress = new Map(servers.map((server) => [`127.0.0.1:${server.port}`, server]));
    say(`rig up in ${seconds(rigStarted).toFixed(0)} s: S3 ${rig.s3.endpoint} (pid ${rig.s3.pid}), A ${a.url} (pid ${a.pid}), B ${b.url} (pid ${b.pid}), nginx ${nginx.url}, schema ${rig.schema}`);
    report.pids = { s3: rig.s3.pid, A: a.pid, B: b.pid };

    // The admin, their key pair and a folder with an upload link, through nginx.
    const username = `bench-${randomBytes(3).toString('hex')}`;
    const password = `pw-${randomBytes(12).toString('base64url')}`;
    rig.createUser(username, password);
    const admin = new TestClient(nginx.url);
    const login = await admin.login(username, password);
    if (login.status !== 200) throw new Error(`login: HTTP ${login.status}`);
    const keys = generateRsaKeyPair();
    const put = await admin.put('/api/auth/public-key', { public_key_spki: keys.publicKeySpki });
    if (put.status !== 200) throw new Error(`PUT public-key: HTTP ${put.status} ${JSON.stringify(put.body)}`);
    const created = await admin.post('/api/folders/', { title: 'bench:scale', expires_in_days: 1 });
    if (created.status !== 201) throw new Error(`POST folders: HTTP ${created.status} ${JSON.stringify(created.body)}`);
    const folder = created.body as { id: number; link_token: string };

    // The uploader, anonymous, through nginx: the owner's public key as the upload page gets it.
    const uploader = new TestClient(nginx.url);
    const gateKey = await uploader.get(`/api/upload/${folder.link_token}/public-key`);
    if (gateKey.status !== 200 || gateKey.body.public_key_spki !== keys.publicKeySpki) throw new Error(`upload public-key: HTTP ${gateKey.status}`);
    const fileKey = randomBytes(32);
    const iv = randomBytes(12);
    const sourceHash = createHash('sha256');
    const encrypted = Readable.from(pseudoRandom(SIZE, sourceHash)).pipe(new EncryptRecords(fileKey, iv));
    const reader = new ChunkReader(encrypted);

    sampler = new RssSampler(servers);
    report.idleRss = await rssNow(servers);
    sampler.start();

    const uploadStarted = performance.now();
    const creation = await tusCreate(uploader, { linkToken: folder.link_token } as Folder, cipherBytes, {
      filename: `bench-${mibOf(SIZE)}MiB.bin`,
      plainSize: SIZE,
      encryptedKey: wrapFileKey(gateKey.body.public_key_spki as string, fileKey),
      iv: iv.toString('base64'),
    });
    if (creation.status !== 201) throw new Error(`tus create: HTTP ${creation.status} ${JSON.stringify(creation.body)}`);
    const location = creation.headers.get('location')!;
    const uploadId = location.split('/').pop()!;

    const patches: Array<{ offset: number; bytes: number; upstream: string; seconds: number }> = [];
    let retries = 0;
    let offset = 0;
    let nextChunk = reader.take(Math.min(CHUNK, cipherBytes));
    let lastReport = performance.now();
    while (offset < cipherBytes) {
      const chunkStart = offset;
      const body = await nextChunk;
      const chunkEnd = chunkStart + body.length;
      // Prepare the next chunk while this one goes out (the event loop interleaves both).
      nextChunk = chunkEnd < cipherBytes ? reader.take(Math.min(CHUNK, cipherBytes - chunkEnd)) : Promise.resolve(Buffer.alloc(0));
      nextChunk.catch(() => undefined);
      for (let attempt = 0; offset < chunkEnd; attempt++) {
        const sent = performance.now();
        let answer: PatchAnswer | undefined;
        try {
          answer = await patch(uploader, location, offset, body.subarray(offset - chunkStart));
        } catch (error) {
          say(`  PATCH at ${offset} failed: ${(error as Error).message}`);
        }
        if (answer?.status === 204 && answer.offset === chunkEnd) {
          patches.push({ offset, bytes: chunkEnd - offset, upstream: answer.upstream, seconds: Number(seconds(sent).toFixed(2)) });
          offset = chunkEnd;
          break;
        }
        if (attempt >= 3) throw new Error(`PATCH at ${offset}: ${answer ? `HTTP ${answer.status} offset ${answer.offset} ${answer.body}` : 'no answer'}, after ${attempt + 1} attempts`);
        if (answer) say(`  PATCH at ${offset}: HTTP ${answer.status} (offset ${answer.offset}) ${answer.body.slice(0, 200)}`);
        retries++;
        // Resume where the server says it is (tus HEAD), as the browser client does.
        const head = await tusHead(uploader, location);
        const stored = Number(head.headers.get('upload-offset'));
        if (!(stored >= chunkStart && stored <= chunkEnd)) throw new Error(`HEAD after a failed PATCH: offset ${stored}, outside ${chunkStart}-${chunkEnd}`);
        offset = stored;
      }
      if (performance.now() - lastReport > 15_000 || offset === cipherBytes) {
        lastReport = performance.now();
        say(`  upload: ${mibOf(offset)} / ${mibOf(cipherBytes)} MiB, ${patches.length} PATCHes, ${(mb(offset) / seconds(uploadStarted)).toFixed(1)} MB/s`);
      }
    }
    // The whole source has gone through the hash (the encryptor's final record follows its end).
    const sourceSha = sourceHash.digest('hex');
    report.sourceSha256 = sourceSha;
    const completion = await uploader.post(`/api/upload/${folder.link_token}/complete`, {
      uploads: [{ upload_id: uploadId, file_hash: sourceSha }],
    });
    const uploadSeconds = seconds(uploadStarted);
    if (completion.status !== 200 || completion.body.failed_files?.length) throw new Error(`complete: HTTP ${completion.status} ${JSON.stringify(completion.body)}`);
    const fileId = completion.body.successful_files[0].id as number;
    const completedBy = completion.headers.get('x-upstream') ?? '';
    const uploadPeak = sampler.takePhase();

    const patchCounts: Record<string, number> = {};
    for (const p of patches) {
      const name = byAddress.get(p.upstream)?.name ?? p.upstream;
      patchCounts[name] = (patchCounts[name] ?? 0) + 1;
    }
    const upload = {
      seconds: Number(uploadSeconds.toFixed(1)),
      mbps: Number((mb(SIZE) / uploadSeconds).toFixed(1)),
      patches: patches.length,
      retries,
      patchCounts,
      completedBy: byAddress.get(completedBy)?.name ?? completedBy,
      peakRssMiB: uploadPeak,
    };
    report.upload = upload;
    say(`upload: ${upload.seconds} s, ${upload.mbps} MB/s; PATCHes ${JSON.stringify(patchCounts)}; completed by ${upload.completedBy}; peak RSS MiB ${JSON.stringify(uploadPeak)}`);
    const bothServed = servers.every((server) => (patchCounts[server.name] ?? 0) > 0);
    if (!bothServed) throw new Error(`PATCHes did not land on both processes: ${JSON.stringify(patchCounts)}`);

    // Downloads: the admin straight from the process that did not complete the upload, then a link.
    const completer = byAddress.get(completedBy);
    if (!completer) throw new Error(`complete was answered by "${completedBy}", not a known process`);
    const other = completer === a ? b : a;
    const records = (await admin.get(`/api/folders/${folder.id}/files`)).body as Array<{ id: number; encrypted_key: string; encryption_iv: string }>;
    const record = records.find((r) => r.id === fileId);
    if (!record) throw new Error(`file ${fileId} is not in the folder's list`);
    const key = unwrapFileKey(keys.privateKey, record.encrypted_key);
    const recordIv = Buffer.from(record.encryption_iv, 'base64');

    const downloads: Array<DownloadResult & { kind: string; peakRssMiB: Record<string, number> }> = [];
    say(`download as the admin from ${other.name} (${other.url}), which did not complete the upload:`);
    const direct = await download(other.url, `/api/folders/download/${fileId}`, cookieHeader(admin), key, recordIv, sourceSha, SIZE);
    downloads.push({ kind: `admin, directly from ${other.name}`, ...direct, peakRssMiB: sampler.takePhase() });
    say(`  ${direct.seconds} s, ${direct.mbps} MB/s, SHA-256 ${direct.matches ? 'matches' : 'DIFFERS'}`);
    if (LINK) {
      const link = await admin.post('/api/download/links', { file_ids: [fileId], password: null, reencrypted_keys_json: null, expiration_date: null });
      if (link.status !== 201) throw new Error(`POST download link: HTTP ${link.status} ${JSON.stringify(link.body)}`);
      say('download by link through nginx:');
      const byLink = await download(nginx.url, `/api/download/${link.body.link_token}/file/${fileId}`, '', key, recordIv, sourceSha, SIZE);
      const served = byAddress.get(byLink.upstream)?.name ?? byLink.upstream;
      downloads.push({ kind: `link, through nginx (served by ${served})`, ...byLink, peakRssMiB: sampler.takePhase() });
      say(`  served by ${served}: ${byLink.seconds} s, ${byLink.mbps} MB/s, SHA-256 ${byLink.matches ? 'matches' : 'DIFFERS'}`);
    }
    report.downloads = downloads;
    sampler.stop();
    const end = await rssNow(servers);
    report.peakRssMiB = Object.fromEntries([...sampler.peak].map(([name, bytes]) => [name, mibOf(bytes)]));
    report.vmHwmMiB = Object.fromEntries(Object.entries(end).map(([name, v]) => [name, v.hwmMiB]));
    report.serverErrorLines = servers.reduce((n, server) => n + server.logRecords().filter((r) => Number(r.level) >= 50).length, 0);
    say(`peak RSS (sampled every ${SAMPLE_MS} ms over the run): ${JSON.stringify(report.peakRssMiB)} MiB; VmHWM (since each process started) ${JSON.stringify(report.vmHwmMiB)} MiB`);
    if (downloads.some((d) => !d.matches)) throw new Error('a download did not decrypt to the source (SHA-256 differs)');
  } catch (error) {
    failure = error as Error;
    report.error = failure.stack ?? failure.message;
  } finally {
    sampler?.stop();
    report.seconds = Number(((Date.now() - startedAt.getTime()) / 1000).toFixed(1));
    report.loadAverageAtEnd = loadavg().map((l) => Number(l.toFixed(2)));
    report.ok = failure === undefined;
    await rig?.stop();
    agent.destroy();
    const dir = fileURLToPath(new URL('../bench-results/', import.meta.url));
    await mkdir(dir, { recursive: true });
    const file = `${dir}scale-${startedAt.toISOString().replace(/[:.]/g, '-')}.json`;
    await writeFile(file, `${JSON.stringify(report, null, 2)}\n`);
    say(`${failure ? 'FAILED' : 'ok'}: ${file}`);
  }
  if (failure) throw failure;
}

await main();
