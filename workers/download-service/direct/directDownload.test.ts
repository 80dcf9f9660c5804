// The direct-to-disk worker's job in node: ciphertext made by the independent node:crypto
// implementation (server/crypto) served over real HTTP, keys over a real MessageChannel as the
// crypto worker posts them, and an in-memory file system with the writable's commit-on-close /
// discard-on-abort behaviour (testing/memoryFileSystem.ts).
import { createHash, randomBytes, webcrypto } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { encryptBuffer } from '../../../server/crypto/index.ts';
import type { PlanEntry, StatusMessage } from '../protocol.ts';
import { DIRECT_PLAN_MESSAGE, isDirectPlan, type DirectPlan, type DirectTarget } from './directProtocol.ts';
import { serveDirectDownload } from './directDownload.ts';
import { asFileHandle, MemoryDirectory, type MemoryFile } from './testing/memoryFileSystem.ts';
import { worded } from '../../../tests/support/wordedStatus.ts';
import { loopbackServer } from '../testing/loopbackServer.ts';

interface Served {
  plain: Buffer;
  cipher: Buffer;
  rawKey: Buffer;
  iv: string;
  status?: number;
  /** The answer stops after this many bytes until `release` is called (a file held in the middle). */
  holdAt?: number;
  release?: () => void;
}

const served = new Map<string, Served>();

function serve(request: IncomingMessage, response: ServerResponse): void {
  const file = served.get(request.url ?? '');
  if (!file || file.status) {
    response.writeHead(file?.status ?? 404, { 'content-type': 'application/json' }).end(JSON.stringify({ detail: 'File not found' }));
    return;
  }
  response.writeHead(200, { 'x-encryption-iv': file.iv, 'content-length': String(file.cipher.length) });
  // Slowly enough that an abort lands in the middle of a large file.
  let at = 0;
  const next = (): void => {
    if (at >= file.cipher.length) return void response.end();
    if (file.holdAt !== undefined && at >= file.holdAt) {
      const held = file.holdAt;
      delete file.holdAt;
      return void new Promise<void>((resolve) => (file.release = resolve)).then(() => (at >= held ? next() : undefined));
    }
    const piece = file.cipher.subarray(at, at + 64 * 1024);
    at += piece.length;
    response.write(piece, () => setImmediate(next));
  };
  next();
}

let counter = 0;
function addFile(plain: Buffer, options: { tamperAt?: number; status?: number; holdAt?: number } = {}): PlanEntry & { plain: Buffer } {
  const path = `/file/${++counter}`;
  const rawKey = randomBytes(32);
  const ivBytes = randomBytes(12);
  const cipher = encryptBuffer(rawKey, ivBytes, plain);
  if (options.tamperAt !== undefined) cipher[options.tamperAt]! ^= 0x01;
  const iv = ivBytes.toString('base64');
  served.set(path, { plain, cipher, rawKey, iv, ...(options.status ? { status: options.status } : {}), ...(options.holdAt !== undefined ? { holdAt: options.holdAt } : {}) });
  return { url: `${http.base}${path}`, name: path, plainSize: plain.length, iv, keyId: path, requiredHeaders: ['x-encryption-iv'], plain };
}

const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');

interface Run {
  messages: StatusMessage[];
  finished: Promise<StatusMessage>;
  abort(): void;
}

/** Starts the download as the page and the crypto worker would: plan, key port, status port. */
async function run(target: DirectTarget, entries: PlanEntry[], skipFailedFiles = false, writeChunkBytes?: number): Promise<Run> {
  const plan: DirectPlan = { type: DIRECT_PLAN_MESSAGE, target, entries: entries.map(({ url, name, plainSize, iv, keyId, requiredHeaders }) => ({ url, name, plainSize, iv, keyId, requiredHeaders })), skipFailedFiles };
  expect(isDirectPlan(plan)).toBe(true);
  const keyChannel = new MessageChannel();
  const statusChannel = new MessageChannel();
  const messages: StatusMessage[] = [];
  const finished = new Promise<StatusMessage>((resolve) => {
    statusChannel.port1.onmessage = (event: MessageEvent<StatusMessage>) => {
      messages.push(event.data);
      if (event.data.type === 'done' || event.data.type === 'error') resolve(event.data);
    };
  });
  void serveDirectDownload(plan, keyChannel.port2, statusChannel.port2, writeChunkBytes ? { writeChunkBytes } : {});
  const keys = await Promise.all(
    entries.map(async (entry) => ({
      id: entry.keyId,
      key: (await webcrypto.subtle.importKey('raw', served.get(new URL(entry.url).pathname)!.rawKey, { name: 'AES-GCM' }, false, ['decrypt'])) as CryptoKey,
    })),
  );
  keyChannel.port1.postMessage({ keys });
  keyChannel.port1.close();
  return { messages, finished, abort: () => statusChannel.port1.postMessage({ type: 'abort' }) };
}

