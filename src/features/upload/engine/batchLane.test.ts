import { afterEach, describe, expect, it, vi } from 'vitest';
import { RETRY_DELAYS_MS } from '../transport/retryBudget.ts';
import { TransportError } from '../transport/transportError.ts';
import { BatchLane, smallFileGroups } from './batchLane.ts';
import { allStored, drain, FakeJournal, FakePool, FakeTransport, RecordedEvents, until, uploadFile } from './testing/engineTestDoubles.ts';
import type { UploadFile } from './enginePorts.ts';
import { describeUploadFailure, RunContext } from './runContext.ts';
import { MAX_BATCH_FILES, MAX_BATCHES_IN_FLIGHT, OPEN_TIMEOUT_MS, SMALL_GROUP_BYTES, SMALL_GROUP_FILES, SMALL_GROUPS_PER_WORKER } from './uploadLimits.ts';

function setup(poolSize = 1, performMimeCheck = false) {
  const pool = new FakePool(poolSize);
  const transport = new FakeTransport();
  const events = new RecordedEvents();
  const journal = new FakeJournal();
  const stop = new AbortController();
  const run = new RunContext(
    { linkToken: 'link', recipientPublicKey: 'spki', keyEpoch: null, performMimeCheck, pool, describeError: describeUploadFailure, signal: stop.signal, journal },
    events,
  );
  return { pool, transport, events, journal, stop, lane: new BatchLane(run, transport) };
}

const files = (n: number, size = 10) => Array.from({ length: n }, (_, i) => uploadFile(`f${i}.txt`, size));
const namesOf = (sent: readonly { name: string }[]) => sent.map((f) => f.name);
const serverError = (status: number, code: string, detail: string) => TransportError.http(status, '', JSON.stringify({ detail, code }));

afterEach(() => {
  vi.useRealTimers();
});

