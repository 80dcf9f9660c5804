// Getting a file ready to encrypt: the content check, opening it in the crypto pool (with a time
// limit) and closing it again. Shared by both lanes.

import { checkFileSignature } from '../contentSignature.ts';
import type { EncryptionSessionLike, EncryptorPool, UploadFile } from './enginePorts.ts';
import { contentMismatch, encryptionFailed, hashingFailed, WorkerUnresponsiveError } from './processingFailure.ts';
import { OPEN_TIMEOUT_MS } from './uploadLimits.ts';

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

/** Ends a file's session and forgets its key (the wrapped copy went to the server). */
export async function closeSession(pool: EncryptorPool, session: EncryptionSessionLike): Promise<void> {
  await session.close().catch(() => undefined);
  await pool.releaseKey(session.key).catch(() => undefined);
}

/**
 * Opens the file in the pool. A worker that never answers would leave the run waiting forever
 * (the pool has no timeout), so after OPEN_TIMEOUT_MS the file fails with a clear reason instead.
 */
export async function openSession(pool: EncryptorPool, file: UploadFile, recipientPublicKey: string): Promise<EncryptionSessionLike> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const resume = file.resume;
  const opening = pool.openEncryption(file.file, { recipientPublicKey, ...(resume ? { reuse: { key: resume.key, iv: resume.iv } } : {}) });
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new WorkerUnresponsiveError()), OPEN_TIMEOUT_MS);
  });
  try {
    return await Promise.race([opening, timeout]);
  } catch (error) {
    // A session that opens after all is closed again.
    opening.then((late) => closeSession(pool, late), () => (resume ? pool.releaseKey(resume.key) : undefined)).catch(() => undefined);
    throw encryptionFailed(error);
  } finally {
    clearTimeout(timer);
  }
}
