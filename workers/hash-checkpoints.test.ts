// Resuming a file's SHA-256 from a saved state: the sinks' snapshots, loading them on
// either sink, a state that does not load, and the encryption job reading only what follows the
// checkpoint when a resumed upload continues.
import { createHash } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { encryptBuffer } from '../server/crypto/index.ts';
import {
  importRawFileKey,
  encryptedLength,
  recordCount,
  recordSpan,
  createIncrementalSha256,
  ONE_SHOT_DIGEST_MAX_BYTES,
} from '../crypto/index.ts';
import { bytes, deterministicBytes } from '../tests/crypto/helpers.ts';
import { EncryptionJob } from './encryption-job.ts';
import { CHECKPOINTS_KEPT, checkpointInterval, HashCheckpoints, type HashCheckpoint } from './hash-checkpoints.ts';
import { LocalHashSink, PortHashSink, serveHashPort, type HashSink } from './hash-sinks.ts';

const RECORD = 4096;
const PLAIN = deterministicBytes(40 * RECORD + 1234, 3);
const COUNT = recordCount(PLAIN.length, RECORD);
const WHOLE = createHash('sha256').update(PLAIN).digest('hex');

type SinkKind = 'local' | 'port';

async function makeSink(kind: SinkKind): Promise<HashSink> {
  if (kind === 'local') return LocalHashSink.create();
  const channel = new MessageChannel();
  await serveHashPort(channel.port1);
  return new PortHashSink(channel.port2);
}

/** Feeds records [from, to) of PLAIN, one update per record, like the encryption job. */
async function feed(sink: HashSink, from: number, to: number = COUNT): Promise<void> {
  for (let index = from; index < to; index++) {
    const span = recordSpan(index, PLAIN.length, RECORD);
    const copy = new Uint8Array(PLAIN.subarray(span.plainStart, span.plainEnd)).buffer;
    await sink.update(copy, span.plainEnd - span.plainStart, () => undefined);
  }
}

/** Snapshots reach the page's side of a port sink asynchronously: wait until one covers `records`. */
async function checkpointOf(sink: HashSink, records: number): Promise<HashCheckpoint> {
  return vi.waitFor(() => {
    const found = sink.checkpoint(records);
    expect(found?.records, `a snapshot at ${records} records`).toBe(records);
    return found!;
  });
}

describe('hash checkpoints', () => {
  it('are taken every 16 MiB of plaintext at whole SHA-256 blocks only', () => {
    expect(checkpointInterval(256 * 1024)).toBe(64);
    expect(checkpointInterval(16 * 1024 * 1024)).toBe(1);
    expect(checkpointInterval(1000)).toBe(0);
  });

  it(`keep the newest ${CHECKPOINTS_KEPT} and answer the newest within a bound`, () => {
    const checkpoints = new HashCheckpoints(2);
    expect(checkpoints.due(0)).toBe(false);
    expect(checkpoints.due(3)).toBe(false);
    expect(checkpoints.due(4)).toBe(true);
    for (let records = 2; records <= 2 * (CHECKPOINTS_KEPT + 3); records += 2) checkpoints.add({ records, state: Uint8Array.of(records) });
    expect(checkpoints.latestWithin(1000)?.records).toBe(2 * (CHECKPOINTS_KEPT + 3));
    expect(checkpoints.latestWithin(13)?.records).toBe(12);
    // The oldest ones were dropped.
    expect(checkpoints.latestWithin(7)).toBeNull();
  });

  it('never answer without snapshots (interval 0)', () => {
    const checkpoints = new HashCheckpoints(0);
    expect(checkpoints.due(64)).toBe(false);
  });

  describe.each<SinkKind>(['local', 'port'])('%s sink', (kind) => {
    it.each([1, 17, COUNT - 1, COUNT])('hash via the checkpoint at %i records plus the rest equals the whole hash', async (records) => {
      const first = await makeSink(kind);
      expect(await first.start(undefined, 1)).toBe(0);
      // Only the newest few are kept: ask while the hash is there.
      await feed(first, 0, records);
      const checkpoint = await checkpointOf(first, records);
      await feed(first, records);
      expect(await first.digest()).toBe(WHOLE);

      const resumed = await makeSink(kind);
      expect(await resumed.start(checkpoint, 1)).toBe(records);
      await feed(resumed, records);
      expect(await resumed.digest()).toBe(WHOLE);
    });

    it('starts from a state at 0 records', async () => {
      const fresh = await createIncrementalSha256();
      const sink = await makeSink(kind);
      expect(await sink.start({ records: 0, state: fresh.save() }, 0)).toBe(0);
      await feed(sink, 0);
      expect(await sink.digest()).toBe(WHOLE);
    });

    it('keeps taking snapshots after a resumed start', async () => {
      const first = await makeSink(kind);
      await first.start(undefined, 4);
      await feed(first, 0, 8);
      const at8 = await checkpointOf(first, 8);
      first.abort();
      const resumed = await makeSink(kind);
      await resumed.start(at8, 4);
      await feed(resumed, 8, 13);
      expect((await checkpointOf(resumed, 12)).records).toBe(12);
      expect(resumed.checkpoint(11)).toBeNull();
      await feed(resumed, 13);
      expect(await resumed.digest()).toBe(WHOLE);
    });

    it.each([
      ['corrupt', (state: Uint8Array) => state.map((byte, i) => (i < 4 ? byte ^ 0xff : byte))],
      ['truncated', (state: Uint8Array) => state.subarray(0, 10)],
    ])('a %s state does not load: the hash starts at byte 0 and is still right', async (_, spoil) => {
      const first = await makeSink(kind);
      await first.start(undefined, 1);
      await feed(first, 0, 5);
      const checkpoint = await checkpointOf(first, 5);
      first.abort();
      const sink = await makeSink(kind);
      expect(await sink.start({ records: 5, state: spoil(new Uint8Array(checkpoint.state)) }, 1)).toBe(0);
      await feed(sink, 0);
      expect(await sink.digest()).toBe(WHOLE);
    });
  });
});