describe('batch lane: order and limits', () => {
  it('packs files in queue order into batches of at most MAX_BATCH_FILES', async () => {
    const { lane, transport, events } = setup();
    const queue = files(250);
    const done = lane.send(queue);
    for (let n = 0; n < 3; n++) {
      await until(() => transport.batches.length > n, `batch ${n + 1}`);
      transport.batches[n]!.answer.resolve(allStored(transport.batches[n]!.files, n * 1000));
    }
    await done;
    expect(transport.batches.map((b) => b.files.length)).toEqual([100, 100, 50]);
    expect(transport.batches.flatMap((b) => namesOf(b.files))).toEqual(namesOf(queue));
    expect(events.outcomes.get(queue[0]!.id)).toEqual({ kind: 'stored', serverId: 0, sha256: 'sha256-of-f0.txt' });
    expect(events.outcomes.get(queue[249]!.id)).toMatchObject({ kind: 'stored', serverId: 2049 });
    expect(events.statuses.get(queue[0]!.id)).toEqual(['hashing', 'encrypting', 'pending', 'uploading']);
  });

  it("journals the stored files of each answer in one call, only those the server stored", async () => {
    const { lane, transport, journal } = setup();
    const queue = files(3);
    const done = lane.send(queue);
    await until(() => transport.batches.length === 1, 'one batch');
    const answer = allStored(transport.batches[0]!.files.slice(0, 2));
    answer.failed_files.push({ filename: 'f2.txt', original_raw_name_from_client: 'f2.txt', path: '.', size: 10, error: 'Disk full' });
    transport.batches[0]!.answer.resolve(answer);
    await done;
    expect(journal.steps).toEqual(['delivered f0.txt, f1.txt']);
  });

  it('closes a batch before its ciphertext would pass MAX_BATCH_BYTES', async () => {
    const { lane, transport } = setup();
    const sixMiB = 6 * 1024 * 1024;
    const done = lane.send(files(3, sixMiB));
    await until(() => transport.batches.length === 2, 'two batches');
    for (const batch of transport.batches) batch.answer.resolve(allStored(batch.files));
    await done;
    expect(transport.batches.map((b) => b.files.length)).toEqual([2, 1]);
  });

  it('never has more than MAX_BATCHES_IN_FLIGHT batches on the wire, and stops encrypting while they are', async () => {
    const { lane, transport, pool } = setup();
    const done = lane.send(files(700));
    await until(() => transport.batches.length === MAX_BATCHES_IN_FLIGHT, 'a full wire');
    await drain();
    expect(transport.batches).toHaveLength(MAX_BATCHES_IN_FLIGHT);
    // Ciphertext waiting for a slot is bounded: the batches on the wire, the batch being filled and
    // the groups the pool was encrypting, never the whole queue.
    const encrypted = () => pool.groups.flat().length;
    const bound = MAX_BATCH_FILES * (MAX_BATCHES_IN_FLIGHT + 1) + pool.size * SMALL_GROUPS_PER_WORKER * SMALL_GROUP_FILES;
    expect(encrypted()).toBeLessThanOrEqual(bound);
    expect(encrypted()).toBeLessThan(700);
    const stalledAt = encrypted();
    await drain();
    expect(encrypted()).toBe(stalledAt);

    transport.batches[0]!.answer.resolve(allStored(transport.batches[0]!.files));
    await until(() => transport.batches.length === MAX_BATCHES_IN_FLIGHT + 1, 'one more batch after a slot frees');
    expect(transport.maxBatchesInFlight).toBe(MAX_BATCHES_IN_FLIGHT);
    for (let n = 1; n < 7; n++) {
      await until(() => transport.batches.length > n, `batch ${n + 1}`);
      transport.batches[n]!.answer.resolve(allStored(transport.batches[n]!.files));
    }
    await done;
    expect(transport.maxBatchesInFlight).toBe(MAX_BATCHES_IN_FLIGHT);
  });

  it('hands the pool groups of at most SMALL_GROUP_FILES files in queue order, at most pool.size × SMALL_GROUPS_PER_WORKER at once', async () => {
    const { lane, transport, pool } = setup(2);
    pool.hold = true;
    const queue = files(5 * SMALL_GROUP_FILES + 3);
    const done = lane.send(queue);
    await until(() => pool.heldGroups.length === 2 * SMALL_GROUPS_PER_WORKER, 'groups');
    await drain();
    expect(pool.heldGroups).toHaveLength(2 * SMALL_GROUPS_PER_WORKER);
    pool.releaseGroup(0);
    await until(() => pool.heldGroups.length === 2 * SMALL_GROUPS_PER_WORKER + 1, 'the next group after one finished');
    for (let n = 1; n < 6; n++) {
      await until(() => pool.heldGroups.length > n, `group ${n + 1}`);
      pool.releaseGroup(n);
    }
    for (let n = 0; n < 3; n++) {
      await until(() => transport.batches.length > n, `batch ${n + 1}`);
      transport.batches[n]!.answer.resolve(allStored(transport.batches[n]!.files));
    }
    await done;
    expect(pool.maxGroupsOpen).toBe(2 * SMALL_GROUPS_PER_WORKER);
    expect(pool.groups.map((group) => group.length)).toEqual([50, 50, 50, 50, 50, 3]);
    expect(pool.groups.flat().map((file) => file.name)).toEqual(namesOf(queue));
  });

  it('closes a group before its plaintext would pass SMALL_GROUP_BYTES; a larger small file goes alone', () => {
    const MiB = 1024 * 1024;
    const queue = [uploadFile('a', 3 * MiB), uploadFile('b', MiB), uploadFile('c', 1), uploadFile('d', 6 * MiB), uploadFile('e', 1)];
    expect(SMALL_GROUP_BYTES).toBe(4 * MiB);
    expect(smallFileGroups(queue).map((group) => namesOf(group))).toEqual([['a', 'b'], ['c'], ['d'], ['e']]);
  });

  it("shows the request's progress on every file of the batch", async () => {
    const { lane, transport, events } = setup();
    const queue = files(3);
    const done = lane.send(queue);
    await until(() => transport.batches.length === 1, 'the batch');
    transport.batches[0]!.hooks.onProgress(50, 200);
    for (const file of queue) expect(events.progress.get(file.id)).toBe(0.25);
    transport.batches[0]!.answer.resolve(allStored(queue));
    await done;
  });
});

