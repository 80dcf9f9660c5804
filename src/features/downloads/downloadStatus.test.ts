// The one status machine of a download (downloadStatus.ts) against a scripted worker on a real
// MessagePort: the whole conversation, and every wait that must end (no 'ready', no 'started', an
// abort the worker answers late or never, a worker that fails to start).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DownloadError, type ControlMessage, type StatusMessage } from '../../../workers/index.ts';
import { READER_WAIT_REPORT_MS } from '../../../workers/download-service/downloadService.ts';
import { downloadErrorText } from '../../lib/userTexts.ts';
import { awaitDownload, READY_TIMEOUT_MS, STALL_TIMEOUT_MS, type DownloadReceiver } from './downloadStatus.ts';
import type { DownloadProgress, FailedZipFile } from './types.ts';

const opened: MessagePort[] = [];
afterEach(() => {
  vi.useRealTimers();
  for (const port of opened.splice(0)) port.close();
});

/** A receiver whose worker the test plays: it says status messages and records the page's controls. */
function scriptedWorker({ startWithinMs = null, abortGraceMs = 0 }: { startWithinMs?: number | null; abortGraceMs?: number } = {}) {
  const controls: ControlMessage[] = [];
  let workerPort: MessagePort | null = null;
  let crash: ((error: DownloadError) => void) | null = null;
  const calls = { ready: 0, end: 0 };
  const receiver: DownloadReceiver = {
    post(keyPort, statusPort) {
      opened.push(keyPort, statusPort);
      workerPort = statusPort;
      statusPort.onmessage = (event: MessageEvent<ControlMessage>) => controls.push(event.data);
    },
    ready() {
      calls.ready++;
      return startWithinMs;
    },
    abortGraceMs,
    watch(fail) {
      crash = fail;
    },
    end() {
      calls.end++;
    },
  };
  return {
    receiver,
    controls,
    calls,
    say: (message: StatusMessage) => workerPort!.postMessage(message),
    crash: (error: DownloadError) => crash!(error),
  };
}

function start(worker: ReturnType<typeof scriptedWorker>, options: { signal?: AbortSignal; onFileFailed?: (failed: FailedZipFile) => void } = {}) {
  const progress: DownloadProgress[] = [];
  const keys = new MessageChannel();
  opened.push(keys.port1);
  const outcome = awaitDownload(worker.receiver, keys.port2, { onProgress: (p) => progress.push(p), ...(options.signal ? { signal: options.signal } : {}) }, options.onFileFailed);
  const settled = outcome.then(
    (bytes) => ({ bytes }),
    (error: unknown) => ({ error }),
  );
  return { outcome, settled, progress };
}

const failure = (code: 'HTTP' | 'INTEGRITY', detail: string) => ({ name: 'DownloadError' as const, code, facts: { detail }, message: detail });

