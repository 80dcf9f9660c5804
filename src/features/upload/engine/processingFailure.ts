// Failures of the client-side work on one file (content check, hashing, encryption), as typed
// errors with a code. Each carries the text of the file's row and the reason the toast gives.

import { isCryptoError } from '../../../../crypto/index.ts';
import { t } from '../../../i18n/language.ts';
import { PROCESSING_REASONS } from '../../../lib/userTexts.ts';
import { processingMessages } from '../messages.ts';
import { ChunkBodyTimeoutError, SourceReadError } from '../transport/ciphertextSource.ts';

export type ProcessingFailureCode = 'CONTENT_MISMATCH' | 'HASHING_FAILED' | 'ENCRYPTION_FAILED' | 'WORKER_UNRESPONSIVE' | 'WORKER_FAILED';

export class ProcessingFailure extends Error {
  override readonly name = 'ProcessingFailure';
  constructor(
    readonly code: ProcessingFailureCode,
    readonly fileError: string,
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(reason, options);
  }
}

/** A pool open that never answered (see OPEN_TIMEOUT_MS). */
export class WorkerUnresponsiveError extends Error {
  override readonly name = 'WorkerUnresponsiveError';
  readonly code = 'WORKER_UNRESPONSIVE';
  constructor() {
    super(PROCESSING_REASONS.workerUnresponsive);
  }
}

function reasonOf(error: unknown): string {
  return error instanceof Error && error.message ? error.message : String(error);
}

export function encryptionFailed(error: unknown): ProcessingFailure {
  // A chunk that never came is a worker (or storage) that stopped answering: the same advice.
  if (error instanceof WorkerUnresponsiveError || error instanceof ChunkBodyTimeoutError) return failedWith('WORKER_UNRESPONSIVE', PROCESSING_REASONS.workerUnresponsive, error);
  // The pool has replaced the worker already (workers/worker-liveness.ts): Retry works.
  if (isCryptoError(error, 'WORKER_FAILED')) return failedWith('WORKER_FAILED', PROCESSING_REASONS.workerStopped, error);
  return failedWith('ENCRYPTION_FAILED', reasonOf(error), error);
}

function failedWith(code: ProcessingFailureCode, reason: string, cause: unknown): ProcessingFailure {
  return new ProcessingFailure(code, t(processingMessages.encryptionFailed, { reason }), reason, { cause });
}

export function hashingFailed(error: unknown): ProcessingFailure {
  return new ProcessingFailure('HASHING_FAILED', t(processingMessages.hashingFailed), reasonOf(error), { cause: error });
}

export function contentMismatch(reason: string): ProcessingFailure {
  return new ProcessingFailure('CONTENT_MISMATCH', reason, reason);
}

/** A failure to produce ciphertext while sending is an encryption failure of that file. */
export function asProcessingFailure(error: unknown): unknown {
  if (error instanceof SourceReadError) return encryptionFailed(error.cause ?? error);
  return error;
}
