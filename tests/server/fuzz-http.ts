// The HTTP side of the API fuzzer (api-fuzz.test.ts): the list of API routes read from the app
// itself, a sender that writes requests byte for byte over a plain socket (so a case can carry
// duplicate headers, a lying Content-Length or a cut-off body, which fetch would refuse to send),
// the checks every answer must pass, and the counters behind the closing summary.
import net from 'node:net';
import type { FastifyInstance, HTTPMethods } from 'fastify';

export interface ApiRoute {
  method: string;
  /** Fastify's pattern, e.g. /api/folders/:id/files */
  url: string;
  params: string[];
}

const ROUTE_LINE = /^([│├└─\s]*)(.*?)(?: \(([A-Z, ]+)\))?$/;

/**
 * Every route under /api, read from the router's own printout (a route added later is fuzzed
 * without touching the fuzzer). The printout is a tree whose children continue their parent's
 * path; each route found is checked back with hasRoute, so a change of that format fails loudly
 * instead of silently fuzzing fewer routes.
 */
export function listApiRoutes(app: FastifyInstance): ApiRoute[] {
  const stack: string[] = [];
  const routes: ApiRoute[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    if (line.trim() === '') continue;
    const match = ROUTE_LINE.exec(line);
    if (!match) throw new Error(`unexpected route line: ${line}`);
    const depth = Math.floor(match[1]!.length / 4);
    stack.length = depth;
    const url = (stack[depth - 1] ?? '') + match[2]!;
    stack[depth] = url;
    if (!url.startsWith('/api') || match[3] === undefined) continue;
    for (const method of match[3].split(', ')) {
      if (!app.hasRoute({ method: method as HTTPMethods, url })) throw new Error(`route listing misread: ${method} ${url}`);
      routes.push({ method, url, params: [...url.matchAll(/:(\w+)/g)].map((m) => m[1]!) });
    }
  }
  return routes;
}

export interface RawRequest {
  method: string;
  /** Already encoded: the request line carries it as given. */
  path: string;
  /** In order; a name may repeat. */
  headers: Array<[string, string]>;
  body?: Buffer;
  /** Add Content-Length for the body (default true). Off, the case sets its own framing headers. */
  contentLength?: boolean;
  /** Half-close the socket after writing: for bodies shorter than their declared length. */
  endAfterWrite?: boolean;
}

export interface RawResponse {
  /** 0 when the server closed the connection without answering. */
  status: number;
  headers: Map<string, string>;
  body: Buffer;
  timedOut: boolean;
}

const RESPONSE_TIMEOUT_MS = 5000;

export function sendRaw(port: number, request: RawRequest): Promise<RawResponse> {
  const lines = [`${request.method} ${request.path} HTTP/1.1`, `host: 127.0.0.1:${port}`, 'connection: close'];
  for (const [name, value] of request.headers) lines.push(`${name}: ${value}`);
  const body = request.body ?? Buffer.alloc(0);
  if (request.contentLength !== false && (body.length > 0 || request.method !== 'GET')) {
    lines.push(`content-length: ${body.length}`);
  }
  const head = Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let timedOut = false;
    const socket = net.connect(port, '127.0.0.1');
    const timer = setTimeout(() => {
      timedOut = true;
      socket.destroy();
    }, RESPONSE_TIMEOUT_MS);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    // The server may answer and close before the whole body was written (e.g. 413): not an error.
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') reject(error);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ ...parseResponse(Buffer.concat(chunks), request.method), timedOut });
    });
    socket.write(head);
    if (body.length > 0) socket.write(body);
    if (request.endAfterWrite) socket.end();
  });
}

function parseResponse(raw: Buffer, method: string): Omit<RawResponse, 'timedOut'> {
  const headers = new Map<string, string>();
  // Interim answers (100 Continue) come before the real one.
  while (/^HTTP\/1\.[01] 1\d\d /.test(raw.subarray(0, 16).toString('latin1')) && raw.indexOf('\r\n\r\n') >= 0) {
    raw = raw.subarray(raw.indexOf('\r\n\r\n') + 4);
  }
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) return { status: 0, headers, body: Buffer.alloc(0) };
  const [statusLine, ...headerLines] = raw.subarray(0, end).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine!)?.[1] ?? 0);
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers.set(name, headers.has(name) ? `${headers.get(name)}, ${value}` : value);
  }
  let body = raw.subarray(end + 4);
  if (method === 'HEAD' || status === 204 || status === 304) body = Buffer.alloc(0);
  else if (headers.get('transfer-encoding')?.includes('chunked')) body = dechunk(body);
  else if (headers.has('content-length')) body = body.subarray(0, Number(headers.get('content-length')));
  return { status, headers, body };
}

