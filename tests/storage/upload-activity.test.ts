// Issue 28: only received bytes count as an upload's activity. An anonymous link holder who sends
// empty PATCHes must not keep an unfinished upload's bytes on the disk past UPLOAD_ABANDON_HOURS.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../server/harness.ts';
import { createUploadFolder, fakeCiphertext, tusCreate, tusPatch } from '../server/upload-helpers.ts';

const HOUR = 3_600_000;
let server: TestServer;

beforeAll(async () => {
  server = await startServer({ env: { UPLOAD_MAX_FILE_MB: '1', UPLOAD_ABANDON_HOURS: '24', UPLOAD_SWEEP_INTERVAL_MINUTES: '0' } });
});
afterAll(() => server.close());

describe('upload activity', () => {
  it('does not let empty PATCHes keep an unfinished upload alive past the abandon time', async () => {
    const folder = await createUploadFolder(server);
    const client = server.client();
    const data = fakeCiphertext(server, 100_000);
    const created = await tusCreate(client, folder, data.length, { filename: 'a.bin', plainSize: 100_000 });
    expect(created.status).toBe(201);
    const location = created.headers.get('location')!;
    const id = location.split('/').pop()!;
    expect((await tusPatch(client, location, 0, data.subarray(0, 1000))).status).toBe(204);

    // Every 20 hours an empty PATCH, for two days.
    for (let i = 0; i < 3; i++) {
      server.clock.advance(20 * HOUR);
      expect((await tusPatch(client, location, 1000, Buffer.alloc(0))).status).toBe(204);
    }
    const swept = await server.app.sweepUploads();
    expect(swept.abandonedUploads).toBe(1);
    expect(await server.app.repos.uploadSessions.find(id)).toBeUndefined();
  });

  it('counts a PATCH that brings bytes as activity', async () => {
    const folder = await createUploadFolder(server);
    const client = server.client();
    const data = fakeCiphertext(server, 100_000);
    const created = await tusCreate(client, folder, data.length, { filename: 'b.bin', plainSize: 100_000 });
    const location = created.headers.get('location')!;
    const id = location.split('/').pop()!;
    let offset = 0;
    for (let i = 0; i < 3; i++) {
      server.clock.advance(20 * HOUR);
      expect((await tusPatch(client, location, offset, data.subarray(offset, offset + 1000))).status).toBe(204);
      offset += 1000;
    }
    await server.app.sweepUploads();
    expect(await server.app.repos.uploadSessions.find(id)).toBeDefined();
  });
});
