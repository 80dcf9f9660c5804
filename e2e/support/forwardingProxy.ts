// A proxy in front of the real e2e server that specs turn hostile: the request is passed on as the
// browser sent it (without hop-by-hop headers) and the server's answer comes back whole, so the
// spec can change it before it reaches the browser.
import type http from 'node:http';

export interface UpstreamAnswer {
  status: number;
  /** The answer's headers, Set-Cookie kept as a list; no length or encoding (the body is whole and decoded). */
  headers: Record<string, string | string[]>;
  body: Buffer;
}

export function readBody(request: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

/** Sends `request` (its `body` read already) to `baseUrl` and returns the whole answer. */
export async function forwardUpstream(baseUrl: string, request: http.IncomingMessage, body: Buffer): Promise<UpstreamAnswer> {
  const headers = Object.fromEntries(Object.entries(request.headers).filter(([name]) => name !== 'host' && name !== 'connection' && name !== 'content-length'));
  const upstream = await fetch(baseUrl + request.url, {
    method: request.method,
    headers: headers as Record<string, string>,
    body: body.length > 0 ? new Uint8Array(body) : undefined,
    redirect: 'manual',
  });
  const answerHeaders: Record<string, string | string[]> = {};
  upstream.headers.forEach((value, name) => {
    if (name !== 'set-cookie' && name !== 'content-encoding' && name !== 'content-length' && name !== 'transfer-encoding') answerHeaders[name] = value;
  });
  const cookies = upstream.headers.getSetCookie();
  if (cookies.length > 0) answerHeaders['set-cookie'] = cookies;
  return { status: upstream.status, headers: answerHeaders, body: Buffer.from(await upstream.arrayBuffer()) };
}
