// The resume phase of `npm run bench:upload`: what a reload in the middle of a large encrypted
// upload costs. The real upload page sends the file through a recording pass-through proxy
// (e2e/support/tus-recorder.ts) in front of the server, so the bytes are counted on the server's
// side of the wire. The upload is stopped at half: the proxy holds the PATCH that starts at the
// chunk boundary at half of the ciphertext after its first CUT_PATCH_AFTER_BYTES (those reach the
// server; the rest waits), so that however late the reload comes on a loaded machine it cuts a
// PATCH off in the middle of its body, as a person closing the tab does. Then the page is
// reloaded, the same file picked again and the upload resumed. What it reports:
//   - the bytes sent twice: every PATCH body that reached the proxy, less the ciphertext's length.
//     The server keeps and flushes what arrived of a cut-off PATCH, so only bytes still between
//     the proxy and the server at the reload may go again; more than the old page had in flight
//     beyond its last acknowledged offset fails the benchmark, as does a resumed PATCH that does
//     not continue exactly where the server stood;
//   - the CPU (browser tree and server) from pressing Upload again to the new page's HEAD at the
//     proxy: re-checking the part already sent (its records are encrypted again and their content
//     signature compared, workers/encryption-job.ts verifySent; the page asks the server for its
//     offset only after that check), against the CPU of the whole upload (both halves together);
//     and the seconds until the first resumed byte (the check, then the first chunk produced);
//   - the stored file: one tus upload, its SHA-256 that of the original, and it decrypts to it.
// Run by the automation as the other phases are: attached only to pick, press and reload.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { cipherLength, decryptBuffer, unwrapFileKey, type NodeKeyPair } from '../server/crypto/index.ts';
import type { AdminClient } from '../e2e/support/api-client.ts';
import { TusRecorder, type TusRequest } from '../e2e/support/tus-recorder.ts';
import { BenchBrowser } from './bench-browser.ts';
import { benchCpuByThread, benchThreads, largestThreads, printThreads, sampleTree, type BenchThreads } from './process-tree.ts';
import { pickIntoPage, pressUpload, RUN_DEADLINE_MS, type PhaseResult } from './upload-phases.ts';
import { TUS_CHUNK_BYTES } from '../src/features/upload/transport/tusUpload.ts';
import { tusBodyStarts } from '../src/features/upload/transport/ciphertextSource.ts';

const MiB = 1024 * 1024;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const round2 = (value: number) => Number(value.toFixed(2));

export interface ResumeInputs {
  readonly serverUrl: string;
  readonly serverPid: number;
  readonly admin: AdminClient;
  readonly keys: NodeKeyPair;
  /** The plaintext file and its size. */
  readonly file: string;
  readonly bytes: number;
  /** Where the recording proxy listens (the server's port + 1). */
  readonly proxyPort: number;
}

/** Body bytes of the cut-off PATCH that reach the server before the reload. */
export const CUT_PATCH_AFTER_BYTES = 16 * MiB;

interface CpuSample {
  readonly browser: number;
  readonly server: number;
  readonly threads: BenchThreads;
}

export interface ResumeResult {
  name: string;
  plainBytes: number;
  cipherBytes: number;
  /** The last offset the server acknowledged (PATCH 204) before the reload. */
  acknowledgedBeforeReload: number;
  /** Bytes the old page had sent beyond that offset (cut off by the reload). */
  inFlightAtReload: number;
  /** The offset the new page resumed from (the server's answer to its HEAD). */
  resumedFrom: number;
  /** PATCH body bytes that reached the proxy, in all, less the ciphertext's length (target 0; at most inFlightAtReload). */
  resentBytes: number;
  /** Seconds and CPU seconds from pressing Upload again to the new page's HEAD (the re-check done). */
  recheckSeconds: number;
  /** Seconds from pressing Upload again to the first resumed byte at the proxy. */
  firstResumedByteSeconds: number;
  recheckCpuSeconds: { browser: number; server: number; total: number };
  recheckCpuByThread: Record<string, number>;
  /** CPU seconds of the whole upload: before the reload, and from pressing Upload again to the server's record. */
  beforeReloadCpuSeconds: number;
  afterReloadCpuSeconds: number;
  /** recheckCpuSeconds.total / (before + after): what the re-check adds to the upload's CPU. */
  recheckToUploadCpuRatio: number;
  /** Wall seconds from pressing Upload again to the server's record. */
  afterReloadSeconds: number;
}

async function sampleCpu(browserPid: number, serverPid: number): Promise<CpuSample> {
  const [browser, server, threads] = await Promise.all([sampleTree(browserPid), sampleTree(serverPid), benchThreads(browserPid, serverPid)]);
  return { browser: browser.cpuSeconds, server: server.cpuSeconds, threads };
}

const spent = (from: CpuSample, to: CpuSample) => to.browser - from.browser + (to.server - from.server);

const patches = (log: readonly TusRequest[]) => log.filter((r) => r.method === 'PATCH');
/** The last offset the server acknowledged (PATCH 204). */
const acknowledged = (log: readonly TusRequest[]) => Math.max(0, ...patches(log).map((r) => (r.status === 204 ? (r.responseOffset ?? 0) : 0)));

