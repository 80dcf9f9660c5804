// Seeding for bench/download.ts, over the real HTTP API of a server of its own: an admin (real CLI)
// with a node:crypto key pair stored as the browser stores it, folders, and large files uploaded
// through the anonymous multipart route as streams: deterministic plaintext is generated, hashed,
// encrypted (server/crypto) and sent as it is produced, so nothing of a 5 GiB file sits in memory
// or on disk on the client side.
import { execFileSync } from 'node:child_process';
import { createCipheriv, createHash, randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { EncryptRecords } from '../server/crypto/file-format.ts';
import { deriveAccountSecrets } from '../server/crypto/account-kdf.ts';
import { generateRsaKeyPair, wrapFileKey, wrapPrivateKeyScheme2 } from '../server/crypto/keys.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const CHUNK = 4 * 1024 * 1024;

export interface SeedFile {
  readonly dir: string;
  readonly name: string;
  readonly size: number;
  readonly seed: number;
}

export interface SeededFile extends SeedFile {
  readonly id: number;
  readonly sha256: string;
}

/** A minimal cookie-jar client with the CSRF header on writes. */
class Session {
  private readonly cookies = new Map<string, string>();

  constructor(readonly baseUrl: string) {}

  async call(method: string, path: string, body?: unknown, form = false): Promise<Response> {
    const headers: Record<string, string> = {};
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const csrf = this.cookies.get('csrftoken');
    if (method !== 'GET' && csrf) headers['x-csrftoken'] = decodeURIComponent(csrf);
    let payload: string | undefined;
    if (form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      payload = new URLSearchParams(body as Record<string, string>).toString();
    } else if (body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    const response = await fetch(`${this.baseUrl}${path}`, { method, headers, body: payload });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const at = pair!.indexOf('=');
      this.cookies.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
    return response;
  }

  async expect(method: string, path: string, status: number, body?: unknown, form = false): Promise<unknown> {
    const response = await this.call(method, path, body, form);
    const text = await response.text();
    if (response.status !== status) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  }
}

export interface BenchAdmin {
  readonly username: string;
  readonly password: string;
  readonly publicKeySpki: string;
  readonly session: Session;
}

export async function createBenchAdmin(baseUrl: string, dataDir: string): Promise<BenchAdmin> {
  const username = `bench-${randomBytes(4).toString('hex')}`;
  const password = `pw-${randomBytes(12).toString('base64url')}`;
  execFileSync(process.execPath, ['--import', 'tsx', 'server/cli.ts', 'create-user', username, '--password-stdin'], {
    cwd: ROOT,
    input: `${password}\n`,
    env: { ...process.env, DATA_DIR: dataDir },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const session = new Session(baseUrl);
  await session.call('GET', '/api/auth/users/me');
  // As the browser signs in: pre-login, then the secret derived under the account's block.
  const { kdf_params } = (await session.expect('POST', '/api/auth/prelogin', 200, { username })) as { kdf_params: string };
  await session.expect('POST', '/api/auth/token', 200, { username, auth_secret: deriveAccountSecrets(password, kdf_params).authSecret }, true);
  const pair = generateRsaKeyPair();
  await session.expect('PUT', '/api/auth/public-key', 200, { public_key_spki: pair.publicKeySpki });
  await session.expect('PUT', '/api/auth/users/me/encrypted-key', 200, wrapPrivateKeyScheme2(pair.privateKey, password, kdf_params));
  return { username, password, publicKeySpki: pair.publicKeySpki, session };
}

export async function createBenchFolder(admin: BenchAdmin, title: string): Promise<{ id: number; link_token: string }> {
  return (await admin.session.expect('POST', '/api/folders/', 201, { title, perform_mime_check: false })) as { id: number; link_token: string };
}

/** `size` bytes of AES-CTR keystream: fast, incompressible, the same for the same seed. */
export function plaintext(size: number, seed: number): Readable {
  const key = createHash('sha256').update(`bench-download:${seed}`).digest();
  const cipher = createCipheriv('aes-256-ctr', key, Buffer.alloc(16));
  const zeros = Buffer.alloc(CHUNK);
  return Readable.from(
    (function* () {
      for (let sent = 0; sent < size; sent += CHUNK) yield cipher.update(zeros.subarray(0, Math.min(CHUNK, size - sent)));
    })(),
  );
}

class HashTap extends Transform {
  readonly hash = createHash('sha256');
  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.hash.update(chunk);
    done(null, chunk);
  }
}

function part(boundary: string, name: string, value: string): Buffer {
  return Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
}

/** One file through POST /api/upload/{link_token}, streamed; returns its id and plaintext SHA-256. */
export async function uploadStreamed(
  baseUrl: string,
  linkToken: string,
  publicKeySpki: string,
  file: SeedFile,
  secrets: { rawKey: Buffer; iv: Buffer } = { rawKey: randomBytes(32), iv: randomBytes(12) },
): Promise<SeededFile> {
  const status = await fetch(`${baseUrl}/api/upload/${linkToken}/status`);
  const csrf = /csrftoken=([^;]+)/.exec(status.headers.getSetCookie().join('; '))?.[1] ?? '';
  const { rawKey, iv } = secrets;
  const boundary = `----bench${randomBytes(8).toString('hex')}`;
  const tap = new HashTap();
  const encrypted = plaintext(file.size, file.seed).pipe(tap).pipe(new EncryptRecords(rawKey, iv));
  let sha256 = '';
  const body = Readable.from(
    (async function* () {
      yield Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${file.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`);
      for await (const chunk of encrypted) yield chunk as Buffer;
      sha256 = tap.hash.digest('hex');
      yield Buffer.from('\r\n');
      yield part(boundary, 'encrypted_keys', wrapFileKey(publicKeySpki, rawKey));
      yield part(boundary, 'encryption_ivs', iv.toString('base64'));
      yield part(boundary, 'relative_paths', file.dir);
      yield part(boundary, 'file_hashes', sha256);
      yield part(boundary, 'file_sizes', String(file.size));
      yield Buffer.from(`--${boundary}--\r\n`);
    })(),
  );
  const url = new URL(`${baseUrl}/api/upload/${linkToken}`);
  const responseText = await new Promise<string>((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, cookie: `csrftoken=${csrf}`, 'x-csrftoken': csrf } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        response.on('error', reject);
      },
    );
    req.on('error', reject);
    pipeline(body, req).catch(reject);
  });
  const result = JSON.parse(responseText) as { successful_files?: Array<{ id: number }>; failed_files?: unknown[] };
  const stored = result.successful_files?.[0];
  if (!stored || (result.failed_files?.length ?? 0) > 0) throw new Error(`upload of ${file.name} failed: ${responseText}`);
  return { ...file, id: stored.id, sha256 };
}
