import { afterEach, describe, expect, it, vi } from 'vitest';
import { SourceReadError } from '../transport/ciphertextSource.ts';
import { ResumeUnverifiedError } from './signedCiphertextRange.ts';
import { RETRY_DELAYS_MS } from '../transport/retryBudget.ts';
import { TransportError } from '../transport/transportError.ts';
import { CryptoError } from '../../../../crypto/index.ts';
import { allStored, drain, FAKE_RECORD_SIZE, type FakeSession, FakeJournal, FakePool, FakeTransport, fakeCipherSize, fakeSignature, RecordedEvents, until, uploadFile } from './testing/engineTestDoubles.ts';
import type { ResumePoint, UploadFile } from './enginePorts.ts';
import { ResumableLane } from './resumableLane.ts';
import { describeUploadFailure, RunContext } from './runContext.ts';

const MiB = 1024 * 1024;
const URL_1 = 'https://sealdrop.test/api/upload/link/tus/up-1';

function setup() {
  const pool = new FakePool();
  const transport = new FakeTransport();
  const journal = new FakeJournal();
  const events = new RecordedEvents();
  const stop = new AbortController();
  const run = new RunContext(
    { linkToken: 'link', recipientPublicKey: 'spki', keyEpoch: null, performMimeCheck: false, pool, describeError: describeUploadFailure, signal: stop.signal, journal },
    events,
  );
  return { pool, transport, journal, events, stop, lane: new ResumableLane(run, transport, journal) };
}

type Setup = ReturnType<typeof setup>;

/** The n-th tus attempt creates (or finds) the upload on the server. */
async function attempt({ transport }: Setup, n: number) {
  await until(() => transport.large.length > n, `tus attempt ${n + 1}`);
  return transport.large[n]!;
}

afterEach(() => {
  vi.useRealTimers();
});

/** What the journal hands back for a file an earlier page left after sending `sentEnd` ciphertext bytes. */
function resumePointOf(file: UploadFile, sentEnd: number | null, extra: Partial<ResumePoint> = {}): ResumePoint {
  return {
    uploadUrl: URL_1,
    key: { id: 'stored-key', kind: 'file' } as ResumePoint['key'],
    iv: 'stored-iv',
    format: { version: 1, recordSize: FAKE_RECORD_SIZE },
    encryptedLength: fakeCipherSize(file.size),
    ...(sentEnd === null ? {} : { sent: fakeSignature(sentEnd) }),
    ...extra,
  };
}

