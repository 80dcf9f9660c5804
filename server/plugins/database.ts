// Opens the database (migrating it to the latest schema before the server accepts requests),
// exposes the repositories as `app.repos`, and closes the connection when the app closes.
import { openDatabase } from '../db/connection.ts';
import { createRepositories, type Repositories } from '../db/repositories/index.ts';
import { globalPlugin } from './global-plugin.ts';

declare module 'fastify' {
  interface FastifyInstance {
    repos: Repositories;
  }
}

export const databasePlugin = globalPlugin('database', async (app) => {
  const database = await openDatabase(app.config.database);
  app.decorate('repos', createRepositories(database.db));
  app.addHook('onClose', async () => {
    await database.close();
  });
  app.log.info({ dialect: database.dialect }, 'database ready');
});
