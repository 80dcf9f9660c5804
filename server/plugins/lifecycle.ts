// `app.lifecycle`: starting, ready, draining (server/lifecycle/process-lifecycle.ts), read by
// /readyz and the upload routes, moved to draining by the stop signal (main.ts).
//
// Also: a keep-alive connection whose response ends after the app began closing is closed then.
// Node closes the idle connections once, when the close begins; a connection still busy at that
// moment would otherwise sit idle afterwards until its keep-alive timeout (72 s in Fastify) and
// hold the close open that long.
import type { FastifyInstance } from 'fastify';
import { ProcessLifecycle } from '../lifecycle/process-lifecycle.ts';
import { globalPlugin } from './global-plugin.ts';

declare module 'fastify' {
  interface FastifyInstance {
    lifecycle: ProcessLifecycle;
  }
}

export const lifecyclePlugin = globalPlugin('lifecycle', async (app) => {
  const lifecycle = new ProcessLifecycle();
  app.decorate('lifecycle', lifecycle);
  app.addHook('onListen', async () => lifecycle.markReady());
  closeConnectionsFreedWhileClosing(app);
});

function closeConnectionsFreedWhileClosing(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.server.on('request', (_request, response) => {
    response.once('close', () => {
      // On the next turn: the connection counts as idle only once Node has finished the response.
      if (closing) setImmediate(() => app.server.closeIdleConnections());
    });
  });
}
