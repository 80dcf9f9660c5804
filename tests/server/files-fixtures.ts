// Test data for the file and download-link suites: folders through the real API, files as an
// upload stores them (blob first, then the record through the files repository), and raw
// binary requests (the JSON test client reads bodies as text).
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { expect, vi } from 'vitest';
import type { TestServer } from './harness.ts';
import type { TestClient } from './http-client.ts';

export interface SeededFile {
  id: number;
  blobKey: string;
  content: Buffer;
  name: string;
  encryptedKey: string;
  encryptionIv: string;
}

export async function createFolder(client: TestClient, title: string): Promise<{ id: number }> {
  const response = await client.post('/api/folders/', { title });
  expect(response.status).toBe(201);
  return response.body;
}

let counter = 0;

/** Stores `content` as the file's ciphertext blob and adds its record, as an upload does. */
export async function seedFile(
  server: TestServer,
  folderId: number,
  options: { name?: string; relativePath?: string; content?: Buffer; fileHash?: string } = {},
): Promise<SeededFile> {
  counter += 1;
  const name = options.name ?? `file-${counter}.bin`;
  const content = options.content ?? randomBytes(100 + counter);
  const blobKey = `test/${folderId}/${counter}-${randomBytes(4).toString('hex')}`;
  await server.app.blobs.put(blobKey, Readable.from([content]));
  const encryptedKey = randomBytes(256).toString('base64');
  const encryptionIv = randomBytes(12).toString('base64');
  const relativePath = options.relativePath ?? '.';
  const record = await server.app.repos.files.create({
    folderId,
    originalFilename: name,
    storedFilename: relativePath === '.' ? `upload/${name}` : `upload/${relativePath}/${name}`,
    relativePath,
    fileSize: Math.max(0, content.length - 16),
    fileHash: options.fileHash ?? randomBytes(32).toString('hex'),
    encryptedKey,
    encryptionIv,
    blobKey,
    uploadTime: server.clock.now(),
  });
  return { id: record.id, blobKey, content, name, encryptedKey, encryptionIv };
}

export interface BinaryResponse {
  status: number;
  headers: Headers;
  body: Buffer;
}

/** A GET with the client's cookies (unless `headers` names its own), the body read as bytes. */
export async function getBytes(client: TestClient, path: string, headers: Record<string, string> = {}): Promise<BinaryResponse> {
  const cookie = [...client.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  const response = await fetch(client.baseUrl + path, { headers: { ...(cookie ? { cookie } : {}), ...headers } });
  return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
}

/**
 * Polls until `check` returns true (for effects that happen after a response has been sent). The
 * deadline only bounds a failure: a loaded CI machine may need seconds, a passing check returns at once.
 */
export async function eventually(check: () => Promise<boolean>, timeoutMs = 15_000): Promise<boolean> {
  try {
    await vi.waitFor(async () => expect(await check()).toBe(true), { timeout: timeoutMs, interval: 25 });
    return true;
  } catch {
    return false;
  }
}
