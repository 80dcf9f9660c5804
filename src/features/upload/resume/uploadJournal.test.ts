// The persisted upload queue against a real IndexedDB implementation (fake-indexeddb) and the real
// crypto pool (in-process workers): what is written at each step of a large file, what a reload
// reads back (a new store and a new pool, as a new page has), and what is purged when.
import { createHash } from 'node:crypto';
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { encryptedLength } from '../../../../crypto/index.ts';
import { CryptoPool, type FileKeyHandle } from '../../../../workers/index.ts';
import { inProcessWorker } from '../../../../workers/testing/inProcessWorker.ts';
import type { CiphertextFormat, EncryptionSessionLike, FileIdentity } from '../engine/enginePorts.ts';
import { PickedSources, type FileSource } from './fileSource.ts';
import { entryIdOf } from './queueEntry.ts';
import { PersistedUploadJournal, SERVER_ABANDON_MS } from './uploadJournal.ts';
import { UploadQueueStore } from './uploadQueueStore.ts';
import { importRawFileKey } from '../../../../workers/testing/rawFileKey.ts';
import { readCiphertext } from '../../../../workers/testing/sessionCiphertext.ts';

const RAW_KEY = Uint8Array.from({ length: 32 }, (_, i) => 200 - i);
const IV = Buffer.from('0123456789ab').toString('base64');
const URL_1 = 'https://sealdrop.test/api/upload/link/tus/up-1';
const FILE: FileIdentity = { linkToken: 'link', relativePath: 'holiday', name: 'video.mov', size: 200 * 1024 * 1024, lastModified: 1_700_000_000_000 };
const RECORD = 256 * 1024;
/** FILE's ciphertext length at the default record size. */
const CIPHER = encryptedLength(FILE.size, RECORD);

/** What a page holds: a pool, a store and a journal over the one IndexedDB of the origin (`format`: what its encryption writes). */
function page(now: { t: number }, format?: CiphertextFormat) {
  const pool = CryptoPool.create({ size: 2, createWorker: inProcessWorker });
  const store = new UploadQueueStore();
  const cancelled: string[] = [];
  const failures: unknown[] = [];
  const sources = new PickedSources();
  const journal = new PersistedUploadJournal({
    store,
    pool: () => pool,
    now: () => now.t,
    cancelUpload: async (url) => void cancelled.push(url),
    onStoreFailure: (error) => failures.push(error),
    sourceOf: (file) => sources.sourceOf(file),
    ...(format ? { format } : {}),
  });
  return { pool, store, journal, cancelled, failures, sources };
}

/** A session of FILE as the pool reports it (encrypted with `recordSize`). */
function sessionWith(key: FileKeyHandle, recordSize = RECORD, formatVersion = 1): EncryptionSessionLike {
  return {
    key,
    iv: IV,
    wrappedKey: 'wrapped-for-recipient',
    encryptedLength: encryptedLength(FILE.size, recordSize),
    recordSize,
    formatVersion,
    signSent: async (end) => ({ records: end, digest: 'unused' }),
    verifySent: async () => 0,
    readBody: async () => new Blob(),
    sha256: async () => 'hash',
    hashCheckpoint: async () => null,
    close: async () => undefined,
  };
}

/** The raw key a handle stands for, read the one way the pool hands raw keys out (a link fragment). */
async function rawOf(pool: CryptoPool, key: Parameters<CryptoPool['releaseKey']>[0]): Promise<string> {
  const fragment = await pool.formatLinkFragment([{ fileId: '1', key: key as never }]);
  return fragment.slice(fragment.indexOf(':') + 1);
}