async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, pollMs: number): Promise<T> {
  const deadline = Date.now() + RUN_DEADLINE_MS;
  while (Date.now() < deadline) {
    const value = await probe();
    if (value !== undefined) return value;
    await sleep(pollMs);
  }
  throw new Error(`resume phase: timed out waiting for ${what}`);
}

async function sha256OfFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path, { highWaterMark: 4 * MiB })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** One resumed upload, in a browser of its own; throws when a byte went twice beyond what the reload cut off, or the stored file is not the original. */
export async function measureResume(inputs: ResumeInputs): Promise<ResumeResult> {
  const { admin, serverPid } = inputs;
  const cipherBytes = cipherLength(inputs.bytes);
  const half = Math.ceil(cipherBytes / 2);
  // The start of a PATCH nearest below half (at least the second PATCH's).
  const stopAt = Math.max(...tusBodyStarts(cipherBytes, TUS_CHUNK_BYTES).filter((start, index) => index === 1 || start <= half));
  if (stopAt + CUT_PATCH_AFTER_BYTES >= cipherBytes) throw new Error(`resume phase: a file of ${inputs.bytes} bytes is too short to stop in the middle of a PATCH`);
  const proxy = await TusRecorder.start(inputs.proxyPort, inputs.serverUrl);
  const browser = await BenchBrowser.launch();
  const folder = await admin.createFolder({ title: 'bench resume', perform_mime_check: true });
  try {
    const link = `${proxy.url}/upload/${folder.link_token}`;
    await browser.drive(link, (page) => pickIntoPage(page, 'file-input', inputs.file, 1));
    await sleep(1000);
    proxy.holdPatchesFrom(stopAt, { forwardBytes: CUT_PATCH_AFTER_BYTES });
    const start = await sampleCpu(browser.pid, serverPid);
    await browser.drive(null, pressUpload);
    await until(
      'half of the ciphertext acknowledged and the next PATCH under way',
      () => (acknowledged(proxy.log) >= stopAt && patches(proxy.log).some((r) => r.uploadOffset === stopAt && r.bodyBytes >= CUT_PATCH_AFTER_BYTES) ? true : undefined),
      10,
    );
    const beforeReload = await sampleCpu(browser.pid, serverPid);

    // The reload: the page asks first (beforeunload) while an upload runs; the person confirms.
    await browser.drive(null, async (page) => {
      page.on('dialog', (dialog) => void dialog.accept());
      await page.reload();
      await page.getByTestId('unfinished-uploads').waitFor();
    });
    // Whatever the old page's cut-off PATCH brought has arrived by now (the proxy saw its close).
    await sleep(500);
    const reloadIndex = proxy.log.length;
    const acknowledgedBeforeReload = acknowledged(proxy.log);
    const sentBeforeReload = patches(proxy.log).reduce((sum, r) => sum + r.bodyBytes, 0);
    const inFlightAtReload = Math.max(0, sentBeforeReload - acknowledgedBeforeReload);
    proxy.holdPatchesFrom(null);

    await browser.drive(null, async (page) => {
      await page.getByTestId('file-input').setInputFiles(inputs.file);
      const entry = page.getByTestId('unfinished-uploads').getByRole('listitem');
      await entry.first().waitFor();
      const match = await entry.first().getAttribute('data-match');
      if (match !== 'selected') throw new Error(`resume phase: the page did not recognise the file picked again as the unfinished one (data-match ${match})`);
    });
    await sleep(1000);
    const resumeStart = await sampleCpu(browser.pid, serverPid);
    // (The new page's list of unfinished uploads asked for the offset too, before the press.)
    const pressIndex = proxy.log.length;
    const pressedAt = Date.now();
    await browser.drive(null, pressUpload);
    const head = await until('the new page asking for the offset (HEAD)', () => proxy.log.slice(pressIndex).find((r) => r.method === 'HEAD'), 5);
    const recheckDone = await sampleCpu(browser.pid, serverPid);
    const firstResumed = await until('the first resumed byte', () => patches(proxy.log.slice(reloadIndex)).find((r) => r.firstByteAt !== null), 5);
    const record = await until(
      "the server's record",
      async () => {
        const files = await admin.listFiles(folder.id);
        return files.length > 0 ? files[0] : undefined;
      },
      200,
    );
    const end = await sampleCpu(browser.pid, serverPid);
    const afterReloadSeconds = (Date.parse(record.upload_time) - pressedAt) / 1000;

    // From the server's side: one upload; the new page asked for the offset and continued from it.
    const log = proxy.log;
    const creations = log.filter((r) => r.method === 'POST' && r.metadata !== null);
    if (creations.length !== 1) throw new Error(`resume phase: ${creations.length} tus uploads were created; a resume must continue the one upload`);
    const after = log.slice(reloadIndex);
    if (head.status !== 200 || head.responseOffset === null) throw new Error(`resume phase: the server answered the new page's HEAD with ${head.status}`);
    const resumedFrom = head.responseOffset;
    let expected = resumedFrom;
    for (const patch of patches(after)) {
      if (patch.uploadOffset !== expected || patch.status !== 204) {
        throw new Error(`resume phase: a resumed PATCH at ${patch.uploadOffset} (status ${patch.status}) where the server stood at ${expected}`);
      }
      expected += patch.bodyBytes;
    }
    if (expected !== cipherBytes) throw new Error(`resume phase: the resumed PATCHes end at ${expected} of ${cipherBytes} ciphertext bytes`);
    const resentBytes = patches(log).reduce((sum, r) => sum + r.bodyBytes, 0) - cipherBytes;
    if (resentBytes > inFlightAtReload) {
      throw new Error(`resume phase: ${resentBytes} bytes sent twice, more than the ${inFlightAtReload} the reload cut off`);
    }

    // The stored file is the original: its hash, and the ciphertext decrypts to it.
    const original = await sha256OfFile(inputs.file);
    if (record.file_hash !== original) throw new Error(`resume phase: stored hash ${record.file_hash}, the file's is ${original}`);
    const sealed = Buffer.from(await (await admin.downloadCiphertext(record.id)).arrayBuffer());
    const plain = decryptBuffer(unwrapFileKey(inputs.keys.privateKey, record.encrypted_key), Buffer.from(record.encryption_iv, 'base64'), sealed);
    if (createHash('sha256').update(plain).digest('hex') !== original) throw new Error('resume phase: the stored ciphertext does not decrypt to the original');

    const recheck = { browser: recheckDone.browser - resumeStart.browser, server: recheckDone.server - resumeStart.server };
    const beforeReloadCpuSeconds = spent(start, beforeReload);
    const afterReloadCpuSeconds = spent(resumeStart, end);
    return {
      name: `encrypted upload of ${inputs.bytes >= 1024 * MiB ? `${inputs.bytes / (1024 * MiB)} GiB` : `${inputs.bytes / MiB} MiB`}, reloaded at half and resumed`,
      plainBytes: inputs.bytes,
      cipherBytes,
      acknowledgedBeforeReload,
      inFlightAtReload,
      resumedFrom,
      resentBytes,
      recheckSeconds: round2((head.at - pressedAt) / 1000),
      firstResumedByteSeconds: round2((firstResumed.firstByteAt! - pressedAt) / 1000),
      recheckCpuSeconds: { browser: round2(recheck.browser), server: round2(recheck.server), total: round2(recheck.browser + recheck.server) },
      recheckCpuByThread: largestThreads(benchCpuByThread(resumeStart.threads, recheckDone.threads)),
      beforeReloadCpuSeconds: round2(beforeReloadCpuSeconds),
      afterReloadCpuSeconds: round2(afterReloadCpuSeconds),
      recheckToUploadCpuRatio: round2((recheck.browser + recheck.server) / (beforeReloadCpuSeconds + afterReloadCpuSeconds)),
      afterReloadSeconds: round2(afterReloadSeconds),
    };
  } finally {
    await browser.close();
    await proxy.close();
    await admin.deleteFolder(folder.id).catch(() => undefined);
  }
}

