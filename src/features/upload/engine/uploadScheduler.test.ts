import { describe, expect, it } from 'vitest';
import { ProgressReporter } from '../progressReporter.ts';
import { runOutcome } from '../runOutcome.ts';
import { RunTally } from '../runTally.ts';
import { allStored, drain, FakeJournal, FakePool, FakeTransport, RecordedEvents, until, uploadFile } from './testing/engineTestDoubles.ts';
import type { EngineEvents } from './runEvents.ts';
import { describeUploadFailure } from './runContext.ts';
import { UploadScheduler } from './uploadScheduler.ts';
import { LARGE_FILES_AT_ONCE, SMALL_FILE_MAX_BYTES } from './uploadLimits.ts';
import { RUN_MESSAGES, batchProcessedMessage } from '../../../lib/userTexts.ts';

const MiB = 1024 * 1024;

function setup(events: EngineEvents = new RecordedEvents(), poolSize = 2) {
  const pool = new FakePool(poolSize);
  const transport = new FakeTransport();
  const stop = new AbortController();
  const scheduler = new UploadScheduler(
    {
      linkToken: 'link',
      recipientPublicKey: 'spki',
      keyEpoch: null,
      performMimeCheck: false,
      pool,
      transport,
      journal: new FakeJournal(),
      describeError: describeUploadFailure,
      signal: stop.signal,
    },
    events,
  );
  return { pool, transport, stop, scheduler };
}

type Setup = ReturnType<typeof setup>;

/** Lets the n-th tus upload finish and be completed as stored. */
async function finishLarge({ transport }: Setup, n: number) {
  const call = transport.large[n]!;
  call.answer.resolve({ url: `https://x/tus/up-${n}`, uploadId: `up-${n}` });
  await until(() => transport.completions.length > n, `complete ${n + 1}`);
  const sent = { name: call.options.metadata.filename, relativePath: call.options.metadata.relativePath };
  transport.completions[n]!.answer.resolve(allStored([sent], 100 + n));
}

