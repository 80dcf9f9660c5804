/**
 * npm run bench:recover [-- --size-mib N] [-- --repeat N] [-- --keep] [-- --smoke]
 *
 * Offline recovery speed: makes one file of N MiB (default 1024) of random bytes, encrypts it with
 * server/crypto into a directory export (docs/format.md "Exports") with a key backup file, then
 * times the real command (`node --import tsx server/recover.ts --password-stdin ...`) as a child
 * process, `--repeat` times (default 3), into a fresh output directory each time. Prints and writes
 * as JSON under bench-results/:
 *   - per run: wall time of the whole command (process start, PBKDF2 of the backup password,
 *     decrypt + SHA-256 + write + fsync) and the rate over that time, the rate the command reports
 *     for its decrypting phase, peak RSS of the process (sampled from /proc: it must stay flat,
 *     the file is streamed) and its CPU seconds;
 *   - limits measured in this process in the same run: AES-256-GCM opening 256 KiB records,
 *     SHA-256, reading the blob (page cache warm, it was just written) and writing with fsync.
 * The blob stays in the page cache between runs (it is read warm); the machine is shared, so the
 * load average before and after is recorded too. --smoke (npm run bench:smoke): an 8 MiB file,
 * one run, the limits over 16 MiB; the same checks (exit status 0, the recovered file's size; the
 * command itself checks the SHA-256), figures that mean nothing.
 */
import { spawn } from 'node:child_process';
import { createCipheriv, createDecipheriv, createHash, randomBytes, randomFillSync } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { EncryptRecords, generateRsaKeyPair, wrapFileKey, wrapPrivateKey } from '../server/crypto/index.ts';
import { PeakMemory, sampleTree } from './process-tree.ts';
import { median } from './median.ts';

const MiB = 1024 * 1024;
const RECORD = 256 * 1024;
const args = process.argv.slice(2);
const option = (name: string, fallback: number) => (args.includes(name) ? Math.max(1, Number(args[args.indexOf(name) + 1])) : fallback);
const SMOKE = args.includes('--smoke');
const SIZE = option('--size-mib', SMOKE ? 8 : 1024) * MiB;
const REPEAT = option('--repeat', SMOKE ? 1 : 3);
/** Bytes of each limit's measurement in this process. */
const LIMIT_BYTES = SMOKE ? 16 * MiB : 256 * MiB;
const KEEP = args.includes('--keep');
const root = (relative: string) => fileURLToPath(new URL(`../${relative}`, import.meta.url));
const DIR = root('.tmp/bench-recover');
const PASSWORD = 'bench password';

const mbps = (bytes: number, ms: number) => Math.round(bytes / 1000 / ms);

function* randomChunks(total: number): Generator<Buffer> {
  for (let done = 0; done < total; done += 4 * MiB) yield randomFillSync(Buffer.allocUnsafe(Math.min(4 * MiB, total - done)));
}

async function makeExport(): Promise<{ exportDir: string; backup: string }> {
  const owner = generateRsaKeyPair();
  const exportDir = path.join(DIR, 'export');
  await mkdir(path.join(exportDir, 'files'), { recursive: true });
  const key = randomBytes(32);
  const iv = randomBytes(12);
  const hash = createHash('sha256');
  const source = Readable.from(randomChunks(SIZE)).on('data', (chunk: Buffer) => hash.update(chunk));
  await pipeline(source, new EncryptRecords(key, iv), createWriteStream(path.join(exportDir, 'files/1.sdrp')));
  const manifest = {
    format: 'sealdrop-export',
    format_version: 1,
    exported_at: new Date().toISOString(),
    folder: { id: 1, title: 'bench' },
    files: [
      {
        id: 1,
        blob: 'files/1.sdrp',
        relative_path: '.',
        name: `random-${SIZE / MiB}MiB.bin`,
        size: SIZE,
        sha256: hash.digest('hex'),
        encrypted_key: wrapFileKey(owner.publicKeySpki, key),
        iv: iv.toString('base64'),
        upload_time: new Date().toISOString(),
      },
    ],
  };
  await writeFile(path.join(exportDir, 'manifest.json'), JSON.stringify(manifest, null, 2));
  const backup = path.join(DIR, 'private-key-backup-bench.json');
  await writeFile(backup, JSON.stringify({ description: 'bench', username: 'bench', ...wrapPrivateKey(owner.privateKey, PASSWORD), backupDate: new Date().toISOString() }));
  return { exportDir, backup };
}

interface RunResult {
  wallSeconds: number;
  wallMBps: number;
  reportedMBps: number | null;
  peakRssMiB: number;
  cpuSeconds: number;
}