/** `uninterrupted`: the encrypted phase of the same run, when it uploaded the same file. */
export function printResume(r: ResumeResult, uninterrupted?: PhaseResult): void {
  const mib = (bytes: number) => (bytes / MiB).toFixed(1);
  console.log(`  ${r.name}:`);
  console.log(
    `    reloaded with ${mib(r.acknowledgedBeforeReload)} of ${mib(r.cipherBytes)} MiB acknowledged (${mib(r.inFlightAtReload)} MiB more in flight); resumed from ${mib(r.resumedFrom)} MiB; ` +
      `bytes sent twice: ${r.resentBytes} (target 0; at most the ${r.inFlightAtReload} in flight)`,
  );
  console.log(
    `    re-check (pressing Upload again to the HEAD; the first resumed byte after ${r.firstResumedByteSeconds} s): ${r.recheckSeconds} s, ${r.recheckCpuSeconds.total} CPU-s (browser ${r.recheckCpuSeconds.browser}, server ${r.recheckCpuSeconds.server}) ` +
      `against ${round2(r.beforeReloadCpuSeconds + r.afterReloadCpuSeconds)} CPU-s for the whole upload (${r.beforeReloadCpuSeconds} before the reload, ${r.afterReloadCpuSeconds} after): ratio ${r.recheckToUploadCpuRatio}`,
  );
  if (uninterrupted && uninterrupted.bytes === r.plainBytes) {
    const whole = round2(r.beforeReloadCpuSeconds + r.afterReloadCpuSeconds);
    console.log(`    the uninterrupted upload of the same file (encrypted phase): ${uninterrupted.cpuSecondsPerRun} CPU-s; reloaded and resumed: ${whole} CPU-s (${round2(whole / uninterrupted.cpuSecondsPerRun)} of it)`);
  }
  printThreads(r.recheckCpuByThread);
}