describe('resumable lane', () => {
  it('streams the session over tus, completes with the hash, and keeps the leftover record only while unfinished', async () => {
    const s = setup();
    const file = uploadFile('video.mov', 20 * MiB, 'holiday');
    const done = s.lane.send(file);
    const first = await attempt(s, 0);
    expect(s.journal.cancelled.map((f) => f.name)).toEqual(['video.mov']);
    expect(first.options.resumeUrl).toBeUndefined();
    expect(first.options.range.encryptedLength).toBe(fakeCipherSize(20 * MiB));
    expect(first.options.metadata).toEqual({ filename: 'video.mov', relativePath: 'holiday', encryptedKey: 'wrapped-key', iv: 'iv-1', plainSize: 20 * MiB, keyEpoch: null });
    first.options.onCreated?.(URL_1);
    expect(s.journal.remembered.get('video.mov')).toBe(URL_1);
    first.options.onProgress(5, 10);
    expect(s.events.progress.get(file.id)).toBe(0.5);
    first.answer.resolve({ url: URL_1, uploadId: 'up-1' });
    await until(() => s.transport.completions.length === 1, 'complete');
    expect(s.transport.completions[0]!.uploads).toEqual([{ upload_id: 'up-1', file_hash: 'sha256-of-video.mov' }]);
    s.transport.completions[0]!.answer.resolve(allStored([file], 42));
    await done;
    expect(s.events.outcomes.get(file.id)).toEqual({ kind: 'stored', serverId: 42, sha256: 'sha256-of-video.mov' });
    expect(s.events.statuses.get(file.id)).toEqual(['hashing', 'encrypting', 'pending', 'uploading']);
    expect(s.journal.remembered.size).toBe(0);
    expect(s.pool.sessions[0]!.closed).toBe(true);
    expect(s.pool.released).toEqual(['key-1']);
  });

  it("continues the same upload after a dropped connection (tus asks the server's offset), within the retry budget", async () => {
    vi.useFakeTimers();
    const s = setup();
    const file = uploadFile('big.iso', 40 * MiB);
    const done = s.lane.send(file);
    const first = await attempt(s, 0);
    first.options.onCreated?.(URL_1);
    first.answer.reject(TransportError.network());
    await until(() => s.events.waits.length === 1, 'waiting shown');
    expect(s.events.waits).toEqual([[file.id, true]]);
    await vi.advanceTimersByTimeAsync(RETRY_DELAYS_MS[0]!);
    const second = await attempt(s, 1);
    expect(s.events.waits).toEqual([
      [file.id, true],
      [file.id, false],
    ]);
    // Same upload, same session (same key and IV): the ciphertext from the server's offset is identical.
    expect(second.options.resumeUrl).toBe(URL_1);
    expect(second.options.range).toBe(first.options.range);
    expect(s.pool.sessions).toHaveLength(1);
    second.answer.resolve({ url: URL_1, uploadId: 'up-1' });
    await until(() => s.transport.completions.length === 1, 'complete');
    s.transport.completions[0]!.answer.resolve(allStored([file]));
    await done;
    expect(s.events.outcomes.get(file.id)?.kind).toBe('stored');
  });

  it('starts the retry count over once the server accepted a chunk', async () => {
    vi.useFakeTimers();
    const s = setup();
    const file = uploadFile('big.iso', 40 * MiB);
    const done = s.lane.send(file);
    // Spend all but the last delay.
    for (let n = 0; n < RETRY_DELAYS_MS.length; n++) {
      (await attempt(s, n)).answer.reject(TransportError.network());
      await drain();
      await vi.advanceTimersByTimeAsync(RETRY_DELAYS_MS[n]!);
    }
    const progressing = await attempt(s, RETRY_DELAYS_MS.length);
    progressing.options.onChunkAccepted?.(16 * MiB);
    progressing.answer.reject(TransportError.network());
    await drain();
    // Without the chunk this failure would have been final; now the shortest delay applies again.
    await vi.advanceTimersByTimeAsync(RETRY_DELAYS_MS[0]!);
    const again = await attempt(s, RETRY_DELAYS_MS.length + 1);
    again.answer.resolve({ url: URL_1, uploadId: 'up-1' });
    await until(() => s.transport.completions.length === 1, 'complete');
    s.transport.completions[0]!.answer.resolve(allStored([file]));
    await done;
    expect(s.events.outcomes.get(file.id)?.kind).toBe('stored');
  });

  it("fails the file with the error's code once the budget is spent, keeping the leftover record", async () => {
    vi.useFakeTimers();
    const s = setup();
    const file = uploadFile('big.iso', 40 * MiB);
    const done = s.lane.send(file);
    (await attempt(s, 0)).options.onCreated?.(URL_1);
    for (let n = 0; n <= RETRY_DELAYS_MS.length; n++) {
      (await attempt(s, n)).answer.reject(TransportError.network());
      await drain();
      if (n < RETRY_DELAYS_MS.length) await vi.advanceTimersByTimeAsync(RETRY_DELAYS_MS[n]!);
    }
    await done;
    expect(s.transport.large).toHaveLength(RETRY_DELAYS_MS.length + 1);
    expect(s.transport.completions).toHaveLength(0);
    expect(s.events.outcomes.get(file.id)).toEqual({ kind: 'request-failed', code: 'network', reason: 'Network Error: Could not connect to the server.' });
    // The partial upload stays recorded, so the next attempt cancels (or, later, resumes) it.
    expect(s.journal.remembered.get('big.iso')).toBe(URL_1);
    expect(s.pool.sessions[0]!.closed).toBe(true);
  });

  it('fails at once on a refusal that waiting will not change (the 5 GiB limit, say)', async () => {
    const s = setup();
    const file = uploadFile('huge.bin', 40 * MiB);
    const done = s.lane.send(file);
    (await attempt(s, 0)).answer.reject(TransportError.http(413, 'Payload Too Large', 'Maximum size exceeded'));
    await done;
    expect(s.transport.large).toHaveLength(1);
    expect(s.events.outcomes.get(file.id)).toEqual({ kind: 'request-failed', code: 'http', reason: 'Maximum size exceeded' });
  });

  it.each([
    [507, 'STORAGE_FULL', 'The server has no room for these files right now. Try again later, or contact the person who sent you the link.'],
    [413, 'FOLDER_QUOTA_EXCEEDED', 'This folder cannot take more files right now. Contact the person who sent you the link.'],
  ])('a %i %s fails at once with the text that says what to do, and keeps the upload to resume', async (status, code, reason) => {
    const s = setup();
    const file = uploadFile('scan.pdf', 40 * MiB);
    const done = s.lane.send(file);
    const first = await attempt(s, 0);
    first.options.onCreated?.(URL_1);
    // tus answers its refusals as text/plain: the body is the API's JSON all the same.
    first.answer.reject(TransportError.http(status, '', JSON.stringify({ detail: 'refused', code })));
    await done;
    expect(s.transport.large).toHaveLength(1);
    expect(s.events.outcomes.get(file.id)).toEqual({ kind: 'request-failed', code, reason });
    // The journal keeps the server's upload: a Retry continues it from the server's offset.
    expect(s.journal.remembered.get('scan.pdf')).toBe(URL_1);
  });

  it('sends `complete` again after a transient failure', async () => {
    vi.useFakeTimers();
    const s = setup();
    const file = uploadFile('big.iso', 40 * MiB);
    const done = s.lane.send(file);
    (await attempt(s, 0)).answer.resolve({ url: URL_1, uploadId: 'up-1' });
    await until(() => s.transport.completions.length === 1, 'complete');
    s.transport.completions[0]!.answer.reject(TransportError.http(502, 'Bad Gateway', ''));
    await drain();
    await vi.advanceTimersByTimeAsync(RETRY_DELAYS_MS[0]!);
    await until(() => s.transport.completions.length === 2, 'complete again');
    s.transport.completions[1]!.answer.resolve(allStored([file]));
    await done;
    expect(s.events.outcomes.get(file.id)?.kind).toBe('stored');
  });

  it.each([
    ['null', null],
    ['an HTML page', '<html>Bad Gateway</html>'],
    ['an object without result arrays', { uploads: [] }],
  ])('treats a `complete` answer of %s as a failure, never as stored', async (_label, body) => {
    const s = setup();
    const file = uploadFile('big.iso', 40 * MiB);
    const done = s.lane.send(file);
    (await attempt(s, 0)).answer.resolve({ url: URL_1, uploadId: 'up-1' });
    await until(() => s.transport.completions.length === 1, 'complete');
    s.transport.completions[0]!.answer.resolve(body);
    await done;
    expect(s.events.emptyResponses).toBe(1);
    expect(s.events.outcomes.get(file.id)).toEqual({ kind: 'unreported', error: 'Upload status unreported by server' });
  });

  it('fails the file as an encryption failure when the pool cannot produce the ciphertext', async () => {
    const s = setup();
    const file = uploadFile('big.iso', 40 * MiB);
    const done = s.lane.send(file);
    (await attempt(s, 0)).answer.reject(new SourceReadError(new Error('The file changed on disk')));
    await done;
    expect(s.transport.large).toHaveLength(1);
    expect(s.events.outcomes.get(file.id)).toEqual({
      kind: 'processing-failed',
      code: 'ENCRYPTION_FAILED',
      error: 'Encryption failed: The file changed on disk',
      reason: 'The file changed on disk',
    });
  });

  it('stops on abort during a transfer: the request is aborted, nothing is completed or reported, the session is closed', async () => {
    const s = setup();
    const file = uploadFile('big.iso', 40 * MiB);
    const done = s.lane.send(file);
    await attempt(s, 0);
    s.stop.abort();
    await done;
    await drain();
    expect(s.transport.abortedRequests).toBe(1);
    expect(s.transport.large).toHaveLength(1);
    expect(s.transport.completions).toHaveLength(0);
    expect(s.events.outcomes.size).toBe(0);
    expect(s.pool.open).toBe(0);
    expect(s.pool.sessions[0]!.closed).toBe(true);
  });

  it('stops on abort while waiting to retry: no further attempt', async () => {
    vi.useFakeTimers();
    const s = setup();
    const file = uploadFile('big.iso', 40 * MiB);
    const done = s.lane.send(file);
    (await attempt(s, 0)).answer.reject(TransportError.network());
    await until(() => s.events.waits.length === 1, 'waiting');
    s.stop.abort();
    await done;
    await vi.advanceTimersByTimeAsync(RETRY_DELAYS_MS[0]! * 10);
    expect(s.transport.large).toHaveLength(1);
    expect(s.events.outcomes.size).toBe(0);
    expect(s.events.waits).toEqual([
      [file.id, true],
      [file.id, false],
    ]);
  });

  it('writes each step to the journal: key and IV before the first byte, the URL, each confirmed offset, and completion last', async () => {
    const s = setup();
    const file = uploadFile('video.mov', 40 * MiB);
    const done = s.lane.send(file);
    const first = await attempt(s, 0);
    expect(s.journal.steps).toEqual(['discard video.mov', 'opened video.mov key-1 iv-1']);
    first.options.onCreated?.(URL_1);
    first.options.onChunkAccepted?.(16 * MiB);
    first.options.onChunkAccepted?.(32 * MiB);
    first.answer.resolve({ url: URL_1, uploadId: 'up-1' });
    await until(() => s.transport.completions.length === 1, 'complete');
    expect(s.journal.steps.at(-1)).toBe(`confirmed video.mov ${32 * MiB}`);
    s.transport.completions[0]!.answer.resolve(allStored([file]));
    await done;
    expect(s.journal.steps).toEqual([
      'discard video.mov',
      'opened video.mov key-1 iv-1',
      `created video.mov ${URL_1}`,
      `confirmed video.mov ${16 * MiB}`,
      `confirmed video.mov ${32 * MiB}`,
      'completed video.mov',
      'delivered video.mov',
    ]);
  });

  it('continues an upload it is given a resume point for with its key and IV, instead of discarding it', async () => {
    const s = setup();
    const key = { id: 'stored-key', kind: 'file' } as ResumePoint['key'];
    const big = uploadFile('big.iso', 40 * MiB);
    const file: UploadFile = { ...big, resume: resumePointOf(big, null, { key }) };
    const done = s.lane.send(file);
    const first = await attempt(s, 0);
    expect(s.journal.cancelled).toHaveLength(0);
    expect(s.journal.steps).toEqual([]);
    expect(s.pool.opens[0]?.reuse).toEqual({ key, iv: 'stored-iv' });
    expect(first.options.metadata.iv).toBe('stored-iv');
    expect(first.options.resumeUrl).toBe(URL_1);
    first.answer.resolve({ url: URL_1, uploadId: 'up-1' });
    await until(() => s.transport.completions.length === 1, 'complete');
    s.transport.completions[0]!.answer.resolve(allStored([file]));
    await done;
    expect(s.events.outcomes.get(file.id)?.kind).toBe('stored');
    expect(s.journal.steps).toEqual(['completed big.iso', 'delivered big.iso']);
    expect(s.pool.released).toContain('stored-key');
  });
  it('stores the newest hash checkpoint within each confirmed offset, only when it changed', async () => {
    const s = setup();
    s.pool.onSession = (session) => {
      session.checkpointAt = (offset) => (offset >= 32 * MiB ? { records: 128, state: 'state-128' } : offset >= 16 * MiB ? { records: 64, state: 'state-64' } : null);
    };
    const file = uploadFile('video.mov', 60 * MiB);
    const done = s.lane.send(file);
    const first = await attempt(s, 0);
    first.options.onCreated?.(URL_1);
    for (const offset of [8 * MiB, 16 * MiB, 24 * MiB, 32 * MiB, 40 * MiB]) first.options.onChunkAccepted?.(offset);
    await until(() => s.pool.sessions[0]!.checkpointQueries.length === 5, 'checkpoint queries');
    await until(() => s.journal.steps.includes('hash video.mov 128 state-128'), 'second checkpoint stored');
    first.answer.resolve({ url: URL_1, uploadId: 'up-1' });
    await until(() => s.transport.completions.length === 1, 'complete');
    s.transport.completions[0]!.answer.resolve(allStored([file]));
    await done;
    expect(s.pool.sessions[0]!.checkpointQueries).toEqual([8 * MiB, 16 * MiB, 24 * MiB, 32 * MiB, 40 * MiB]);
    expect(s.journal.steps.filter((step) => step.startsWith('hash'))).toEqual(['hash video.mov 64 state-64', 'hash video.mov 128 state-128']);
  });

  it('a checkpoint that cannot be had costs nothing but the snapshot', async () => {
    const s = setup();
    s.pool.onSession = (session) => {
      session.checkpointAt = () => {
        throw new Error('worker gone');
      };
    };
    const file = uploadFile('video.mov', 40 * MiB);
    const done = s.lane.send(file);
    const first = await attempt(s, 0);
    first.options.onChunkAccepted?.(16 * MiB);
    first.answer.resolve({ url: URL_1, uploadId: 'up-1' });
    await until(() => s.transport.completions.length === 1, 'complete');
    s.transport.completions[0]!.answer.resolve(allStored([file]));
    await done;
    expect(s.events.outcomes.get(file.id)?.kind).toBe('stored');
  });

  it('passes the stored hash checkpoint of a resume point to the pool, and stores only newer ones', async () => {
    const s = setup();
    s.pool.onSession = (session) => {
      session.checkpointAt = (offset) => (offset >= 32 * MiB ? { records: 128, state: 'state-128' } : { records: 64, state: 'state-64' });
    };
    const key = { id: 'stored-key', kind: 'file' } as ResumePoint['key'];
    const hash = { records: 64, state: 'state-64' };
    const big = uploadFile('big.iso', 40 * MiB);
    const file: UploadFile = { ...big, resume: resumePointOf(big, null, { key, hash }) };
    const done = s.lane.send(file);
    const first = await attempt(s, 0);
    expect(s.pool.opens[0]?.reuse).toEqual({ key, iv: 'stored-iv', hash });
    first.options.onChunkAccepted?.(24 * MiB);
    first.options.onChunkAccepted?.(32 * MiB);
    await until(() => s.journal.steps.includes('hash big.iso 128 state-128'), 'newer checkpoint stored');
    first.answer.resolve({ url: URL_1, uploadId: 'up-1' });
    await until(() => s.transport.completions.length === 1, 'complete');
    s.transport.completions[0]!.answer.resolve(allStored([file]));
    await done;
    expect(s.journal.steps.filter((step) => step.startsWith('hash'))).toEqual(['hash big.iso 128 state-128']);
  });

  it('hands no ciphertext to tus before the journal holds the signature of the records it reaches', async () => {
    const s = setup();
    s.journal.holdSignatures = true;
    const file = uploadFile('video.mov', 40 * MiB);
    const done = s.lane.send(file);
    const first = await attempt(s, 0);
    let handedOut = false;
    const body = first.options.range.readBody(0, 16 * MiB).then(() => (handedOut = true));
    await until(() => s.journal.signatures.length === 1, 'signature written');
    expect(s.journal.signatures[0]).toEqual(['video.mov', fakeSignature(16 * MiB)]);
    await drain();
    expect(handedOut).toBe(false);
    s.journal.heldSignatures[0]!.resolve();
    await body;
    // The next chunk (the read-ahead) is signed up to its end in turn.
    const next = first.options.range.readBody(16 * MiB, 32 * MiB);
    await until(() => s.journal.signatures.length === 2, 'second signature');
    expect(s.journal.signatures[1]).toEqual(['video.mov', fakeSignature(32 * MiB)]);
    s.journal.heldSignatures[1]!.resolve();
    await next;
    first.answer.resolve({ url: URL_1, uploadId: 'up-1' });
    await until(() => s.transport.completions.length === 1, 'complete');
    s.transport.completions[0]!.answer.resolve(allStored([file]));
    await done;
  });

  it('opens a resumed file with the record size the first page used, and continues only after the file matched the signature of what was sent', async () => {
    const s = setup();
    const big = uploadFile('big.iso', 40 * MiB);
    const file: UploadFile = { ...big, resume: resumePointOf(big, 32 * MiB, { format: { version: 1, recordSize: 64 * 1024 } }) };
    const done = s.lane.send(file);
    const first = await attempt(s, 0);
    expect(s.pool.opens[0]?.recordSize).toBe(64 * 1024);
    expect(s.pool.sessions[0]!.verified).toEqual([fakeSignature(32 * MiB)]);
    expect(first.options.resumeUrl).toBe(URL_1);
    expect(first.options.metadata.iv).toBe('stored-iv');
    // The server's offset lies within what the check vouched for.
    await first.options.range.readBody(30 * MiB, 40 * MiB);
    first.answer.resolve({ url: URL_1, uploadId: 'up-1' });
    await until(() => s.transport.completions.length === 1, 'complete');
    s.transport.completions[0]!.answer.resolve(allStored([file]));
    await done;
    expect(s.events.outcomes.get(file.id)?.kind).toBe('stored');
    expect(s.journal.cancelled).toHaveLength(0);
  });

  it('a resumed file that no longer matches the signature of what was sent (edited in place, size and date kept) starts over with a fresh key and IV; the old upload is discarded', async () => {
    const s = setup();
    s.pool.onSession = (session) => {
      if (session.key.id === 'stored-key') session.changedSinceSent = true;
    };
    const big = uploadFile('big.iso', 40 * MiB);
    const file: UploadFile = { ...big, resume: resumePointOf(big, 32 * MiB) };
    const done = s.lane.send(file);
    const first = await attempt(s, 0);
    expect(first.options.resumeUrl).toBeUndefined();
    expect(first.options.metadata.iv).toBe('iv-2');
    expect(s.pool.opens[1]?.reuse).toBeUndefined();
    expect(s.pool.sessions[0]!.closed).toBe(true);
    expect(s.pool.released).toContain('stored-key');
    expect(s.journal.steps).toEqual(['discard big.iso', 'discard big.iso', 'opened big.iso key-2 iv-2']);
    first.answer.resolve({ url: 'https://sealdrop.test/api/upload/link/tus/up-2', uploadId: 'up-2' });
    await until(() => s.transport.completions.length === 1, 'complete');
    s.transport.completions[0]!.answer.resolve(allStored([file]));
    await done;
    expect(s.events.outcomes.get(file.id)?.kind).toBe('stored');
  });

  it.each([
    ['a record size other than the stored one (an old worker script ignoring the asked size)', (session: FakeSession) => (session.recordSize = 128 * 1024)],
    ['another encrypted length than the first page announced', (session: FakeSession) => (session.encryptedLength += 16)],
    ['another format version', (session: FakeSession) => (session.formatVersion = 2)],
  ])('a resumed session with %s starts over with a fresh key and IV', async (_case, alter) => {
    const s = setup();
    s.pool.onSession = (session) => {
      if (session.key.id === 'stored-key') alter(session);
    };
    const big = uploadFile('big.iso', 40 * MiB);
    const done = s.lane.send({ ...big, resume: resumePointOf(big, 32 * MiB) });
    const first = await attempt(s, 0);
    expect(first.options.resumeUrl).toBeUndefined();
    expect(first.options.metadata.iv).toBe('iv-2');
    expect(s.pool.sessions[0]!.verified).toEqual([]);
    expect(s.journal.cancelled).toHaveLength(2);
    s.stop.abort();
    await done;
  });

  it('a server that holds more than the stored signature covers is refused: the resumed file starts over from byte 0 with a fresh key and IV', async () => {
    const s = setup();
    const big = uploadFile('big.iso', 40 * MiB);
    const done = s.lane.send({ ...big, resume: resumePointOf(big, 16 * MiB) });
    const first = await attempt(s, 0);
    // tus asks for the bytes after the server's offset (24 MiB), beyond the 16 MiB the check covered.
    const refused = await first.options.range.readBody(24 * MiB, 40 * MiB).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ResumeUnverifiedError);
    first.answer.reject(new SourceReadError(refused));
    const second = await attempt(s, 1);
    expect(second.options.resumeUrl).toBeUndefined();
    expect(second.options.metadata.iv).toBe('iv-2');
    expect(s.journal.cancelled.map((f) => f.name)).toEqual(['big.iso', 'big.iso']);
    second.answer.resolve({ url: 'https://sealdrop.test/api/upload/link/tus/up-2', uploadId: 'up-2' });
    await until(() => s.transport.completions.length === 1, 'complete');
    s.transport.completions[0]!.answer.resolve(allStored([big]));
    await done;
    expect(s.events.outcomes.get(big.id)?.kind).toBe('stored');
  });

  it('a check that cannot run (the worker died) fails the file with the worker\'s encryption failure, without discarding the upload', async () => {
    const s = setup();
    s.pool.onSession = (session) => {
      session.verifySent = () => Promise.reject(new CryptoError('WORKER_FAILED', 'crypto worker 0 failed'));
    };
    const big = uploadFile('big.iso', 40 * MiB);
    await s.lane.send({ ...big, resume: resumePointOf(big, 16 * MiB) });
    expect(s.events.outcomes.get(big.id)).toMatchObject({ kind: 'processing-failed', code: 'WORKER_FAILED', error: 'Encryption failed: the encryption worker stopped; press Retry to continue' });
    expect(s.journal.cancelled).toHaveLength(0);
    expect(s.transport.large).toHaveLength(0);
  });

  it.each([
    ['after the file is stored', false],
    ['after the file failed', true],
  ])('a worker stuck while closing the session does not hold the outcome %s: the file is reported and the lane moves on', async (_case, fails) => {
    const s = setup();
    s.pool.onSession = (session) => {
      // closeEncryption never answers (a live worker whose job is wedged); the key is still released.
      session.close = () => new Promise<void>(() => undefined);
      if (fails) session.readBodyError = new CryptoError('SOURCE_CHANGED', 'the file changed while being read');
    };
    const file = uploadFile('video.mov', 20 * MiB);
    const done = s.lane.send(file);
    const first = await attempt(s, 0);
    if (fails) {
      first.answer.reject(new SourceReadError(await first.options.range.readBody(0, MiB).catch((error: unknown) => error)));
    } else {
      first.answer.resolve({ url: URL_1, uploadId: 'up-1' });
      await until(() => s.transport.completions.length === 1, 'complete');
      s.transport.completions[0]!.answer.resolve(allStored([file]));
    }
    await done;
    expect(s.events.outcomes.get(file.id)?.kind).toBe(fails ? 'processing-failed' : 'stored');
    expect(s.pool.released).toEqual(['key-1']);
  });
});
