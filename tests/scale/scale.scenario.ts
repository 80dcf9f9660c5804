// npm run test:scale: many stateless processes behind a real proxy. Starts (on 127.0.0.1, ports
// 9410-9422) a Swift+s3api S3 server, two server processes with BLOB_STORE=s3 on the local
// PostgreSQL (a schema of their own, dropped at the end) and nginx balancing between them
// round-robin, with the configuration docs/operations.md gives. Then, as users would, through
// nginx unless a step needs one process in particular: sign-in on one process and use on the
// other; a large resumable upload whose PATCHes alternate between the processes, one of them
// killed mid-PATCH and restarted; a multipart upload; downloads by the owner and by link from
// both processes, decrypted with node:crypto and compared with the originals; the sweep started
// in both processes at once, doing the work once and logging no error. The rig itself (start,
// stop) is tests/scale/rig.ts, shared with npm run bench:scale.
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CreateMultipartUploadCommand, ListMultipartUploadsCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DecryptRecords, generateRsaKeyPair, unwrapFileKey } from '../../server/crypto/index.ts';
import type { Folder } from '../../server/db/repositories/index.ts';
import { localS3Client, type LocalS3 } from '../../scripts/s3-server/s3-server.ts';
import type { RunningNginx } from '../../scripts/scale/nginx.ts';
import { TestClient, type TestResponse } from '../server/http-client.ts';
import { MultipartBody, postMultipart, sealForUpload, sendRaw, tusCreate, tusHead, tusPatch } from '../server/upload-helpers.ts';
import { startRig, type Rig } from './rig.ts';
import type { ServerProcess } from './server-process.ts';

const MiB = 1024 * 1024;
const BUCKET = 'sealdrop-scale';
const admin = generateRsaKeyPair();

let rig: Rig;
let s3: LocalS3;
let nginx: RunningNginx;
let a: ServerProcess;
let b: ServerProcess;
let alice: TestClient;
let folder: { id: number; link_token: string };
const sent: Array<{ name: string; plain: Buffer; id?: number }> = [];
const PORTS = { a: 9421, b: 9422 };

const seal = (plain: Buffer) => sealForUpload(plain, admin.publicKeySpki);

