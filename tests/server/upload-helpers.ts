// Shared pieces of the upload integration tests: folders made through the repositories, a real
// SMTP listener that captures the codes the server mails, multipart bodies built by hand (so a
// test can also send broken ones), and the tus 1.0 protocol spoken with plain fetch.
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import { SMTPServer } from 'smtp-server';
import { hashPassword } from '../../server/auth/passwords.ts';
import { newToken } from '../../server/auth/tokens.ts';
import { encryptBuffer, wrapFileKey } from '../../server/crypto/index.ts';
import type { Folder } from '../../server/db/repositories/index.ts';
import { TestClient, type TestResponse } from './http-client.ts';
import type { TestServer } from './harness.ts';

export interface FolderOptions {
  title?: string;
  description?: string | null;
  linkPassword?: string | null;
  requireEmail?: boolean;
  allowedEmails?: string[] | null;
  isActive?: boolean;
  expirationDate?: number | null;
  performMimeCheck?: boolean;
  /** Folder limits (null or absent: no limit) and retention. */
  storageLimitBytes?: number | null;
  fileLimit?: number | null;
  retentionDays?: number | null;
}

let ownerCount = 0;

/** A folder of a fresh admin, created through the repositories. */
export async function createUploadFolder(server: TestServer, options: FolderOptions = {}): Promise<Folder> {
  const owner = await server.createUser(`owner${++ownerCount}_${randomBytes(3).toString('hex')}`, 'owner password');
  return createFolderOf(server, owner.id, options);
}

/** A folder of the admin `ownerId`, created through the repositories: no gates unless `options` set them. */
export async function createFolderOf(server: TestServer, ownerId: number, options: FolderOptions = {}): Promise<Folder> {
  return server.app.repos.folders.create({
    ownerId,
    title: options.title ?? 'Tax documents 2025',
    description: options.description ?? null,
    linkToken: newToken(),
    linkPasswordHash: options.linkPassword ? await hashPassword(options.linkPassword) : null,
    requireEmailVerification: options.requireEmail ?? false,
    allowedEmails: options.allowedEmails ?? null,
    performMimeCheck: options.performMimeCheck ?? true,
    isActive: options.isActive ?? true,
    expirationDate: options.expirationDate ?? null,
    creationDate: server.clock.now(),
    storageLimitBytes: options.storageLimitBytes ?? null,
    fileLimit: options.fileLimit ?? null,
    retentionDays: options.retentionDays ?? null,
  });
}

export function uploadPath(folder: Folder, rest = ''): string {
  return `/api/upload/${folder.linkToken}${rest}`;
}

/** A real SMTP server on loopback that keeps every message it receives. */
export class MailCatcher {
  readonly messages: string[] = [];
  private readonly server: SMTPServer;
  port = 0;

  constructor() {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData: (stream, _session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          this.messages.push(Buffer.concat(chunks).toString('utf8'));
          callback();
        });
      },
    });
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.server.address() as { port: number }).port;
    return `smtp://127.0.0.1:${this.port}`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** The code of the last message sent to `to`. */
  lastCodeFor(to: string): string {
    const message = [...this.messages].reverse().find((m) => m.toLowerCase().includes(`to: ${to.toLowerCase()}`));
    if (!message) throw new Error(`no mail to ${to}`);
    return codeIn(message);
  }
}

export function codeIn(message: string): string {
  const match = /^\s+(\d{6})\s*$/m.exec(message);
  if (!match) throw new Error('no code in the message');
  return match[1]!;
}

/** The ciphertext stand-in a test uploads: random bytes of exactly the format's encrypted length. */
export function fakeCiphertext(server: TestServer, plainSize: number): Buffer {
  return randomBytes(server.app.uploads.sizes.encryptedLength(plainSize));
}

export function sha256(data: Buffer | string): string {
  return createHash('sha256').update(data).digest('hex');
}

export const SAMPLE_KEY = Buffer.alloc(256, 7).toString('base64');
export const SAMPLE_IV = Buffer.alloc(12, 3).toString('base64');

