// The service worker's download endpoint, run in node against a real HTTP server that serves
// ciphertext made by the independent node:crypto implementation (server/crypto). Keys travel over
// a real MessageChannel as CryptoKeys, as the crypto worker sends them.
import { createHash, randomBytes, webcrypto } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { encryptBuffer } from '../../server/crypto/index.ts';
import { DOWNLOAD_MESSAGES } from '../../src/lib/userTexts.ts';
import { PLAN_MESSAGE, type DownloadPlan, type PlanEntry, type StatusMessage } from '../../workers/download-service/protocol.ts';
import { readZip } from '../support/zip.ts';
import { DownloadService } from '../../workers/download-service/downloadService.ts';
import { worded } from '../support/wordedStatus.ts';
import { loopbackServer } from '../../workers/download-service/testing/loopbackServer.ts';

/** The worker's own answers as a page speaking German words them (DownloadPlan.texts). */
const GERMAN_TEXTS = { expired: 'Dieser Download-Link ist abgelaufen.', failed: 'Der Download ist fehlgeschlagen.' };

interface Served {
  plain: Buffer;
  cipher: Buffer;
  rawKey: Buffer;
  iv: string;
  headers: Record<string, string>;
  /** The first full response stops after this many bytes (the connection is destroyed). */
  dropAfter?: number;
  requests: Array<string | undefined>;
}

const files = new Map<string, Served>();

function serve(request: IncomingMessage, response: ServerResponse): void {
  const file = files.get(request.url ?? '');
  if (!file) {
    response.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ detail: 'File not found' }));
    return;
  }
  file.requests.push(request.headers.range);
  const range = /^bytes=(\d+)-$/.exec(request.headers.range ?? '');
  const start = range ? Number(range[1]) : 0;
  const body = file.cipher.subarray(start);
  response.writeHead(range ? 206 : 200, {
    ...file.headers,
    'content-length': String(body.length),
    etag: '"v1"',
    ...(range ? { 'content-range': `bytes ${start}-${file.cipher.length - 1}/${file.cipher.length}` } : {}),
  });
  if (!range && file.dropAfter !== undefined) {
    response.write(body.subarray(0, file.dropAfter), () => response.destroy());
    return;
  }
  // Odd-sized writes, so records arrive split across pieces.
  let at = 0;
  const next = () => {
    while (at < body.length) {
      const piece = body.subarray(at, at + 50_000);
      at += piece.length;
      if (!response.write(piece)) return void response.once('drain', next);
    }
    response.end();
  };
  next();
}

function addFile(path: string, plain: Buffer, options: { headers?: Record<string, string>; tamperAt?: number; dropAfter?: number } = {}): Served {
  const rawKey = randomBytes(32);
  const ivBytes = randomBytes(12);
  const cipher = encryptBuffer(rawKey, ivBytes, plain);
  if (options.tamperAt !== undefined) cipher[options.tamperAt]! ^= 0x01;
  const iv = ivBytes.toString('base64');
  const served: Served = {
    plain,
    cipher,
    rawKey,
    iv,
    headers: options.headers ?? { 'x-encryption-iv': iv, 'x-encrypted-key': 'd3JhcHBlZA==', 'x-file-size': String(plain.length) },
    requests: [],
    ...(options.dropAfter !== undefined ? { dropAfter: options.dropAfter } : {}),
  };
  files.set(path, served);
  return served;
}

async function importKey(raw: Buffer): Promise<CryptoKey> {
  return webcrypto.subtle.importKey('raw', raw, { name: 'AES-GCM' }, false, ['decrypt']) as Promise<CryptoKey>;
}

function entry(path: string, name: string, served: Served, overrides: Partial<PlanEntry> = {}): PlanEntry {
  return { url: `${http.base}${path}`, name, plainSize: served.plain.length, iv: served.iv, keyId: `key-${path}`, requiredHeaders: ['x-encrypted-key', 'x-encryption-iv'], ...overrides };
}

interface Registered {
  service: DownloadService;
  messages: StatusMessage[];
  statusPort: MessagePort;
  finished: Promise<StatusMessage>;
}

