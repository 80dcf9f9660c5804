// What the tus suites share (upload-tus.test.ts, sweep-races.test.ts): one server per test file,
// for small files (1 MB) and uploads abandoned after 24 h without activity, started before the
// file's tests and closed after them, and where an upload's bytes lie on its disk.
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { startServer, type TestServer } from './harness.ts';

export const HOUR = 3_600_000;

export interface TusSuite {
  /** The running server (from the file's beforeAll on). */
  readonly server: TestServer;
  /** The disk file of tus upload `id`. */
  uploadFile(id: string): string;
}

export function tusSuite(): TusSuite {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startServer({ env: { UPLOAD_MAX_FILE_MB: '1', UPLOAD_ABANDON_HOURS: '24' } });
  });
  afterAll(() => server?.close());
  const suite: TusSuite = {
    get server() {
      if (!server) throw new Error('the tus suite server is started in beforeAll');
      return server;
    },
    uploadFile: (id) => path.join(suite.server.config.dataDir, 'blobs', 'uploads', id),
  };
  return suite;
}
