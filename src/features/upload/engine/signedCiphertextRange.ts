// The ciphertext a tus upload sends, with one rule added: no byte reaches the network before the
// journal holds the content signature of the records it belongs to (workers/sent-signature.ts). So
// whatever the server may hold, a later page can check the file against it before continuing with
// the same key and IV (docs/format.md, "Resuming and nonce reuse"). A resumed upload starts with
// what its check vouched for; a server that asks for bytes beyond that (it holds more than any
// stored signature covers: a journal write that failed) is refused, and the file starts over.

import type { CiphertextRange } from '../transport/ciphertextSource.ts';
import type { EncryptionSessionLike, SentSignature } from './enginePorts.ts';

/** The server holds ciphertext beyond what the resume's check covered. */
export class ResumeUnverifiedError extends Error {
  override readonly name = 'ResumeUnverifiedError';
  readonly code = 'RESUME_UNVERIFIED';
  constructor(asked: number, covered: number) {
    super(`the server holds ${asked} bytes, the stored signature covers ${covered}`);
  }
}

export class SignedCiphertextRange implements CiphertextRange {
  /** Ciphertext bytes [0, coveredEnd) are covered by a stored (or checked) signature. */
  private coveredEnd: number;

  constructor(
    private readonly session: EncryptionSessionLike,
    private readonly store: (signature: SentSignature) => Promise<void>,
    verifiedEnd: number,
  ) {
    this.coveredEnd = verifiedEnd;
  }

  get encryptedLength(): number {
    return this.session.encryptedLength;
  }

  async readBody(start: number, end: number): Promise<Blob> {
    if (start > this.coveredEnd) throw new ResumeUnverifiedError(start, this.coveredEnd);
    const body = await this.session.readBody(start, end);
    if (end > this.coveredEnd) {
      await this.store(await this.session.signSent(end));
      // A read-ahead nobody asked for may finish after a later read: the coverage only grows.
      this.coveredEnd = Math.max(this.coveredEnd, end);
    }
    return body;
  }
}
