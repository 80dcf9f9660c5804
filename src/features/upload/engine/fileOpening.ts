// Getting files ready to encrypt: the content check, opening a file in the crypto pool (with a
// time limit) and closing it again, and a group of small files encrypted whole (same time limit).

import { settleWithin } from '../../../../workers/index.ts';
import { checkFileSignature } from '../contentSignature.ts';
import type { EncryptionSessionLike, EncryptorPool, SmallFileEncryption, UploadFile } from './enginePorts.ts';
import { contentMismatch, encryptionFailed, hashingFailed, WorkerUnresponsiveError } from './processingFailure.ts';
import { OPEN_TIMEOUT_MS, type HashPlacement } from './uploadLimits.ts';

/** The first bytes must match what the extension promises (docs/upload.md, "Content signatures"). */
export async function checkContent(file: UploadFile): Promise<void> {
  let check;
  try {
    check = await checkFileSignature(file.file);
  } catch (error) {
    throw hashingFailed(error);
  }
  if (!check.ok) throw contentMismatch(check.reason);
}

/**
 * Ends a file's session and forgets its key (the wrapped copy went to the server). Nothing waits
 * for it: a worker stuck in the clean-up (alive, so the pool's liveness does not end it) must not
 * hold the file's outcome or the run; the key is released whether or not the close answers.
 */
export function closeSession(pool: EncryptorPool, session: EncryptionSessionLike): void {
  void session.close().catch(() => undefined);
  void pool.releaseKey(session.key).catch(() => undefined);
}

/** `work`, or WorkerUnresponsiveError once OPEN_TIMEOUT_MS have passed without an answer (a live but stuck worker). */
function withinWorkerTimeout<T>(work: Promise<T>): Promise<T> {
  return settleWithin(work, OPEN_TIMEOUT_MS, () => new WorkerUnresponsiveError());
}

/**
 * Small files encrypted whole, a group in one pool message (results in the order of `files`). The
 * pool keeps no key of them, so an answer that comes after the timeout needs no clean-up.
 */
export function encryptSmallGroup(pool: EncryptorPool, files: readonly UploadFile[], recipientPublicKey: string, boundary: string): Promise<SmallFileEncryption[]> {
  const encrypting = pool.encryptSmallFiles(
    files.map((file) => file.file),
    { recipientPublicKey, framing: { boundary, files: files.map((file) => ({ name: file.name, relativePath: file.relativePath })) } },
  );
  encrypting.catch(() => undefined);
  return withinWorkerTimeout(encrypting);
}

/**
 * Opens the file in the pool. A worker that dies rejects the open with WORKER_FAILED in the pool
 * itself (workers/worker-liveness.ts); OPEN_TIMEOUT_MS stays for a worker that is alive but stuck
 * (a wedged browser storage call while the spool opens), which fires no event the pool could see.
 */
export async function openSession(
  pool: EncryptorPool,
  file: UploadFile,
  recipientPublicKey: string,
  hashPlacement: HashPlacement = 'auto',
): Promise<EncryptionSessionLike> {
  const resume = file.resume;
  const opening = pool.openEncryption(file.file, {
    recipientPublicKey,
    hashPlacement,
    // A resumed file is encrypted with the parameters the first page used, never with today's defaults.
    ...(resume ? { recordSize: resume.format.recordSize, reuse: { key: resume.key, iv: resume.iv, ...(resume.hash ? { hash: resume.hash } : {}) } } : {}),
  });
  try {
    return await withinWorkerTimeout(opening);
  } catch (error) {
    // A session that opens after all is closed again.
    opening.then((late) => closeSession(pool, late), () => (resume ? pool.releaseKey(resume.key) : undefined)).catch(() => undefined);
    throw encryptionFailed(error);
  }
}
