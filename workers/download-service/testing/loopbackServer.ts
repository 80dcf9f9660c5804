// A real HTTP server on a free loopback port for the tests of one file (started before them, closed
// after them): where the download tests fetch their ciphertext from.
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';

export interface LoopbackServer {
  /** 'http://127.0.0.1:<port>', once the tests run. */
  readonly base: string;
}

export function loopbackServer(listener: RequestListener): LoopbackServer {
  const state = { base: '' };
  let server: Server | undefined;
  beforeAll(async () => {
    const started = createServer(listener);
    await new Promise<void>((resolve) => started.listen(0, '127.0.0.1', resolve));
    server = started;
    state.base = `http://127.0.0.1:${(started.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    const started = server;
    if (started) await new Promise((resolve) => started.close(resolve));
  });
  return state;
}