export interface MultipartFile {
  name: string;
  data: Buffer;
  relativePath?: string;
  encryptedKey?: string;
  iv?: string;
  hash?: string;
}

/** A multipart/form-data body, fields and files in the order given (as a browser's FormData sends them). */
export class MultipartBody {
  readonly boundary = `----sealdrop${randomBytes(8).toString('hex')}`;
  private readonly chunks: Buffer[] = [];

  field(name: string, value: string): this {
    this.chunks.push(
      Buffer.from(`--${this.boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
    return this;
  }

  /** `filename` goes into the header as given (a browser would send a quote as %22). */
  file(name: string, filename: string, data: Buffer): this {
    this.chunks.push(
      Buffer.from(
        `--${this.boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\n` +
          'Content-Type: application/octet-stream\r\n\r\n',
      ),
      data,
      Buffer.from('\r\n'),
    );
    return this;
  }

  /** The spec's per-file fields for each file, after the files. */
  files(files: MultipartFile[]): this {
    for (const f of files) this.file('files', f.name.replace(/"/g, '%22'), f.data);
    for (const f of files) {
      this.field('encrypted_keys', f.encryptedKey ?? SAMPLE_KEY);
      this.field('encryption_ivs', f.iv ?? SAMPLE_IV);
      this.field('relative_paths', f.relativePath ?? '.');
      this.field('file_hashes', f.hash ?? sha256(f.data));
    }
    return this;
  }

  build(close = true): Buffer {
    return Buffer.concat([...this.chunks, Buffer.from(close ? `--${this.boundary}--\r\n` : '')]);
  }

  get contentType(): string {
    return `multipart/form-data; boundary=${this.boundary}`;
  }
}

/** Sends a raw body through the client's cookie jar and CSRF header. */
export async function sendRaw(
  client: TestClient,
  method: string,
  path: string,
  body: Buffer | undefined,
  headers: Record<string, string>,
): Promise<TestResponse> {
  await client.primeCsrf();
  const response = await fetch(client.baseUrl + path, {
    method,
    body: body === undefined ? undefined : new Uint8Array(body),
    headers: {
      ...headers,
      cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      ...(client.csrfToken && method !== 'HEAD' ? { 'x-csrftoken': client.csrfToken } : {}),
    },
  });
  for (const line of response.headers.getSetCookie()) {
    const [pair] = line.split(';');
    const at = pair!.indexOf('=');
    client.cookies.set(pair!.slice(0, at), pair!.slice(at + 1));
  }
  const text = await response.text();
  const isJson = response.headers.get('content-type')?.includes('application/json');
  return { status: response.status, body: isJson && text ? JSON.parse(text) : text, headers: response.headers, setCookies: [] };
}

export function postMultipart(client: TestClient, path: string, body: MultipartBody): Promise<TestResponse> {
  return sendRaw(client, 'POST', path, body.build(), { 'content-type': body.contentType });
}

export interface TusMetadata {
  filename: string;
  relativePath?: string;
  encryptedKey?: string;
  iv?: string;
  plainSize: number;
}

function encodeMetadata(metadata: Record<string, string>): string {
  return Object.entries(metadata)
    .map(([key, value]) => `${key} ${Buffer.from(value, 'utf8').toString('base64')}`)
    .join(',');
}

/** tus creation: POST with Upload-Length and Upload-Metadata. Returns the response (Location on 201). */
export function tusCreate(
  client: TestClient,
  folder: Folder,
  uploadLength: number,
  metadata: TusMetadata,
): Promise<TestResponse> {
  const pairs: Record<string, string> = {
    filename: metadata.filename,
    encryptedKey: metadata.encryptedKey ?? SAMPLE_KEY,
    iv: metadata.iv ?? SAMPLE_IV,
    plainSize: String(metadata.plainSize),
  };
  if (metadata.relativePath !== undefined) pairs.relativePath = metadata.relativePath;
  return sendRaw(client, 'POST', uploadPath(folder, '/tus'), undefined, {
    'tus-resumable': '1.0.0',
    'upload-length': String(uploadLength),
    'upload-metadata': encodeMetadata(pairs),
  });
}

export function tusPatch(client: TestClient, location: string, offset: number, data: Buffer): Promise<TestResponse> {
  return sendRaw(client, 'PATCH', location, data, {
    'tus-resumable': '1.0.0',
    'upload-offset': String(offset),
    'content-type': 'application/offset+octet-stream',
  });
}

export function tusHead(client: TestClient, location: string): Promise<TestResponse> {
  return sendRaw(client, 'HEAD', location, undefined, { 'tus-resumable': '1.0.0' });
}

/** A client of another process on the same data (a peer behind the same proxy) with `client`'s cookies. */
export function sameSessionOn(client: TestClient, baseUrl: string): TestClient {
  const other = new TestClient(baseUrl);
  for (const [name, value] of client.cookies) other.cookies.set(name, value);
  return other;
}

/**
 * A tus PATCH of `length` body bytes as a raw request to `baseUrl` (this server or a peer process)
 * with `client`'s cookies: the caller writes the body as it likes (slowly, in pieces, paced);
 * `answered` resolves with the status, or rejects when the connection breaks.
 */
export function openTusPatch(baseUrl: string, client: TestClient, location: string, offset: number, length: number): { request: http.ClientRequest; answered: Promise<number> } {
  const request = http.request(baseUrl + location, {
    method: 'PATCH',
    headers: {
      'tus-resumable': '1.0.0',
      'upload-offset': String(offset),
      'content-type': 'application/offset+octet-stream',
      'content-length': String(length),
      cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      'x-csrftoken': client.csrfToken!,
    },
  });
  const answered = new Promise<number>((resolve, reject) => {
    // The status counts as soon as it arrives: a refused PATCH may be answered and its socket
    // closed before the whole body was written, and the write's EPIPE that follows (seen on a
    // loaded machine) must not hide the answer.
    request.on('response', (response) => {
      resolve(response.statusCode ?? 0);
      response.resume();
      response.on('error', () => undefined);
    });
    request.on('error', reject);
  });
  return { request, answered };
}

/** A tus PATCH whose body is written in `pieces`, `gapMs` apart (a slow link); its status. */
export function slowTusPatch(baseUrl: string, client: TestClient, location: string, offset: number, data: Buffer, pieces: number, gapMs: number): Promise<number> {
  const { request, answered } = openTusPatch(baseUrl, client, location, offset, data.length);
  const size = Math.ceil(data.length / pieces);
  let piece = 0;
  const writeNext = () => {
    if (request.destroyed) return;
    const chunk = data.subarray(piece * size, (piece + 1) * size);
    piece++;
    if (piece >= pieces) request.end(chunk);
    else {
      request.write(chunk);
      setTimeout(writeNext, gapMs);
    }
  };
  writeNext();
  return answered;
}

/** Creates a tus upload, sends all of `data` in one PATCH, and returns the upload id. */
export async function tusUploadAll(
  client: TestClient,
  folder: Folder,
  data: Buffer,
  metadata: TusMetadata,
): Promise<{ id: string; location: string }> {
  const created = await tusCreate(client, folder, data.length, metadata);
  if (created.status !== 201) throw new Error(`tus create: ${created.status} ${String(created.body)}`);
  const location = created.headers.get('location')!;
  const patched = await tusPatch(client, location, 0, data);
  if (patched.status !== 204) throw new Error(`tus patch: ${patched.status} ${String(patched.body)}`);
  return { id: location.split('/').pop()!, location };
}

/** A file as an uploader's browser would send it, encrypted for the admin with node:crypto. */
export interface SealedUpload {
  plain: Buffer;
  sealed: Buffer;
  encryptedKey: string;
  iv: string;
  hash: string;
}

export function sealForUpload(plain: Buffer, recipientPublicKeySpki: string): SealedUpload {
  const key = randomBytes(32);
  const iv = randomBytes(12);
  return {
    plain,
    sealed: encryptBuffer(key, iv, plain),
    encryptedKey: wrapFileKey(recipientPublicKeySpki, key),
    iv: iv.toString('base64'),
    hash: createHash('sha256').update(plain).digest('hex'),
  };
}