describe('batch lane: retry budget', () => {
  it('sends a batch again after a transient failure, and the files are stored', async () => {
    vi.useFakeTimers();
    const { lane, transport, events, pool } = setup();
    const queue = files(2);
    const done = lane.send(queue);
    await until(() => transport.batches.length === 1, 'first attempt');
    transport.batches[0]!.answer.reject(TransportError.network());
    await until(() => events.waits.length === 2, 'waiting shown on both files');
    // The ciphertext (a spool file's slices in the page) stays for the next attempt.
    expect(pool.smallFilesReleased).toBe(0);
    expect(events.waits).toEqual([
      [queue[0]!.id, true],
      [queue[1]!.id, true],
    ]);
    await vi.advanceTimersByTimeAsync(RETRY_DELAYS_MS[0]! - 1);
    expect(transport.batches).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await until(() => transport.batches.length === 2, 'second attempt');
    transport.batches[1]!.answer.resolve(allStored(queue));
    await done;
    expect([...events.outcomes.values()].map((o) => o.kind)).toEqual(['stored', 'stored']);
    expect(pool.smallFilesReleased).toBe(2);
  });

  it("keeps a batch's ciphertext for every attempt and never detaches it, even once the batch is stored", async () => {
    // Node 20 has no ArrayBuffer.prototype.transfer (which releaseBuffer uses); this one detaches
    // the buffer the same way, so a buffer detached by the lane reads as empty: the ciphertext came
    // from the worker by postMessage, and Blink keeps such a buffer's memory when script detaches it.
    const prototype = ArrayBuffer.prototype as { transfer?: (length: number) => ArrayBuffer };
    const native = prototype.transfer;
    prototype.transfer = function (this: ArrayBuffer, length: number) {
      structuredClone(this, { transfer: [this] });
      return new ArrayBuffer(length);
    };
    try {
      vi.useFakeTimers();
      const { lane, transport } = setup();
      const queue = files(2);
      const done = lane.send(queue);
      await until(() => transport.batches.length === 1, 'first attempt');
      const sizes = () => transport.batches[0]!.files.map((file) => (file.ciphertext[0] as Uint8Array).byteLength);
      expect(sizes()).toEqual([26, 26]);
      transport.batches[0]!.answer.reject(TransportError.network());
      await vi.advanceTimersByTimeAsync(RETRY_DELAYS_MS[0]!);
      await until(() => transport.batches.length === 2, 'second attempt');
      expect(transport.batches[1]!.files.map((file) => (file.ciphertext[0] as Uint8Array).byteLength)).toEqual([26, 26]);
      transport.batches[1]!.answer.resolve(allStored(queue));
      await done;
      expect(sizes()).toEqual([26, 26]);
    } finally {
      if (native) prototype.transfer = native;
      else delete prototype.transfer;
    }
  });

  it('sends every attempt of a batch with the same Idempotency-Key, and each batch with its own', async () => {
    vi.useFakeTimers();
    const { lane, transport } = setup();
    const queue = files(MAX_BATCH_FILES + 1);
    const done = lane.send(queue);
    await until(() => transport.batches.length === 2, 'both batches sent');
    transport.batches[0]!.answer.reject(TransportError.network());
    transport.batches[1]!.answer.resolve(allStored(queue.slice(MAX_BATCH_FILES)));
    await vi.advanceTimersByTimeAsync(RETRY_DELAYS_MS[0]!);
    await until(() => transport.batches.length === 3, 'the retry');
    transport.batches[2]!.answer.resolve(allStored(queue.slice(0, MAX_BATCH_FILES)));
    await done;
    const [first, second, retry] = transport.batches.map((call) => call.hooks.idempotencyKey);
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    expect(retry).toBe(first);
    expect(second).not.toBe(first);
  });

  it("fails every file of the batch with the server's code once the budget is spent", async () => {
    vi.useFakeTimers();
    const { lane, transport, events } = setup();
    const queue = files(2);
    const done = lane.send(queue);
    for (let attempt = 0; attempt <= RETRY_DELAYS_MS.length; attempt++) {
      await until(() => transport.batches.length === attempt + 1, `attempt ${attempt + 1}`);
      transport.batches[attempt]!.answer.reject(serverError(503, 'INTERNAL', 'Internal Server Error'));
      if (attempt < RETRY_DELAYS_MS.length) {
        await drain();
        await vi.advanceTimersByTimeAsync(RETRY_DELAYS_MS[attempt]!);
      }
    }
    await done;
    expect(transport.batches).toHaveLength(RETRY_DELAYS_MS.length + 1);
    for (const file of queue) {
      expect(events.outcomes.get(file.id)).toEqual({ kind: 'request-failed', code: 'INTERNAL', reason: 'Server Error: Internal Server Error' });
    }
  });

  it.each([
    [507, 'STORAGE_FULL', 'The server has no room for these files right now. Try again later, or contact the person who sent you the link.'],
    [413, 'FOLDER_QUOTA_EXCEEDED', 'This folder cannot take more files right now. Contact the person who sent you the link.'],
  ])('fails at once on %i %s (no blind retry), with the text that says what to do', async (status, code, reason) => {
    const { lane, transport, events } = setup();
    const queue = files(2);
    const done = lane.send(queue);
    await until(() => transport.batches.length === 1, 'the batch');
    transport.batches[0]!.answer.reject(serverError(status, code, 'refused'));
    await done;
    expect(transport.batches).toHaveLength(1);
    for (const file of queue) expect(events.outcomes.get(file.id)).toEqual({ kind: 'request-failed', code, reason });
  });

  it('fails at once on an answer that will not change by waiting (a 4xx)', async () => {
    const { lane, transport, events, pool } = setup();
    const queue = files(1);
    const done = lane.send(queue);
    await until(() => transport.batches.length === 1, 'the batch');
    const detail = 'Mismatch in lengths of file data arrays provided for upload';
    transport.batches[0]!.answer.reject(serverError(400, 'ARRAY_LENGTH_MISMATCH', detail));
    await done;
    expect(transport.batches).toHaveLength(1);
    // Given up: its ciphertext is released (the spool file goes).
    expect(pool.smallFilesReleased).toBe(1);
    expect(events.outcomes.get(queue[0]!.id)).toEqual({ kind: 'request-failed', code: 'ARRAY_LENGTH_MISMATCH', reason: detail });
  });
});

