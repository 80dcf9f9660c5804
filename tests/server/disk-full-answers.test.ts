// A write that finds no room, anywhere outside the upload paths (which answer STORAGE_FULL), is a
// 507 DISK_FULL with its message and never a 500: SQLite's SQLITE_FULL, PostgreSQL's disk_full
// (SQLSTATE 53100, the database server's own disk), and the file system's ENOSPC and EDQUOT, as
// the drivers raise them. The cause is logged; the answer holds no internals.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DISK_FULL_DETAIL } from '../../server/storage/storage-errors.ts';
import { startServer, type TestServer } from './harness.ts';

/** As better-sqlite3, pg and node:fs raise them (the code is the only thing to go by). */
const NO_SPACE_FAILURES = [
  Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' }),
  Object.assign(new Error('could not extend file "base/16384/2619": No space left on device'), { code: '53100', severity: 'ERROR' }),
  Object.assign(new Error("ENOSPC: no space left on device, write '/data/blobs/files/x'"), { code: 'ENOSPC', errno: -28 }),
  Object.assign(new Error('EDQUOT: disk quota exceeded'), { code: 'EDQUOT', errno: -122 }),
];

let server: TestServer;
const logLines: string[] = [];

beforeAll(async () => {
  server = await startServer({
    env: { LOG_LEVEL: 'error' },
    logStream: { write: (line: string) => logLines.push(line) },
    setup: (app) => {
      app.post<{ Params: { index: string } }>('/test/no-space/:index', async (request) => {
        throw NO_SPACE_FAILURES[Number(request.params.index)];
      });
      app.post('/test/busy', async () => {
        throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
      });
    },
  });
});
afterAll(() => server.close());

describe('a write that finds the disk full', () => {
  it('answers 507 DISK_FULL with its message for SQLITE_FULL, PostgreSQL 53100, ENOSPC and EDQUOT, and logs the cause', async () => {
    const client = server.client();
    await client.primeCsrf();
    for (const [index, failure] of NO_SPACE_FAILURES.entries()) {
      const before = logLines.length;
      const response = await client.post(`/test/no-space/${index}`, {});
      expect(response.status, String(failure.code)).toBe(507);
      expect(response.body).toEqual({ detail: DISK_FULL_DETAIL, code: 'DISK_FULL' });
      const logged = logLines.slice(before).join('\n');
      expect(logged).toContain('no space left on the disk');
      expect(logged).toContain(JSON.stringify(failure.message).slice(1, -1));
    }
  });

  it('leaves other failures a bare 500 INTERNAL', async () => {
    const client = server.client();
    await client.primeCsrf();
    const response = await client.post('/test/busy', {});
    expect(response.status).toBe(500);
    expect(response.body).toEqual({ detail: 'Internal Server Error', code: 'INTERNAL' });
  });
});
