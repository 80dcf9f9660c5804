// The spec's Upload result (section 3): successful_files and failed_files. The client matches an
// item to its file by path + original_raw_name_from_client (lower-cased, Unicode-normalised, %22
// read as a quote), so both are echoed as the client sent them.
export interface SuccessfulFile {
  filename: string;
  original_raw_name_from_client: string;
  path: string;
  /** Plaintext size in bytes. */
  size: number;
  id: number;
  /** tus uploads only: the upload this item answers. */
  upload_id?: string;
}

export interface FailedFile {
  filename: string;
  original_raw_name_from_client: string;
  path: string;
  size: number;
  error: string;
  upload_id?: string;
}

export interface UploadResult {
  successful_files: SuccessfulFile[];
  failed_files: FailedFile[];
}

/** The `path` echoed to the client: the relative path as it was sent, "." when none was. */
export function echoedPath(rawPath: string | undefined): string {
  return rawPath === undefined || rawPath === '' ? '.' : rawPath;
}
