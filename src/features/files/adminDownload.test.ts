// The admin batch's outcomes from spec section 8 ("Crypto and download"), with the real crypto pool
// (in-process workers) and the streaming download replaced by a recording double (node has no
// service worker): a malformed wrapped key from the server, a batch that leaves files out, a
// batch in which nothing could be decrypted, and keys sent from the pool that opened them.
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { generateRsaKeyPair, wrapFileKey, wrapPrivateKey } from '../../../server/crypto/index.ts';
import { CryptoPool, type FileKeyHandle, type PrivateKeyHandle } from '../../../workers/index.ts';
import { inProcessWorker } from '../../../workers/testing/inProcessWorker.ts';
import { DownloadError, holdsOneFile, type DownloadDestination, type startDownload } from '../downloads/index.ts';
import type { FileKeyOpener } from '../team/index.ts';
import { downloadAdminFiles } from './adminDownload.ts';
import { fileRecord } from './testing/fileRecords.ts';
import { DOWNLOAD_MESSAGES, downloadErrorText } from '../../lib/userTexts.ts';

const admin = generateRsaKeyPair();
const goodKey = () => wrapFileKey(admin.publicKeySpki, randomBytes(32));
const MALFORMED_KEY = 'this is not base64!';

let pool: CryptoPool;
let privateKey: PrivateKeyHandle;
// The account key's path of the team feature's opener (a personal folder's files).
const openKey: FileKeyOpener = (file) => pool.unwrapFileKey(privateKey, file.encrypted_key);

beforeAll(async () => {
  pool = CryptoPool.create({ size: 2, createWorker: inProcessWorker });
  privateKey = await pool.unlockPrivateKey(wrapPrivateKey(admin.privateKey, 'pw'), 'pw');
});

/** The file keys handed to pool.releaseKeys from now on, each checked to be gone from the pool. */
function watchReleases(): () => FileKeyHandle[] {
  const releases = vi.spyOn(pool, 'releaseKeys');
  onTestFinished(() => releases.mockRestore());
  return () => {
    const keys = releases.mock.calls.flatMap(([handles]) => [...handles] as FileKeyHandle[]);
    for (const key of keys) expect(pool.keyLocations(key)).toEqual([]);
    return keys;
  };
}

const ONE_FILE: DownloadDestination = { kind: 'browser-file' };
const ZIP: DownloadDestination = { kind: 'browser-zip', zipName: 'F_files.zip' };

/** Records what would have been downloaded; `failInZip` names entries the service worker skips. */
function recordingDownload(failInZip: readonly string[] = []) {
  const zipped: string[] = [];
  const saved: string[] = [];
  const keysSentFrom: unknown[] = [];
  const download: typeof startDownload = async ({ pool: sender, destination, sources, onFileFailed }) => {
    keysSentFrom.push(sender);
    if (holdsOneFile(destination)) {
      saved.push(...sources.map((s) => s.name));
      return { bytes: 1, files: 1, failed: [] };
    }
    expect(onFileFailed, 'a batch skips files it cannot decrypt').toBeTypeOf('function');
    const failed = sources.filter((s) => failInZip.includes(s.name)).map((s) => ({ name: s.name, error: new DownloadError('INTEGRITY') }));
    zipped.push(...sources.filter((s) => !failInZip.includes(s.name)).map((s) => s.name));
    return { bytes: 1, files: sources.length - failed.length, failed };
  };
  return { download, zipped, saved, keysSentFrom };
}

describe('admin downloads: the catalogue outcomes', () => {
  it("one file whose wrapped key is malformed fails with 'Invalid encryption key format received from server.'", async () => {
    const { download, saved } = recordingDownload();
    const files = [fileRecord('F/a.txt', { encrypted_key: MALFORMED_KEY })];
    const error = await downloadAdminFiles({ files, destination: ONE_FILE, openKey, pool, download }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DownloadError);
    expect(error).toMatchObject({ code: 'KEY_FORMAT' });
    expect(downloadErrorText(error as DownloadError)).toBe('Invalid encryption key format received from server.');
    expect(saved).toEqual([]);
  });

  it("a ZIP leaves out the files it cannot decrypt and names them ('Could not decrypt n file(s): names')", async () => {
    const { download, zipped } = recordingDownload(['c.txt']);
    const files = [fileRecord('F/a.txt', { encrypted_key: goodKey() }), fileRecord('F/b.txt', { encrypted_key: MALFORMED_KEY }), fileRecord('F/c.txt', { encrypted_key: goodKey() })];
    const outcome = await downloadAdminFiles({ files, destination: ZIP, openKey, pool, download });
    expect(zipped).toEqual(['a.txt']);
    expect(outcome.notDecrypted).toEqual(['b.txt', 'c.txt']);
    expect(DOWNLOAD_MESSAGES.notDecrypted(outcome.notDecrypted)).toBe('Could not decrypt 2 file(s): b.txt, c.txt');
  });

  it("a ZIP in which no file decrypts fails with 'No files could be decrypted.'", async () => {
    const noKeys = [fileRecord('F/a.txt', { encrypted_key: MALFORMED_KEY }), fileRecord('F/b.txt', { encrypted_key: MALFORMED_KEY })];
    const first = recordingDownload();
    const error = await downloadAdminFiles({ files: noKeys, destination: ZIP, openKey, pool, download: first.download }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'NOTHING_DECRYPTED' });
    expect(downloadErrorText(error as DownloadError)).toBe('No files could be decrypted.');
    expect(first.zipped).toEqual([]);

    const allSkipped = recordingDownload(['a.txt', 'b.txt']);
    const files = [fileRecord('F/a.txt', { encrypted_key: goodKey() }), fileRecord('F/b.txt', { encrypted_key: goodKey() })];
    await expect(downloadAdminFiles({ files, destination: ZIP, openKey, pool, download: allSkipped.download })).rejects.toMatchObject({
      code: 'NOTHING_DECRYPTED',
    });
  });

  it('a whole batch decrypts: nothing is left out, the keys go out from the pool that opened them, and every file key is released afterwards', async () => {
    const { download, zipped, keysSentFrom } = recordingDownload();
    const released = watchReleases();
    const files = [fileRecord('F/a.txt', { encrypted_key: goodKey() }), fileRecord('F/sub/b.txt', { encrypted_key: goodKey() })];
    const before = pool.loads;
    const outcome = await downloadAdminFiles({ files, destination: ZIP, openKey, pool, download });
    expect(outcome.notDecrypted).toEqual([]);
    expect(zipped).toHaveLength(2);
    expect(keysSentFrom).toEqual([pool]);
    expect(pool.loads).toEqual(before);
    expect(released()).toHaveLength(2);
  });

  it('one file is saved as itself, its key sent from the same pool and released afterwards', async () => {
    const { download, saved, keysSentFrom } = recordingDownload();
    const released = watchReleases();
    const outcome = await downloadAdminFiles({ files: [fileRecord('F/sub/a.txt', { encrypted_key: goodKey() })], destination: ONE_FILE, openKey, pool, download });
    expect(outcome.notDecrypted).toEqual([]);
    expect(saved).toEqual(['a.txt']);
    expect(keysSentFrom).toEqual([pool]);
    expect(released()).toHaveLength(1);
  });
});
