// The recording proxy's cut-off PATCH, as the resume phase of bench:upload uses it: the first
// `forwardBytes` of a held PATCH reach the server, the rest waits at the proxy, and when the
// browser goes away the server's request breaks off with exactly those bytes.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { TusRecorder } from '../../e2e/support/tus-recorder.ts';

interface Received {
  bytes: number;
  complete: boolean;
}

let upstream: http.Server | undefined;
let proxy: TusRecorder | undefined;

afterEach(async () => {
  await proxy?.close();
  upstream?.closeAllConnections();
  await new Promise<void>((resolve) => (upstream ? upstream.close(() => resolve()) : resolve()));
  proxy = undefined;
  upstream = undefined;
});

async function startUpstream(received: Received[]): Promise<string> {
  upstream = http.createServer((req, res) => {
    const entry: Received = { bytes: 0, complete: false };
    received.push(entry);
    req.on('data', (chunk: Buffer) => (entry.bytes += chunk.length));
    req.on('end', () => {
      entry.complete = true;
      res.writeHead(204, { 'Upload-Offset': String(Number(req.headers['upload-offset']) + entry.bytes) }).end();
    });
  });
  await new Promise<void>((resolve) => upstream!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(upstream!.address() as AddressInfo).port}`;
}

/** A PATCH of `size` bytes at `offset`, sent in 64 KiB writes; resolves with the status, or null when `abortAfterMs` cut it. */
function patch(url: string, offset: number, size: number, abortAfterMs?: number): Promise<number | null> {
  return new Promise((resolve) => {
    const request = http.request(`${url}/api/tus/upload-1`, { method: 'PATCH', headers: { 'Upload-Offset': String(offset), 'Content-Length': String(size) } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? null);
    });
    request.on('error', () => resolve(null));
    const piece = Buffer.alloc(64 * 1024, 7);
    for (let sent = 0; sent < size; sent += piece.length) request.write(piece.subarray(0, Math.min(piece.length, size - sent)));
    request.end();
    if (abortAfterMs !== undefined) setTimeout(() => request.destroy(), abortAfterMs);
  });
}

const waitFor = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(check()).toBe(true);
};

describe('TusRecorder.holdPatchesFrom with forwardBytes', () => {
  it('lets PATCHes before the offset through whole, forwards only the first bytes of a held one, and cuts the server off when the browser goes', async () => {
    const received: Received[] = [];
    proxy = await TusRecorder.start(0, await startUpstream(received));
    proxy.holdPatchesFrom(1_000_000, { forwardBytes: 300_000 });

    expect(await patch(proxy.url, 0, 1_000_000)).toBe(204);
    expect(received[0]).toEqual({ bytes: 1_000_000, complete: true });

    const held = patch(proxy.url, 1_000_000, 1_000_000, 500);
    await waitFor(() => received[1]?.bytes === 300_000);
    expect(await held).toBeNull();
    // The server's request broke off with exactly the forwarded bytes: the browser's going cut it.
    await waitFor(() => proxy!.log[1]!.status === null && received[1]!.complete === false);
    expect(received[1]!.bytes).toBe(300_000);
    // The proxy read at most one socket read past the limit (what it counts as sent by the browser).
    expect(proxy.log[1]!.bodyBytes).toBeGreaterThanOrEqual(300_000);
    expect(proxy.log[1]!.bodyBytes).toBeLessThan(1_000_000);
  });

  it('without forwardBytes holds the whole PATCH as before (nothing reaches the server)', async () => {
    const received: Received[] = [];
    proxy = await TusRecorder.start(0, await startUpstream(received));
    proxy.holdPatchesFrom(0);
    expect(await patch(proxy.url, 0, 200_000, 300)).toBeNull();
    expect(received).toHaveLength(0);
  });
});