const http = loopbackServer(serve);

/** What the save dialog hands out: the chosen file, created empty in its folder. */
function pickedFile(name: string): Promise<MemoryFile> {
  return new MemoryDirectory('Downloads').getFileHandle(name, { create: true });
}

describe('direct to disk: one file', () => {
  it('writes the decrypted file into the picked handle, with progress up to the plaintext size', async () => {
    const entry = addFile(randomBytes(3 * 256 * 1024 + 4321));
    const file = await pickedFile('report.pdf');
    const { finished, messages } = await run({ kind: 'file', file: asFileHandle(file) }, [entry], false, 512 * 1024);
    expect(await finished).toEqual({ type: 'done', bytes: entry.plain.length });
    expect(sha256(file.content)).toBe(sha256(entry.plain));
    expect(messages[0]).toEqual({ type: 'ready' });
    expect(messages[1]).toEqual({ type: 'started', totalBytes: entry.plain.length });
    expect(messages.filter((m) => m.type === 'progress').at(-1)).toEqual({ type: 'progress', bytes: entry.plain.length });
    expect(file.openWritables).toBe(0);
  });

  it('commits nothing when a record does not authenticate: the writable is aborted (INTEGRITY)', async () => {
    const entry = addFile(randomBytes(4 * 256 * 1024), { tamperAt: 12 + 2 * (256 * 1024 + 16) + 100 });
    const file = await pickedFile('tampered.bin');
    const { finished } = await run({ kind: 'file', file: asFileHandle(file) }, [entry], false, 256 * 1024);
    expect(worded(await finished)).toEqual({ type: 'error', code: 'INTEGRITY', text: 'Decryption failed: Incorrect password or corrupted data.' });
    expect(file.content.byteLength).toBe(0);
    expect(file.openWritables).toBe(0);
  });

  it('reports a full disk as WRITE_FAILED with what to do next', async () => {
    const entry = addFile(randomBytes(2 * 1024 * 1024));
    const file = await pickedFile('big.bin');
    file.failWritesAfter = 1024 * 1024;
    const { finished } = await run({ kind: 'file', file: asFileHandle(file) }, [entry], false, 256 * 1024);
    expect(worded(await finished)).toEqual({ type: 'error', code: 'WRITE_FAILED', text: `Could not save "${entry.name}": the disk is full. Free some space and try again.` });
    expect(file.content.byteLength).toBe(0);
  });

  it('stops on abort and discards what was written', async () => {
    const entry = addFile(randomBytes(24 * 1024 * 1024));
    const file = await pickedFile('large.bin');
    const started = await run({ kind: 'file', file: asFileHandle(file) }, [entry], false, 256 * 1024);
    await expect.poll(() => started.messages.some((m) => m.type === 'progress' && m.bytes > 0)).toBe(true);
    started.abort();
    expect(await started.finished).toMatchObject({ type: 'error', failure: { name: 'DownloadError', code: 'ABORTED' } });
    expect(file.content.byteLength).toBe(0);
    expect(file.openWritables).toBe(0);
  });
});

