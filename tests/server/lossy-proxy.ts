// A reverse proxy for fault injection: forwards every request to the real server and, for the
// requests `loseAnswer` picks, reads the server's whole answer and then closes the client's socket
// instead of passing it on. The client sees a network error after the server committed, as when
// a proxy times out or a laptop sleeps while the answer is on its way back.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LossyProxy {
  baseUrl: string;
  /** Answers read from the server and never delivered, by status. */
  readonly lost: number[];
  close(): Promise<void>;
}

export async function startLossyProxy(
  upstreamBaseUrl: string,
  loseAnswer: (request: http.IncomingMessage, status: number) => boolean,
): Promise<LossyProxy> {
  const upstream = new URL(upstreamBaseUrl);
  const lost: number[] = [];
  const server = http.createServer((request, response) => {
    const forwarded = http.request(
      { host: upstream.hostname, port: upstream.port, method: request.method, path: request.url, headers: request.headers },
      (answer) => {
        const status = answer.statusCode ?? 0;
        if (loseAnswer(request, status)) {
          answer.resume();
          answer.once('end', () => {
            lost.push(status);
            request.socket.destroy();
          });
          return;
        }
        response.writeHead(status, answer.headers);
        answer.pipe(response);
      },
    );
    forwarded.on('error', () => request.socket.destroy());
    request.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    lost,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
