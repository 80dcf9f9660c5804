// At the user's level: a crypto worker that dies (or stops answering) in the middle of a
// large file must not leave the file hanging. The page's own controller runs against the real crypto
// pool (in-process workers that can die: workers/testing/dyingWorker.ts), the real upload journal
// over IndexedDB (fake-indexeddb) and an upload server in memory; the recipient's key pair is
// node's, so the stored ciphertext is decrypted by the independent implementation (server/crypto).
// The file fails with its own error, the run ends, and Retry sends it to the end: the blob decrypts
// to the original bytes.
import { createHash, randomBytes } from 'node:crypto';
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { decryptBuffer, generateRsaKeyPair, unwrapFileKey } from '../../../server/crypto/index.ts';
import { makeStore } from '../../app/store.ts';
import { CryptoPool } from '../../../workers/index.ts';
import { dyingWorkers, type DyingWorker } from '../../../workers/testing/dyingWorker.ts';
import { MemoryUploadServer } from './engine/testing/memoryUploadServer.ts';
import { PersistedUploadJournal } from './resume/uploadJournal.ts';
import { UploadQueueStore } from './resume/uploadQueueStore.ts';
import { UploadController } from './uploadController.ts';
import { selectQueuedFiles } from './uploadQueueSlice.ts';
import { linkLoaded, pageOpened, selectUploadStepState } from './uploadStepSlice.ts';
import { UploadStep } from './uploadSteps.ts';

const MiB = 1024 * 1024;
const recipient = generateRsaKeyPair();

let pool: CryptoPool | undefined;

beforeEach(() => {
  globalThis.indexedDB = new IDBFactory();
  // The API's relative URLs, as the page's origin would resolve them; the link's public key.
  const BaseRequest = Request;
  vi.stubGlobal(
    'Request',
    class extends BaseRequest {
      constructor(input: RequestInfo | URL, init?: RequestInit) {
        super(typeof input === 'string' ? new URL(input, 'http://sealdrop.test') : input, init);
      }
    },
  );
  vi.stubGlobal('fetch', async () => new Response(JSON.stringify({ public_key_spki: recipient.publicKeySpki }), { status: 200, headers: { 'content-type': 'application/json' } }));
});

afterEach(() => {
  pool?.terminate();
  vi.unstubAllGlobals();
});

function uploadPage(doubles: ReturnType<typeof dyingWorkers>) {
  pool = CryptoPool.create({ size: 2, createWorker: doubles.create, uploadBodies: 'memory', heartbeat: { intervalMs: 10, missedLimit: 3 } });
  const livePool = pool;
  const store = makeStore();
  store.dispatch(pageOpened({ linkToken: 'tok' }));
  store.dispatch(linkLoaded({ title: 'T', description: null, requiresPassword: false, requiresEmail: false, hasAllowedEmailsList: false, performMimeCheck: false }));
  const notices: string[] = [];
  const server = new MemoryUploadServer();
  const controller = new UploadController({
    dispatch: store.dispatch,
    getState: store.getState,
    notifier: { show: (variant, message) => notices.push(`${variant}: ${message}`) },
    pool: () => livePool,
    transport: server,
    journal: new PersistedUploadJournal({ store: new UploadQueueStore(), pool: () => livePool }),
  });
  return { store, notices, server, controller };
}

/** The worker encrypting the file (the one that opened it). */
function encryptingWorker(doubles: ReturnType<typeof dyingWorkers>): DyingWorker {
  return doubles.workers.find((worker) => worker.calls.includes('openEncryption') && !worker.terminated)!;
}

describe('crypto workers that stop in the middle of a large file', () => {
  type Doubles = ReturnType<typeof dyingWorkers>;
  it.each([
    ['the encrypting worker dies (fires error)', (doubles: Doubles) => encryptingWorker(doubles).die('error')],
    ['the encrypting worker stops answering without a word (closed itself, thread blocked)', (doubles: Doubles) => encryptingWorker(doubles).silence()],
    ['every worker of the page stops answering', (doubles: Doubles) => doubles.workers.forEach((worker) => worker.silence())],
  ])('%s: the file fails with its own error and the run ends; Retry sends it to the end, and the blob decrypts to the original', async (_case, stop) => {
    const doubles = dyingWorkers();
    const { store, notices, server, controller } = uploadPage(doubles);
    const content = randomBytes(12 * MiB + 345);
    await controller.addFiles([{ file: new File([content], 'film.mov', { lastModified: 1_700_000_000_000 }), relativePath: 'clips' }]);
    server.afterChunk = (_upload, offset) => {
      if (offset >= 3 * MiB) {
        server.afterChunk = () => undefined;
        stop(doubles);
      }
    };

    await controller.startUpload();

    const [failed] = selectQueuedFiles(store.getState());
    expect(failed).toMatchObject({ status: 'error', error: 'Encryption failed: the encryption worker stopped; press Retry to continue' });
    expect(selectUploadStepState(store.getState()).step).toBe(UploadStep.finishedWithErrors);
    expect(notices).toContain('error: Processing failed for film.mov: the encryption worker stopped; press Retry to continue');
    expect(controller.running).toBe(false);

    controller.retryFailed();
    await vi.waitFor(() => expect(selectQueuedFiles(store.getState())[0]?.status).toBe('success'), { timeout: 20_000 });

    // One upload in all: the retry continued it from the server's offset with the first key and IV.
    expect(server.uploads.size).toBe(1);
    const [upload] = server.uploads.values();
    expect(upload!.patchOffsets.at(-1)).toBeGreaterThan(3 * MiB);
    const key = unwrapFileKey(recipient.privateKey, upload!.metadata.encryptedKey);
    const plain = decryptBuffer(key, Buffer.from(upload!.metadata.iv, 'base64'), Buffer.from(MemoryUploadServer.bytesOf(upload!)));
    expect(plain.equals(content)).toBe(true);
    expect(upload!.completedWith).toBe(createHash('sha256').update(content).digest('hex'));
  });
});
