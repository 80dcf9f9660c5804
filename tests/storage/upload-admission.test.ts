// A multipart request's claim on its folder's limits (server/upload/upload-admission.ts) against
// the real repository, SQLite or PostgreSQL: a request that fails while a take is still on its way
// to the database gives everything back once that take has ended, and a grow and a give-back of
// the same claim at once never fail each other (they once locked the claim's and the folder's rows
// in opposite orders, and PostgreSQL aborted one as a deadlock).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FolderUsageRepository } from '../../server/db/repositories/folder-usage.ts';
import { AdmissionEndedError, UploadAdmission } from '../../server/upload/upload-admission.ts';
import { startServer, type TestServer } from '../server/harness.ts';
import { createUploadFolder } from '../server/upload-helpers.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startServer({ env: { FOLDER_STORAGE_LIMIT_MB: '100', FOLDER_FILE_LIMIT: '100', UPLOAD_SWEEP_INTERVAL_MINUTES: '0' } });
});
afterAll(() => server.close());

async function ledgerOf(folderId: number) {
  const usage = await server.app.repos.folderUsage.usageOf(folderId);
  expect(usage, 'the ledger equals the files, uploads and claims of the folder').toEqual(await server.app.repos.folderUsage.recount(folderId));
  return usage!;
}

/** The real repository, each claim write held back until `release` is called. */
function heldBack(usage: FolderUsageRepository): { usage: FolderUsageRepository; release: () => void } {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  return {
    usage: {
      ...usage,
      openClaim: async (...args) => {
        await gate;
        return usage.openClaim(...args);
      },
      growClaim: async (...args) => {
        await gate;
        return usage.growClaim(...args);
      },
    },
    release,
  };
}

function admissionFor(folderId: number, usage: FolderUsageRepository): UploadAdmission {
  return new UploadAdmission({ usage, folderId, space: server.app.uploads.space, now: () => server.clock.now(), claimTtlMs: 60_000 });
}

describe('a multipart request that fails while a take is on its way', () => {
  it('gives back the claim that take opens, and refuses takes asked for after', async () => {
    const folder = await createUploadFolder(server);
    const held = heldBack(server.app.repos.folderUsage);
    const admission = admissionFor(folder.id, held.usage);
    // The first file's take opens the claim; the request fails before the database answered.
    const firstFile = admission.admitFile();
    const givingBack = admission.abandon();
    held.release();
    await firstFile;
    await givingBack;
    expect(await ledgerOf(folder.id)).toEqual({ bytes: 0, files: 0 });
    await expect(admission.admitBytes(10)).rejects.toBeInstanceOf(AdmissionEndedError);
    expect(await ledgerOf(folder.id)).toEqual({ bytes: 0, files: 0 });
  });

  it('gives back the bytes a piece was still taking, and the disk reserve they leased', async () => {
    const folder = await createUploadFolder(server);
    const held = heldBack(server.app.repos.folderUsage);
    const admission = admissionFor(folder.id, held.usage);
    const piece = admission.admitBytes(300_000);
    const givingBack = admission.abandon();
    held.release();
    await piece;
    await givingBack;
    expect(await ledgerOf(folder.id)).toEqual({ bytes: 0, files: 0 });
  });
});

describe('one claim grown and given back at once', () => {
  it('never fails either call, and the ledger ends equal to its facts (60 rounds)', async () => {
    const folder = await createUploadFolder(server);
    const usage = server.app.repos.folderUsage;
    for (let round = 0; round < 60; round += 1) {
      const id = `race-${round}`;
      await usage.openClaim(id, folder.id, server.clock.now() + 60_000);
      await usage.growClaim(id, folder.id, { bytes: 1000, files: 1 }, server.clock.now() + 60_000);
      const [grown, released] = await Promise.all([
        usage.growClaim(id, folder.id, { bytes: 5000, files: 0 }, server.clock.now() + 60_000),
        usage.releaseClaim(id),
      ]);
      expect(released).toBe(true);
      expect(typeof grown).toBe('boolean');
      expect(await ledgerOf(folder.id)).toEqual({ bytes: 0, files: 0 });
    }
  });
});