describe('direct to disk: no file under its real name before it is complete', () => {
  it('the picked file is written as "<name>.part" and takes its name back only once complete', async () => {
    const folder = new MemoryDirectory('Downloads');
    // What the save dialog does: the chosen file exists, empty, before the download starts.
    const picked = await folder.getFileHandle('large.bin', { create: true });
    const entry = addFile(randomBytes(4 * 1024 * 1024), { holdAt: 2 * 1024 * 1024 });
    const held = served.get(new URL(entry.url).pathname)!;
    const started = await run({ kind: 'file', file: asFileHandle(picked) }, [entry], false, 256 * 1024);
    await expect.poll(() => held.release !== undefined).toBe(true);
    // What a tab closed now (the worker terminated with it) would leave: nothing under the real name.
    expect(folder.paths()).toEqual(['large.bin.part']);
    held.release!();
    expect(await started.finished).toEqual({ type: 'done', bytes: entry.plain.length });
    expect(folder.paths()).toEqual(['large.bin']);
    expect(sha256(folder.file('large.bin')!.content)).toBe(sha256(entry.plain));
  });

  it('a picked file that fails or is stopped leaves neither its name nor a ".part"', async () => {
    const folder = new MemoryDirectory('Downloads');
    const tampered = await folder.getFileHandle('tampered.bin', { create: true });
    const bad = addFile(randomBytes(4 * 256 * 1024), { tamperAt: 12 + 2 * (256 * 1024 + 16) + 100 });
    expect(await (await run({ kind: 'file', file: asFileHandle(tampered) }, [bad], false, 256 * 1024)).finished).toMatchObject({ type: 'error' });
    const stopped = await folder.getFileHandle('stopped.bin', { create: true });
    const entry = addFile(randomBytes(4 * 1024 * 1024), { holdAt: 2 * 1024 * 1024 });
    const held = served.get(new URL(entry.url).pathname)!;
    const started = await run({ kind: 'file', file: asFileHandle(stopped) }, [entry], false, 256 * 1024);
    await expect.poll(() => held.release !== undefined).toBe(true);
    started.abort();
    expect(await started.finished).toMatchObject({ type: 'error', failure: { code: 'ABORTED' } });
    expect(folder.paths()).toEqual([]);
    held.release!();
  });

  it('in a tree, the file being written has only its ".part" name while the finished ones have theirs; stopped, only the finished remain', async () => {
    const root = new MemoryDirectory('picked');
    const files = [
      { ...addFile(randomBytes(70_000)), name: 'docs/one.bin' },
      // Its answer stops after 2 MiB: the file is in the middle when the test looks.
      { ...addFile(randomBytes(4 * 1024 * 1024), { holdAt: 2 * 1024 * 1024 }), name: 'docs/big.bin' },
      { ...addFile(randomBytes(1000)), name: 'docs/three.bin' },
    ];
    const big = served.get(new URL(files[1]!.url).pathname)!;
    const started = await run({ kind: 'tree', directory: root.asHandle() }, files, true, 256 * 1024);
    await expect.poll(() => big.release !== undefined).toBe(true);
    expect(root.paths()).toEqual(['docs/big.bin.part', 'docs/one.bin']);
    started.abort();
    expect(await started.finished).toMatchObject({ type: 'error', failure: { code: 'ABORTED' } });
    expect(root.paths()).toEqual(['docs/one.bin']);
    big.release!();
  });

  it('a name taken while the file was being written is not overwritten: the file takes the next free one', async () => {
    const root = new MemoryDirectory('picked');
    const entry = { ...addFile(randomBytes(4 * 1024 * 1024), { holdAt: 2 * 1024 * 1024 }), name: 'big.bin' };
    const held = served.get(new URL(entry.url).pathname)!;
    const started = await run({ kind: 'tree', directory: root.asHandle() }, [entry], true, 256 * 1024);
    await expect.poll(() => held.release !== undefined).toBe(true);
    const meanwhile = await root.getFileHandle('big.bin', { create: true });
    meanwhile.content = Buffer.from('saved by another download');
    held.release!();
    expect(await started.finished).toEqual({ type: 'done', bytes: entry.plain.length });
    expect(root.paths()).toEqual(['big (2).bin', 'big.bin']);
    expect(Buffer.from(root.file('big.bin')!.content).toString()).toBe('saved by another download');
    expect(sha256(root.file('big (2).bin')!.content)).toBe(sha256(entry.plain));
  });

  it('a handle that cannot be renamed is written under its real name and removed again on failure', async () => {
    const root = new MemoryDirectory('picked');
    const original = root.getFileHandle.bind(root);
    root.getFileHandle = async (name, options) => Object.assign(await original(name, options), { move: undefined });
    const files = [
      { ...addFile(randomBytes(70_000)), name: 'fine.bin' },
      { ...addFile(randomBytes(600_000), { tamperAt: 300_000 }), name: 'tampered.bin' },
    ];
    expect(await (await run({ kind: 'tree', directory: root.asHandle() }, files, true, 256 * 1024)).finished).toEqual({ type: 'done', bytes: 70_000 });
    expect(root.paths()).toEqual(['fine.bin']);
  });
});