function dechunk(data: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = data.indexOf('\r\n', at);
    if (lineEnd < 0) break;
    const size = parseInt(data.subarray(at, lineEnd).toString('latin1'), 16);
    if (!Number.isFinite(size) || size === 0) break;
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

export interface ContractOptions {
  /** tus protocol errors are plain text by design (docs/api.md, "Resumable: tus 1.0"). */
  plainTextErrors?: boolean;
  /** The case dropped the connection mid-request: no answer at all is acceptable. */
  allowNoAnswer?: boolean;
}

function isStorageFull(response: RawResponse): boolean {
  if (response.status !== 507) return false;
  try {
    return (JSON.parse(response.body.toString('utf8')) as { code?: unknown }).code === 'STORAGE_FULL';
  } catch {
    return false;
  }
}

/** Why an answer breaks the API's contract, or null when it keeps it. */
export function contractViolation(request: RawRequest, response: RawResponse, options: ContractOptions = {}): string | null {
  if (response.timedOut) return 'no answer within the timeout (the server hangs on this request)';
  if (response.status === 0) return options.allowNoAnswer ? null : 'the server closed the connection without an answer';
  // 507 STORAGE_FULL is a designed answer (a declared length that does not fit on this machine's
  // disk, docs/operations.md "Disk space"), not a fault; it must still be a JSON error like any other.
  if (response.status >= 500 && !isStorageFull(response)) return `answered ${response.status}: ${response.body.toString('utf8').slice(0, 300)}`;
  if (response.status < 400 || request.method === 'HEAD') return null;
  const type = response.headers.get('content-type') ?? '';
  if (options.plainTextErrors && !type.includes('application/json')) return null;
  if (!type.includes('application/json')) return `error ${response.status} is not JSON (${type || 'no content-type'})`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(response.body.toString('utf8'));
  } catch {
    return `error ${response.status} has a body that does not parse as JSON`;
  }
  const detail = (parsed as { detail?: unknown } | null)?.detail;
  if (typeof detail !== 'string' && !Array.isArray(detail)) {
    return `error ${response.status} has no detail field: ${response.body.toString('utf8').slice(0, 300)}`;
  }
  const code = (parsed as { code?: unknown }).code;
  if (typeof code !== 'string' || !/^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/.test(code)) {
    return `error ${response.status} has no SCREAMING_SNAKE code field: ${response.body.toString('utf8').slice(0, 300)}`;
  }
  return null;
}

/** Counts per route family (a case is one fuzzed request, shrinking included), for the closing summary. */
export class FuzzStats {
  private readonly families = new Map<
    string,
    { cases: number; serverErrors: number; statuses: Map<number, number> }
  >();

  record(family: string, response: RawResponse): void {
    let entry = this.families.get(family);
    if (!entry) {
      entry = { cases: 0, serverErrors: 0, statuses: new Map() };
      this.families.set(family, entry);
    }
    entry.cases += 1;
    if (response.status >= 500) entry.serverErrors += 1;
    entry.statuses.set(response.status, (entry.statuses.get(response.status) ?? 0) + 1);
  }

  summary(seed: number, elapsedMs: number): string {
    const total = { cases: 0, serverErrors: 0 };
    const lines: string[] = [];
    for (const [family, entry] of [...this.families].sort(([a], [b]) => a.localeCompare(b))) {
      total.cases += entry.cases;
      total.serverErrors += entry.serverErrors;
      const statuses = [...entry.statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}:${n}`).join(' ');
      lines.push(
        `api-fuzz ${family}: ${entry.cases} cases, ${entry.serverErrors} 5xx [status:count ${statuses}]`,
      );
    }
    lines.push(
      `api-fuzz total: ${total.cases} cases, ${total.serverErrors} 5xx, ` +
        `${(elapsedMs / 1000).toFixed(1)} s, seed ${seed} (rerun with FUZZ_SEED=${seed})`,
    );
    return lines.join('\n');
  }
}