describe('encryption job resumed with a hash checkpoint', () => {
  const recordSize = 64 * 1024;
  const plain = deterministicBytes(ONE_SHOT_DIGEST_MAX_BYTES + 3 * recordSize + 777, 8);
  const whole = createHash('sha256').update(plain).digest('hex');
  const raw = deterministicBytes(32, 5);
  const iv = deterministicBytes(12, 6);
  const total = encryptedLength(plain.length, recordSize);

  /** The file as a Blob that records where each read of it starts. */
  function recordingSource(): { source: Blob; starts: number[] } {
    const blob = new Blob([bytes(plain)]);
    const starts: number[] = [];
    const source = {
      size: blob.size,
      slice: (start?: number, end?: number) => {
        starts.push(start ?? 0);
        return blob.slice(start, end);
      },
    } as unknown as Blob;
    return { source, starts };
  }

  async function open(sink: SinkKind, hashFrom?: HashCheckpoint, extra: { gapFillMaxBytes?: number } = {}) {
    const { source, starts } = recordingSource();
    const key = await importRawFileKey(new Uint8Array(raw));
    const job = await EncryptionJob.open({ source, key, iv: new Uint8Array(iv), recordSize, hashSink: await makeSink(sink), hashFrom, checkpointEvery: 8, ...extra });
    return { job, starts };
  }

  async function readFrom(job: EncryptionJob, start: number, end: number = total): Promise<Buffer> {
    const parts: Uint8Array[] = [];
    for (let offset = start; offset < end; offset += 1_000_000) parts.push(...(await job.read(offset, Math.min(end, offset + 1_000_000))));
    return Buffer.concat(parts);
  }

  it.each<[SinkKind, number]>([
    ['local', 80],
    ['port', 80],
    ['local', 72],
    ['port', 72],
  ])('reads the file from the checkpoint on, not from byte 0 (%s sink, checkpoint at %i records)', async (sink, at) => {
    const expected = encryptBuffer(raw, iv, plain, recordSize);
    const first = await open(sink);
    const confirmed = 5_300_000; // what the server holds when the page is reloaded
    await readFrom(first.job, 0, confirmed + 2_000_000);
    // Snapshots reach a port sink's owner asynchronously.
    const newest = await vi.waitFor(() => {
      const found = first.job.hashCheckpoint(confirmed);
      expect(found?.records ?? 0).toBeGreaterThanOrEqual(80);
      return found;
    });
    // 5_300_000 bytes hold 80 whole records of 64 KiB + tag; the newest snapshot within: 80 (every 8).
    expect(newest?.records).toBe(80);
    expect(recordSpan(79, plain.length, recordSize).cipherEnd).toBeLessThanOrEqual(confirmed);
    expect(recordSpan(80, plain.length, recordSize).cipherEnd).toBeGreaterThan(confirmed);
    // An older one: the records between it and the server's offset are hashed before the rest.
    const checkpoint = first.job.hashCheckpoint(recordSpan(at - 1, plain.length, recordSize).cipherEnd);
    expect(checkpoint?.records).toBe(at);
    await first.job.close();

    const resumed = await open(sink, checkpoint!);
    const rest = await readFrom(resumed.job, confirmed);
    expect(rest.equals(expected.subarray(confirmed))).toBe(true);
    expect(await resumed.job.sha256()).toBe(whole);
    expect(Math.min(...resumed.starts)).toBe(at * recordSize);
    await resumed.job.close();
  });

  it('answers no checkpoint before the first snapshot is confirmed', async () => {
    const { job } = await open('local');
    await readFrom(job, 0, 3_000_000);
    expect(job.hashCheckpoint(100_000)).toBeNull();
    expect(job.hashCheckpoint(0)).toBeNull();
    await job.close();
  });

  it('without a checkpoint (or one that does not load), hashes from byte 0 with the same result', async () => {
    const confirmed = 5_300_000;
    for (const hashFrom of [undefined, { records: 80, state: Uint8Array.of(1, 2, 3) }, { records: 10_000, state: new Uint8Array(116) }]) {
      const resumed = await open('local', hashFrom);
      await readFrom(resumed.job, confirmed);
      expect(await resumed.job.sha256()).toBe(whole);
      expect(Math.min(...resumed.starts)).toBe(0);
      await resumed.job.close();
    }
  });

  it('a gap too long to fill on the spot is hashed by the catch-up beside the upload', async () => {
    const resumed = await open('port', undefined, { gapFillMaxBytes: recordSize });
    await readFrom(resumed.job, 5_300_000);
    expect(await resumed.job.sha256()).toBe(whole);
    expect(Math.min(...resumed.starts)).toBe(0);
    await resumed.job.close();
  });

  it('a small file has no checkpoints', async () => {
    const key = await importRawFileKey(new Uint8Array(raw));
    const job = await EncryptionJob.open({ source: new Blob([bytes(plain.subarray(0, 100_000))]), key, iv: new Uint8Array(iv), recordSize, hashSink: await LocalHashSink.create() });
    await readFrom(job, 0, encryptedLength(100_000, recordSize));
    expect(job.hashCheckpoint(Number.MAX_SAFE_INTEGER)).toBeNull();
    await job.close();
  });
});
