/**
 * SHA-256 of file content (spec: lower-case hex). Large files are hashed incrementally with
 * hash-wasm as their records stream past; a file small enough to hold in memory is hashed with one
 * crypto.subtle.digest call, which is faster per byte (docs/format.md, "Hashing"). Both produce
 * the same digest, so the choice is invisible to callers.
 */
import { createSHA256, type IHasher } from 'hash-wasm';
import type { Sha256Hex } from './branded.ts';
import { toHex } from './bytes.ts';

/** Files up to this size are read whole and hashed in one digest call. */
export const ONE_SHOT_DIGEST_MAX_BYTES = 8 * 1024 * 1024;

export interface IncrementalSha256 {
  update(bytes: Uint8Array): void;
  /** Finishes the hash; the hasher cannot be used afterwards. */
  digestHex(): Sha256Hex;
  /** The internal state after the bytes so far (hash-wasm's save(); 116 bytes for SHA-256). */
  save(): Uint8Array;
  /** Continues from a saved state instead of the bytes so far; throws for a state of another build. */
  load(state: Uint8Array): void;
}

export async function createIncrementalSha256(): Promise<IncrementalSha256> {
  const hasher: IHasher = await createSHA256();
  hasher.init();
  return {
    update: (bytes) => {
      hasher.update(bytes);
    },
    digestHex: () => hasher.digest('hex') as Sha256Hex,
    save: () => hasher.save(),
    load: (state) => {
      try {
        hasher.load(state);
      } catch (error) {
        // Whatever a refused state left behind, the hasher is fresh again (nothing hashed).
        hasher.init();
        throw error;
      }
    },
  };
}

export async function sha256OneShot(bytes: Uint8Array<ArrayBuffer>): Promise<Sha256Hex> {
  return toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes))) as Sha256Hex;
}