describe('the persisted upload queue', () => {
  const pools: CryptoPool[] = [];
  let now: { t: number };

  beforeEach(() => {
    // A fresh, empty IndexedDB for every test.
    globalThis.indexedDB = new IDBFactory();
    now = { t: 1_750_000_000_000 };
  });
  afterEach(() => {
    for (const pool of pools.splice(0)) pool.terminate();
  });

  function newPage(format?: CiphertextFormat) {
    const p = page(now, format);
    pools.push(p.pool);
    return p;
  }

  it('writes the wrapped key and IV before the first byte, then the URL and each confirmed offset, and deletes the entry when the file is stored', async () => {
    const { pool, store, journal, failures } = newPage();
    const session = sessionWith(await importRawFileKey(pool, RAW_KEY));

    await journal.opened(FILE, session);
    const opened = await store.get(entryIdOf(FILE));
    expect(opened).toMatchObject({ status: 'encrypting', uploadUrl: null, confirmedOffset: 0, encryptedLength: CIPHER, format: { version: 1, recordSize: RECORD }, iv: IV, size: FILE.size, lastModified: FILE.lastModified, relativePath: 'holiday', updatedAt: now.t });
    // Never in clear: the stored record holds no form of the raw key, and the storage key cannot be exported.
    const stored = JSON.stringify(opened);
    for (const form of [Buffer.from(RAW_KEY).toString('base64'), Buffer.from(RAW_KEY).toString('hex'), Buffer.from(RAW_KEY).toString('base64url')]) {
      expect(stored).not.toContain(form);
    }
    const storageKey = await store.storageKey();
    expect(storageKey).toBeInstanceOf(CryptoKey);
    expect(storageKey!.extractable).toBe(false);
    await expect(crypto.subtle.exportKey('raw', storageKey!)).rejects.toThrow();

    now.t += 1000;
    journal.created(FILE, URL_1);
    journal.confirmed(FILE, 400);
    await journal.settled();
    expect(await store.get(entryIdOf(FILE))).toMatchObject({ status: 'uploading', uploadUrl: URL_1, confirmedOffset: 400, updatedAt: now.t });

    journal.confirmed(FILE, CIPHER);
    await journal.settled();
    expect((await store.get(entryIdOf(FILE)))?.status).toBe('sent');

    journal.completed(FILE);
    await journal.settled();
    expect(await store.get(entryIdOf(FILE))).toBeUndefined();
    expect(await store.list()).toEqual([]);
    expect(failures).toEqual([]);
  });

  it('a reloaded page lists the unfinished file with its offset and gets the same key back in its own pool; a changed file gets nothing', async () => {
    const first = newPage();
    await first.journal.opened(FILE, sessionWith(await importRawFileKey(first.pool, RAW_KEY)));
    first.journal.created(FILE, URL_1);
    first.journal.confirmed(FILE, 600);
    await first.journal.settled();
    first.pool.terminate(); // the old page's workers (and every key in them) are gone

    const reloaded = newPage();
    const listed = await reloaded.journal.unfinished('link');
    expect(listed.map((e) => [e.name, e.confirmedOffset, e.encryptedLength, e.status])).toEqual([['video.mov', 600, CIPHER, 'uploading']]);
    expect(await reloaded.journal.unfinished('other-link')).toEqual([]);

    const point = await reloaded.journal.resumePointFor(FILE);
    expect(point?.uploadUrl).toBe(URL_1);
    expect(point?.iv).toBe(IV);
    expect(await rawOf(reloaded.pool, point!.key)).toBe(Buffer.from(RAW_KEY).toString('base64'));

    // Same path, another size or date: never the old key and IV.
    expect(await reloaded.journal.resumePointFor({ ...FILE, lastModified: FILE.lastModified + 1 })).toBeUndefined();
    expect(await reloaded.journal.resumePointFor({ ...FILE, size: FILE.size - 1 })).toBeUndefined();
  });

  it('an entry encrypted with another record size or format version than this page writes (an app update in between) is not resumed: it is discarded with its upload', async () => {
    // The earlier page's build encrypted with 64 KiB records; this one writes 256 KiB records.
    const earlier = newPage({ version: 1, recordSize: 64 * 1024 });
    await earlier.journal.opened(FILE, sessionWith(await importRawFileKey(earlier.pool, RAW_KEY), 64 * 1024));
    earlier.journal.created(FILE, URL_1);
    earlier.journal.confirmed(FILE, 600);
    await earlier.journal.settled();
    expect((await earlier.store.get(entryIdOf(FILE)))?.format).toEqual({ version: 1, recordSize: 64 * 1024 });
    // The same build would continue it.
    expect((await earlier.journal.resumePointFor(FILE))?.format).toEqual({ version: 1, recordSize: 64 * 1024 });

    const updated = newPage();
    expect(await updated.journal.resumePointFor(FILE)).toBeUndefined();
    expect(updated.cancelled).toEqual([URL_1]);
    expect(await updated.store.list()).toEqual([]);

    // A format version this page does not write, likewise.
    const other = newPage({ version: 2, recordSize: RECORD });
    await other.journal.opened(FILE, sessionWith(await importRawFileKey(other.pool, RAW_KEY), RECORD, 2));
    await other.journal.settled();
    expect(await newPage().journal.resumePointFor(FILE)).toBeUndefined();
    expect(await other.store.list()).toEqual([]);
  });

  it('binds the format and the encrypted length to the wrapped key: an entry edited to claim the current parameters does not open and is discarded', async () => {
    const earlier = newPage({ version: 1, recordSize: 64 * 1024 });
    await earlier.journal.opened(FILE, sessionWith(await importRawFileKey(earlier.pool, RAW_KEY), 64 * 1024));
    earlier.journal.created(FILE, URL_1);
    await earlier.journal.settled();
    const entry = (await earlier.store.get(entryIdOf(FILE)))!;
    await earlier.store.put({ ...entry, format: { version: 1, recordSize: RECORD }, encryptedLength: CIPHER });

    const reloaded = newPage();
    expect(await reloaded.journal.resumePointFor(FILE)).toBeUndefined();
    expect(reloaded.cancelled).toEqual([URL_1]);
    expect(await reloaded.store.list()).toEqual([]);
  });

  it('an entry whose encrypted length does not fit its size, or that an earlier version wrote without its format, is discarded, never resumed', async () => {
    const { pool, store, journal, cancelled } = newPage();
    await journal.opened(FILE, sessionWith(await importRawFileKey(pool, RAW_KEY)));
    journal.created(FILE, URL_1);
    await journal.settled();
    const entry = (await store.get(entryIdOf(FILE)))!;
    await store.put({ ...entry, encryptedLength: CIPHER + 16 });
    expect(await journal.resumePointFor(FILE)).toBeUndefined();
    expect(cancelled).toEqual([URL_1]);

    const { format: _format, ...withoutFormat } = entry;
    await store.put(withoutFormat);
    expect(await journal.resumePointFor(FILE)).toBeUndefined();
    expect(await store.list()).toEqual([]);
  });

  it('keeps the content signature of what was handed to the network (written when the call resolves) and hands it back with the resume point', async () => {
    const first = newPage();
    await first.journal.opened(FILE, sessionWith(await importRawFileKey(first.pool, RAW_KEY)));
    expect((await first.journal.resumePointFor(FILE))?.sent).toBeUndefined();
    await first.journal.sent(FILE, { records: 256, digest: 'c2lnLTI1Ng==' });
    expect((await first.store.get(entryIdOf(FILE)))?.sentSignature).toEqual({ records: 256, digest: 'c2lnLTI1Ng==' });
    first.journal.confirmed(FILE, 600);
    await first.journal.sent(FILE, { records: 512, digest: 'c2lnLTUxMg==' });
    first.pool.terminate();

    const point = await newPage().journal.resumePointFor(FILE);
    expect(point).toMatchObject({ sent: { records: 512, digest: 'c2lnLTUxMg==' }, format: { version: 1, recordSize: RECORD }, encryptedLength: CIPHER });
  });

  it('keeps the newest hash checkpoint with the entry and hands it back with the resume point (none before the first)', async () => {
    const first = newPage();
    await first.journal.opened(FILE, sessionWith(await importRawFileKey(first.pool, RAW_KEY)));
    first.journal.created(FILE, URL_1);
    first.journal.confirmed(FILE, 400);
    await first.journal.settled();
    expect((await first.store.get(entryIdOf(FILE)))?.hashCheckpoint).toBeUndefined();
    expect((await first.journal.resumePointFor(FILE))?.hash).toBeUndefined();

    first.journal.hashCheckpoint(FILE, { records: 64, state: 'c3RhdGUtNjQ=' });
    first.journal.confirmed(FILE, 600);
    first.journal.hashCheckpoint(FILE, { records: 128, state: 'c3RhdGUtMTI4' });
    await first.journal.settled();
    expect(await first.store.get(entryIdOf(FILE))).toMatchObject({ confirmedOffset: 600, hashCheckpoint: { records: 128, state: 'c3RhdGUtMTI4' } });
    first.pool.terminate();

    const reloaded = newPage();
    expect((await reloaded.journal.resumePointFor(FILE))?.hash).toEqual({ records: 128, state: 'c3RhdGUtMTI4' });
    // A checkpoint of a completed file goes with its entry.
    reloaded.journal.completed(FILE);
    reloaded.journal.hashCheckpoint(FILE, { records: 192, state: 'bGF0ZQ==' });
    await reloaded.journal.settled();
    expect(await reloaded.store.get(entryIdOf(FILE))).toBeUndefined();
  });

  it('a reloaded page resumes the hash from the stored checkpoint through the real pool, with the same digest', async () => {
    const plain = Uint8Array.from({ length: 20 * 1024 * 1024 + 4321 }, (_, i) => (i * 7 + (i >> 12)) & 0xff);
    const file = new Blob([plain]);
    const identity = { ...FILE, size: file.size };
    const first = newPage();
    const session = await first.pool.openEncryption(file);
    await first.journal.opened(identity, session);
    first.journal.created(identity, URL_1);
    // The server confirmed 18 MiB of ciphertext; the first snapshot is at 16 MiB of plaintext (64 records).
    const confirmed = 18 * 1024 * 1024;
    const sent = await readCiphertext(session, 0, confirmed);
    first.journal.confirmed(identity, confirmed);
    const checkpoint = await session.hashCheckpoint(confirmed);
    expect(checkpoint?.records).toBe(64);
    first.journal.hashCheckpoint(identity, checkpoint!);
    await first.journal.settled();
    first.pool.terminate();

    const reloaded = newPage();
    const point = await reloaded.journal.resumePointFor(identity);
    expect(point?.hash).toEqual(checkpoint);
    const resumed = await reloaded.pool.openEncryption(file, { reuse: { key: point!.key, iv: point!.iv, hash: point!.hash } });
    const rest = await readCiphertext(resumed, confirmed, resumed.encryptedLength);
    expect(sent.byteLength + rest.byteLength).toBe(resumed.encryptedLength);
    expect(await resumed.sha256()).toBe(createHash('sha256').update(plain).digest('hex'));
    await resumed.close();
  });

  it('a file that starts over discards what was left at its path (cancelling the upload); other paths stay', async () => {
    const { pool, store, journal, cancelled } = newPage();
    const other: FileIdentity = { ...FILE, name: 'other.mov' };
    await journal.opened(FILE, sessionWith(await importRawFileKey(pool, RAW_KEY)));
    await journal.opened(other, sessionWith(await importRawFileKey(pool, RAW_KEY)));
    journal.created(FILE, URL_1);
    await journal.settled();

    await journal.discardEarlier({ ...FILE, lastModified: FILE.lastModified + 5000 });
    expect(cancelled).toEqual([URL_1]);
    expect((await store.list()).map((e) => e.name)).toEqual(['other.mov']);
  });

  it('remembers stored files (identity only) while the link has unfinished uploads, and forgets them once it has none', async () => {
    const { pool, store, journal } = newPage();
    const small: FileIdentity = { ...FILE, name: 'notes.txt', size: 1200 };
    await journal.opened(FILE, sessionWith(await importRawFileKey(pool, RAW_KEY)));
    journal.deliveredMany([small]);
    await journal.settled();
    const [mark] = await store.listDelivered();
    expect(mark).toEqual({ version: 1, id: entryIdOf(small), linkToken: 'link', relativePath: 'holiday', name: 'notes.txt', size: 1200, lastModified: FILE.lastModified, at: now.t });

    // A reload: the marks are there for the page to skip those files.
    const reloaded = newPage();
    expect((await reloaded.journal.deliveredFiles('link')).map((m) => m.name)).toEqual(['notes.txt']);
    expect(await reloaded.journal.deliveredFiles('other-link')).toEqual([]);
    // A run ends with the large file still unfinished: the marks stay.
    await reloaded.journal.runEnded('link');
    expect(await reloaded.journal.deliveredFiles('link')).toHaveLength(1);
    // The large file is stored too: the next run end forgets everything of the link.
    reloaded.journal.completed(FILE);
    reloaded.journal.deliveredMany([FILE]);
    await reloaded.journal.runEnded('link');
    expect(await reloaded.store.listDelivered()).toEqual([]);
    expect(await reloaded.store.list()).toEqual([]);
  });

  it("writes the marks of one answer's stored files in one store call, after earlier writes of the same marks", async () => {
    const { store, journal, failures } = newPage();
    const files: FileIdentity[] = ['a.txt', 'b.txt', 'c.txt'].map((name) => ({ ...FILE, name, size: 10 }));
    journal.deliveredMany(files.slice(0, 1));
    const calls: number[] = [];
    const putDelivered = store.putDelivered.bind(store);
    store.putDelivered = (marks) => {
      calls.push(marks.length);
      return putDelivered(marks);
    };
    journal.deliveredMany(files);
    await journal.settled();
    // The earlier mark of a.txt is written first, then the three in one call.
    expect(calls).toEqual([1, 3]);
    expect((await journal.deliveredFiles('link')).map((mark) => mark.name).sort()).toEqual(['a.txt', 'b.txt', 'c.txt']);
    // A run end with nothing unfinished deletes them all, after the batch was written.
    journal.deliveredMany(files);
    await journal.runEnded('link');
    expect(await store.listDelivered()).toEqual([]);
    expect(failures).toEqual([]);
  });

  it('purges: entries without server progress for the abandon time, a discarded file (its upload cancelled), and a key that no longer opens', async () => {
    const { pool, store, journal, cancelled } = newPage();
    const fresh: FileIdentity = { ...FILE, name: 'fresh.mov' };
    const discarded: FileIdentity = { ...FILE, name: 'discarded.mov' };
    await journal.opened(FILE, sessionWith(await importRawFileKey(pool, RAW_KEY)));
    journal.deliveredMany([{ ...FILE, name: 'old-mark.txt' }]);
    now.t += SERVER_ABANDON_MS / 2;
    await journal.opened(fresh, sessionWith(await importRawFileKey(pool, RAW_KEY)));
    await journal.opened(discarded, sessionWith(await importRawFileKey(pool, RAW_KEY)));
    journal.created(discarded, URL_1);
    await journal.settled();

    now.t += SERVER_ABANDON_MS / 2 + 1;
    expect((await journal.unfinished('link')).map((e) => e.name)).toEqual(['discarded.mov', 'fresh.mov']);
    expect(await journal.deliveredFiles('link')).toEqual([]);

    await journal.discard(entryIdOf(discarded));
    expect(cancelled).toEqual([URL_1]);
    expect((await store.list()).map((e) => e.name)).toEqual(['fresh.mov']);

    // A wrapped key that does not open (altered, or wrapped under a storage key that is gone): the
    // file is not resumed (it will start over with a fresh key) and its entry goes.
    const reloaded = newPage();
    const entry = (await reloaded.store.list())[0]!;
    await reloaded.store.put({ ...entry, fileKey: { ...entry.fileKey, nonce: Buffer.from('another nonce').subarray(0, 12).toString('base64') } });
    expect(await reloaded.journal.resumePointFor(fresh)).toBeUndefined();
    expect(await reloaded.store.list()).toEqual([]);
  });

  it('keeps the handle a file was picked through in its entry (what one-click resume opens), and none for a file from an input', async () => {
    const { pool, store, journal, sources } = newPage();
    // IndexedDB stores real handles by structured clone; a plain object stands in for one here.
    const handle = { kind: 'file', name: FILE.name } as unknown as FileSystemFileHandle;
    const source: FileSource = { kind: 'file', handle };
    sources.remember(FILE, source);
    const fromInput: FileIdentity = { ...FILE, name: 'from-input.mov' };
    await journal.opened(FILE, sessionWith(await importRawFileKey(pool, RAW_KEY)));
    await journal.opened(fromInput, sessionWith(await importRawFileKey(pool, RAW_KEY)));
    journal.confirmed(FILE, 400);
    await journal.settled();
    expect((await store.get(entryIdOf(FILE)))?.source).toEqual(source);
    expect(await store.get(entryIdOf(fromInput))).not.toHaveProperty('source');
    // A reloaded page reads it back with the entry.
    const reloaded = newPage();
    expect((await reloaded.journal.unfinished('link')).find((e) => e.name === FILE.name)?.source).toEqual(source);
  });

  it("purges by the server's announced abandon time when the page knows it (shorter or longer), else by the 24 h default", async () => {
    const { pool, journal } = newPage();
    await journal.opened(FILE, sessionWith(await importRawFileKey(pool, RAW_KEY)));
    now.t += 3 * 3_600_000;
    // The default keeps a 3-hour-old entry; a server that sweeps after 2 hours has removed its upload.
    expect(await journal.unfinished('link')).toHaveLength(1);
    expect(await journal.unfinished('link', 4 * 3_600_000)).toHaveLength(1);
    expect(await journal.unfinished('link', 2 * 3_600_000)).toEqual([]);
    // A server that keeps uploads for 48 h: a 30-hour-old entry is still continued (the default would purge it).
    await journal.opened(FILE, sessionWith(await importRawFileKey(pool, RAW_KEY)));
    now.t += 30 * 3_600_000;
    expect(await journal.unfinished('link', 48 * 3_600_000)).toHaveLength(1);
    expect(await journal.unfinished('link')).toEqual([]);
    expect(SERVER_ABANDON_MS).toBe(24 * 3_600_000);
  });
});