describe('direct to disk: a tree into a picked folder', () => {
  it('creates the subfolders, never overwrites what is there, and numbers taken names', async () => {
    const root = new MemoryDirectory('picked');
    // Already in the folder: a file at one of the paths, and a file where a folder is wanted.
    const existing = await (await root.getDirectoryHandle('docs', { create: true })).getFileHandle('readme.txt', { create: true });
    existing.content = Buffer.from('mine, keep it');
    await root.getFileHandle('photos', { create: true });

    const files = [
      { ...addFile(Buffer.from('top level\n')), name: 'top.txt' },
      { ...addFile(randomBytes(300_000)), name: 'docs/readme.txt' },
      { ...addFile(randomBytes(1_300_000)), name: 'docs/2024/data.bin' },
      { ...addFile(Buffer.from('Grüße\n'.repeat(50))), name: 'docs/2024/Grüße & Notizen?.txt' },
      { ...addFile(randomBytes(180_000)), name: 'photos/beach.jpg' },
      { ...addFile(Buffer.alloc(0)), name: 'empty/nothing.txt' },
    ];
    const { finished, messages } = await run({ kind: 'tree', directory: root.asHandle() }, files, true, 512 * 1024);
    const total = files.reduce((sum, file) => sum + file.plain.length, 0);
    expect(await finished).toEqual({ type: 'done', bytes: total });
    expect(messages[1]).toEqual({ type: 'started', totalBytes: total });
    expect(root.paths()).toEqual([
      'docs/2024/Grüße & Notizen_.txt',
      'docs/2024/data.bin',
      'docs/readme (2).txt',
      'docs/readme.txt',
      'empty/nothing.txt',
      'photos',
      'photos (2)/beach.jpg',
      'top.txt',
    ]);
    expect(Buffer.from(root.file('docs/readme.txt')!.content).toString()).toBe('mine, keep it');
    const savedAs: Record<string, string> = { 'docs/readme.txt': 'docs/readme (2).txt', 'docs/2024/Grüße & Notizen?.txt': 'docs/2024/Grüße & Notizen_.txt', 'photos/beach.jpg': 'photos (2)/beach.jpg' };
    for (const file of files) expect(sha256(root.file(savedAs[file.name] ?? file.name)!.content), file.name).toBe(sha256(file.plain));
  });

  it('leaves out a file that fails (removed again) and carries on with the others', async () => {
    const root = new MemoryDirectory('picked');
    const files = [
      { ...addFile(randomBytes(600_000), { tamperAt: 300_000 }), name: 'a/tampered.bin' },
      { ...addFile(randomBytes(1000), { status: 404 }), name: 'a/gone.bin' },
      { ...addFile(randomBytes(70_000)), name: 'a/fine.bin' },
    ];
    const { finished, messages } = await run({ kind: 'tree', directory: root.asHandle() }, files, true, 256 * 1024);
    expect(await finished).toEqual({ type: 'done', bytes: 70_000 });
    expect(messages.filter((m) => m.type === 'file-failed').map(worded)).toEqual([
      { type: 'file-failed', name: 'a/tampered.bin', code: 'INTEGRITY', text: expect.any(String) },
      { type: 'file-failed', name: 'a/gone.bin', code: 'HTTP', text: 'Failed to download a/gone.bin: File not found' },
    ]);
    expect(root.paths()).toEqual(['a/fine.bin']);
  });

  it('fails as a whole without skipping, leaving the files finished before', async () => {
    const root = new MemoryDirectory('picked');
    const files = [
      { ...addFile(randomBytes(1000)), name: 'one.bin' },
      { ...addFile(randomBytes(1000), { status: 500 }), name: 'two.bin' },
      { ...addFile(randomBytes(1000)), name: 'three.bin' },
    ];
    const { finished } = await run({ kind: 'tree', directory: root.asHandle() }, files, false);
    expect(await finished).toMatchObject({ type: 'error', failure: { name: 'DownloadError', code: 'HTTP' } });
    expect(root.paths()).toEqual(['one.bin']);
  });
});