/** Registers a plan as the page and the crypto worker would: plan + ports, keys posted on the key port. */
async function register(
  service: DownloadService,
  kind: 'file' | 'zip',
  fileName: string,
  entries: PlanEntry[],
  keys: Map<string, Buffer>,
  skipFailedFiles = false,
): Promise<Registered & { plan: DownloadPlan }> {
  const plan: DownloadPlan = { type: PLAN_MESSAGE, id: randomBytes(8).toString('hex'), kind, fileName, entries, skipFailedFiles, texts: GERMAN_TEXTS };
  const keyChannel = new MessageChannel();
  const statusChannel = new MessageChannel();
  const messages: StatusMessage[] = [];
  let resolveFinished!: (message: StatusMessage) => void;
  const finished = new Promise<StatusMessage>((resolve) => (resolveFinished = resolve));
  const ready = new Promise<void>((resolve) => {
    statusChannel.port1.onmessage = (event: MessageEvent<StatusMessage>) => {
      messages.push(event.data);
      if (event.data.type === 'ready') resolve();
      if (event.data.type === 'done' || event.data.type === 'error') {
        resolveFinished(event.data);
        resolve();
      }
    };
  });
  const registering = service.register(plan, keyChannel.port2, statusChannel.port2);
  const cryptoKeys = await Promise.all([...keys].map(async ([id, raw]) => ({ id, key: await importKey(raw) })));
  keyChannel.port1.postMessage({ keys: cryptoKeys });
  keyChannel.port1.close();
  await registering;
  await ready;
  return { service, messages, statusPort: statusChannel.port1, finished, plan };
}

function keysOf(entries: PlanEntry[], served: Served[]): Map<string, Buffer> {
  return new Map(entries.map((e, i) => [e.keyId, served[i]!.rawKey]));
}

