/**
 * The content signature of the part of a file an upload may already have sent (docs/format.md,
 * "Resuming and nonce reuse"): the SHA-256 of the GCM tags of its first `records` records, in
 * order. A record's tag authenticates its ciphertext under the file key, its nonce and the header
 * (record size and format version), so a file read again gives the same signature only if every one
 * of those records holds the same bytes under the same parameters; a file edited in place with its
 * size and date kept gives another. Without the file key the tags, and so the signature, say
 * nothing about the plaintext, which is why the page may keep it in clear.
 *
 * Why tags and not the plaintext's hash: checking a signature means encrypting the sent part once
 * more, and one AES-GCM pass costs a fraction of a SHA-256 pass (the pool's rates, workers/pool.ts).
 */
import { type CipherBytes, CryptoError, encodeBase64, TAG_LENGTH } from '../crypto/index.ts';

export interface SentSignature {
  /** The signature covers records [0, records). */
  readonly records: number;
  /** base64 of SHA-256(tag_0 || ... || tag_{records-1}). */
  readonly digest: string;
}

/** The tags of a job's records as they are encrypted (16 bytes each: 320 KiB for 5 GiB at 256 KiB records). */
export class RecordTags {
  private readonly tags: Array<Uint8Array | undefined> = [];

  /** Keeps the tag of record `index` (a copy: the ciphertext is transferred out afterwards). */
  keep(index: number, ciphertext: CipherBytes): void {
    this.tags[index] = ciphertext.slice(ciphertext.byteLength - TAG_LENGTH);
  }

  /** The first record below `records` whose tag is not known, or undefined. */
  firstMissing(records: number): number | undefined {
    for (let index = 0; index < records; index++) if (this.tags[index] === undefined) return index;
    return undefined;
  }

  forget(from: number): void {
    this.tags.length = Math.min(this.tags.length, from);
  }

  async signature(records: number): Promise<SentSignature> {
    const joined = new Uint8Array(records * TAG_LENGTH);
    for (let index = 0; index < records; index++) {
      const tag = this.tags[index];
      if (!tag) throw new CryptoError('WORKER_FAILED', `the tag of record ${index} is not known`);
      joined.set(tag, index * TAG_LENGTH);
    }
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', joined));
    return { records, digest: encodeBase64(digest) };
  }
}

/** Whether `value` has the shape of a stored signature (it comes back from IndexedDB). */
export function isSentSignature(value: unknown): value is SentSignature {
  if (typeof value !== 'object' || value === null) return false;
  const { records, digest } = value as Record<string, unknown>;
  return Number.isSafeInteger(records) && (records as number) >= 0 && typeof digest === 'string';
}
