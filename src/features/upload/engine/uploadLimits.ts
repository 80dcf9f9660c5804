// The engine's measured choices (docs/upload.md, "What happens to a file" and "Measurements behind
// the choices"), in one place so the lanes and their tests read the same numbers.

/** Files up to this size are encrypted whole and sent in multipart batches; larger ones over tus. */
export const SMALL_FILE_MAX_BYTES = 8 * 1024 * 1024;
/** A multipart batch holds at most this many files ... */
export const MAX_BATCH_FILES = 100;
/** ... and at most this many ciphertext bytes (unless one file alone is larger). */
export const MAX_BATCH_BYTES = 16 * 1024 * 1024;
/**
 * Batches on the wire at once; encryption waits for a free slot instead of piling up ciphertext.
 * Each batch's answer waits for the server's fsyncs of its files (350-420 ms per 100 files at load
 * ~3, ~1 s at load ~6) while the page sits idle: with 4 instead of 2, the 2,000-file folder went
 * from a median of 540 to 605 files/s (9 runs each, 3 rounds alternating, load 6-9; round
 * medians 470-578 and 485-698; docs/upload.md). At most 4 x MAX_BATCH_BYTES of ciphertext are in flight.
 */
export const MAX_BATCHES_IN_FLIGHT = 4;
/** Large files streamed through tus at once. */
export const LARGE_FILES_AT_ONCE = 2;
/** Where the pool hashes a large file: beside its encryption, or on whichever worker it chooses. */
export type HashPlacement = 'auto' | 'same-worker';
/**
 * A large file's SHA-256 runs on the worker that encrypts it whenever the files streamed at once
 * keep every worker busy: handing each record to another worker for hashing costs CPU that one
 * worker doing both does not spend, and with every worker busy nothing is gained by it. With fewer
 * files than workers the pool may still split a file over two workers, which a file alone needs to
 * use both cores (docs/operations.md, "Kept: the engine asks for a file's hash beside its
 * encryption").
 */
export function hashPlacementFor(filesAtOnce: number, poolSize: number): HashPlacement {
  return filesAtOnce >= poolSize ? 'same-worker' : 'auto';
}
/**
 * Small files go to the pool in groups, one worker message per group, of at most this many files
 * and SMALL_GROUP_BYTES of plaintext (a single larger small file goes alone). Measured on the
 * 2,000-file folder (docs/upload.md, Measurements): a session per file (five worker round trips)
 * kept the page's thread busy with 10,000 messages; with groups, 135-164 files/s became 373-393
 * (3 runs each, same session, load average 11-12 on 2 cores). 50 files / 4 MiB keeps each group a
 * few tens of milliseconds of work, so four groups in flight still overlap with sending.
 */
export const SMALL_GROUP_FILES = 50;
export const SMALL_GROUP_BYTES = 4 * 1024 * 1024;
/** Groups being encrypted at once, per worker of the pool (one working, one waiting its turn). */
export const SMALL_GROUPS_PER_WORKER = 2;
/**
 * Opening a file in the pool, or encrypting a group of small files, takes milliseconds; this long
 * means a worker stopped answering.
 */
export const OPEN_TIMEOUT_MS = 60_000;