async function runRecover(exportDir: string, backup: string, out: string): Promise<RunResult> {
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/recover.ts', '--backup', backup, '--password-stdin', exportDir, out], {
    cwd: root(''),
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const memory = new PeakMemory(child.pid!);
  memory.start();
  let cpuSeconds = 0;
  const cpuTimer = setInterval(() => void sampleTree(child.pid!).then((sample) => (cpuSeconds = Math.max(cpuSeconds, sample.cpuSeconds))), 200);
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stdin.end(`${PASSWORD}\n`);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const wallMs = performance.now() - started;
  clearInterval(cpuTimer);
  const { peakRssBytes } = await memory.stop();
  if (code !== 0) throw new Error(`recover exited with ${code}:\n${stdout}`);
  const recovered = await stat(path.join(out, `random-${SIZE / MiB}MiB.bin`));
  if (recovered.size !== SIZE) throw new Error(`recovered ${recovered.size} bytes, expected ${SIZE}`);
  const reported = /, (\d+) MB\/s\.\s*$/.exec(stdout);
  return {
    wallSeconds: Number((wallMs / 1000).toFixed(2)),
    wallMBps: mbps(SIZE, wallMs),
    reportedMBps: reported ? Number(reported[1]) : null,
    peakRssMiB: Math.round(peakRssBytes / MiB),
    cpuSeconds: Number(cpuSeconds.toFixed(2)),
  };
}

async function timed(bytes: number, work: () => Promise<void> | void): Promise<number> {
  const started = performance.now();
  await work();
  return mbps(bytes, performance.now() - started);
}

async function measureLimits(blob: string) {
  const key = randomBytes(32);
  const nonce = randomBytes(12);
  const plain = randomBytes(RECORD);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  const sealed = Buffer.concat([cipher.update(plain), cipher.final()]);
  const tag = cipher.getAuthTag();
  const records = LIMIT_BYTES / RECORD;
  const aesGcmOpen = await timed(records * RECORD, () => {
    for (let i = 0; i < records; i++) {
      const decipher = createDecipheriv('aes-256-gcm', key, nonce);
      decipher.setAuthTag(tag);
      Buffer.concat([decipher.update(sealed), decipher.final()]);
    }
  });
  const sha256 = await timed(records * RECORD, () => {
    const hash = createHash('sha256');
    for (let i = 0; i < records; i++) hash.update(plain);
    hash.digest();
  });
  const blobBytes = (await stat(blob)).size;
  const readWarm = await timed(blobBytes, () => pipeline(createReadStream(blob, { highWaterMark: MiB }), new Writable({ write: (_c, _e, done) => done() })));
  const writeBytes = LIMIT_BYTES;
  const target = path.join(DIR, 'write-test.bin');
  const writeFsync = await timed(writeBytes, () => pipeline(Readable.from(randomChunks(writeBytes)), createWriteStream(target, { flush: true })));
  await rm(target);
  return { aesGcmOpenMBps: aesGcmOpen, sha256MBps: sha256, readWarmMBps: readWarm, writeFsyncMBps: writeFsync };
}

async function main(): Promise<void> {
  await rm(DIR, { recursive: true, force: true });
  await mkdir(DIR, { recursive: true });
  try {
    const loadBefore = loadavg();
    console.log(`Making a ${SIZE / MiB} MiB export in ${DIR} ...`);
    const { exportDir, backup } = await makeExport();
    const runs: RunResult[] = [];
    for (let i = 0; i < REPEAT; i++) {
      const out = path.join(DIR, `out-${i}`);
      const result = await runRecover(exportDir, backup, out);
      runs.push(result);
      console.log(
        `run ${i + 1}: ${result.wallSeconds} s wall, ${result.wallMBps} MB/s over the whole command, ` +
          `${result.reportedMBps} MB/s decrypting (as reported), peak RSS ${result.peakRssMiB} MiB, ${result.cpuSeconds} CPU s`,
      );
      await rm(out, { recursive: true, force: true });
    }
    const limits = await measureLimits(path.join(exportDir, 'files/1.sdrp'));
    const serialLimit = Math.round(1 / (1 / limits.aesGcmOpenMBps + 1 / limits.sha256MBps + 1 / limits.readWarmMBps + 1 / limits.writeFsyncMBps));
    console.log(
      `limits in this process: AES-256-GCM open ${limits.aesGcmOpenMBps} MB/s, SHA-256 ${limits.sha256MBps} MB/s, ` +
        `read (warm) ${limits.readWarmMBps} MB/s, write+fsync ${limits.writeFsyncMBps} MB/s; all four in series on one core: ${serialLimit} MB/s`,
    );
    const summary = {
      medianWallMBps: median(runs.map((run) => run.wallMBps)),
      medianReportedMBps: median(runs.map((run) => run.reportedMBps ?? 0)),
      maxPeakRssMiB: Math.max(...runs.map((run) => run.peakRssMiB)),
    };
    console.log(
      `median: ${summary.medianWallMBps} MB/s over the whole command, ${summary.medianReportedMBps} MB/s decrypting; peak RSS at most ${summary.maxPeakRssMiB} MiB`,
    );
    const report = {
      benchmark: 'recover',
      date: new Date().toISOString(),
      node: process.version,
      cores: cpus().length,
      loadAverage: { before: loadBefore, after: loadavg() },
      smoke: SMOKE,
      fileBytes: SIZE,
      recordBytes: RECORD,
      runs,
      summary,
      limits: { ...limits, serialOneCoreMBps: serialLimit },
    };
    await mkdir(root('bench-results'), { recursive: true });
    const out = root(`bench-results/recover-${report.date.replace(/[:.]/g, '-')}.json`);
    await writeFile(out, `${JSON.stringify(report, null, 2)}\n`);
    console.log(`written ${out}`);
  } finally {
    if (!KEEP) await rm(DIR, { recursive: true, force: true });
  }
}

await main();