async function readAll(response: Response): Promise<Buffer> {
  return Buffer.from(await response.arrayBuffer());
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

const http = loopbackServer(serve);

describe('DownloadService: one file', () => {
  it('answers the download URL once with the decrypted bytes, name and plaintext length', async () => {
    const served = addFile('/api/folders/download/1', randomBytes(3 * 256 * 1024 + 12345));
    const e = entry('/api/folders/download/1', 'Grüße report.pdf', served);
    const { service, plan, finished, messages } = await register(new DownloadService(), 'file', 'Grüße report.pdf', [e], keysOf([e], [served]));
    const url = new URL(`${http.base}/downloads/${plan.id}/x`);
    expect(service.handles(url, http.base)).toBe(true);

    const response = await service.respond(url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-length')).toBe(String(served.plain.length));
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="Gru_e report.pdf"; filename*=UTF-8''Gr%C3%BC%C3%9Fe%20report.pdf`);
    const body = await readAll(response);
    expect(sha256(body)).toBe(sha256(served.plain));
    expect(await finished).toEqual({ type: 'done', bytes: served.plain.length });
    expect(messages.map((m) => m.type)).toEqual(expect.arrayContaining(['ready', 'started', 'progress', 'done']));

    // Used up: a second request for the same id finds nothing, answered in the language the page sent.
    const usedUp = await service.respond(url);
    expect(usedUp.status).toBe(404);
    expect(await usedUp.text()).toBe(GERMAN_TEXTS.expired);
    expect(service.activeCount).toBe(0);
  });

  it('decrypts an empty file', async () => {
    const served = addFile('/api/folders/download/2', Buffer.alloc(0));
    const e = entry('/api/folders/download/2', 'empty.txt', served);
    const { service, plan, finished } = await register(new DownloadService(), 'file', 'empty.txt', [e], keysOf([e], [served]));
    const body = await readAll(await service.respond(new URL(`${http.base}/downloads/${plan.id}/empty.txt`)));
    expect(body.length).toBe(0);
    expect((await finished).type).toBe('done');
  });

  it('errors the stream with INTEGRITY when a stored byte was altered, after the good records only', async () => {
    const plain = randomBytes(4 * 256 * 1024);
    const served = addFile('/api/folders/download/3', plain, { tamperAt: 12 + 2 * (256 * 1024 + 16) + 100 });
    const e = entry('/api/folders/download/3', 'tampered.bin', served);
    const { service, plan, finished } = await register(new DownloadService(), 'file', 'tampered.bin', [e], keysOf([e], [served]));
    const response = await service.respond(new URL(`${http.base}/downloads/${plan.id}/tampered.bin`));
    const reader = response.body!.getReader();
    const received: Uint8Array[] = [];
    await expect(
      (async () => {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return;
          received.push(value);
        }
      })(),
    ).rejects.toMatchObject({ code: 'INTEGRITY' });
    // Only authenticated records were handed to the browser: the first two, byte for byte.
    const got = Buffer.concat(received);
    expect(got.length).toBeLessThanOrEqual(2 * 256 * 1024);
    expect(got.equals(plain.subarray(0, got.length))).toBe(true);
    expect(worded(await finished)).toEqual({ type: 'error', code: 'INTEGRITY', text: DOWNLOAD_MESSAGES.integrity });
  });

  it('answers an HTTP error of the ciphertext with a failed response and the server detail', async () => {
    const served = addFile('/api/folders/download/4', randomBytes(10));
    const e = entry('/api/folders/download/404', 'gone.txt', served);
    const { service, plan, finished } = await register(new DownloadService(), 'file', 'gone.txt', [e], keysOf([e], [served]));
    const response = await service.respond(new URL(`${http.base}/downloads/${plan.id}/gone.txt`));
    expect(response.status).toBe(502);
    expect(await response.text()).toBe(GERMAN_TEXTS.failed);
    expect(worded(await finished)).toEqual({ type: 'error', code: 'HTTP', text: 'Failed to download gone.txt: File not found' });
  });

  it('refuses a response without the required key and IV headers, or with another IV', async () => {
    const plain = randomBytes(100);
    const noKey = addFile('/api/folders/download/5', plain, { headers: { 'x-encryption-iv': 'AAAAAAAAAAAAAAAA' } });
    noKey.headers['x-encryption-iv'] = noKey.iv;
    const e1 = entry('/api/folders/download/5', 'nokey.txt', noKey);
    const first = await register(new DownloadService(), 'file', 'nokey.txt', [e1], keysOf([e1], [noKey]));
    expect((await first.service.respond(new URL(`${http.base}/downloads/${first.plan.id}/a`))).status).toBe(502);
    expect(worded(await first.finished)).toEqual({ type: 'error', code: 'HEADERS', text: 'Missing encryption data for nokey.txt' });

    const otherIv = addFile('/api/folders/download/6', plain);
    otherIv.headers['x-encryption-iv'] = randomBytes(12).toString('base64');
    const e2 = entry('/api/folders/download/6', 'iv.txt', otherIv);
    const second = await register(new DownloadService(), 'file', 'iv.txt', [e2], keysOf([e2], [otherIv]));
    expect((await second.service.respond(new URL(`${http.base}/downloads/${second.plan.id}/a`))).status).toBe(502);
    expect(worded(await second.finished)).toEqual({ type: 'error', code: 'HEADERS', text: DOWNLOAD_MESSAGES.invalidIv });
  });

  it('continues with a byte range after the connection drops mid-file', async () => {
    const plain = randomBytes(2 * 1024 * 1024 + 333);
    const served = addFile('/api/folders/download/7', plain, { dropAfter: 700_000 });
    const e = entry('/api/folders/download/7', 'flaky.bin', served);
    const { service, plan, finished } = await register(new DownloadService(), 'file', 'flaky.bin', [e], keysOf([e], [served]));
    const body = await readAll(await service.respond(new URL(`${http.base}/downloads/${plan.id}/flaky.bin`)));
    expect(sha256(body)).toBe(sha256(plain));
    expect((await finished).type).toBe('done');
    expect(served.requests[0]).toBeUndefined();
    expect(served.requests[1]).toMatch(/^bytes=\d+-$/);
    expect(Number(/\d+/.exec(served.requests[1]!)![0])).toBeGreaterThan(0);
  });

  it('fails with SIZE_MISMATCH when the file decrypts to another size than its record says', async () => {
    const served = addFile('/api/folders/download/8', randomBytes(1000));
    const e = entry('/api/folders/download/8', 'short.txt', served, { plainSize: 1001 });
    const { service, plan, finished } = await register(new DownloadService(), 'file', 'short.txt', [e], keysOf([e], [served]));
    await expect(readAll(await service.respond(new URL(`${http.base}/downloads/${plan.id}/a`)))).rejects.toMatchObject({ name: 'DownloadError', code: 'SIZE_MISMATCH' });
    expect(worded(await finished)).toEqual({ type: 'error', code: 'SIZE_MISMATCH', text: DOWNLOAD_MESSAGES.incomplete });
  });

  it('stops when the page aborts, and forgets a plan that is never fetched', async () => {
    const served = addFile('/api/folders/download/9', randomBytes(8 * 1024 * 1024));
    const e = entry('/api/folders/download/9', 'big.bin', served);
    const running = await register(new DownloadService(), 'file', 'big.bin', [e], keysOf([e], [served]));
    const response = await running.service.respond(new URL(`${http.base}/downloads/${running.plan.id}/a`));
    const reader = response.body!.getReader();
    await reader.read();
    running.statusPort.postMessage({ type: 'abort' });
    await expect(
      (async () => {
        for (;;) if ((await reader.read()).done) return;
      })(),
    ).rejects.toMatchObject({ code: 'ABORTED' });
    expect((await running.finished).type).toBe('error');

    const waiting = await register(new DownloadService({ planTtlMs: 50 }), 'file', 'big.bin', [e], keysOf([e], [served]));
    expect(worded(await waiting.finished)).toEqual({ type: 'error', code: 'EXPIRED', text: DOWNLOAD_MESSAGES.expired });
    expect((await waiting.service.respond(new URL(`${http.base}/downloads/${waiting.plan.id}/a`))).status).toBe(404);
  });

  it('refuses a plan whose keys did not all arrive', async () => {
    const served = addFile('/api/folders/download/10', randomBytes(10));
    const e = entry('/api/folders/download/10', 'nokey.txt', served);
    const { finished } = await register(new DownloadService(), 'file', 'nokey.txt', [e], new Map());
    expect(worded(await finished)).toEqual({ type: 'error', code: 'KEY_UNAVAILABLE', text: 'Decryption key for "nokey.txt" not found.' });
  });
});

describe('DownloadService: liveness while the browser does not read', () => {
  it('keeps telling the page it is alive while the download manager reads nothing (paused by the user), so the page never takes a paused download for a dead worker', async () => {
    const served = addFile('/api/folders/download/paused', randomBytes(6 * 1024 * 1024));
    const e = entry('/api/folders/download/paused', 'paused.bin', served);
    const { service, plan, messages, finished } = await register(new DownloadService({ readerWaitReportMs: 10 }), 'file', 'paused.bin', [e], keysOf([e], [served]));
    const response = await service.respond(new URL(`${http.base}/downloads/${plan.id}/x`));
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(first.done).toBe(false);
    // The download manager stops reading: the worker's read-ahead fills up and no byte moves.
    const reports = () => messages.filter((m) => m.type === 'progress').length;
    const before = reports();
    await expect.poll(reports).toBeGreaterThanOrEqual(before + 3);
    // Resumed: the rest arrives intact.
    const rest: Uint8Array[] = [first.value!];
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) rest.push(chunk.value);
    expect(sha256(Buffer.concat(rest))).toBe(sha256(served.plain));
    expect(await finished).toEqual({ type: 'done', bytes: served.plain.length });
  });
});

describe('DownloadService: ZIP', () => {
  it('streams every file into one archive of exactly the announced length, paths kept', async () => {
    const servedFiles = [
      addFile('/z/1', randomBytes(300_000)),
      addFile('/z/2', Buffer.from('hello')),
      addFile('/z/3', Buffer.alloc(0)),
      addFile('/z/4', randomBytes(600_000)),
    ];
    const names = ['top.bin', 'docs/2024/Grüße.txt', 'docs/empty.txt', 'docs/2024/deep/x.bin'];
    const entries = servedFiles.map((s, i) => entry(`/z/${i + 1}`, names[i]!, s));
    const { service, plan, finished } = await register(new DownloadService(), 'zip', 'Folder_files.zip', entries, keysOf(entries, servedFiles));
    const response = await service.respond(new URL(`${http.base}/downloads/${plan.id}/Folder_files.zip`));
    expect(response.headers.get('content-type')).toBe('application/zip');
    const zip = await readAll(response);
    expect(response.headers.get('content-length')).toBe(String(zip.length));
    const unzipped = await readZip(zip);
    expect(unzipped.map((z) => z.name)).toEqual(names);
    unzipped.forEach((z, i) => expect(z.data.equals(servedFiles[i]!.plain)).toBe(true));
    expect(await finished).toEqual({ type: 'done', bytes: zip.length });
  });

  it('makes every entry name safe whatever the plan says: nothing climbs out, no control characters, no duplicates, the rest kept', async () => {
    const hostile = ['../../etc/passwd', '/abs/evil.txt', 'C:\\Windows\\system.ini', 'a/../../b.txt', '.. /x', 'bell\u0007\u009b.txt', 'dup.txt', 'DUP.txt', 'Notes "Q3": draft?.txt'];
    const servedFiles = hostile.map((_, i) => addFile(`/hostile/${i}`, Buffer.from(`file ${i}`)));
    const entries = servedFiles.map((s, i) => entry(`/hostile/${i}`, hostile[i]!, s));
    const { service, plan, finished } = await register(new DownloadService(), 'zip', 'x.zip', entries, keysOf(entries, servedFiles));
    const response = await service.respond(new URL(`${http.base}/downloads/${plan.id}/x.zip`));
    const zip = await readAll(response);
    // The announced length is computed from the same safe names.
    expect(response.headers.get('content-length')).toBe(String(zip.length));
    // yauzl's strict file names refuse absolute paths, '..' segments and backslashes on their own.
    const unzipped = await readZip(zip);
    expect(unzipped.map((z) => z.name)).toEqual(['_/_/etc/passwd', 'abs/evil.txt', 'C_/Windows/system.ini', 'a/_/_/b.txt', '_/x', 'bell__.txt', 'dup.txt', 'DUP (2).txt', 'Notes "Q3": draft?.txt']);
    unzipped.forEach((z, i) => expect(z.data.equals(servedFiles[i]!.plain)).toBe(true));
    expect(await finished).toEqual({ type: 'done', bytes: zip.length });
  });

  it('fails the whole archive on a tampered file unless failed files may be skipped', async () => {
    const good = addFile('/z/good', randomBytes(1000));
    const bad = addFile('/z/bad', randomBytes(1000), { tamperAt: 40 });
    const entries = [entry('/z/good', 'good.bin', good), entry('/z/bad', 'bad.bin', bad)];

    const strict = await register(new DownloadService(), 'zip', 'a.zip', entries, keysOf(entries, [good, bad]));
    await expect(readAll(await strict.service.respond(new URL(`${http.base}/downloads/${strict.plan.id}/a.zip`)))).rejects.toMatchObject({ name: 'DownloadError', code: 'INTEGRITY' });
    expect(await strict.finished).toMatchObject({ type: 'error', failure: { name: 'DownloadError', code: 'INTEGRITY' } });

    const lenient = await register(new DownloadService(), 'zip', 'b.zip', entries, keysOf(entries, [good, bad]), true);
    const response = await lenient.service.respond(new URL(`${http.base}/downloads/${lenient.plan.id}/b.zip`));
    expect(response.headers.get('content-length')).toBeNull();
    const unzipped = await readZip(await readAll(response));
    expect(unzipped.map((z) => z.name)).toEqual(['good.bin']);
    expect(unzipped[0]!.data.equals(good.plain)).toBe(true);
    expect((await lenient.finished).type).toBe('done');
    expect(lenient.messages.map(worded)).toContainEqual({ type: 'file-failed', name: 'bad.bin', code: 'INTEGRITY', text: DOWNLOAD_MESSAGES.integrity });
  });
});