describe('the download status machine', () => {
  it('ready, started, progress, a skipped file, done: resolves with the bytes and ends the worker once', async () => {
    const worker = scriptedWorker();
    const skipped: FailedZipFile[] = [];
    const { settled, progress } = start(worker, { onFileFailed: (failed) => skipped.push(failed) });
    worker.say({ type: 'ready' });
    worker.say({ type: 'started', totalBytes: 100 });
    worker.say({ type: 'progress', bytes: 40 });
    worker.say({ type: 'file-failed', name: 'b.txt', failure: failure('HTTP', 'gone') });
    worker.say({ type: 'done', bytes: 100 });
    expect(await settled).toEqual({ bytes: 100 });
    expect(worker.calls).toEqual({ ready: 1, end: 1 });
    expect(progress.map((p) => [p.bytes, p.totalBytes])).toEqual([
      [0, 100],
      [40, 100],
    ]);
    expect(skipped).toHaveLength(1);
    expect(skipped[0]!.error).toMatchObject({ code: 'HTTP', facts: { detail: 'gone' } });
  });

  it("the worker's error is the download's, with its code", async () => {
    const worker = scriptedWorker();
    const { settled } = start(worker);
    worker.say({ type: 'ready' });
    worker.say({ type: 'error', failure: failure('INTEGRITY', 'tampered') });
    const { error } = (await settled) as { error: unknown };
    expect(error).toBeInstanceOf(DownloadError);
    expect(error).toMatchObject({ code: 'INTEGRITY', facts: { detail: 'tampered' } });
    expect(worker.calls.end).toBe(1);
  });

  it("no 'ready' in time: EXPIRED, and the worker is ended", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const worker = scriptedWorker();
    const { settled } = start(worker);
    await vi.advanceTimersByTimeAsync(READY_TIMEOUT_MS);
    expect(await settled).toMatchObject({ error: { code: 'EXPIRED' } });
    expect(worker.calls).toEqual({ ready: 0, end: 1 });
  });

  it("'ready' but no 'started' within the receiver's limit: the worker is asked to abort, EXPIRED", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const worker = scriptedWorker({ startWithinMs: 30_000 });
    const { settled } = start(worker);
    worker.say({ type: 'ready' });
    await vi.waitFor(() => expect(worker.calls.ready).toBe(1));
    await vi.advanceTimersByTimeAsync(29_000);
    worker.say({ type: 'progress', bytes: 1 }); // no 'started': the limit still runs
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await settled).toMatchObject({ error: { code: 'EXPIRED' } });
    await vi.waitFor(() => expect(worker.controls).toEqual([{ type: 'abort' }]));
  });

  it("after 'started', a worker that goes silent (died mid-stream) fails the download as STALLED and is asked to abort", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const worker = scriptedWorker({ startWithinMs: 30_000 });
    const { settled } = start(worker);
    worker.say({ type: 'ready' });
    worker.say({ type: 'started', totalBytes: 100 });
    await vi.waitFor(() => expect(worker.calls.ready).toBe(1));
    // Progress keeps it alive ...
    await vi.advanceTimersByTimeAsync(STALL_TIMEOUT_MS - 1_000);
    worker.say({ type: 'progress', bytes: 10 });
    await vi.advanceTimersByTimeAsync(STALL_TIMEOUT_MS - 1_000);
    expect(worker.calls.end).toBe(0);
    // ... silence does not.
    await vi.advanceTimersByTimeAsync(1_000);
    const { error } = (await settled) as { error: unknown };
    expect(error).toBeInstanceOf(DownloadError);
    expect(error).toMatchObject({ code: 'STALLED' });
    expect(downloadErrorText(error as DownloadError)).toBe('The download stopped: no data arrived for a minute. Please try again.');
    expect(worker.calls.end).toBe(1);
    await vi.waitFor(() => expect(worker.controls).toEqual([{ type: 'abort' }]));
  });

  it("a download paused in the browser's download manager for minutes is not taken for dead: the service worker's reports of an unchanged count keep it alive", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    // Inside the page's limit, with room for a late timer.
    expect(READER_WAIT_REPORT_MS * 3).toBeLessThanOrEqual(STALL_TIMEOUT_MS);
    const worker = scriptedWorker({ startWithinMs: 30_000 });
    const { settled } = start(worker);
    worker.say({ type: 'ready' });
    worker.say({ type: 'started', totalBytes: 100 });
    worker.say({ type: 'progress', bytes: 40 });
    await vi.waitFor(() => expect(worker.calls.ready).toBe(1));
    for (let elapsed = 0; elapsed < 5 * 60_000; elapsed += READER_WAIT_REPORT_MS) {
      await vi.advanceTimersByTimeAsync(READER_WAIT_REPORT_MS);
      worker.say({ type: 'progress', bytes: 40 });
    }
    expect(worker.calls.end).toBe(0);
    worker.say({ type: 'done', bytes: 100 });
    expect(await settled).toEqual({ bytes: 100 });
  });

  it("without a start limit (direct to disk) a slow 'started' is waited for", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const worker = scriptedWorker({ startWithinMs: null });
    const { settled } = start(worker);
    worker.say({ type: 'ready' });
    await vi.waitFor(() => expect(worker.calls.ready).toBe(1));
    await vi.advanceTimersByTimeAsync(10 * READY_TIMEOUT_MS);
    worker.say({ type: 'started', totalBytes: 1 });
    worker.say({ type: 'done', bytes: 1 });
    expect(await settled).toEqual({ bytes: 1 });
  });

  it('an abort without grace (the service worker) ends the download at once and tells the worker', async () => {
    const worker = scriptedWorker({ abortGraceMs: 0 });
    const controller = new AbortController();
    const { settled } = start(worker, { signal: controller.signal });
    worker.say({ type: 'ready' });
    await vi.waitFor(() => expect(worker.calls.ready).toBe(1));
    controller.abort();
    expect(await settled).toMatchObject({ error: { code: 'ABORTED' } });
    await vi.waitFor(() => expect(worker.controls).toEqual([{ type: 'abort' }]));
    expect(worker.calls.end).toBe(1);
  });

  it("an abort with grace (direct to disk) waits for the worker's answer, which counts as ABORTED", async () => {
    const worker = scriptedWorker({ abortGraceMs: 5_000 });
    const controller = new AbortController();
    const { settled } = start(worker, { signal: controller.signal });
    worker.say({ type: 'ready' });
    worker.say({ type: 'started', totalBytes: 10 });
    await vi.waitFor(() => expect(worker.calls.ready).toBe(1));
    controller.abort();
    await vi.waitFor(() => expect(worker.controls).toEqual([{ type: 'abort' }]));
    expect(worker.calls.end).toBe(0); // still discarding its partial file
    worker.say({ type: 'error', failure: failure('HTTP', 'connection reset') });
    expect(await settled).toMatchObject({ error: { code: 'ABORTED' } });
    expect(worker.calls.end).toBe(1);
  });

  it('an abort the worker never answers ends after the grace, even when progress still arrives', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const worker = scriptedWorker({ abortGraceMs: 5_000 });
    const controller = new AbortController();
    const { settled } = start(worker, { signal: controller.signal });
    worker.say({ type: 'ready' });
    await vi.waitFor(() => expect(worker.calls.ready).toBe(1));
    controller.abort();
    worker.say({ type: 'started', totalBytes: 10 });
    await vi.advanceTimersByTimeAsync(5_000);
    expect(await settled).toMatchObject({ error: { code: 'ABORTED' } });
    expect(worker.calls.end).toBe(1);
  });

  it('a worker that fails to start: its error, and it is ended', async () => {
    const worker = scriptedWorker();
    const { settled } = start(worker);
    worker.crash(new DownloadError('FAILED', { detail: 'could not start' }));
    worker.crash(new DownloadError('FAILED', { detail: 'a second report' })); // settles once, ends once
    expect(await settled).toMatchObject({ error: { code: 'FAILED', facts: { detail: 'could not start' } } });
    expect(worker.calls.end).toBe(1);
  });
});
