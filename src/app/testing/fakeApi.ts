// A stand-in for the network in jsdom component tests: answers fetch calls from a table of
// "METHOD /api/path" handlers shaped like docs/api.md and records every request, so a test can
// assert what the UI sent. (Real server + browser behaviour is covered by the Playwright suite.)
import { vi } from 'vitest';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Headers;
  body: string;
}

export interface FakeResponse {
  status: number;
  body?: unknown;
}

export type FakeHandler = (request: RecordedRequest) => FakeResponse | Promise<FakeResponse>;

/**
 * A response the test releases when it chooses, to see the screen while a request is pending.
 * Released before the request has reached its handler, it answers that request at once: the screen
 * can show its loading text before the app's fetch gets here, so a test that only kept the latest
 * request's resolver could release nothing and wait for an answer that never comes.
 */
export function heldResponse() {
  let release!: (response: FakeResponse) => void;
  const response = new Promise<FakeResponse>((resolve) => (release = resolve));
  return { handler: (): Promise<FakeResponse> => response, release };
}

export function installFakeApi(handlers: Record<string, FakeHandler>) {
  const requests: RecordedRequest[] = [];
  const fetchStub = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const url = new URL(request.url);
    const recorded: RecordedRequest = {
      method: request.method,
      path: url.pathname,
      headers: request.headers,
      body: request.body ? await request.text() : '',
    };
    requests.push(recorded);
    const handler = handlers[`${recorded.method} ${recorded.path}`];
    if (!handler) throw new TypeError(`Failed to fetch (no fake handler for ${recorded.method} ${recorded.path})`);
    const { status, body } = await handler(recorded);
    return new Response(body === undefined ? null : JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchStub);
  return { requests, restore: () => vi.unstubAllGlobals() };
}
