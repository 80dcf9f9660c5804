// The sweep racing a completion (issue 26, defect 3). The sweep runs here on repositories wrapped
// so that a completion commits exactly between two of the sweep's steps, the window a real
// deployment hits only by bad luck: after the sweep listed a session as abandoned and before it
// removes it, and between the orphan pass's look at file records and at sessions. Either way the
// completed file must keep its bytes.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Repositories } from '../../server/db/repositories/index.ts';
import { sweepHolderName, sweepUploads } from '../../server/upload/sweep.ts';
import { HOUR, tusSuite } from './tus-suite.ts';
import { createUploadFolder, fakeCiphertext, sha256, tusUploadAll, uploadPath } from './upload-helpers.ts';

const suite = tusSuite();
const { uploadFile } = suite;

/** The server's repositories with `uploadSessions` methods replaced as given. */
function withSessions(overrides: Partial<Repositories['uploadSessions']>): Repositories {
  const repos = suite.server.app.repos;
  return { ...repos, uploadSessions: { ...repos.uploadSessions, ...overrides } };
}

function sweepWith(repos: Repositories, now: number) {
  return sweepUploads(
    {
      repos,
      blobs: suite.server.app.blobs,
      tusStorage: suite.server.app.uploads.tusStorage,
      abandonAfterMs: suite.server.app.config.upload.abandonAfterMs,
      grantTtlMs: suite.server.app.config.upload.grantTtlMs,
      log: suite.server.app.log,
      onRetentionDeleted: async () => undefined,
      holder: sweepHolderName(),
    },
    now,
  );
}

async function finishedUpload(name: string) {
  const folder = await createUploadFolder(suite.server);
  const client = suite.server.client();
  await client.primeCsrf();
  const data = fakeCiphertext(suite.server, 1000);
  const upload = await tusUploadAll(client, folder, data, { filename: name, plainSize: 1000 });
  const complete = async () => {
    const response = await client.post(`${uploadPath(folder)}/complete`, {
      uploads: [{ upload_id: upload.id, file_hash: sha256(name) }],
    });
    return response.body as { successful_files: unknown[] };
  };
  return { folder, data, id: upload.id, complete };
}

describe('the sweep racing a completion', () => {
  it('keeps the bytes of a session completed after the sweep listed it as abandoned', async () => {
    const upload = await finishedUpload('late-complete.bin');
    const repos = withSessions({
      async listInactiveSince(before, limit) {
        const listed = await suite.server.app.repos.uploadSessions.listInactiveSince(before, limit);
        // The completion commits after the listing, before the sweep acts on it.
        if (listed.some((session) => session.id === upload.id)) {
          expect((await upload.complete()).successful_files).toHaveLength(1);
        }
        return listed;
      },
    });

    const report = await sweepWith(repos, suite.server.clock.now() + 25 * HOUR);

    expect(report.abandonedUploads).toBe(0);
    const [record] = await suite.server.app.repos.files.listForFolder(upload.folder.id);
    expect(record?.originalFilename).toBe('late-complete.bin');
    expect(fs.readFileSync(uploadFile(upload.id)).equals(upload.data)).toBe(true);
  });

  it('keeps the bytes of a session completed while the orphan pass decides', async () => {
    const upload = await finishedUpload('orphan-window.bin');
    const now = suite.server.clock.now() + 25 * HOUR;
    // Active as of the sweep's time, so the first pass leaves it, while its blob (written on the
    // real clock) is old enough for the orphan pass to consider.
    await suite.server.app.repos.uploadSessions.touch(upload.id, now);
    const repos = withSessions({
      async existingIds(ids) {
        // The completion commits just before the orphan pass looks for live sessions.
        if (ids.includes(upload.id)) expect((await upload.complete()).successful_files).toHaveLength(1);
        return suite.server.app.repos.uploadSessions.existingIds(ids);
      },
    });

    await sweepWith(repos, now);

    const [record] = await suite.server.app.repos.files.listForFolder(upload.folder.id);
    expect(record?.originalFilename).toBe('orphan-window.bin');
    expect(fs.readFileSync(uploadFile(upload.id)).equals(upload.data)).toBe(true);
  });

  it('keeps a live session whose older activity is recorded after its newer one', async () => {
    // The stream's touch (POST_RECEIVE) is not awaited: under load it can commit after a later
    // PATCH's, and a time moving back would make the live upload look abandoned.
    const upload = await finishedUpload('late-touch.bin');
    const now = suite.server.clock.now() + 25 * HOUR;
    await suite.server.app.repos.uploadSessions.touch(upload.id, now);
    await suite.server.app.repos.uploadSessions.touch(upload.id, suite.server.clock.now());

    const report = await sweepWith(suite.server.app.repos, now);

    expect(report.abandonedUploads).toBe(0);
    expect((await suite.server.app.repos.uploadSessions.find(upload.id))?.lastActivityAt).toBe(now);
    expect((await upload.complete()).successful_files).toHaveLength(1);
  });

  it('still removes an abandoned session when no completion comes', async () => {
    const upload = await finishedUpload('abandoned.bin');
    const report = await sweepWith(suite.server.app.repos, suite.server.clock.now() + 25 * HOUR);
    expect(report.abandonedUploads).toBeGreaterThanOrEqual(1);
    expect(fs.existsSync(uploadFile(upload.id))).toBe(false);
    expect(await suite.server.app.repos.uploadSessions.find(upload.id)).toBeUndefined();
  });
});