/** Downloads `path` and decrypts it as it streams; returns the plaintext's SHA-256 and who served it. */
async function downloadAndDecrypt(client: TestClient, path: string, encryptedKey: string, iv: string): Promise<{ hash: string; upstream: string }> {
  const cookie = [...client.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  const response = await fetch(client.baseUrl + path, { headers: cookie ? { cookie } : {} });
  expect(response.status).toBe(200);
  const hash = createHash('sha256');
  const decrypt = new DecryptRecords(unwrapFileKey(admin.privateKey, encryptedKey), Buffer.from(iv, 'base64'));
  await pipeline(Readable.fromWeb(response.body! as never), decrypt, async function* (source) {
    for await (const chunk of source) hash.update(chunk as Buffer);
  });
  return { hash: hash.digest('hex'), upstream: response.headers.get('x-upstream') ?? '' };
}

const upstreamOf = (response: TestResponse) => response.headers.get('x-upstream') ?? '';
const through = (client: TestClient, url: string) => {
  const other = new TestClient(url);
  for (const [name, value] of client.cookies) other.cookies.set(name, value);
  return other;
};

beforeAll(async () => {
  rig = await startRig({
    s3Port: 9410,
    nginxPort: 9420,
    ports: PORTS,
    bucket: BUCKET,
    label: 'test:scale',
    // Leftovers count as abandoned after 3.6 s, so the sweep step need not wait a day.
    env: { UPLOAD_ABANDON_HOURS: '0.001' },
  });
  ({ s3, nginx, a, b } = rig);
  rig.createUser('alice', 'correct horse battery');
}, 180_000);

afterAll(async () => {
  // SCALE_LOG_DIR=<dir> keeps both processes' log lines there (to read after a failure).
  const logDir = process.env.SCALE_LOG_DIR;
  try {
    if (logDir && a && b) {
      const { mkdir, writeFile } = await import('node:fs/promises');
      await mkdir(logDir, { recursive: true });
      await writeFile(`${logDir}/scale-a.log`, a.lines.join('\n'));
      await writeFile(`${logDir}/scale-b.log`, b.lines.join('\n'));
    }
  } finally {
    // Whatever happened to the logs, nothing the rig started outlives the run.
    await rig?.stop();
  }
});

describe('two processes on PostgreSQL and S3 behind nginx', () => {
  it('signs in on one process and works on the other, and nginx spreads requests over both', async () => {
    alice = new TestClient(a.url);
    expect((await alice.login('alice', 'correct horse battery')).status).toBe(200);
    const onB = through(alice, b.url);
    const created = await onB.post('/api/folders/', { title: 'Scale test' });
    expect(created.status).toBe(201);
    folder = created.body;
    expect((await through(alice, a.url).get(`/api/folders/${folder.id}/files`)).status).toBe(200);

    const viaProxy = through(alice, nginx.url);
    const served = new Set<string>();
    for (let i = 0; i < 4; i++) {
      const response = await viaProxy.get('/api/folders/');
      expect(response.status).toBe(200);
      served.add(upstreamOf(response));
    }
    expect(served).toEqual(new Set([`127.0.0.1:${PORTS.a}`, `127.0.0.1:${PORTS.b}`]));
    alice = viaProxy;
  });

  it('takes a large resumable upload whose PATCHes alternate between the processes, one killed mid-PATCH and restarted', async () => {
    const file = seal(randomBytes(96 * MiB + 4321));
    const anonymous = new TestClient(nginx.url);
    const target = { linkToken: folder.link_token } as Folder;
    const created = await tusCreate(anonymous, target, file.sealed.length, {
      filename: 'large.bin',
      plainSize: file.plain.length,
      encryptedKey: file.encryptedKey,
      iv: file.iv,
    });
    expect(created.status).toBe(201);
    const location = created.headers.get('location')!;
    const uploadId = location.split('/').pop()!;
    const chunk = 16 * MiB;
    const patchedBy: string[] = [];
    // As the page does: a PATCH answered 423 (the upload's lease is still held by the killed
    // process, for at most 15 s) or 502 (nginx reached the dead process) is sent again after a pause.
    const patchFrom = async (offset: number) => {
      for (let attempt = 0; ; attempt++) {
        const response = await tusPatch(anonymous, location, offset, file.sealed.subarray(offset, offset + chunk));
        if ((response.status === 423 || response.status === 502) && attempt < 60) {
          await new Promise((r) => setTimeout(r, 500));
          continue;
        }
        expect(response.status).toBe(204);
        patchedBy.push(upstreamOf(response));
        return Number(response.headers.get('upload-offset'));
      }
    };

    let offset = 0;
    offset = await patchFrom(offset);
    offset = await patchFrom(offset);
    expect(new Set(patchedBy).size).toBe(2);

    // A PATCH straight to B, killed (SIGKILL, a crash) after some of its parts reached S3.
    const request = http.request(`${b.url}${location}`, {
      method: 'PATCH',
      headers: {
        'tus-resumable': '1.0.0',
        'upload-offset': String(offset),
        'content-type': 'application/offset+octet-stream',
        'content-length': String(24 * MiB),
        cookie: [...anonymous.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        'x-csrftoken': anonymous.csrfToken!,
      },
    });
    request.on('error', () => undefined);
    request.write(file.sealed.subarray(offset, offset + 20 * MiB));
    const onA = new TestClient(a.url);
    const stored = async () => Number((await tusHead(onA, location)).headers.get('upload-offset'));
    await vi.waitFor(async () => expect(await stored()).toBeGreaterThan(offset), { timeout: 10_000, interval: 50 });
    await b.signal('SIGKILL');
    request.destroy();

    // Through nginx with B down: the offset S3 holds, then A takes the PATCHes.
    const resumed = await tusHead(anonymous, location);
    expect(resumed.status).toBe(200);
    offset = Number(resumed.headers.get('upload-offset'));
    expect(offset).toBeGreaterThan(32 * MiB);
    offset = await patchFrom(offset);
    // nginx tried B (refused: down), then A.
    expect(patchedBy.at(-1)).toMatch(new RegExp(`127\\.0\\.0\\.1:${PORTS.a}$`));

    await b.restart();
    // nginx sends B requests again once its fail_timeout (5 s) has passed.
    const toB = `127.0.0.1:${PORTS.b}`;
    await vi.waitFor(async () => expect(upstreamOf(await alice.get('/api/folders/'))).toBe(toB), { timeout: 10_000, interval: 100 });
    const afterRestart = patchedBy.length;
    while (offset < file.sealed.length) offset = await patchFrom(offset);
    expect(new Set(patchedBy.slice(afterRestart))).toContain(`127.0.0.1:${PORTS.b}`);

    const completed = await anonymous.post(`/api/upload/${folder.link_token}/complete`, { uploads: [{ upload_id: uploadId, file_hash: file.hash }] });
    expect(completed.status).toBe(200);
    expect(completed.body.failed_files).toEqual([]);
    sent.push({ name: 'large.bin', plain: file.plain, id: completed.body.successful_files[0].id });
  }, 240_000);

  it('takes a multipart upload through the proxy', async () => {
    const files = [seal(randomBytes(10 * MiB + 17)), seal(randomBytes(1000)), seal(Buffer.alloc(0))];
    const body = new MultipartBody().files(
      files.map((f, i) => ({ name: `m${i}.bin`, data: f.sealed, encryptedKey: f.encryptedKey, iv: f.iv, hash: f.hash })),
    );
    const response = await postMultipart(new TestClient(nginx.url), `/api/upload/${folder.link_token}`, body);
    expect(response.status).toBe(200);
    expect(response.body.successful_files).toHaveLength(3);
    response.body.successful_files.forEach((f: { id: number }, i: number) => sent.push({ name: `m${i}.bin`, plain: files[i]!.plain, id: f.id }));
  }, 120_000);

  it('serves the owner and a download link from both processes, bytes identical to the originals', async () => {
    const records = (await alice.get(`/api/folders/${folder.id}/files`)).body as Array<{ id: number; encrypted_key: string; encryption_iv: string }>;
    const served = new Set<string>();
    for (const file of sent) {
      const record = records.find((r) => r.id === file.id)!;
      const expected = createHash('sha256').update(file.plain).digest('hex');
      for (let i = 0; i < 2; i++) {
        const got = await downloadAndDecrypt(alice, `/api/folders/download/${file.id}`, record.encrypted_key, record.encryption_iv);
        expect(got.hash, file.name).toBe(expected);
        served.add(got.upstream);
      }
    }
    expect(served.size).toBe(2);

    const large = sent[0]!;
    const record = records.find((r) => r.id === large.id)!;
    const link = await alice.post('/api/download/links', { file_ids: [large.id], password: null, reencrypted_keys_json: null, expiration_date: null });
    expect(link.status).toBe(201);
    const recipient = new TestClient(nginx.url);
    const byLink = new Set<string>();
    for (let i = 0; i < 2; i++) {
      const got = await downloadAndDecrypt(recipient, `/api/download/${link.body.link_token}/file/${large.id}`, record.encrypted_key, record.encryption_iv);
      expect(got.hash).toBe(createHash('sha256').update(large.plain).digest('hex'));
      byLink.add(got.upstream);
    }
    expect(byLink.size).toBe(2);
  }, 180_000);

  it('sweeps from both processes at once, doing the work once and logging no error', async () => {
    // Leftovers: an abandoned resumable upload (one part in S3), 40 orphan objects, a stray
    // multipart upload (a request cut off before its record).
    const anonymous = new TestClient(nginx.url);
    const file = seal(randomBytes(12 * MiB));
    const created = await tusCreate(anonymous, { linkToken: folder.link_token } as Folder, file.sealed.length, {
      filename: 'abandoned.bin',
      plainSize: file.plain.length,
      encryptedKey: file.encryptedKey,
      iv: file.iv,
    });
    const location = created.headers.get('location')!;
    expect((await tusPatch(anonymous, location, 0, file.sealed.subarray(0, 9 * MiB))).status).toBe(204);
    const client = localS3Client(s3.endpoint);
    for (let i = 0; i < 40; i++) {
      await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: `files/orphan-${i}`, Body: randomBytes(64) }));
    }
    await client.send(new CreateMultipartUploadCommand({ Bucket: BUCKET, Key: 'files/cut-off-request' }));
    // Past the 3.6 s abandon age with room to spare: Swift reports LastModified and Initiated rounded
    // up to the next whole second, so a 0.9 s margin left the last objects 'too young' now and then.
    await new Promise((r) => setTimeout(r, 6000));

    const done = (server: ServerProcess) => server.logRecords().filter((r) => r.msg === 'upload sweep on SIGUSR2 finished');
    const before = [done(a).length, done(b).length];
    await Promise.all([a.signal('SIGUSR2'), b.signal('SIGUSR2')]);
    await vi.waitFor(
      () => {
        expect(done(a).length).toBeGreaterThan(before[0]!);
        expect(done(b).length).toBeGreaterThan(before[1]!);
      },
      { timeout: 30_000, interval: 50 },
    );
    const reports = [done(a).at(-1)!.sweep, done(b).at(-1)!.sweep] as Array<Record<string, number | boolean>>;
    const total = (key: string) => reports.reduce((sum, report) => sum + Number(report[key]), 0);
    console.log(`sweep reports: A ${JSON.stringify(reports[0])}, B ${JSON.stringify(reports[1])}`);
    expect(total('abandonedUploads')).toBe(1);
    expect(total('orphanBlobs')).toBe(40);
    expect(total('unfinishedWrites')).toBe(1);

    expect(((await client.send(new ListMultipartUploadsCommand({ Bucket: BUCKET }))).Uploads ?? []).length).toBe(0);
    expect((await tusHead(anonymous, location)).status).toBe(404);
    client.destroy();

    // Nothing either process logged was an error (pino level 50 and above).
    const errors = [...a.logRecords(), ...b.logRecords()].filter((r) => Number(r.level) >= 50);
    expect(errors).toEqual([]);
    // And what was kept is intact: every recorded file still downloads.
    const records = (await alice.get(`/api/folders/${folder.id}/files`)).body as unknown[];
    expect(records).toHaveLength(sent.length);
  }, 120_000);
});

