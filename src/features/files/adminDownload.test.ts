// The admin batch's outcomes from spec section 8 ("Crypto and download"), with the real crypto pool
// (in-process workers) and the streaming download replaced by a recording double (node has no
// service worker): a malformed wrapped key from the server, a batch that leaves files out, and a
// batch in which nothing could be decrypted.
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateRsaKeyPair, wrapFileKey, wrapPrivateKey } from '../../../server/crypto/index.ts';
import { CryptoPool, type PrivateKeyHandle } from '../../../workers/index.ts';
import { inProcessWorker } from '../../../workers/testing/inProcessWorker.ts';
import { DownloadError, type DecryptedDownloadSource, type ZipDownloadOptions } from '../downloads/index.ts';
import { downloadAdminFiles, type DownloadTransfer } from './adminDownload.ts';
import { fileRecord } from './testing/fileRecords.ts';

const admin = generateRsaKeyPair();
const goodKey = () => wrapFileKey(admin.publicKeySpki, randomBytes(32));
const MALFORMED_KEY = 'this is not base64!';

let pool: CryptoPool;
let privateKey: PrivateKeyHandle;

beforeAll(async () => {
  pool = CryptoPool.create({ size: 2, createWorker: inProcessWorker });
  privateKey = await pool.unlockPrivateKey(wrapPrivateKey(admin.privateKey, 'pw'), 'pw');
});

/** Records what would have been downloaded; `failInZip` names entries the service worker skips. */
function recordingTransfer(failInZip: readonly string[] = []) {
  const zipped: string[] = [];
  const saved: string[] = [];
  const transfer: DownloadTransfer = {
    async file(source: DecryptedDownloadSource) {
      saved.push(source.name);
    },
    async zip(_name: string, sources: readonly DecryptedDownloadSource[], options: ZipDownloadOptions = {}) {
      expect(options.onFileFailed, 'a batch skips files it cannot decrypt').toBeDefined();
      const failed = sources.filter((s) => failInZip.includes(s.name)).map((s) => ({ name: s.name, error: new DownloadError('INTEGRITY', 'x') }));
      zipped.push(...sources.filter((s) => !failInZip.includes(s.name)).map((s) => s.name));
      return { bytes: 1, files: sources.length - failed.length, failed };
    },
  };
  return { transfer, zipped, saved };
}

describe('admin downloads: the catalogue outcomes', () => {
  it("one file whose wrapped key is malformed fails with 'Invalid encryption key format received from server.'", async () => {
    const { transfer, saved } = recordingTransfer();
    const files = [fileRecord('F/a.txt', { encrypted_key: MALFORMED_KEY })];
    const error = await downloadAdminFiles({ files, zipName: null, privateKey, pool, transfer }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DownloadError);
    expect(error).toMatchObject({ code: 'KEY_FORMAT', message: 'Invalid encryption key format received from server.' });
    expect(saved).toEqual([]);
  });

  it("a ZIP leaves out the files it cannot decrypt and names them ('Could not decrypt n file(s): names')", async () => {
    const { transfer, zipped } = recordingTransfer(['c.txt']);
    const files = [fileRecord('F/a.txt', { encrypted_key: goodKey() }), fileRecord('F/b.txt', { encrypted_key: MALFORMED_KEY }), fileRecord('F/c.txt', { encrypted_key: goodKey() })];
    const outcome = await downloadAdminFiles({ files, zipName: 'F_files.zip', privateKey, pool, transfer });
    expect(zipped).toEqual(['a.txt']);
    expect(outcome.notDecrypted).toEqual(['b.txt', 'c.txt']);
    const { DOWNLOAD_MESSAGES } = await import('../downloads/index.ts');
    expect(DOWNLOAD_MESSAGES.notDecrypted(outcome.notDecrypted)).toBe('Could not decrypt 2 file(s): b.txt, c.txt');
  });

  it("a ZIP in which no file decrypts fails with 'No files could be decrypted.'", async () => {
    const noKeys = [fileRecord('F/a.txt', { encrypted_key: MALFORMED_KEY }), fileRecord('F/b.txt', { encrypted_key: MALFORMED_KEY })];
    const first = recordingTransfer();
    await expect(downloadAdminFiles({ files: noKeys, zipName: 'F_files.zip', privateKey, pool, transfer: first.transfer })).rejects.toMatchObject({
      code: 'NOTHING_DECRYPTED',
      message: 'No files could be decrypted.',
    });
    expect(first.zipped).toEqual([]);

    const allSkipped = recordingTransfer(['a.txt', 'b.txt']);
    const files = [fileRecord('F/a.txt', { encrypted_key: goodKey() }), fileRecord('F/b.txt', { encrypted_key: goodKey() })];
    await expect(downloadAdminFiles({ files, zipName: 'F_files.zip', privateKey, pool, transfer: allSkipped.transfer })).rejects.toMatchObject({
      code: 'NOTHING_DECRYPTED',
    });
  });

  it('a whole batch decrypts: nothing is left out, and every file key is released afterwards', async () => {
    const { transfer, zipped } = recordingTransfer();
    const files = [fileRecord('F/a.txt', { encrypted_key: goodKey() }), fileRecord('F/sub/b.txt', { encrypted_key: goodKey() })];
    const before = pool.loads;
    const outcome = await downloadAdminFiles({ files, zipName: 'F_files.zip', privateKey, pool, transfer });
    expect(outcome.notDecrypted).toEqual([]);
    expect(zipped).toHaveLength(2);
    expect(pool.loads).toEqual(before);
  });
});
