// `app.background`: work that outlives its response (server/background-tasks.ts). Registered after
// the database, so closing waits for these tasks before the database goes.
import { BackgroundTasks } from '../background-tasks.ts';
import { globalPlugin } from './global-plugin.ts';

declare module 'fastify' {
  interface FastifyInstance {
    background: BackgroundTasks;
  }
}

export const backgroundTasksPlugin = globalPlugin('background-tasks', async (app) => {
  const background = new BackgroundTasks();
  app.decorate('background', background);
  app.addHook('onClose', async () => background.settled());
});