// Issue 26's load test: many uploaders at once through nginx, one process killed (SIGKILL) once
// 40 % of the bytes are acknowledged and restarted 3 s later. Uploaders behave as the page does:
// a tus uploader retries a failed PATCH (network error, 5xx, 409, 423) after a pause from the
// offset HEAD reports, then completes; a batch uploader sends each batch with one Idempotency-Key
// and retries it with the same key. Every file must be stored exactly once and byte-identical.
describe('many uploaders through nginx while a process is killed and restarted', () => {
  const TUS_UPLOADERS = 8;
  const BATCH_UPLOADERS = 3;
  const BATCHES_EACH = 3;
  const FILES_PER_BATCH = 5;
  const CHUNK = 4 * MiB;
  const PAUSE_MS = 300;
  // Longer than a dead process's upload leases last (15 s) and nginx's fail_timeout (5 s).
  const MAX_ATTEMPTS = 150;

  const pause = () => new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
  const retryable = (status: number) => status === 0 || status >= 500 || status === 409 || status === 423;
  /** A request's status, 0 for a network error (the proxy's connection to a killed process). */
  const statusOf = async (send: () => Promise<TestResponse>): Promise<TestResponse | { status: 0 }> => {
    try {
      return await send();
    } catch {
      return { status: 0 };
    }
  };

  it('stores every file exactly once and byte-identical, tus and batch uploaders, one process SIGKILLed mid-way', async () => {
    const started = Date.now();
    const viaProxy = alice;
    const loadFolder = (await viaProxy.post('/api/folders/', { title: 'Load' })).body as { id: number; link_token: string };
    const target = { linkToken: loadFolder.link_token } as Folder;
    const large = Array.from({ length: TUS_UPLOADERS }, (_, i) => ({ name: `t${i}.bin`, ...seal(randomBytes((6 + 2 * i) * MiB + 1000 + i)) }));
    const small = Array.from({ length: BATCH_UPLOADERS * BATCHES_EACH * FILES_PER_BATCH }, (_, i) => ({ name: `s${i}.bin`, ...seal(randomBytes(2000 + 997 * i)) }));
    const totalBytes = large.reduce((sum, f) => sum + f.sealed.length, 0) + small.reduce((sum, f) => sum + f.sealed.length, 0);
    let acknowledged = 0;
    let retries = 0;
    const statuses = new Map<number, number>();
    const count = (status: number) => statuses.set(status, (statuses.get(status) ?? 0) + 1);

    const tusUploader = async (file: (typeof large)[number]): Promise<number> => {
      const client = new TestClient(nginx.url);
      let created: TestResponse | { status: 0 } = { status: 0 };
      for (let attempt = 0; attempt < MAX_ATTEMPTS && created.status !== 201; attempt++) {
        if (attempt > 0) await pause();
        created = await statusOf(() => tusCreate(client, target, file.sealed.length, { filename: file.name, plainSize: file.plain.length, encryptedKey: file.encryptedKey, iv: file.iv }));
      }
      expect(created.status, `${file.name}: create`).toBe(201);
      const location = (created as TestResponse).headers.get('location')!;
      const uploadId = location.split('/').pop()!;
      let offset = 0;
      for (let attempt = 0; offset < file.sealed.length; ) {
        const answer = await statusOf(() => tusPatch(client, location, offset, file.sealed.subarray(offset, offset + CHUNK)));
        count(answer.status);
        if (answer.status === 204) {
          const next = Number((answer as TestResponse).headers.get('upload-offset'));
          acknowledged += next - offset;
          offset = next;
          attempt = 0;
          continue;
        }
        expect(retryable(answer.status), `${file.name}: PATCH answered ${answer.status}`).toBe(true);
        expect(++attempt, `${file.name}: gave up at ${offset}`).toBeLessThan(MAX_ATTEMPTS);
        retries++;
        await pause();
        const head = await statusOf(() => tusHead(client, location));
        if (head.status === 200) offset = Number((head as TestResponse).headers.get('upload-offset'));
      }
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
        const done = await statusOf(() => client.post(`/api/upload/${loadFolder.link_token}/complete`, { uploads: [{ upload_id: uploadId, file_hash: file.hash }] }));
        if (done.status === 200) {
          const body = (done as TestResponse).body as { successful_files: Array<{ id: number }>; failed_files: unknown[] };
          expect(body.failed_files, `${file.name}: complete`).toEqual([]);
          return body.successful_files[0]!.id;
        }
        expect(retryable(done.status), `${file.name}: complete answered ${done.status}`).toBe(true);
        retries++;
        await pause();
      }
      throw new Error(`${file.name}: never completed`);
    };

    const batchUploader = async (files: typeof small): Promise<number[]> => {
      const client = new TestClient(nginx.url);
      const ids: number[] = [];
      for (let start = 0; start < files.length; start += FILES_PER_BATCH) {
        const batch = files.slice(start, start + FILES_PER_BATCH);
        const body = new MultipartBody().files(batch.map((f) => ({ name: f.name, data: f.sealed, encryptedKey: f.encryptedKey, iv: f.iv, hash: f.hash })));
        const bytes = body.build();
        const key = randomBytes(16).toString('hex');
        let stored: TestResponse | undefined;
        for (let attempt = 0; attempt < MAX_ATTEMPTS && !stored; attempt++) {
          if (attempt > 0) {
            retries++;
            await pause();
          }
          const answer = await statusOf(() => sendRaw(client, 'POST', `/api/upload/${loadFolder.link_token}`, bytes, { 'content-type': body.contentType, 'idempotency-key': key }));
          count(answer.status);
          if (answer.status === 200) stored = answer as TestResponse;
          else expect(retryable(answer.status), `batch answered ${answer.status}`).toBe(true);
        }
        expect(stored, 'a batch never stored').toBeDefined();
        const result = stored!.body as { successful_files: Array<{ id: number; filename: string }> };
        expect(result.successful_files.map((f) => f.filename)).toEqual(batch.map((f) => f.name));
        ids.push(...result.successful_files.map((f) => f.id));
        acknowledged += batch.reduce((sum, f) => sum + f.sealed.length, 0);
      }
      return ids;
    };

    // The crash: B is killed once 40 % of the bytes are acknowledged, and restarted 3 s later.
    let killedAt = -1;
    const crash = (async () => {
      while (acknowledged < 0.4 * totalBytes) await new Promise((resolve) => setTimeout(resolve, 20));
      killedAt = acknowledged / totalBytes;
      await b.signal('SIGKILL');
      await new Promise((resolve) => setTimeout(resolve, 3000));
      await b.restart();
    })();
    const [tusIds, batchIds] = await Promise.all([
      Promise.all(large.map((file) => tusUploader(file))),
      Promise.all(Array.from({ length: BATCH_UPLOADERS }, (_, u) => batchUploader(small.slice(u * BATCHES_EACH * FILES_PER_BATCH, (u + 1) * BATCHES_EACH * FILES_PER_BATCH)))),
    ]);
    await crash;
    console.log(
      `load: ${large.length} tus + ${small.length} batch files, ${(totalBytes / MiB).toFixed(1)} MiB, B killed at ${(killedAt * 100).toFixed(0)} %, ` +
        `${retries} retries, statuses ${JSON.stringify(Object.fromEntries(statuses))}, ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    expect(killedAt).toBeGreaterThan(0);

    // Exactly once: one record per file sent, no more, and each the file it claims to be.
    const records = (await viaProxy.get(`/api/folders/${loadFolder.id}/files`)).body as Array<{ id: number; original_filename: string; encrypted_key: string; encryption_iv: string }>;
    const all = [...large, ...small];
    expect(records.map((r) => r.original_filename).sort()).toEqual(all.map((f) => f.name).sort());
    expect(new Set([...tusIds, ...batchIds.flat()])).toEqual(new Set(records.map((r) => r.id)));
    for (const file of all) {
      const record = records.find((r) => r.original_filename === file.name)!;
      const got = await downloadAndDecrypt(viaProxy, `/api/folders/download/${record.id}`, record.encrypted_key, record.encryption_iv);
      expect(got.hash, file.name).toBe(createHash('sha256').update(file.plain).digest('hex'));
    }
  }, 300_000);
});