describe('batch lane: answers', () => {
  it.each([
    ['null (an empty 200 body)', null],
    ['a bare string', '<html>proxy error</html>'],
    ['an object without result arrays', { detail: 'ok' }],
    ['result fields that are not arrays', { successful_files: 'all', failed_files: null }],
  ])('treats %s as a failure: every file unreported, none stored', async (_label, body) => {
    const { lane, transport, events } = setup();
    const queue = files(2);
    const done = lane.send(queue);
    await until(() => transport.batches.length === 1, 'the batch');
    transport.batches[0]!.answer.resolve(body);
    await done;
    expect(events.emptyResponses).toBe(1);
    for (const file of queue) expect(events.outcomes.get(file.id)).toEqual({ kind: 'unreported', error: 'Upload status unreported by server' });
  });

  it("matches results to files by the spec's key: lower-cased, NFC path and name, %22 read as a quote", async () => {
    const { lane, transport, events } = setup();
    const quoted = uploadFile('Grüße "x".txt', 10, 'Project/2025');
    const twinUpper = uploadFile('Report.PDF', 10);
    const twinLower = uploadFile('report.pdf', 10);
    const rejected = uploadFile('empty.txt', 10);
    const forgotten = uploadFile('lost.txt', 10);
    const queue: UploadFile[] = [quoted, twinUpper, twinLower, rejected, forgotten];
    const done = lane.send(queue);
    await until(() => transport.batches.length === 1, 'the batch');
    const item = (name: string, path: string) => ({ filename: name, original_raw_name_from_client: name, path, size: 10 });
    transport.batches[0]!.answer.resolve({
      // Out of order, decomposed, differently cased, the quote as the multipart filename carries it.
      successful_files: [
        { ...item('report.pdf', '.'), id: 21 },
        { ...item('Gru\u0308ße %22x%22.txt', 'project/2025'), id: 7 },
        { ...item('REPORT.pdf', '.'), id: 22 },
      ],
      failed_files: [{ ...item('EMPTY.TXT', '.'), error: 'File is empty' }],
    });
    await done;
    expect(events.outcomes.get(quoted.id)).toMatchObject({ kind: 'stored', serverId: 7 });
    // Two files with one key take that key's results in order.
    expect(events.outcomes.get(twinUpper.id)).toMatchObject({ kind: 'stored', serverId: 21 });
    expect(events.outcomes.get(twinLower.id)).toMatchObject({ kind: 'stored', serverId: 22 });
    expect(events.outcomes.get(rejected.id)).toEqual({ kind: 'server-failed', error: 'File is empty' });
    expect(events.outcomes.get(forgotten.id)).toEqual({ kind: 'unreported', error: 'Upload status unreported by server' });
    expect(events.emptyResponses).toBe(0);
  });
});