describe('upload scheduler', () => {
  it('sends files up to SMALL_FILE_MAX_BYTES in batches and larger ones over tus', async () => {
    const events = new RecordedEvents();
    const s = setup(events);
    const atLimit = uploadFile('at-limit.bin', SMALL_FILE_MAX_BYTES);
    const overLimit = uploadFile('over-limit.bin', SMALL_FILE_MAX_BYTES + 1);
    const done = s.scheduler.run([overLimit, atLimit]);
    await until(() => s.transport.batches.length === 1 && s.transport.large.length === 1, 'both lanes');
    expect(s.transport.batches[0]!.files.map((f) => f.name)).toEqual(['at-limit.bin']);
    expect(s.transport.large[0]!.options.metadata.filename).toBe('over-limit.bin');
    s.transport.batches[0]!.answer.resolve(allStored(s.transport.batches[0]!.files));
    await finishLarge(s, 0);
    await done;
    expect(events.sendingStartedCount).toBe(1);
    expect([...events.outcomes.values()].map((o) => o.kind)).toEqual(['stored', 'stored']);
  });

  it('starts large files in queue order, never more than LARGE_FILES_AT_ONCE at a time', async () => {
    const s = setup();
    const queue = Array.from({ length: 5 }, (_, i) => uploadFile(`large-${i}.bin`, 20 * MiB));
    const done = s.scheduler.run(queue);
    await until(() => s.transport.large.length === LARGE_FILES_AT_ONCE, 'first uploads');
    await drain();
    expect(s.transport.large).toHaveLength(LARGE_FILES_AT_ONCE);
    for (let n = 0; n < queue.length; n++) {
      await until(() => s.transport.large.length > n, `upload ${n + 1}`);
      await finishLarge(s, n);
    }
    await done;
    expect(s.transport.large.map((call) => call.options.metadata.filename)).toEqual(queue.map((f) => f.name));
    expect(s.transport.maxLargeInFlight).toBe(LARGE_FILES_AT_ONCE);
  });

  it("hashes each large file on its encrypting worker when the files at once fill the pool, else leaves it to the pool", async () => {
    const placements = async (files: number, poolSize: number) => {
      const s = setup(new RecordedEvents(), poolSize);
      const done = s.scheduler.run(Array.from({ length: files }, (_, i) => uploadFile(`large-${i}.bin`, 20 * MiB)));
      for (let n = 0; n < files; n++) {
        await until(() => s.transport.large.length > n, `upload ${n + 1}`);
        await finishLarge(s, n);
      }
      await done;
      return s.pool.opens.map((options) => options?.hashPlacement);
    };
    // Two workers: one file alone may use both; two at a time keep each worker busy with its own.
    expect(await placements(1, 2)).toEqual(['auto']);
    expect(await placements(3, 2)).toEqual(['same-worker', 'same-worker', 'same-worker']);
    // Four workers: two files at a time leave two idle, so the pool may split each file.
    expect(await placements(3, 4)).toEqual(['auto', 'auto', 'auto']);
  });

  it('runs both lanes at once: small batches go while large files are on the wire', async () => {
    const s = setup();
    const large = [uploadFile('a.iso', 20 * MiB), uploadFile('b.iso', 20 * MiB)];
    const small = [uploadFile('note.txt', 100)];
    const done = s.scheduler.run([...large, ...small]);
    await until(() => s.transport.large.length === 2, 'large files on the wire');
    await until(() => s.transport.batches.length === 1, 'the batch while they are');
    expect(s.transport.inFlight).toBe(3);
    s.transport.batches[0]!.answer.resolve(allStored(small));
    await finishLarge(s, 0);
    await finishLarge(s, 1);
    await done;
  });

  it('partial failure: one file fails, the others are stored, and the run outcome says so', async () => {
    const toasts: Array<[string, string]> = [];
    const reporter = new ProgressReporter([], () => undefined);
    const queue = [uploadFile('ok-1.txt', 10), uploadFile('rejected.txt', 10), uploadFile('broken.txt', 10), uploadFile('ok-big.iso', 20 * MiB)];
    const tally = new RunTally(queue, reporter, (variant, message) => toasts.push([variant, message]), () => undefined);
    const s = setup(tally);
    s.pool.failOpenOf.set('broken.txt', new Error('unreadable'));
    const done = s.scheduler.run(queue);
    await until(() => s.transport.batches.length === 1 && s.transport.large.length === 1, 'both lanes');
    s.transport.batches[0]!.answer.resolve({
      successful_files: [{ id: 1, filename: 'ok-1.txt', original_raw_name_from_client: 'ok-1.txt', path: '.', size: 10 }],
      failed_files: [{ filename: 'rejected.txt', original_raw_name_from_client: 'rejected.txt', path: '.', size: 10, error: 'File type not allowed' }],
    });
    await finishLarge(s, 0);
    await done;
    reporter.dispose();

    expect(tally.counts).toMatchObject({ total: 4, stored: 2, serverFailed: 1, processingFailed: 1, requestFailed: 0, unreported: 0 });
    expect(tally.stored.map((f) => f.name).sort()).toEqual(['ok-1.txt', 'ok-big.iso']);
    expect(toasts).toContainEqual(['error', 'Processing failed for broken.txt: unreadable']);
    expect(toasts).toContainEqual(['warning', RUN_MESSAGES.someProcessingFailed]);
    const outcome = runOutcome(tally.counts);
    expect(outcome.toasts).toEqual([{ variant: 'warning', message: batchProcessedMessage(2, 1) }]);
    expect(outcome.stepError).toBe(RUN_MESSAGES.someUploadsFailed);
  });

  it('stops both lanes on abort: every request on the wire aborted, nothing more sent or reported, every session closed', async () => {
    const events = new RecordedEvents();
    const s = setup(events);
    const queue = [uploadFile('a.iso', 20 * MiB), uploadFile('b.iso', 20 * MiB), uploadFile('c.iso', 20 * MiB), uploadFile('note.txt', 100)];
    const done = s.scheduler.run(queue);
    await until(() => s.transport.large.length === 2 && s.transport.batches.length === 1, 'requests on the wire');
    s.stop.abort();
    await done;
    await drain();
    expect(s.transport.abortedRequests).toBe(3);
    expect(s.transport.inFlight).toBe(0);
    expect(s.transport.large).toHaveLength(2);
    expect(s.transport.completions).toHaveLength(0);
    expect(events.outcomes.size).toBe(0);
    expect(s.pool.open).toBe(0);
    expect(s.pool.sessions.every((session) => session.closed)).toBe(true);
  });
});
