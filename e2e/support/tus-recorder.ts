// A pass-through HTTP proxy in front of a real Sealdrop server that records every tus request the
// page makes (method, Upload-Offset, body bytes that actually arrived, the server's answer), so a
// spec can prove from the server's side of the wire which ciphertext bytes were sent and when.
// It changes nothing: headers and bodies go through as they are; a request the browser aborts (a
// reload in the middle of a PATCH) is aborted upstream too, as on a direct connection. Only when a
// spec asks (holdPatchesFrom) does it hold PATCHes back, so that an upload stops at a known offset
// however fast the machine is (a browser closed "in the middle" must not have finished meanwhile);
// likewise holdDownloadsAfter stops the answers of file downloads after a number of bytes.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TusRequest {
  /** ms (Date.now()) when the request reached the proxy, and when its first body byte did. */
  at: number;
  firstByteAt: number | null;
  method: string;
  path: string;
  /** The request's Upload-Offset (PATCH), or null. */
  uploadOffset: number | null;
  /** Body bytes received from the browser (all of them, even of a request that was cut off). */
  bodyBytes: number;
  /** The server's status, or null when the request never got an answer (aborted). */
  status: number | null;
  /** The answer's Upload-Offset (HEAD, PATCH), or null. */
  responseOffset: number | null;
  /** The creation request's Upload-Metadata, decoded. */
  metadata: Record<string, string> | null;
  location: string | null;
}

function decodeMetadata(header: string | undefined): Record<string, string> | null {
  if (!header) return null;
  return Object.fromEntries(
    header.split(',').map((pair) => {
      const [key, value] = pair.trim().split(' ');
      return [key!, value ? Buffer.from(value, 'base64').toString('utf8') : ''];
    }),
  );
}

const numberOr = (value: string | string[] | undefined): number | null => (typeof value === 'string' && value !== '' ? Number(value) : null);

interface Hold {
  /** PATCHes with an Upload-Offset at or past this are neither forwarded nor answered; null: none. */
  fromOffset: number | null;
  /** Of such a PATCH, this many body bytes are forwarded before the rest is held (0: none). */
  forwardBytes: number;
  /** Answers of file downloads (GET .../download/...) stop after this many body bytes; null: none. */
  downloadBytes: number | null;
  /** Download answers stopped so far. */
  downloadsHeld: number;
}

const DOWNLOAD_PATH = /^\/api\/(folders\/download|download\/[^/]+\/file)\//;

export class TusRecorder {
  private constructor(
    private readonly server: http.Server,
    readonly url: string,
    /** Every tus request so far, in arrival order (entries fill in as answers come). */
    readonly log: TusRequest[],
    private readonly hold: Hold,
  ) {}

  /**
   * From now on, PATCHes that start at `offset` or later are held: not forwarded, never answered
   * (the browser sees a request that does not finish). With `forwardBytes`, the first that many
   * body bytes of such a PATCH do reach the server before the rest is held: a request cut off
   * in the middle of its body, whose first part the server keeps. null: PATCHes go through again.
   */
  holdPatchesFrom(offset: number | null, options: { forwardBytes?: number } = {}): void {
    this.hold.fromOffset = offset;
    this.hold.forwardBytes = options.forwardBytes ?? 0;
  }

  /**
   * From now on, the answer of each file download stops after `bytes` body bytes (the rest is never
   * sent; the connection stays open). null: downloads go through again.
   */
  holdDownloadsAfter(bytes: number | null): void {
    this.hold.downloadBytes = bytes;
  }

  /** Download answers stopped by holdDownloadsAfter so far. */
  get downloadsHeld(): number {
    return this.hold.downloadsHeld;
  }

  /** Listens on `port` and forwards to `target` (http://host:port). */
  static async start(port: number, target: string): Promise<TusRecorder> {
    const upstream = new URL(target);
    const log: TusRequest[] = [];
    const hold: Hold = { fromOffset: null, forwardBytes: 0, downloadBytes: null, downloadsHeld: 0 };
    const server = http.createServer((req, res) => {
      const entry: TusRequest | null = req.url?.includes('/tus')
        ? {
            at: Date.now(),
            firstByteAt: null,
            method: req.method ?? '',
            path: req.url,
            uploadOffset: numberOr(req.headers['upload-offset']),
            bodyBytes: 0,
            status: null,
            responseOffset: null,
            metadata: decodeMetadata(req.headers['upload-metadata'] as string | undefined),
            location: null,
          }
        : null;
      if (entry) log.push(entry);
      const held = entry?.method === 'PATCH' && hold.fromOffset !== null && (entry.uploadOffset ?? 0) >= hold.fromOffset;
      if (held && hold.forwardBytes <= 0) return;
      const forwardLimit = held ? hold.forwardBytes : null;
      const forward = http.request(
        { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
        (answer) => {
          if (entry) {
            entry.status = answer.statusCode ?? null;
            entry.responseOffset = numberOr(answer.headers['upload-offset']);
            entry.location = (answer.headers.location as string | undefined) ?? null;
          }
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          const limit = req.method === 'GET' && DOWNLOAD_PATH.test(req.url ?? '') ? hold.downloadBytes : null;
          if (limit === null) return void answer.pipe(res);
          let sent = 0;
          answer.on('data', (chunk: Buffer) => {
            if (sent >= limit) return;
            const part = chunk.subarray(0, limit - sent);
            sent += part.length;
            res.write(part);
            if (sent >= limit) {
              hold.downloadsHeld += 1;
              answer.pause();
            }
          });
          answer.on('end', () => {
            if (sent < limit) res.end();
          });
        },
      );
      forward.on('error', () => res.destroy());
      req.on('data', (chunk: Buffer) => {
        if (entry) {
          entry.firstByteAt ??= Date.now();
          entry.bodyBytes += chunk.length;
        }
      });
      // The browser went away mid-request (reload): cut the server's side too.
      req.on('close', () => {
        if (!req.complete) forward.destroy();
      });
      if (forwardLimit === null) return void req.pipe(forward);
      // Held after its first bytes: forward those, then stop reading (never answered).
      let forwarded = 0;
      req.on('data', (chunk: Buffer) => {
        const part = chunk.subarray(0, Math.max(0, forwardLimit - forwarded));
        forwarded += part.length;
        if (part.length > 0) forward.write(part);
        if (forwarded >= forwardLimit) req.pause();
      });
    });
    server.keepAliveTimeout = 1000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    return new TusRecorder(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`, log, hold);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