describe('batch lane: failures and stopping', () => {
  it('fails a file that cannot be encrypted alone; the others are sent and stored', async () => {
    const { lane, transport, events, pool } = setup();
    const queue = files(3);
    pool.failOpenOf.set('f1.txt', new Error('the file could not be read'));
    const done = lane.send(queue);
    await until(() => transport.batches.length === 1, 'the batch');
    expect(namesOf(transport.batches[0]!.files)).toEqual(['f0.txt', 'f2.txt']);
    transport.batches[0]!.answer.resolve(allStored(transport.batches[0]!.files));
    await done;
    expect(events.outcomes.get(queue[1]!.id)).toEqual({
      kind: 'processing-failed',
      code: 'ENCRYPTION_FAILED',
      error: 'Encryption failed: the file could not be read',
      reason: 'the file could not be read',
    });
    expect(events.outcomes.get(queue[0]!.id)?.kind).toBe('stored');
    expect(events.outcomes.get(queue[2]!.id)?.kind).toBe('stored');
  });

  it('fails a file whose hash cannot be computed with "Hashing failed"', async () => {
    const { lane, transport, events, pool } = setup();
    const queue = files(2);
    pool.failHashOf.set('f0.txt', new Error('worker lost'));
    const done = lane.send(queue);
    await until(() => transport.batches.length === 1, 'the batch');
    expect(namesOf(transport.batches[0]!.files)).toEqual(['f1.txt']);
    transport.batches[0]!.answer.resolve(allStored(transport.batches[0]!.files));
    await done;
    expect(events.outcomes.get(queue[0]!.id)).toMatchObject({ kind: 'processing-failed', code: 'HASHING_FAILED', error: 'Hashing failed', reason: 'worker lost' });
    expect(events.outcomes.get(queue[1]!.id)?.kind).toBe('stored');
  });

  it('fails only the file whose content does not match its type; the rest of its group is encrypted and sent', async () => {
    const { lane, transport, events, pool } = setup(1, true);
    // The fake files hold no bytes: a .png cannot start with the PNG signature.
    const queue = [uploadFile('a.txt', 10), uploadFile('fake.png', 10), uploadFile('b.txt', 10)];
    const done = lane.send(queue);
    await until(() => transport.batches.length === 1, 'the batch');
    expect(pool.groups.flat().map((file) => file.name)).toEqual(['a.txt', 'b.txt']);
    transport.batches[0]!.answer.resolve(allStored(transport.batches[0]!.files));
    await done;
    expect(events.outcomes.get(queue[1]!.id)).toMatchObject({ kind: 'processing-failed', code: 'CONTENT_MISMATCH' });
    expect(events.outcomes.get(queue[0]!.id)?.kind).toBe('stored');
    expect(events.outcomes.get(queue[2]!.id)?.kind).toBe('stored');
  });

  it('fails every file of a group the pool refuses as a whole with "Encryption failed"', async () => {
    const { lane, transport, events, pool } = setup();
    pool.refuseGroups = new Error('the crypto pool was terminated');
    const queue = files(3);
    await lane.send(queue);
    expect(transport.batches).toHaveLength(0);
    for (const file of queue) {
      expect(events.outcomes.get(file.id)).toEqual({
        kind: 'processing-failed',
        code: 'ENCRYPTION_FAILED',
        error: 'Encryption failed: the crypto pool was terminated',
        reason: 'the crypto pool was terminated',
      });
    }
  });

  it('fails every file of a group whose worker never answers after OPEN_TIMEOUT_MS; a late answer changes nothing', async () => {
    vi.useFakeTimers();
    const { lane, events, pool, transport } = setup();
    pool.hold = true;
    const queue = files(2);
    const done = lane.send(queue);
    await until(() => pool.heldGroups.length === 1, 'the group');
    await vi.advanceTimersByTimeAsync(OPEN_TIMEOUT_MS);
    await done;
    for (const file of queue) expect(events.outcomes.get(file.id)).toMatchObject({ kind: 'processing-failed', code: 'WORKER_UNRESPONSIVE' });
    pool.releaseGroup(0);
    await drain();
    expect(transport.batches).toHaveLength(0);
  });

  it('stops on abort: requests on the wire are aborted, nothing more is encrypted, sent or reported', async () => {
    const { lane, transport, events, pool, stop } = setup();
    const done = lane.send(files(500));
    await until(() => transport.batches.length === MAX_BATCHES_IN_FLIGHT, 'batches on the wire');
    const groupsBeforeAbort = pool.groups.length;
    stop.abort();
    await done;
    await drain();
    // No new group is started after the abort.
    expect(pool.groups.length).toBe(groupsBeforeAbort);
    expect(transport.abortedRequests).toBe(MAX_BATCHES_IN_FLIGHT);
    expect(transport.batches).toHaveLength(MAX_BATCHES_IN_FLIGHT);
    expect(transport.inFlight).toBe(0);
    expect(events.outcomes.size).toBe(0);
    expect(pool.groupsOpen).toBe(0);
    // Every file encrypted before the stop is released, sent or not: no spool file is left behind.
    expect(pool.smallFilesReleased).toBe(pool.groups.flat().length);
  });

  it('encrypts nothing of a group whose content checks were still reading when the run stopped', async () => {
    const { lane, pool, transport, events, stop } = setup(1, true);
    // Each file's head read waits until the test lets it go, so the abort lands mid-check.
    const pngHead = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const heldReads: (() => void)[] = [];
    const queue = files(3).map((upload, i) => {
      const file = new File([], `f${i}.png`);
      Object.defineProperty(file, 'slice', {
        value: () => ({ arrayBuffer: () => new Promise<ArrayBuffer>((resolve) => heldReads.push(() => resolve(pngHead.slice().buffer))) }),
      });
      return { ...upload, file, name: file.name };
    });
    const done = lane.send(queue);
    await until(() => heldReads.length === queue.length, 'the content checks reading');
    stop.abort();
    for (const release of heldReads) release();
    await done;
    await drain();
    expect(pool.groups).toHaveLength(0);
    expect(transport.batches).toHaveLength(0);
    expect(events.outcomes.size).toBe(0);
  });
});
