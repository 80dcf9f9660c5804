/**
 * The one-request multipart upload's body (POST /api/upload/{link_token}; docs/api.md "One request:
 * multipart") as the upload page writes it: HTML's multipart/form-data (RFC 7578), a team folder's
 * `key_epoch` first, then per file its `files` part with the ciphertext and, in the same order, its
 * wrapped key, IV, relative path, SHA-256 and plaintext size.
 *
 * Here, not in the page's transport, because two places write these bytes: the page
 * (src/features/upload/transport/multipartBatch.ts) and, for a file whose ciphertext goes through
 * the upload spool, the worker that encrypts it (workers/small-file-spool.ts), which writes the
 * file's whole part into the spool so that the page's body is a few slices of spool files.
 */

/** What the parts of one file say besides its ciphertext. */
export interface MultipartFileFields {
  /** The file name as the user has it (the multipart filename). */
  readonly name: string;
  readonly relativePath: string;
  readonly plainSize: number;
  readonly encryptedKey: string;
  readonly iv: string;
  readonly sha256: string;
}

/**
 * How a run's multipart parts are written: its one boundary and, per file of a group in order, the
 * name and path its parts carry. The page hands it to the pool, which hands it to the worker that
 * writes the parts into the spool.
 */
export interface MultipartFraming {
  readonly boundary: string;
  readonly files: ReadonlyArray<Pick<MultipartFileFields, 'name' | 'relativePath'>>;
}

/** Field names and file names as browsers write them in multipart/form-data (HTML's encoding). */
function escapeName(name: string): string {
  return name.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Field values with line breaks normalised to CRLF, as FormData does. */
function normaliseValue(value: string): string {
  return value.replace(/\r\n|\r|\n/g, '\r\n');
}

/** A fresh boundary: 128 random bits, so it cannot occur in a body by chance. */
export function randomBoundary(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `----SealdropBatch${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

export function multipartContentType(boundary: string): string {
  return `multipart/form-data; boundary=${boundary}`;
}

/** One text field's part. */
export function fieldPart(boundary: string, name: string, value: string): string {
  return `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${normaliseValue(value)}\r\n`;
}

/** What comes before a file's ciphertext: the start of its `files` part. */
export function fileHead(boundary: string, file: Pick<MultipartFileFields, 'name'>): string {
  return `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${escapeName(file.name)}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
}

/** What comes after a file's ciphertext: the end of its `files` part, then its five fields. */
export function fileTail(boundary: string, file: MultipartFileFields): string {
  return (
    '\r\n' +
    fieldPart(boundary, 'encrypted_keys', file.encryptedKey) +
    fieldPart(boundary, 'encryption_ivs', file.iv) +
    fieldPart(boundary, 'relative_paths', file.relativePath) +
    fieldPart(boundary, 'file_hashes', file.sha256) +
    fieldPart(boundary, 'file_sizes', String(file.plainSize))
  );
}

export function closingPart(boundary: string): string {
  return `--${boundary}--\r\n`;
}

/**
 * A file's whole part (fileHead, ciphertext, fileTail) already written, with `boundary`, as bytes
 * [start, end) of `source` (a file of the upload spool): the page's body takes the slice as it is.
 */
export interface WrittenFilePart {
  readonly source: Blob;
  readonly start: number;
  readonly end: number;
  readonly boundary: string;
}
